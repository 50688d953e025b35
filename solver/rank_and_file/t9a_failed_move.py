"""T9A's Failed Charge Move: no forward move first; a wheel towards the target until a move
straight ahead would take the unit's centre to the centre of the Target Facing, or 90 degrees,
or 4" of wheel, or just before touching a unit, impassable terrain or the board's edge; then
straight forward until 4" in all, or just before touching."""

from __future__ import annotations

import math

from shapely.geometry import Polygon

from chargeopt.geometry.rank_and_file.frame import BlockPose, heading_of
from chargeopt.geometry.rank_and_file.moves import forward, wheel, wheel_sweep, wheel_travel
from chargeopt.geometry.rank_and_file.obstacles import overlaps, table_obstacles
from chargeopt.geometry.rank_and_file.translate import travel_until_touch
from chargeopt.models import RankAndFileScenario
from chargeopt.solver.rank_and_file.approach import Approach
from chargeopt.solver.rank_and_file.attempt import path_steps
from chargeopt.solver.rank_and_file.ruling import Ruling

FAILED_CHARGE_IN = 4.0
"""The Failed Charge Distance (always 4")."""
STOP_SHORT_IN = 0.02
"""How far short of whatever it would touch the move stops ("just before base contact")."""
STEP_DEG = 0.25
AIM_TOL_DEG = 0.01
"""Already this close to the aim: no wheel (the checker allows 0.05 degrees)."""

Moves = tuple[tuple[str, float], ...]


def aim_error_deg(pose: BlockPose, aim: tuple[float, float]) -> float:
    """The signed turn from the block's heading to the line from its centre to `aim`
    (positive: to the right, the way a wheel's angle grows)."""
    c = pose.polygon.centroid
    to = heading_of((aim[0] - c.x, aim[1] - c.y))
    return (to - pose.facing + 180.0) % 360.0 - 180.0


def wheel_limit_deg(width_in: float, distance_in: float, metric: str) -> float:
    """The largest wheel whose outer corner travels at most `distance_in` (and 90 degrees)."""
    if metric == "arc":
        return min(90.0, math.degrees(distance_in / width_in))
    return min(90.0, math.degrees(2 * math.asin(min(1.0, distance_in / (2 * width_in)))))


def t9a_failed_move(
    start: BlockPose, aim: tuple[float, float], shapes: list[Polygon], metric: str
) -> Moves:
    """The wheel and forward move of the Failed Charge Move (shapes: everything the unit may
    not touch, the board's outside included)."""

    def clear(area: Polygon) -> bool:
        return all(
            not overlaps(area, s)
            and area.distance(s) >= min(STOP_SHORT_IN, start.polygon.distance(s)) - 1e-9
            for s in shapes
        )

    error = aim_error_deg(start, aim)
    if abs(error) <= AIM_TOL_DEG:
        error = 0.0
    sign = 1.0 if error > 0 else -1.0
    angle = _first(
        lambda a: sign * aim_error_deg(wheel(start, sign * a), aim) <= 0.0,
        wheel_limit_deg(start.width_in, FAILED_CHARGE_IN, metric),
    )
    if error == 0.0:
        angle = 0.0
    blocked = _first(lambda a: not clear(wheel_sweep(start, sign * a)), angle)
    if blocked < angle or not clear(wheel_sweep(start, sign * angle)):
        angle = max(0.0, blocked - 1e-6)
    pose = wheel(start, sign * angle)
    rest = FAILED_CHARGE_IN - wheel_travel(start.width_in, angle, metric)
    room = math.inf
    for s in shapes:
        hit = travel_until_touch(pose.polygon, pose.forward, s)
        if hit is not None:
            room = min(room, hit[0] - STOP_SHORT_IN)
    ahead = max(0.0, min(rest, room))
    return (("wheel", sign * angle if angle else 0.0), ("forward", ahead))


def _first(passed, limit: float) -> float:
    """The least angle in [0, limit] at which `passed` holds (limit if none), to 1e-7 degree:
    scanned every STEP_DEG, then bisected."""
    prev, a = 0.0, STEP_DEG
    while True:
        a = min(a, limit)
        if passed(a):
            lo, hi = prev, a
            for _ in range(40):
                mid = (lo + hi) / 2
                lo, hi = (lo, mid) if passed(mid) else (mid, hi)
            return hi
        if a >= limit:
            return limit
        prev, a = a, a + STEP_DEG


def replay(start: BlockPose, moves: Moves) -> BlockPose:
    """Where the moves take the block."""
    pose = start
    for kind, amount in moves:
        pose = forward(pose, amount) if kind == "forward" else wheel(pose, amount)
    return pose


def place_failed_move(
    scenario: RankAndFileScenario,
    ruling: Ruling,
    target_pose: BlockPose,
    poses: dict[str, BlockPose] | None = None,
) -> str:
    """Make `ruling`'s charger perform T9A's Failed Charge Move (every other unit at `poses`,
    else where it starts); the words the proof adds."""
    block = scenario.unit_by_id[ruling.unit]
    around = table_obstacles(scenario, {ruling.unit, scenario.target.id}, poses)
    shapes = [o.shape for o in around] + [target_pose.polygon]
    facing = target_pose.facing_segment(ruling.target_facing or ruling.arc or "front")
    aim = facing.point_at(facing.length_in / 2)
    metric = scenario.rules.wheel_metric
    moves = t9a_failed_move(ruling.start, aim, shapes, metric)
    ruling.end = replay(ruling.start, moves)
    ruling.path = path_steps(Approach(moves, (0.0, 0.0), ruling.end), block.width_in, metric)
    ruling.moved_in = sum(
        a if k == "forward" else wheel_travel(block.width_in, a, metric) for k, a in moves
    )
    ruling.failed_move_in = FAILED_CHARGE_IN
    ruling.failed_move = scenario.rules.failed_charge
    return (
        f'; {ruling.unit} makes its Failed Charge Move ({ruling.moved_in:.3f}" of '
        f'{FAILED_CHARGE_IN:g}": wheel {moves[0][1]:.2f} degrees, forward {moves[1][1]:.3f}")'
    )
