"""Move distance: the length of the shortest legal path of each moved model (around terrain,
bases and the engagement range of units it does not charge), against the roll.

For ovals and hulls whose facing changed, the turn adds circumradius x |change of facing in
radians|: no point of the base travels further than its centre's path plus that arc, so the sum
is an upper bound on the path of the part that moves furthest (exact for a round base, which
has no such term)."""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable

from chargeopt.geometry.checker.path_lengths import path_length
from chargeopt.geometry.footprints import Footprint
from chargeopt.geometry.move_state import MoveState
from chargeopt.models import RoundBase, Violation
from chargeopt.models.scenario import angle_between_deg

ROLL_SLACK_IN = 1e-6


def turning_in(start: Footprint, end: Footprint) -> float:
    """Extra travel of the furthest point of a non-round base that turned."""
    if isinstance(start.base, RoundBase):
        return 0.0
    return start.base.circumradius_in * math.radians(angle_between_deg(start.facing, end.facing))


def move_violations(
    move: MoveState, skip: Collection[str], engaged_with: dict[str, set[str]]
) -> Iterable[Violation]:
    """moved_too_far, moved_through_engagement and unreachable, one per model at most.
    `skip`: models whose end position is already illegal (only the straight line is judged);
    `engaged_with`: non-target units each model ends within range of (reported elsewhere, so
    their range is not an obstacle to its path)."""
    for model_id in move.ids:
        if not move.moved(model_id):
            continue
        if model_id in skip:
            found = _straight_line(move, model_id)
        else:
            avoid = tuple(
                u.id for u in move.non_targets if u.id not in engaged_with.get(model_id, ())
            )
            found = _along_path(move, model_id, avoid)
        if found is not None:
            yield found


def _straight_line(move: MoveState, model_id: str) -> Violation | None:
    """A lower bound for an end no legal path can reach: the straight line plus the turn."""
    start, end = move.start[model_id], move.end[model_id]
    turn = turning_in(start, end)
    straight = math.hypot(end.x - start.x, end.y - start.y) + turn
    if straight > move.roll + ROLL_SLACK_IN:
        return _too_far(model_id, straight, turn, move.roll, at_least=True)
    return None


def _along_path(move: MoveState, model_id: str, avoid: tuple[str, ...]) -> Violation | None:
    """The shortest legal path (around the engagement range of `avoid`) against the roll."""
    start, end = move.start[model_id], move.end[model_id]
    turn = turning_in(start, end)
    roll = float(move.roll)
    path = path_length(move, model_id, end, avoid)
    if not math.isinf(path):
        if path + turn > roll + ROLL_SLACK_IN:
            return _too_far(model_id, path + turn, turn, roll, at_least=False)
        return None
    free = path_length(move, model_id, end, ()) if avoid else math.inf
    if math.isinf(free):
        return Violation(
            kind="unreachable",
            message=f"model {model_id!r} has no legal path to ({end.x:.2f}, {end.y:.2f}): "
            "the board edge, terrain or other bases block every way",
            models=(model_id,),
            limit_in=roll,
        )
    names = ", ".join(repr(u) for u in _blocking_units(move, model_id, end, avoid))
    over = f', more than the roll of {roll:g}"' if free + turn > roll else ""
    return Violation(
        kind="moved_through_engagement",
        message=f"model {model_id!r} can reach its end position only through the engagement "
        f"range of unit {names}, which it does not charge (the path through it is "
        f'{free + turn:.2f}"{over})',
        models=(model_id,),
        distance_in=free + turn,
        limit_in=roll,
    )


def _blocking_units(
    move: MoveState, model_id: str, end: Footprint, avoid: tuple[str, ...]
) -> tuple[str, ...]:
    """The non-target units whose range alone cuts the model off (all of them if only
    together)."""
    alone = tuple(u for u in avoid if math.isinf(path_length(move, model_id, end, (u,))))
    return alone or avoid


def _too_far(model_id: str, total: float, turn: float, roll: float, at_least: bool) -> Violation:
    how = "at least " if at_least else ""
    path = "in a straight line" if at_least else "along its shortest legal path"
    parts = f' ({total - turn:.2f}" {path} + {turn:.2f}" for turning)' if turn > 0 else (f" {path}")
    return Violation(
        kind="moved_too_far",
        message=f'model {model_id!r} moves {how}{total:.2f}"{parts}, more than the roll of '
        f'{roll:g}"',
        models=(model_id,),
        distance_in=total,
        limit_in=roll,
    )
