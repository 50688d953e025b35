"""The no-overlap cliques forbid only placements whose bases really overlap: the packing
relaxation built on them can never claim fewer contacts than a legal placement has."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from test_properties import charges

from chargeopt.geometry import Battlefield
from chargeopt.models import Scenario
from chargeopt.solver import candidates as cand
from chargeopt.solver import load_scenario
from chargeopt.solver.charge import packing_ceiling
from chargeopt.solver.contact_bound import (
    contact_capacity_ceiling,
    kissing_capacity,
    straight_line_ceilings,
)
from chargeopt.solver.greedy import best_completion, greedy_packing, satisfies_all
from chargeopt.solver.options import SolveOptions

LAYOUTS = Path(__file__).parents[2] / "benchmarks" / "layouts" / "speed-v1"


def _legal_contacts(scenario: Scenario, options: SolveOptions) -> tuple[int, int, int]:
    """(contacts of a heuristic legal placement, packing ceiling, closed-form ceiling)."""
    roll = scenario.action.roll
    c = cand.generate(scenario, Battlefield.from_scenario(scenario), roll, options)
    k = scenario.rules.coherency_neighbours(len(scenario.acting_unit.models))
    placed = best_completion(c, scenario, roll, greedy_packing(c, scenario, roll), k)
    found = 0
    if placed is not None and satisfies_all(c, scenario, placed, k):
        found = sum(1 for p in placed.values() if c.contact[p])
    ceiling, _ = packing_ceiling(c, scenario, roll, options, "contact")
    return found, ceiling, contact_capacity_ceiling(c, scenario, roll)


def test_partly_blocked_rings_do_not_wrap_into_false_cliques() -> None:
    """c20-walls-s2 has target models whose free contact spots form an arc of about 80
    degrees; a clique that wrapped around the gap once capped the ceiling at 15 while a
    legal placement with 16 contacts exists."""
    scenario = load_scenario(LAYOUTS / "c20-walls-s2.toml")
    found, ceiling, quick = _legal_contacts(scenario, SolveOptions(roll_table=False))
    assert found == 16
    assert ceiling is not None and ceiling >= found
    assert quick >= found


def test_kissing_capacity_of_equal_and_unequal_bases() -> None:
    """floor(pi / asin(r / (R + r))), loosened by the 0.005" contact tolerance: six equal
    bases around one; 40mm around 25mm: 4.74 -> 4; 25mm around 40mm: 7.96 exactly, which the
    tolerance lifts past 8 (the bound must cover what the checker accepts)."""
    r32, r25, r40 = 16 / 25.4, 12.5 / 25.4, 20 / 25.4
    assert kissing_capacity(r32, r32, 0.005) == 6
    assert kissing_capacity(r32, r32, 0.0) == 6
    assert kissing_capacity(r25, r40, 0.005) == 4
    assert np.pi / np.arcsin(r25 / (r40 + r25)) < 8
    assert kissing_capacity(r40, r25, 0.0) == 7
    assert kissing_capacity(r40, r25, 0.005) == 8


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(charges())
def test_ceilings_never_below_a_legal_placement(scenario: Scenario) -> None:
    """Every contact ceiling is at least the contacts of any legal placement found."""
    found, ceiling, quick = _legal_contacts(scenario, SolveOptions(roll_table=False))
    if ceiling is not None:
        assert ceiling >= found
    assert quick >= found
    assert straight_line_ceilings(scenario, scenario.action.roll)["base_contact"] >= found
