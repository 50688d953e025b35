"""The judge of a failed charge that moved (T9A's Failed Charge Move, tow's failed charge): the
path replayed from the start is the ruleset's shape and length, touches nothing, and ends where
the block stands; T9A's wheel turns towards the Target Facing's centre, not past it, and each
part stops only for a reason the rule gives. 6e's normal Move is judged in rank_and_file_reach.
"""

from __future__ import annotations

import math
from typing import Any

from shapely.geometry import Polygon

from chargeopt.geometry.checker.rank_and_file_reach import check_failed_move
from chargeopt.geometry.rank_and_file.contact import CONTACT_TOLERANCE_IN
from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.geometry.rank_and_file.moves import (
    forward,
    forward_sweep,
    wheel,
    wheel_sweep,
    wheel_travel,
)
from chargeopt.geometry.rank_and_file.obstacles import CHECK_DEPTH_IN, Obstacle, table_obstacles
from chargeopt.models import RankAndFileScenario, Violation

T9A_FAILED_IN = 4.0
LENGTH_TOL_IN = 0.002
POSE_TOL_IN = 0.002
AIM_TOL_DEG = 0.05
NUDGE_DEG = 0.05
NUDGE_IN = 0.05
ROOM_IN = 0.03
"""A part of the move may stop short only if this much more would come this close to
something."""


def failed_move_limit_in(scenario: RankAndFileScenario, uid: str, roll: int | None) -> float:
    """How far the failed charge goes: T9A 4"; tow the higher D6 (the roll less the Movement;
    6 without a roll)."""
    if scenario.rules.failed_charge == "t9a-snaking":
        return T9A_FAILED_IN
    given = roll if roll is not None else scenario.action.roll_of(uid)
    movement = scenario.unit_by_id[uid].profile.movement or 0.0
    return 6.0 if given is None else float(given) - movement


def check_failed_charge(
    scenario: RankAndFileScenario,
    uid: str,
    entry: dict[str, Any],
    start: BlockPose,
    obstacles: list[Obstacle],
    target: BlockPose,
    roll: int | None = None,
    poses: dict[str, BlockPose] | None = None,
) -> list[Violation]:
    """What is wrong with a failed charge's move (empty: legal)."""
    rules = scenario.rules
    if rules.failed_charge == "normal-move":
        return check_failed_move(scenario, uid, entry, start, obstacles, target)
    block = scenario.unit_by_id[uid]
    metric = rules.wheel_metric
    limit = failed_move_limit_in(scenario, uid, roll)
    steps = [s for s in entry.get("path") or [] if s.get("move") in ("forward", "wheel")]
    out: list[Violation] = []
    kinds = [s["move"] for s in steps]
    t9a = rules.failed_charge == "t9a-snaking"
    if (t9a and kinds not in ([], ["wheel"], ["forward"], ["wheel", "forward"])) or (
        kinds.count("wheel") > 1
    ):
        out.append(_v("failed_move_shape", f"{uid}'s failed charge moves {kinds}", uid))
    around = table_obstacles(scenario, {uid, scenario.target.id}, poses)
    shapes = [o.shape for o in around] + [target.polygon]
    pose, length, wheeled = start, 0.0, 0.0
    for n, step in enumerate(steps, 1):
        if step["move"] == "forward":
            amount = float(step["distance_in"])
            area, pose = forward_sweep(pose, amount), forward(pose, amount)
            length += amount
        else:
            wheeled = float(step["angle_deg"])
            area, pose = wheel_sweep(pose, wheeled), wheel(pose, wheeled)
            length += wheel_travel(block.width_in, wheeled, metric)
        for shape in shapes:
            if _touches(area, shape, start):
                out.append(_v("illegal_path", f"{uid}'s failed move step {n} touches", uid))
                break
    if length > limit + LENGTH_TOL_IN:
        out.append(
            _v(
                "failed_move_too_long",
                f'{uid}\'s failed charge moves {length:.3f}" of {limit:g}"',
                uid,
            )
        )
    end = (float(entry["x"]), float(entry["y"]))
    if math.dist(end, (pose.x, pose.y)) > POSE_TOL_IN:
        out.append(_v("path_end_mismatch", f"{uid} does not stand where its failed move ends", uid))
    if t9a:
        out += _t9a_reasons(uid, start, target, entry, steps, shapes, limit, metric, block.width_in)
    return out


def _t9a_reasons(uid, start, target, entry, steps, shapes, limit, metric, width) -> list[Violation]:
    """The wheel turns towards the Target Facing's centre, not past it, and stops only at the
    aim, 90 degrees, the 4" or something in the way; the forward move likewise."""
    facing = target.facing_segment(str(entry.get("target_facing") or entry.get("arc") or "front"))
    aim = ((facing.start[0] + facing.end[0]) / 2, (facing.start[1] + facing.end[1]) / 2)
    out: list[Violation] = []
    angle = next((float(s["angle_deg"]) for s in steps if s["move"] == "wheel"), 0.0)
    ahead = next((float(s["distance_in"]) for s in steps if s["move"] == "forward"), 0.0)
    before = _error(start, aim)
    turned = wheel(start, angle)
    after = _error(turned, aim)
    if angle and (angle * before < 0 or (abs(after) > AIM_TOL_DEG and after * before < 0)):
        out.append(
            _v("failed_move_wheel", f"{uid} wheels {angle:.2f} degrees, not towards its aim", uid)
        )
    travel = wheel_travel(width, angle, metric)
    stopped = (
        abs(after) <= AIM_TOL_DEG
        or abs(angle) >= 90 - 1e-3
        or travel >= limit - LENGTH_TOL_IN
        or _blocked(wheel_sweep(start, angle + math.copysign(NUDGE_DEG, before)), shapes, start)
    )
    if not stopped:
        out.append(
            _v(
                "failed_move_short",
                f"{uid}'s wheel stops at {angle:.2f} degrees for no reason",
                uid,
            )
        )
    done = travel + ahead >= limit - LENGTH_TOL_IN
    if not done and not _blocked(forward_sweep(turned, ahead + NUDGE_IN), shapes, start):
        out.append(
            _v(
                "failed_move_short",
                f"{uid}'s failed move stops {limit - travel - ahead:.3f}\" short",
                uid,
            )
        )
    return out


def _error(pose: BlockPose, aim: tuple[float, float]) -> float:
    c = pose.polygon.centroid
    to = math.degrees(math.atan2(aim[1] - c.y, aim[0] - c.x))
    return (to - pose.facing + 180.0) % 360.0 - 180.0


def _touches(area: Polygon, shape: Polygon, start: BlockPose) -> bool:
    """Overlap, or base contact that the start did not already have."""
    if area.intersects(shape) and area.buffer(-CHECK_DEPTH_IN, join_style="mitre").intersects(
        shape
    ):
        return True
    return area.distance(shape) <= CONTACT_TOLERANCE_IN < start.polygon.distance(shape)


def _blocked(area: Polygon, shapes: list[Polygon], start: BlockPose) -> bool:
    return any(area.distance(s) < min(ROOM_IN, start.polygon.distance(s)) for s in shapes) or any(
        area.intersection(s).area > 1e-9 for s in shapes
    )


def _v(kind: str, message: str, unit: str) -> Violation:
    return Violation(kind=kind, message=message, models=(unit,))
