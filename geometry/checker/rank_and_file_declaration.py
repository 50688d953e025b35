"""The judge of T9A's declaration conditions: the target's Unit Boundary reaches into the
charger's Front Arc (cut by the 45-degree lines from its front corners), and a line of sight
runs from its Front Facing to that part crossing no terrain and no other unit. The line the
result claims (`line_of_sight`) is verified; without one, lines are sampled (from 41 points of
the front to the corners and a grid of the part) and only a miss of all is reported."""

from __future__ import annotations

from typing import Any

from shapely.geometry import LineString, Point, Polygon

from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.models import RankAndFileScenario, Violation

FAR_IN = 1000.0
GRAZE_IN = 1e-5
"""A claimed line may cross a blocker this deep: it is written to 0.000001", and a line
through a corner, rounded, can cut the corner by that much."""
ON_TOL_IN = 0.002


def front_arc(pose: BlockPose) -> Polygon:
    """The charger's Front Arc, drawn FAR_IN out."""
    w, r = pose.width_in, FAR_IN
    return Polygon([pose.at(0, 0), pose.at(-r, r), pose.at(w + r, r), pose.at(w, 0)])


def check_declaration(
    scenario: RankAndFileScenario, uid: str, entry: dict[str, Any] | None
) -> list[Violation]:
    """What keeps `uid` from declaring its charge (empty: it may)."""
    if not scenario.rules.declaration:
        return []
    charger = BlockPose.of(scenario.unit_by_id[uid])
    target = scenario.target
    part = front_arc(charger).intersection(BlockPose.of(target).polygon)
    if part.is_empty or part.area <= 1e-9:
        return [_v("not_in_front_arc", f"{target.id} is not in {uid}'s Front Arc", uid)]
    blockers = [Polygon(t.path).buffer(0) for t in scenario.terrain]
    blockers += [BlockPose.of(u).polygon for u in scenario.units if u.id not in (uid, target.id)]
    shrunk = [b.buffer(-GRAZE_IN, join_style="mitre") for b in blockers]
    front = charger.facing_segment("front")
    face = LineString([front.start, front.end])
    claimed = (entry or {}).get("line_of_sight")
    if claimed:
        a, b = (tuple(p) for p in claimed)
        line = LineString([a, b])
        if (
            Point(a).distance(face) > ON_TOL_IN
            or Point(b).distance(part) > ON_TOL_IN
            or any(line.intersects(s) for s in shrunk if not s.is_empty)
        ):
            return [
                _v(
                    "no_line_of_sight",
                    f"{uid}'s claimed line of sight to {target.id} is blocked or misplaced",
                    uid,
                )
            ]
        return []
    starts = [face.interpolate(k / 40, normalized=True) for k in range(41)]
    ends = [Point(p) for p in part.exterior.coords] + _grid(part)
    for s in starts:
        for e in ends:
            line = LineString([s, e])
            if not any(line.intersects(b) for b in shrunk if not b.is_empty):
                return []
    return [_v("no_line_of_sight", f"no sampled line of sight from {uid} to {target.id}", uid)]


def _grid(part: Polygon) -> list[Point]:
    x0, y0, x1, y1 = part.bounds
    pts = [
        Point(x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * j / 10)
        for i in range(11)
        for j in range(11)
    ]
    return [p for p in pts if part.contains(p)]


def _v(kind: str, message: str, unit: str) -> Violation:
    return Violation(kind=kind, message=message, models=(unit,))
