"""The rules of the close-combat moves (pile in, consolidation, heroic intervention; 40k 9th and
10th edition, RULES.md and seed 004), for the checker. Where each model ends legally (board,
terrain, surfaces, overlaps) is judged by the checker as for a charge.

Rules and readings:
- Each model moves at most 3" (`rules.pile_in_in`, `consolidate_in`,
  `heroic_intervention_in`) along its shortest legal path (the charge checker's measure, with
  the turn of an oval or hull added); a model whose end is illegal anyway is held to the
  straight line.
- A model may stay where it is. A model that starts in base contact with an enemy model does
  not move. A model that moves ends strictly closer (edge to edge, horizontally) to the enemy
  model that was closest to it before the move; on a tie, closer to either is enough.
- The unit ends in coherency.
- 10th edition: the unit ends within engagement range of an enemy unit if it can, and if it
  cannot, no model moves: so a unit that ends out of range after moving breaks the rule
  whatever it could have done, and one that ends out of range without moving breaks it only
  when a witness shows it could have reached it. Each moving model ends in base contact with
  an enemy model if it can, judged by witness too (see `close_witness`).
- 10th-edition consolidation: a unit that cannot end within engagement range may instead move
  toward the closest objective marker (`objective`); without markers it does not move.
- Eligibility (`eligibility`) and the `engaged` and `fights` claims (`claims`). A
  unit that may not make the move is not judged by the 10th edition's "if it can" rules."""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable

import numpy as np

from chargeopt.geometry.checker.claims import claim_violations
from chargeopt.geometry.checker.close_state import CLOSER_IN, CloseMove, close_move_limit_in
from chargeopt.geometry.checker.close_witness import contact_spot, engagement_spot
from chargeopt.geometry.checker.coherency import coherency_violations
from chargeopt.geometry.checker.eligibility import eligibility_violations
from chargeopt.geometry.checker.move import ROLL_SLACK_IN, turning_in
from chargeopt.geometry.checker.objective import objective_violations
from chargeopt.geometry.checker.path_lengths import path_length
from chargeopt.geometry.fight import engaged_pairs
from chargeopt.geometry.move_state import MoveState
from chargeopt.geometry.pairs import engagement
from chargeopt.models import ActionKind, Violation

TENTH = "40k-10e"
CLOSE_MOVE_KINDS = (
    "not_eligible",
    "moved_from_contact",
    "not_closer_to_closest",
    "ends_unengaged",
    "engagement_possible",
    "contact_possible",
    "objective_out_of_range",
    "not_closer_to_objective",
    "false_engaged",
    "false_fight",
)


def close_move_violations(move: MoveState, skip: Collection[str]) -> list[Violation]:
    """Every close-move rule the placement breaks; `skip`: models whose end position is already
    illegal (their move is judged in a straight line)."""
    close = CloseMove(move, close_move_limit_in(move.scenario))
    found = list(eligibility_violations(move))
    eligible = not found
    found += _from_contact(close)
    found += _lengths(close, skip)
    engaged = bool(engaged_pairs(move.scenario, move.placements, move.battlefield))
    tenth = move.rules.edition == TENTH
    objective = (
        tenth
        and not engaged
        and bool(close.movers)
        and move.scenario.action.kind == ActionKind.CONSOLIDATE
        and bool(move.scenario.objectives)
    )
    if not objective:
        found += _closer(close)
    if tenth and eligible:
        found += _tenth(close, engaged, objective)
    found += coherency_violations(move)
    found += claim_violations(move)
    return found


def _from_contact(close: CloseMove) -> Iterable[Violation]:
    """moved_from_contact: a model that started touching an enemy model and moved."""
    move = close.move
    for i in close.movers:
        touching = np.nonzero(close.start_contact[i])[0]
        if not len(touching):
            continue
        model_id, enemy = move.ids[i], close.enemy_ids[touching[0]]
        start, end = move.start[model_id], move.end[model_id]
        shift = math.hypot(end.x - start.x, end.y - start.y) + turning_in(start, end)
        yield Violation(
            kind="moved_from_contact",
            models=(model_id, enemy),
            distance_in=shift,
            limit_in=0.0,
            message=f"model {model_id!r} started in base contact with {enemy!r}, so it makes "
            f'no {close.words}, but it moves {shift:.2f}"',
        )


def _lengths(close: CloseMove, skip: Collection[str]) -> Iterable[Violation]:
    """moved_too_far and unreachable, for models that may move."""
    move, limit = close.move, close.limit_in
    for i in close.movers:
        if close.start_contact[i].any():
            continue
        model_id = move.ids[i]
        start, end = move.start[model_id], move.end[model_id]
        turn = turning_in(start, end)
        if model_id in skip:
            length = math.hypot(end.x - start.x, end.y - start.y) + turn
            how = "at least "
            path = "in a straight line"
        else:
            length = path_length(move, model_id, end, ()) + turn
            how, path = "", "along its shortest legal path"
        if math.isinf(length):
            yield Violation(
                kind="unreachable",
                models=(model_id,),
                limit_in=limit,
                message=f"model {model_id!r} has no legal path to ({end.x:.2f}, {end.y:.2f}): "
                "the board edge, terrain or other bases block every way",
            )
        elif length > limit + ROLL_SLACK_IN:
            parts = f' ({length - turn:.2f}" {path} + {turn:.2f}" for turning)' if turn else ""
            yield Violation(
                kind="moved_too_far",
                models=(model_id,),
                distance_in=length,
                limit_in=limit,
                message=f'model {model_id!r} moves {how}{length:.2f}"'
                + (parts or f" {path}")
                + f', more than the {limit:g}" of a {close.words}',
            )


