"""Which models of the acting unit can fight which enemy units after a move (40k 9th and 10th
edition), measured where the acting unit ends and every other unit stands.

Readings:
- A model can fight an enemy unit when it is within engagement range of one of its models
  (horizontal engagement range, 2" across a barricade, and 5" vertically); `engaged_pairs` is
  the one place that decides who is engaged.
- 9th edition (seed 004, "Select Targets"): "within Engagement Range of that unit, or within
  1/2" of another model in its own unit that is itself within 1/2" of that enemy unit". The
  1/2" (`rules.fight_support_range_in`) is a plain distance, so it is measured as the 9th
  edition measures distances, in three dimensions between the closest points of the bases:
  sqrt(edge distance^2 + height difference^2) <= 1/2". It is not widened across a barricade.
- 10th edition: within engagement range of the enemy unit, or in base contact with a model of
  its own unit that is in base contact with a model of that enemy unit (base contact: edge
  distance within `rules.base_contact_tolerance_in` at the same height).
- The 9th-edition limit on a unit that charged (it may only attack the units it charged or
  that heroically intervened) is a choice of targets, not of who can fight: the scenario does
  not record heroic interventions, so every enemy unit in reach is listed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from chargeopt.models import Placement, Scenario, Unit

from .checks_pairs import (
    RANGE_SLACK_IN,
    SAME_HEIGHT_IN,
    Bases,
    edge_distances,
    engagement,
    height_gaps,
)
from .checks_state import footprint_at_end, footprint_at_start
from .terrain import Battlefield
from .token_engagement import token_pairs


def fight_eligibility(
    scenario: Scenario,
    placements: Iterable[Placement],
    *,
    battlefield: Battlefield | None = None,
) -> dict[str, tuple[str, ...]]:
    """For each model of the acting unit (at its placement, or its start if it has none), the
    enemy unit ids it can fight, in scenario order. The first placement of a model counts;
    placements of models outside the acting unit are ignored."""
    chosen: dict[str, Placement] = {}
    for p in placements:
        chosen.setdefault(p.model, p)
    field = battlefield or Battlefield.from_scenario(scenario)
    return fighters(scenario, chosen, field)


def engaged_pairs(
    scenario: Scenario, placements: Mapping[str, Placement], battlefield: Battlefield
) -> frozenset[tuple[str, str]]:
    """Every (acting model, enemy model) pair within engagement range after the move, with
    the WTC walls rule's pairs (token models in a 2" range across their wall with the units
    they charged, both ways: see `token_engagement`)."""
    mine = _acting_bases(scenario, placements)
    ids = [m.id for m in scenario.acting_unit.models]
    pairs: set[tuple[str, str]] = set()
    for enemy in scenario.enemies_of(scenario.acting_unit):
        reach = engagement(mine, _unit_bases(enemy), scenario.rules, battlefield)
        for i, j in zip(*np.nonzero(reach.engaged), strict=True):
            pairs.add((ids[i], enemy.models[j].id))
    return frozenset(pairs | token_pairs(scenario, placements, battlefield))


def fighters(
    scenario: Scenario, placements: Mapping[str, Placement], battlefield: Battlefield
) -> dict[str, tuple[str, ...]]:
    """fight_eligibility on placements already keyed by model id."""
    ids = [m.id for m in scenario.acting_unit.models]
    engaged = engaged_pairs(scenario, placements, battlefield)
    unit_of = {m.id: u.id for u in scenario.units for m in u.models}
    can: dict[str, set[str]] = {i: {unit_of[e] for a, e in engaged if a == i} for i in ids}
    mine = _acting_bases(scenario, placements)
    friends = supports(scenario, mine, mine)
    np.fill_diagonal(friends, False)
    for enemy in scenario.enemies_of(scenario.acting_unit):
        near = supports(scenario, mine, _unit_bases(enemy)).any(axis=1)
        helped = friends[:, near].any(axis=1)
        for i in np.nonzero(helped)[0]:
            can[ids[i]].add(enemy.id)
    order = [u.id for u in scenario.units]
    return {i: tuple(sorted(can[i], key=order.index)) for i in ids}


def supports(scenario: Scenario, a: Bases, b: Bases) -> np.ndarray:
    """Pairs close enough to pass the fight on: within 1/2" in three dimensions (9th), in base
    contact (10th)."""
    rules = scenario.rules
    gap = edge_distances(a, b)
    rise = height_gaps(a, b)
    if rules.fight_support_range_in is not None:
        return np.hypot(gap, rise) <= rules.fight_support_range_in + RANGE_SLACK_IN
    return (gap <= rules.base_contact_tolerance_in) & (rise < SAME_HEIGHT_IN)


def _acting_bases(scenario: Scenario, placements: Mapping[str, Placement]) -> Bases:
    """The acting unit where it ends (a model without a placement where it started)."""
    unit = scenario.acting_unit
    return Bases.of([footprint_at_end(unit, m, placements.get(m.id)) for m in unit.models])


def _unit_bases(unit: Unit) -> Bases:
    """Another unit where it stands."""
    return Bases.of([footprint_at_start(unit, m) for m in unit.models])
