"""The 10th edition's consolidation toward an objective marker: a unit that ends outside
engagement range of every enemy unit after moving must have moved toward the objective
marker closest to it and end within range of that marker.

Readings: distances to a marker are horizontal, from a base's edge to the marker's edge (a
disc of `diameter_mm`). The closest marker is the one at the smallest such distance from any
model of the unit at the start; on a tie, either will do. The unit ends within range when one
of its models is within `rules.objective_range_in` horizontally and 5" vertically of it. Each
model that moves ends strictly closer to the marker than it started ("toward" it), and is not
held to ending closer to an enemy model. Moving toward a marker is a choice ("can instead"):
a unit out of reach of the enemy that stays where it is breaks nothing."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from chargeopt.geometry.checker.close_state import CLOSER_IN, CloseMove
from chargeopt.geometry.footprints import Footprint
from chargeopt.geometry.pairs import RANGE_SLACK_IN, Bases, edge_distances, height_gaps
from chargeopt.models import ObjectiveMarker, RoundBase, Violation

OBJECTIVE_VERTICAL_IN = 5.0


def marker_footprint(marker: ObjectiveMarker) -> Footprint:
    """A marker as a round base, so base-to-marker distances are edge distances."""
    return Footprint(RoundBase(diameter_mm=marker.diameter_mm), marker.x, marker.y, marker.z)


def objective_violations(close: CloseMove) -> list[Violation]:
    """objective_out_of_range and not_closer_to_objective, against the closest marker (the
    first of the closest that the placement satisfies, else the first of them)."""
    markers = close.move.scenario.objectives
    bases = Bases.of([marker_footprint(m) for m in markers])
    start = edge_distances(close.move.start_bases, bases)
    end = edge_distances(close.move.end_bases, bases)
    nearest = start.min(axis=0)
    tied = np.nonzero(nearest <= nearest.min() + CLOSER_IN)[0]
    found = [list(_toward(close, markers[k], start[:, k], end[:, k], bases, k)) for k in tied]
    return next((f for f in found if not f), found[0])


def _toward(
    close: CloseMove,
    marker: ObjectiveMarker,
    start: np.ndarray,
    end: np.ndarray,
    bases: Bases,
    k: int,
) -> Iterable[Violation]:
    """The violations against marker k (`start` and `end`: each model's distance to it)."""
    move = close.move
    range_in = move.rules.objective_range_in
    level = height_gaps(move.end_bases, bases)[:, k] <= OBJECTIVE_VERTICAL_IN + RANGE_SLACK_IN
    reach = np.where(level, end, np.inf)
    if not np.any(reach <= range_in + RANGE_SLACK_IN):
        i = int(np.argmin(reach))
        how = (
            f'its closest model {move.ids[i]!r} is {reach[i]:.2f}" from it'
            if np.isfinite(reach[i])
            else f'no model of it is within {OBJECTIVE_VERTICAL_IN:g}" of it vertically'
        )
        yield Violation(
            kind="objective_out_of_range",
            models=(move.ids[i],),
            distance_in=float(reach[i]) if np.isfinite(reach[i]) else None,
            limit_in=range_in,
            message=f"unit {move.unit.id!r} ends outside engagement range of every enemy unit, "
            f'so its {close.words} must end within range ({range_in:g}") of the closest '
            f"objective marker {marker.id!r}; {how}",
        )
    for i in close.movers:
        if end[i] < start[i] - CLOSER_IN:
            continue
        model_id = move.ids[i]
        yield Violation(
            kind="not_closer_to_objective",
            models=(model_id,),
            distance_in=float(end[i]),
            limit_in=float(start[i]),
            message=f"model {model_id!r} moves toward no objective: it does not end closer to "
            f'the closest objective marker {marker.id!r} ({start[i]:.2f}" -> {end[i]:.2f}")',
        )
