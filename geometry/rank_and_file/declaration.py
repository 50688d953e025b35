"""T9A's conditions for declaring a charge: the target lies (in part) in the charger's Front
Arc, and a line of sight runs from the charger's Front Facing to that part of the target,
crossing no impassable terrain and no other unit (the scenario records no heights, so every
block and piece of terrain is read as tall enough to block)."""

from __future__ import annotations

import itertools

from shapely.geometry import LineString, Point, Polygon

from chargeopt.geometry.rank_and_file.arcs import arc_regions
from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.models import RankAndFileScenario, ScenarioError

ON_IN = 1e-9
"""A corner this close to the Front Facing or the target's part lies on it (lines through a
corner are not trusted to meet it in floating point)."""
GRAZE_IN = 1e-7
"""A sight line may run along an edge or through a corner of what it passes: only crossing
deeper than this blocks it."""


def front_arc_part(charger: BlockPose, target: BlockPose) -> Polygon | None:
    """The part of the target's Unit Boundary inside the charger's Front Arc (None: none, or
    only a point or line of it)."""
    part = arc_regions(charger)["front"].intersection(target.polygon)
    return part if isinstance(part, Polygon) and part.area > 1e-9 else None


def sight_line(
    charger: BlockPose, part: Polygon, blockers: list[Polygon]
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """A line of sight from the charger's Front Facing to `part`, or None when every line is
    blocked. If any line is free, one through two corners of the scene is (turn and shift it
    until it grazes two), so those lines are all that need trying."""
    front = charger.facing_segment("front")
    face = LineString([front.start, front.end])
    hull = face.union(part).convex_hull
    near = [b for b in blockers if b.intersects(hull)]
    shrunk = [b.buffer(-GRAZE_IN, join_style="mitre") for b in near]
    corners = [front.start, front.end, *list(part.exterior.coords)[:-1]]
    corners += [p for b in near for p in list(b.exterior.coords)[:-1]]
    corners += [((front.start[0] + front.end[0]) / 2, (front.start[1] + front.end[1]) / 2)]
    corners.append(part.centroid.coords[0])
    for a, b in itertools.combinations(corners, 2):
        line = _through(a, b)
        if line is None:
            continue
        on_face = [p for p in (a, b) if Point(p).distance(face) <= ON_IN]
        at = Point(on_face[0]) if on_face else line.intersection(face)
        if at.is_empty or not isinstance(at, Point):
            continue
        seen = [p for p in (a, b) if Point(p).distance(part) <= ON_IN]
        crossing = line.intersection(part)
        seen += [c for g in getattr(crossing, "geoms", [crossing]) for c in g.coords]
        if not seen:
            continue
        end = min(seen, key=lambda p: at.distance(Point(p)))
        sight = LineString([at.coords[0], end])
        if not any(sight.intersects(s) for s in shrunk if not s.is_empty):
            return at.coords[0], end
    return None


def _through(a: tuple[float, float], b: tuple[float, float]) -> LineString | None:
    """The line through a and b, drawn long enough to cross any board."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    norm = (dx * dx + dy * dy) ** 0.5
    if norm < 1e-9:
        return None
    k = 1e4 / norm
    return LineString([(a[0] - k * dx, a[1] - k * dy), (a[0] + k * dx, a[1] + k * dy)])


def declaration_problem(scenario: RankAndFileScenario, uid: str) -> str | None:
    """Why `uid` may not declare its charge against the target (None: it may)."""
    if not scenario.rules.declaration:
        return None
    charger = BlockPose.of(scenario.unit_by_id[uid])
    target = BlockPose.of(scenario.target)
    part = front_arc_part(charger, target)
    tid = scenario.target.id
    if part is None:
        return f"{tid} is not in {uid}'s Front Arc, so {uid} cannot declare a charge against it"
    if sight_line(charger, part, _blockers(scenario, uid)) is None:
        return (
            f"{uid} has no line of sight to {tid} (every line from its Front Facing to the part "
            f"of {tid} in its Front Arc crosses terrain or another unit), so it cannot declare "
            "a charge against it"
        )
    return None


def declared_sight(
    scenario: RankAndFileScenario, uid: str
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """A line of sight `uid` declares its charge along (None: the ruleset needs none or the
    target is not in its Front Arc)."""
    if not scenario.rules.declaration:
        return None
    charger = BlockPose.of(scenario.unit_by_id[uid])
    part = front_arc_part(charger, BlockPose.of(scenario.target))
    if part is None:
        return None
    return sight_line(charger, part, _blockers(scenario, uid))


def _blockers(scenario: RankAndFileScenario, uid: str) -> list[Polygon]:
    blockers = [Polygon(t.path).buffer(0) for t in scenario.terrain]
    skip = (uid, scenario.target.id)
    return blockers + [BlockPose.of(u).polygon for u in scenario.units if u.id not in skip]


def check_declarations(scenario: RankAndFileScenario, file: str = "<scenario>") -> None:
    """Raise ScenarioError (file, key path, why, the fix) for a charge no one may declare."""
    for i, uid in enumerate(scenario.action.chargers):
        problem = declaration_problem(scenario, uid)
        if problem is not None:
            where = "action.unit" if scenario.action.unit else f"action.units[{i}]"
            raise ScenarioError(
                file,
                [
                    (
                        where,
                        problem,
                        "a T9A charge needs the target in the charger's Front Arc and line of "
                        "sight: turn or move the charger, or charge another unit",
                    )
                ],
            )
