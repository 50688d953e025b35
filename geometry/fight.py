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
- 11th edition (12.04, 03.04): a model fights the enemy units it is engaged with (2"), and
  nothing passes the fight on through a unit mate.
- The 9th-edition limit on a unit that charged (it may only attack the units it charged or
  that heroically intervened) is a choice of targets, not of who can fight: the scenario does
  not record heroic interventions, so every enemy unit in reach is listed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from chargeopt.geometry.identity_cache import cached_by_identity
from chargeopt.geometry.move_state import footprint_at_end, footprint_at_start
from chargeopt.geometry.pairs import (
    RANGE_SLACK_IN,
    SAME_HEIGHT_IN,
    Bases,
    edge_distances,
    engagement,
    height_gaps,
)
from chargeopt.geometry.terrain import Battlefield
from chargeopt.geometry.token_engagement import token_pairs
from chargeopt.models import ELEVENTH, GameModel, Placement, Scenario, Unit


@dataclass(frozen=True)
class Reading:
    """How the ranges are read. The checker reads them exactly (`EXACT`), or with `touch_in`
    and `pair_touch_in` added to the base-contact tolerance between a model of the unit and an
    enemy model, and between two models of the unit (positions measured to a precision); the
    solver claims a fight only with `range_in` kept inside every range from a model of the unit
    to an enemy model and `pair_in` inside the 9th edition's 1/2" between two of its models
    (so that the claim survives the positions being rounded)."""

    range_in: float = 0.0
    pair_in: float = 0.0
    touch_in: float = 0.0
    pair_touch_in: float = 0.0


EXACT = Reading()


def fight_eligibility(
    scenario: Scenario,
    placements: Iterable[Placement],
    *,
    battlefield: Battlefield | None = None,
    reading: Reading = EXACT,
) -> dict[str, tuple[str, ...]]:
    """For each model of the acting unit (at its placement, or its start if it has none), the
    enemy unit ids it can fight, in scenario order. The first placement of a model counts;
    placements of models outside the acting unit are ignored."""
    chosen: dict[str, Placement] = {}
    for p in placements:
        chosen.setdefault(p.model, p)
    field = battlefield or Battlefield.from_scenario(scenario)
    return fighters(scenario, chosen, field, reading)


def engaged_pairs(
    scenario: Scenario, placements: Mapping[str, Placement], battlefield: Battlefield
) -> frozenset[tuple[str, str]]:
    """Every (acting model, enemy model) pair within engagement range after the move, with
    the WTC walls rule's pairs (token models in a 2" range across their wall with the units
    they charged, both ways: see `token_engagement`)."""
    fixed = _fixed(scenario)
    pairs: set[tuple[str, str]] = set()
    if fixed.enemies:
        engaged = _engaged(scenario, fixed, _acting_bases(fixed, placements), battlefield)
        for i, j in zip(*np.nonzero(engaged), strict=True):
            pairs.add((fixed.ids[i], fixed.enemy_ids[j]))
    return frozenset(pairs | token_pairs(scenario, placements, battlefield))


def fighters(
    scenario: Scenario,
    placements: Mapping[str, Placement],
    battlefield: Battlefield,
    reading: Reading = EXACT,
) -> dict[str, tuple[str, ...]]:
    """fight_eligibility on placements already keyed by model id."""
    fixed = _fixed(scenario)
    ids = fixed.ids
    mine = _acting_bases(fixed, placements)
    can: dict[str, set[str]] = {i: set() for i in ids}
    for a, e in token_pairs(scenario, placements, battlefield):
        if a in can:
            can[a].add(fixed.unit_of[e])
    if fixed.enemies:
        engaged = _engaged(scenario, fixed, mine, battlefield, reading.range_in)
        friends = supports(scenario, mine, mine, reading.pair_in, reading.pair_touch_in)
        np.fill_diagonal(friends, False)
        near_all = supports(scenario, mine, fixed.enemy_bases, reading.range_in, reading.touch_in)
        for enemy, cols in zip(fixed.enemies, fixed.columns, strict=True):
            for i in np.nonzero(engaged[:, cols].any(axis=1))[0]:
                can[ids[i]].add(enemy.id)
            if scenario.rules.edition == ELEVENTH:
                continue
            near = near_all[:, cols].any(axis=1)
            helped = friends[:, near].any(axis=1)
            for i in np.nonzero(helped)[0]:
                can[ids[i]].add(enemy.id)
    rank = fixed.rank
    return {i: tuple(sorted(can[i], key=rank.__getitem__)) for i in ids}


def supports(
    scenario: Scenario, a: Bases, b: Bases, margin_in: float = 0.0, touch_in: float = 0.0
) -> np.ndarray:
    """Pairs close enough to pass the fight on: within 1/2" in three dimensions (9th; with
    `margin_in` kept inside it), in base contact (10th; within the tolerance plus
    `touch_in`)."""
    rules = scenario.rules
    gap = edge_distances(a, b)
    rise = height_gaps(a, b)
    if rules.fight_support_range_in is not None:
        return np.hypot(gap, rise) <= rules.fight_support_range_in - margin_in + RANGE_SLACK_IN
    return (gap <= rules.base_contact_tolerance_in + touch_in) & (rise < SAME_HEIGHT_IN)


@dataclass(frozen=True)
class _Fixed:
    """What does not depend on the placements: the acting unit's models, ids and base sizes,
    and every enemy unit where it stands (all enemy models in one row of bases, each unit a
    slice of its columns)."""

    unit: Unit
    models: tuple[GameModel, ...]
    ids: tuple[str, ...]
    radius: np.ndarray
    is_round: np.ndarray
    enemies: tuple[Unit, ...]
    enemy_bases: Bases
    enemy_ids: tuple[str, ...]
    columns: tuple[slice, ...]
    unit_of: dict[str, str]
    rank: dict[str, int]


@cached_by_identity(maxsize=16)
def _fixed(scenario: Scenario) -> _Fixed:
    """The scenario's `_Fixed` part, remembered by identity (polishing asks on every step)."""
    unit = scenario.acting_unit
    starts = [footprint_at_start(unit, m) for m in unit.models]
    enemies = scenario.enemies_of(unit)
    columns, first = [], 0
    for enemy in enemies:
        columns.append(slice(first, first + len(enemy.models)))
        first += len(enemy.models)
    fixed = _Fixed(
        unit=unit,
        models=unit.models,
        ids=tuple(m.id for m in unit.models),
        radius=np.array([f.radius_in for f in starts], dtype=float),
        is_round=np.array([f.is_round for f in starts], dtype=bool),
        enemies=enemies,
        enemy_bases=Bases.of([footprint_at_start(u, m) for u in enemies for m in u.models]),
        enemy_ids=tuple(m.id for u in enemies for m in u.models),
        columns=tuple(columns),
        unit_of={m.id: u.id for u in scenario.units for m in u.models},
        rank={u.id: k for k, u in enumerate(scenario.units)},
    )
    return fixed


def _engaged(
    scenario: Scenario, fixed: _Fixed, mine: Bases, battlefield: Battlefield, margin_in: float = 0.0
) -> np.ndarray:
    """Which (acting model, enemy model) pairs are within engagement range (`margin_in`
    inside it), every enemy model a column (`engaged_pairs` without the walls rule's pairs)."""
    return engagement(mine, fixed.enemy_bases, scenario.rules, battlefield, margin_in).engaged


def _acting_bases(fixed: _Fixed, placements: Mapping[str, Placement]) -> Bases:
    """The acting unit where it ends (a model without a placement where it started); as
    `Bases.of` builds it, with the base sizes taken once per scenario."""
    fps = tuple(footprint_at_end(fixed.unit, m, placements.get(m.id)) for m in fixed.models)
    return Bases(
        fps,
        np.array([(f.x, f.y) for f in fps], dtype=float).reshape(-1, 2),
        np.array([f.z for f in fps], dtype=float),
        fixed.radius.copy(),
        fixed.is_round.copy(),
    )
