"""The Snaking Forward Move a rank-and-file result claims, replayed from the start: every
forward move and wheel must stay clear of terrain, the board's edge and other units (enemies
other than the target not even touched, the target not touched before the last move), and the
last move must end with the charger's front on the claimed initial contact point of the
Target Facing. A result without a path (written by hand) is judged on its placement only."""

from __future__ import annotations

from typing import Any

from shapely.geometry import LineString, Point

from chargeopt.geometry.rank_and_file.contact import CONTACT_TOLERANCE_IN
from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.geometry.rank_and_file.moves import forward, forward_sweep, wheel, wheel_sweep
from chargeopt.geometry.rank_and_file.obstacles import CHECK_DEPTH_IN, Obstacle, overlaps
from chargeopt.models import Violation


def check_path(
    uid: str,
    entry: dict[str, Any],
    start: BlockPose,
    target: BlockPose,
    obstacles: list[Obstacle],
) -> list[Violation]:
    """What is wrong with the path of `entry` (empty: it is a legal Snaking Forward Move)."""
    steps = [s for s in entry.get("path") or [] if s.get("move") in ("forward", "wheel")]
    if not steps:
        return []
    out: list[Violation] = []
    pose = start
    for n, step in enumerate(steps, 1):
        last = n == len(steps)
        if step["move"] == "forward":
            area = forward_sweep(pose, float(step["distance_in"]))
            pose = forward(pose, float(step["distance_in"]))
        else:
            area = wheel_sweep(pose, float(step["angle_deg"]))
            pose = wheel(pose, float(step["angle_deg"]))
        for o in obstacles:
            if o.blocks(area, CHECK_DEPTH_IN):
                out.append(_bad(uid, f"step {n} ({step['move']}) runs into {o.name}"))
        early = not last and area.distance(target.polygon) <= 1e-9
        if early or overlaps(area, target.polygon, CHECK_DEPTH_IN):
            out.append(_bad(uid, f"step {n} ({step['move']}) runs into the target"))
    point = entry.get("initial_contact")
    front = pose.facing_segment("front")
    if point is not None:
        gap = Point(point).distance(LineString([front.start, front.end]))
        if (
            gap > CONTACT_TOLERANCE_IN
            or pose.polygon.distance(target.polygon) > CONTACT_TOLERANCE_IN
        ):
            out.append(
                _bad(uid, f'the path ends {gap:.3f}" from the initial contact point it claims')
            )
    return out


def _bad(uid: str, message: str) -> Violation:
    return Violation(
        kind="illegal_path", message=f"{uid}'s Snaking Forward Move: {message}", models=(uid,)
    )
