"""The Snaking Forward Move a rank-and-file result claims, replayed from the start: every
forward move and wheel must stay clear of terrain, the board's edge and other units (enemies
other than the target not even touched, the target not touched before the last move), and the
last move must end with the charger's front on the claimed initial contact point of the
Target Facing. The path must then end where the block is written: T9A's Align Move keeps the
first contact point in contact; 6e/tow's door turns the block about it until flush, never a
slide (`door_slid`); else `path_end_mismatch`. A result without a path (written by hand) is
judged on its placement only (its reach by `rank_and_file_reach_end.py`)."""

from __future__ import annotations

import math
from typing import Any

from shapely.geometry import LineString, Point
from shapely.ops import nearest_points

from chargeopt.geometry.checker.rank_and_file_flush import (
    FLUSH_TOL_DEG,
    front_on,
    touched_facing,
)
from chargeopt.geometry.rank_and_file.contact import CONTACT_TOLERANCE_IN
from chargeopt.geometry.rank_and_file.frame import BlockPose, heading_of, wrap_deg
from chargeopt.geometry.rank_and_file.moves import (
    forward,
    forward_sweep,
    rotate_about,
    wheel,
    wheel_sweep,
)
from chargeopt.geometry.rank_and_file.obstacles import CHECK_DEPTH_IN, Obstacle, overlaps
from chargeopt.models import Violation


def check_path(
    uid: str,
    entry: dict[str, Any],
    start: BlockPose,
    target: BlockPose,
    obstacles: list[Obstacle],
    end: BlockPose | None = None,
    door: bool = False,
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
    if end is not None:
        out += check_path_end(uid, pose, end, target, door)
    return out


POSE_TOL_IN = 0.002


def check_path_end(
    uid: str, before: BlockPose, end: BlockPose, target: BlockPose, door: bool
) -> list[Violation]:
    """The replayed path's last pose against the written placement."""
    gap = before.polygon.distance(target.polygon)
    if gap > CONTACT_TOLERANCE_IN:
        return [
            _end(
                "path_end_mismatch",
                uid,
                f'its written path ends {gap:.3f}" short of the target, not where it stands',
            )
        ]
    point, _ = nearest_points(target.polygon.exterior, before.polygon)
    c = (point.x, point.y)
    if not door:
        kept = Point(c).distance(end.polygon)
        if kept <= CONTACT_TOLERANCE_IN:
            return []
        return [
            _end(
                "path_end_mismatch",
                uid,
                f"its written path first touches the target at ({c[0]:.3f}, {c[1]:.3f}), "
                f'{kept:.3f}" from where it stands: the Align Move keeps that point in contact',
            )
        ]
    flush_on = touched_facing(end, target)
    on = front_on(before, target, flush_on.name) if flush_on is not None else None
    if on is None or on.gap_in > CONTACT_TOLERANCE_IN:
        return [
            _end(
                "path_end_mismatch",
                uid,
                "its written path ends without its front on the facing it stands against",
            )
        ]
    turn = wrap_deg(heading_of((-on.facing.normal[0], -on.facing.normal[1])) - before.facing)
    closed = rotate_about(before, c, turn)
    off = math.dist((closed.x, closed.y), (end.x, end.y))
    twist = abs(wrap_deg(closed.facing - end.facing))
    if off <= POSE_TOL_IN and twist <= FLUSH_TOL_DEG:
        return []
    along = on.facing.along((end.x, end.y)) - on.facing.along((closed.x, closed.y))
    if twist <= FLUSH_TOL_DEG and abs(off - abs(along)) <= POSE_TOL_IN:
        return [
            _end(
                "door_slid",
                uid,
                f'it stands {abs(along):.3f}" along {on.name} from where the door closes about '
                f"the contact point ({c[0]:.3f}, {c[1]:.3f}): closing the door is a turn, "
                "never a slide",
            )
        ]
    return [
        _end(
            "path_end_mismatch",
            uid,
            f'its written path and door end {off:.3f}" and {twist:.2f} degrees from where it '
            "stands",
        )
    ]


def _end(kind: str, uid: str, message: str) -> Violation:
    return Violation(kind=kind, message=f"{uid}: {message}", models=(uid,))


def _bad(uid: str, message: str) -> Violation:
    return Violation(
        kind="illegal_path", message=f"{uid}'s Snaking Forward Move: {message}", models=(uid,)
    )
