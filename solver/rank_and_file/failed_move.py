"""A failed 6e or tow charge: the charger moves towards the target (6e its normal Move; tow the
higher of its two charge dice), along the shortest charge path cut at that distance (a wheel
cut part-way), else straight ahead as far as it and the way ahead allow; never into contact."""

from __future__ import annotations

import math

from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.geometry.rank_and_file.moves import forward, wheel, wheel_travel
from chargeopt.geometry.rank_and_file.obstacles import Obstacle
from chargeopt.models import RankAndFileScenario
from chargeopt.solver.rank_and_file.one_wheel import CLEAR_IN, path_blocker, straight_room

Moves = tuple[tuple[str, float], ...]


def failed_distance_in(scenario: RankAndFileScenario, roll: int | None) -> float:
    """How far the failed charge moves: 6e the Move; tow the higher D6 (the roll less the
    Movement; 6, the highest, when no roll is given, as the charge itself is solved)."""
    movement = scenario.acting_unit.profile.movement or 0.0
    if scenario.rules.failed_charge == "high-die":
        return 6.0 if roll is None else float(roll) - movement
    return movement


def cut_path(moves: Moves, movement_in: float, width_in: float, metric: str) -> Moves:
    """The first `movement_in` of a path (a wheel's angle cut where its travel runs out)."""
    left, out = movement_in, []
    for kind, amount in moves:
        if kind == "forward":
            take = min(amount, left)
            left -= take
        else:
            travel = wheel_travel(width_in, amount, metric)
            if travel <= left:
                take, left = amount, left - travel
            else:
                ratio = left / width_in
                turn = ratio if metric == "arc" else 2 * math.asin(min(1.0, ratio / 2))
                take, left = math.copysign(math.degrees(turn), amount), 0.0
        out.append((kind, take))
    return tuple(out)


def failed_move(
    start: BlockPose,
    path: Moves | None,
    movement_in: float,
    metric: str,
    target: BlockPose,
    obstacles: list[Obstacle],
) -> tuple[BlockPose, Moves]:
    """Where the failed charge ends and the moves that take it there."""
    if path is not None:
        moves = cut_path(path, movement_in, start.width_in, metric)
        end = _replay(start, moves)
        if end.polygon.distance(target.polygon) <= 2 * CLEAR_IN and moves[-1][1] >= CLEAR_IN:
            moves = (*moves[:-1], ("forward", moves[-1][1] - 2 * CLEAR_IN))
            end = _replay(start, moves)
        if path_blocker(start, moves, target, obstacles, ends_in_contact=False) is None:
            return end, moves
    room = straight_room(start, obstacles, target) - CLEAR_IN
    moves = (("forward", max(0.0, min(movement_in, room))),)
    return _replay(start, moves), moves


def _replay(start: BlockPose, moves: Moves) -> BlockPose:
    pose = start
    for kind, amount in moves:
        pose = forward(pose, amount) if kind == "forward" else wheel(pose, amount)
    return pose
