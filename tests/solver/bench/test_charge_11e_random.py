"""The 11e randomised greedy (solver/bench/charge_11e_random.py): its seeded charges are valid
11e scenarios, its placements pass the checker (duty witnesses aside), and it reads a refusal
of the rules (a target beyond the roll) as no placement."""

from __future__ import annotations

from builders import make_scenario

from chargeopt.geometry.checker import check_placement
from chargeopt.solver.bench.charge_11e_random import DUTIES, generated, random_greedy

D = 32 / 25.4


def test_generated_charges_are_seeded_11e_scenarios() -> None:
    first, again = generated(3, 7), generated(3, 7)
    assert [s.model_dump() for s in first] == [s.model_dump() for s in again]
    assert all(s.ruleset == ("40k-11e",) and s.action.targets == () for s in first)


def test_a_greedy_placement_passes_the_checker() -> None:
    """One marine 5" from B1 on a roll of 7: within 1" of it, legal."""
    s = make_scenario(
        [(10.0, 15.0)], {"B": [(10.0 + D + 5.0, 15.0)]}, targets=(), ruleset="40k-11e", roll=7
    )
    found = random_greedy(s, 7, ("B",), restarts=4)
    assert found is not None and found.key() == (1, 1)
    assert [v for v in check_placement(s, found.placements, roll=7) if v.kind not in DUTIES] == []


def test_no_placement_when_the_target_is_beyond_the_roll() -> None:
    s = make_scenario(
        [(10.0, 15.0)], {"B": [(10.0 + D + 7.5, 15.0)]}, targets=(), ruleset="40k-11e", roll=7
    )
    assert random_greedy(s, 7, ("B",), restarts=4) is None
