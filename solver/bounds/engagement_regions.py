"""Where each charging model could end within engagement range of a target model, in exact
geometry: its roll in a straight line, inside some target model's engagement band, off every
other model's base and outside the engagement range of every enemy that is not a target.
Walls, floors and coupled rules are left out (an `outer` region also takes the barricade range
where the table has a barricade). With `outer` the polygons hold the true region
(a relaxation, for ceilings); without, they lie inside it (spots to try, for answers)."""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass

import shapely
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from chargeopt.models import RoundBase, Scenario
from chargeopt.solver.bounds.contact_bound import engagement_reach_in
from chargeopt.solver.core.exact_limits import margin
from chargeopt.solver.core.tolerances import JSON_STEP_IN, ROLL_MARGIN_IN
from chargeopt.solver.core.tolerances import MARGIN_IN as RULING_MARGIN_IN

QUAD_SEGS = 32
"""Segments per quarter circle of the polygons that stand for circles."""
MARGIN_IN = 1e-4
"""An `outer` region's limits are moved out by this much (far beyond the checker's own slack of
1e-6"); an inner one's are moved in by the answers' margins (`solver.core.tolerances`), so
that its spots pass the candidates' filters."""


def _shifts(outer: bool) -> tuple[float, float]:
    """How far the roll and the ranges move: out by MARGIN_IN for a region that holds the
    true one, in by the margins in force for one inside it (at exact limits, by a written
    step, which the JSON's rounding of a spot never crosses)."""
    if outer:
        return MARGIN_IN, MARGIN_IN
    return -max(margin(ROLL_MARGIN_IN), JSON_STEP_IN), -max(margin(RULING_MARGIN_IN), JSON_STEP_IN)


@dataclass(frozen=True)
class Region:
    """A model's region and its base radius."""

    area: BaseGeometry
    radius_in: float


def engagement_regions(
    scenario: Scenario, roll: float, *, outer: bool, models: Collection[str] | None = None
) -> dict[str, Region]:
    """Per charging model (of `models`, all if None) with a round base and a non-empty region,
    that region (round target and blocking bases only; others are left out, which only
    loosens an `outer` region)."""
    unit = scenario.acting_unit
    free: dict[float, BaseGeometry] = {}
    out: dict[str, Region] = {}
    loosen = _shifts(outer)[0]
    for m in unit.models:
        if models is not None and m.id not in models:
            continue
        base = unit.base_of(m)
        if not isinstance(base, RoundBase):
            continue
        r = base.radius_in
        if r not in free:
            free[r] = _free_band(scenario, r, outer)
        area = _disc(m.x, m.y, roll + loosen, outer).intersection(free[r])
        if not area.is_empty and area.area > 0:
            out[m.id] = Region(area, r)
    return out


def _disc(x: float, y: float, r: float, outer: bool) -> BaseGeometry:
    """A polygon holding the disc (edges touching the circle from outside) if `outer`, else
    one inside it (corners on the circle)."""
    grow = 1 / math.cos(math.pi / (4 * QUAD_SEGS)) if outer else 1.0
    return Point(x, y).buffer(max(r, 0.0) * grow, quad_segs=QUAD_SEGS)


def _free_band(scenario: Scenario, r: float, outer: bool) -> BaseGeometry:
    """Where a base of radius `r` can stand within engagement range of a target model, off
    every other model's base and out of the engagement range of non-target enemies."""
    rules = scenario.rules
    loosen = _shifts(outer)[1]
    er = rules.engagement_range_in
    band_er = engagement_reach_in(scenario) if outer else er
    unit = scenario.acting_unit
    targets = set(scenario.action.targets)
    band = shapely.union_all(
        [
            _disc(t.x, t.y, base.radius_in + r + band_er + loosen, outer)
            for tid in targets
            for t in scenario.unit_by_id[tid].models
            for base in [scenario.unit_by_id[tid].base_of(t)]
            if isinstance(base, RoundBase)
        ]
    )
    enemies = {u.id for u in scenario.enemies_of(unit)}
    blocked = [
        _disc(o.x, o.y, base.radius_in + r + reach - loosen, not outer)
        for u in scenario.units
        if u.id != unit.id
        for o in u.models
        for base in [u.base_of(o)]
        if isinstance(base, RoundBase)
        for reach in [
            er if u.id in enemies and u.id not in targets else -rules.base_overlap_tolerance_in
        ]
    ]
    return band.difference(shapely.union_all(blocked)) if blocked else band
