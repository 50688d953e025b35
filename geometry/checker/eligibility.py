"""Whether the acting unit may make its close-combat move at all, judged at the start.

- Pile in: the unit is within engagement range of an enemy unit, or it charged this turn
  (`action.charged`); seed 004, "an eligible unit is one that is within Engagement Range of an
  enemy unit and/or made a charge move in the same turn".
- Heroic intervention (9th edition): a CHARACTER unit that is not within engagement range of
  any enemy unit but is within 3" horizontally and 5" vertically of one (seed 004).
- Consolidation has no test: a unit consolidates after it fights, and "if there are no viable
  targets ... it can still consolidate"."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from chargeopt.geometry.move_state import MoveState
from chargeopt.geometry.pairs import RANGE_SLACK_IN, edge_distances, engagement, height_gaps
from chargeopt.models import ActionKind, Violation

CHARACTER = "CHARACTER"
INTERVENTION_VERTICAL_IN = 5.0


def eligibility_violations(move: MoveState) -> Iterable[Violation]:
    """not_eligible: one per reason the unit may not make the move."""
    kind = move.scenario.action.kind
    if kind == ActionKind.PILE_IN:
        yield from _pile_in(move)
    elif kind == ActionKind.HEROIC_INTERVENTION:
        yield from _heroic_intervention(move)


def _pile_in(move: MoveState) -> Iterable[Violation]:
    if move.scenario.action.charged or _engaged_at_start(move):
        return
    near = _closest_pair(move)
    unit = move.unit.id
    if near is None:
        yield Violation(
            kind="not_eligible",
            models=move.ids,
            message=f"unit {unit!r} cannot pile in: it did not charge (action.charged is "
            "false) and there is no enemy unit",
        )
        return
    mine, theirs, distance = near
    yield Violation(
        kind="not_eligible",
        models=(mine, theirs),
        distance_in=distance,
        limit_in=move.rules.engagement_range_in,
        message=f"unit {unit!r} cannot pile in: it did not charge (action.charged is false) "
        "and no model of it is within engagement range of an enemy unit at the start; the "
        f'closest pair is {mine!r} and {theirs!r}, {distance:.2f}" apart (engagement range '
        f'{move.rules.engagement_range_in:g}")',
    )


def _heroic_intervention(move: MoveState) -> Iterable[Violation]:
    unit = move.unit
    head = f"unit {unit.id!r} cannot make a heroic intervention:"
    if CHARACTER not in unit.keyword_set:
        words = ", ".join(unit.keywords) or "none"
        yield Violation(
            kind="not_eligible",
            models=move.ids,
            message=f"{head} it is not a CHARACTER unit (its keywords: {words})",
        )
    engaged = _engaged_at_start(move)
    if engaged:
        mine, theirs, distance, range_in = engaged[0]
        yield Violation(
            kind="not_eligible",
            models=(mine, theirs),
            distance_in=distance,
            limit_in=range_in,
            message=f"{head} it starts within engagement range of an enemy unit ({mine!r} is "
            f'{distance:.2f}" from {theirs!r}, range {range_in:g}")',
        )
    limit = move.rules.heroic_intervention_in or 0.0
    near = _closest_pair(move, vertical_in=INTERVENTION_VERTICAL_IN)
    if near is None:
        yield Violation(
            kind="not_eligible",
            models=move.ids,
            message=f'{head} no enemy model is within {INTERVENTION_VERTICAL_IN:g}" '
            "vertically of it",
        )
    elif near[2] > limit + RANGE_SLACK_IN:
        mine, theirs, distance = near
        yield Violation(
            kind="not_eligible",
            models=(mine, theirs),
            distance_in=distance,
            limit_in=limit,
            message=f'{head} it is not within {limit:g}" horizontally and '
            f'{INTERVENTION_VERTICAL_IN:g}" vertically of an enemy unit; the closest pair is '
            f'{mine!r} and {theirs!r}, {distance:.2f}" apart',
        )


def _engaged_at_start(move: MoveState) -> list[tuple[str, str, float, float]]:
    """(acting model, enemy model, distance, range) for every pair in engagement range at the
    start, closest first."""
    found = []
    for enemy in move.scenario.enemies_of(move.unit):
        reach = engagement(move.start_bases, move.unit_bases(enemy), move.rules, move.battlefield)
        for i, j in zip(*np.nonzero(reach.engaged), strict=True):
            found.append(
                (
                    move.ids[i],
                    enemy.models[j].id,
                    float(reach.distance[i, j]),
                    float(reach.range_in[i, j]),
                )
            )
    return sorted(found, key=lambda f: f[2])


def _closest_pair(
    move: MoveState, vertical_in: float = float("inf")
) -> tuple[str, str, float] | None:
    """The closest (acting model, enemy model) pair at the start, edge to edge, among pairs at
    most `vertical_in` apart in height; None if there is none."""
    best: tuple[str, str, float] | None = None
    for enemy in move.scenario.enemies_of(move.unit):
        bases = move.unit_bases(enemy)
        gap = np.where(
            height_gaps(move.start_bases, bases) <= vertical_in + RANGE_SLACK_IN,
            edge_distances(move.start_bases, bases),
            np.inf,
        )
        i, j = np.unravel_index(np.argmin(gap), gap.shape)
        if np.isfinite(gap[i, j]) and (best is None or gap[i, j] < best[2]):
            best = (move.ids[i], enemy.models[j].id, float(gap[i, j]))
    return best
