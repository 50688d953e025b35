"""Which enemy units an 11th-edition charge may choose as targets: those within 12" of the
charging unit and within the roll (unit to unit, edge to edge), and the sets of them tried."""

from __future__ import annotations

import math
from itertools import combinations

from chargeopt.geometry import Footprint, edge_distance
from chargeopt.geometry.terrain_11e import move_allowance_in
from chargeopt.models import Scenario, UnsupportedRuleError

MOST_TARGET_UNITS = 4
"""Without named targets, every set of up to this many eligible units is tried (15 sets);
with more units in reach the player names the targets."""


def unit_gap_in(scenario: Scenario, other_id: str) -> float:
    """The charging unit's horizontal edge distance to another unit: its closest pair."""
    unit, other = scenario.acting_unit, scenario.unit_by_id[other_id]
    return min(
        edge_distance(
            Footprint(unit.base_of(m), m.x, m.y, m.z, m.facing),
            Footprint(other.base_of(n), n.x, n.y, n.z, n.facing),
        )
        for m in unit.models
        for n in other.models
    )


def least_roll(gap_in: float, dice: int) -> int:
    """The smallest whole roll the unit can be within: the gap rounded up, at least the dice."""
    return max(dice, math.ceil(gap_in - 1e-9))


def eligible_units(scenario: Scenario) -> dict[str, float]:
    """Every enemy unit within the declaration range (12"), with its distance."""
    reach = scenario.rules.charge_declaration_range_in
    gaps = {u.id: unit_gap_in(scenario, u.id) for u in scenario.enemies_of(scenario.acting_unit)}
    return {uid: gap for uid, gap in sorted(gaps.items(), key=lambda kv: kv[1]) if gap <= reach}


def target_sets(scenario: Scenario, roll: int | None) -> tuple[list[tuple[str, ...]], dict]:
    """The sets of targets to try (named: that one set; else every non-empty set of the units
    within 12" and, when the roll is known, within it: 2" less for a unit taking to the
    skies), and every enemy unit's distance."""
    gaps = {u.id: unit_gap_in(scenario, u.id) for u in scenario.enemies_of(scenario.acting_unit)}
    if scenario.action.targets:
        return [tuple(scenario.action.targets)], gaps
    near = eligible_units(scenario)
    if roll is not None:
        allowed = move_allowance_in(scenario, roll)
        near = {uid: gap for uid, gap in near.items() if gap <= allowed}
    if len(near) > MOST_TARGET_UNITS:
        raise UnsupportedRuleError(
            f"{len(near)} enemy units are within reach ({', '.join(near)}): chargeopt tries "
            f"every set of at most {MOST_TARGET_UNITS}; name the charge's targets, e.g. "
            f'targets = ["{next(iter(near))}"]',
            "action.targets",
        )
    units = list(near)
    sets = [c for k in range(1, len(units) + 1) for c in combinations(units, k)]
    return sets, gaps