def _closer(close: CloseMove) -> Iterable[Violation]:
    """not_closer_to_closest: a model that moved and is not closer to its closest enemy."""
    move = close.move
    for i in close.movers:
        if close.start_contact[i].any():
            continue
        model_id = move.ids[i]
        nearest = close.closest(i)
        if not len(nearest):
            yield Violation(
                kind="not_closer_to_closest",
                models=(model_id,),
                message=f"model {model_id!r} moves, but there is no enemy model to end closer to",
            )
            continue
        before, after = close.start_gaps[i, nearest], close.end_gaps[i, nearest]
        if np.any(after < before - CLOSER_IN):
            continue
        names = " or ".join(repr(close.enemy_ids[j]) for j in nearest)
        which = "models" if len(nearest) > 1 else "model"
        yield Violation(
            kind="not_closer_to_closest",
            models=(model_id, *(close.enemy_ids[j] for j in nearest)),
            distance_in=float(after.min()),
            limit_in=float(before[0]),
            message=f"model {model_id!r} moves but does not end closer to {names}, the enemy "
            f'{which} closest to it before its {close.words} ({before[0]:.2f}" -> '
            f'{after.min():.2f}")',
        )


def _tenth(close: CloseMove, engaged: bool, objective: bool) -> Iterable[Violation]:
    """The 10th edition's unit rule (end within engagement range if it can, else no move), its
    consolidation toward an objective, and each moving model's base contact if it can."""
    move = close.move
    if not engaged:
        if close.movers and not objective:
            yield _ends_unengaged(close)
        else:
            spot = engagement_spot(close)
            if spot is not None:
                yield Violation(
                    kind="engagement_possible",
                    models=(spot.model, spot.enemy),
                    distance_in=spot.length_in,
                    limit_in=close.limit_in,
                    message=f"unit {move.unit.id!r} ends outside engagement range of every "
                    f"enemy unit, but it could end within it: model {spot.model!r} can move "
                    f'{spot.length_in:.2f}" along its shortest legal path to ({spot.x:.2f}, '
                    f"{spot.y:.2f}), within engagement range of {spot.enemy!r}, closer to the "
                    "enemy model closest to it, clear of every base and with its unit in "
                    "coherency",
                )
        if objective:
            yield from objective_violations(close)
        return
    for i in close.movers:
        if close.start_contact[i].any() or close.end_contact[i].any():
            continue
        spot = contact_spot(close, i)
        if spot is None:
            continue
        yield Violation(
            kind="contact_possible",
            models=(spot.model, spot.enemy),
            distance_in=spot.length_in,
            limit_in=close.limit_in,
            message=f"model {spot.model!r} moves but does not end in base contact with an "
            f"enemy model, though it could: at ({spot.x:.2f}, {spot.y:.2f}) it touches "
            f'{spot.enemy!r} after {spot.length_in:.2f}" along its shortest legal path, closer '
            "to the enemy model closest to it, clear of every base and with its unit in "
            "coherency",
        )


def _ends_unengaged(close: CloseMove) -> Violation:
    """ends_unengaged: models moved, yet the unit ends out of range of every enemy unit."""
    move = close.move
    moved = tuple(move.ids[i] for i in close.movers)
    best: tuple[float, str, str, float] | None = None
    for enemy in move.scenario.enemies_of(move.unit):
        reach = engagement(move.end_bases, move.unit_bases(enemy), move.rules, move.battlefield)
        i, j = np.unravel_index(np.argmin(reach.distance), reach.distance.shape)
        if best is None or reach.distance[i, j] < best[0]:
            best = (
                float(reach.distance[i, j]),
                move.ids[i],
                enemy.models[j].id,
                float(reach.range_in[i, j]),
            )
    names = ", ".join(repr(m) for m in moved)
    why = (
        "and there is no objective marker to move toward"
        if move.scenario.action.kind == ActionKind.CONSOLIDATE
        else "and a unit that cannot end its move within engagement range does not move"
    )
    head = (
        f"unit {move.unit.id!r} ends outside engagement range of every enemy unit after "
        f"{names} moved, {why}"
    )
    if best is None:
        return Violation(kind="ends_unengaged", models=moved, message=f"{head} (no enemy unit)")
    distance, mine, theirs, range_in = best
    return Violation(
        kind="ends_unengaged",
        models=(*moved, theirs),
        distance_in=distance,
        limit_in=range_in,
        message=f'{head}; the closest pair is {mine!r} and {theirs!r}, {distance:.2f}" apart '
        f'(engagement range {range_in:g}")',
    )
