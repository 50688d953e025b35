"""The charge's own rules: every target engaged, no enemy unit that is not a target engaged,
and every model not in base contact with a target ending closer to one of them.

Distances to a unit are the smallest edge distance (horizontal) to any of its models. Every
model of the acting unit is held to the non-target rule, moved or not: the rule is about where
the unit ends."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from chargeopt.geometry.move_state import MoveState
from chargeopt.geometry.pairs import edge_distances, engagement
from chargeopt.models import Violation

CLOSER_IN = 1e-9


def target_violations(move: MoveState) -> Iterable[Violation]:
    """target_not_engaged: one per target unit that no model of the acting unit engages."""
    for target in move.targets:
        reach = engagement(move.end_bases, move.unit_bases(target), move.rules, move.battlefield)
        if reach.engaged.any():
            continue
        exact = edge_distances(move.end_bases, move.unit_bases(target))
        i, j = np.unravel_index(np.argmin(exact), exact.shape)
        distance = float(exact[i, j])
        near, far = move.ids[i], target.models[j].id
        yield Violation(
            kind="target_not_engaged",
            message=f"no model of unit {move.unit.id!r} ends within engagement range "
            f'({move.rules.engagement_range_in:.2f}") of target unit {target.id!r}; the '
            f'closest pair is {near!r} and {far!r}, {distance:.2f}" apart',
            models=(near, far),
            distance_in=distance,
            limit_in=float(reach.range_in[i, j]),
        )


def non_target_engagements(move: MoveState) -> list[tuple[str, str, str, float, float]]:
    """(acting model, enemy model, enemy unit, distance, range) for every acting model within
    engagement range of a model of an enemy unit it does not charge."""
    found = []
    for unit in move.non_targets:
        reach = engagement(move.end_bases, move.unit_bases(unit), move.rules, move.battlefield)
        for i, j in zip(*np.nonzero(reach.engaged), strict=True):
            found.append(
                (
                    move.ids[i],
                    unit.models[j].id,
                    unit.id,
                    float(reach.distance[i, j]),
                    float(reach.range_in[i, j]),
                )
            )
    return found


def non_target_violations(
    move: MoveState, engagements: list[tuple[str, str, str, float, float]]
) -> Iterable[Violation]:
    """engaged_non_target: one per pair of an acting model and a non-target enemy model."""
    for mine, theirs, unit_id, distance, range_in in engagements:
        yield Violation(
            kind="engaged_non_target",
            message=f'model {mine!r} (unit {move.unit.id!r}) ends {distance:.2f}" from '
            f'{theirs!r} (unit {unit_id!r}), within engagement range ({range_in:.2f}") of a '
            "unit it does not charge",
            models=(mine, theirs),
            distance_in=distance,
            limit_in=range_in,
        )


def closer_violations(move: MoveState) -> Iterable[Violation]:
    """not_closer: a model out of base contact with every target model that does not end
    strictly closer to any target unit than it started."""
    if not move.targets:
        return
    before, after = [], []
    for target in move.targets:
        bases = move.unit_bases(target)
        before.append(edge_distances(move.start_bases, bases).min(axis=1))
        after.append(edge_distances(move.end_bases, bases).min(axis=1))
    start, end = np.column_stack(before), np.column_stack(after)
    for i, model_id in enumerate(move.ids):
        if move.in_target_contact[model_id]:
            continue
        if np.any(end[i] < start[i] - CLOSER_IN):
            continue
        best = int(np.argmin(end[i] - start[i]))
        words = "; ".join(
            f'unit {t.id!r} {start[i, k]:.2f}" -> {end[i, k]:.2f}"'
            for k, t in enumerate(move.targets)
        )
        yield Violation(
            kind="not_closer",
            message=f"model {model_id!r} is not in base contact with a target model and does "
            f"not end closer to any target ({words})",
            models=(model_id,),
            distance_in=float(end[i, best]),
            limit_in=float(start[i, best]),
        )
