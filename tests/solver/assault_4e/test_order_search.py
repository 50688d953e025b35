"""The charge's order search (`order_search.py`): a second model that must stand between the
first and a far enemy model, as a bridge in the 2" chain, so that a third reaches it (issue 40).
Worked by hand: A1 (10, 10) is nearest (2.74" edge to edge from B1), A3 (10, 16.2) 2.82" from
B2; B1 (14, 10) and B2 (14, 17) are 7" apart, so two contact spots, one on each ring, are at
least 7 - 4 x 0.63 = 4.48" apart centre to centre: no model touching B1 is within 2" of one
touching B2. A2 (6.5, 14.5) reaches no contact spot (B1's is 8.75 - 1.26 = 7.49" away, B2's
7.9 - 1.26 = 6.64") but reaches the gap between them; only A1, A2 (the bridge), A3 (to B2)
engages both."""

from __future__ import annotations

from builders import make_scenario

from chargeopt.geometry.checker import check_placement
from chargeopt.models import Status
from chargeopt.solver import solve
from chargeopt.solver.bench.assault_random_greedy import solve_random_greedy
from chargeopt.solver.options import SolveOptions


def bridge():
    return make_scenario(
        [(10.0, 10.0), (6.5, 14.5), (10.0, 16.2)],
        {"B": [(14.0, 10.0), (14.0, 17.0)]},
        ruleset="40k-assault-4e",
    )


def test_the_second_model_bridges_so_the_third_engages_the_far_enemy_model() -> None:
    """Exactly 2 enemy models engaged, 2 chargers in contact, A2 the one-attack bridge."""
    scenario = bridge()
    result = solve(scenario)
    assert result.objective["enemy_engaged"] == 2
    assert result.objective["base_contact"] == 2
    assert result.status == Status.OPTIMAL
    assert result.order == ("A1", "A2", "A3")
    ends = {p.model: p for p in result.placements}
    assert ends["A1"].contact == ("B1",) and ends["A3"].contact == ("B2",)
    assert ends["A2"].contact == () and result.fighters["one_attack"] == ("A2",)
    assert check_placement(scenario, result.placements, order=result.order) == []


def test_the_random_greedy_finds_the_bridge_too() -> None:
    """The independent search reaches the same 2 enemy models engaged, checked."""
    scenario = bridge()
    result = solve_random_greedy(scenario, restarts=24, seed=0)
    assert result.objective["enemy_engaged"] == 2
    assert result.objective["base_contact"] == 2
    assert check_placement(scenario, result.placements, order=result.order) == []


def test_the_order_search_packs_one_enemy_model_beside_a_no_go() -> None:
    """A sampled charge (seed 2, number 19 of `assault_sampled.py`): C1's 1" no-go shuts 80
    degrees of B1's contact ring; the 280 left hold five 32mm bases (4 x 60 degrees between
    them), the ceiling, which ignores mates. With mates blocking (a model goes round the
    bases standing at its step) the contact plan and the greedy put 3 in contact; the order
    search finds an order that puts 4, every path around the mates standing (the five of
    the reading without mates is refused by the checker: moved_through_model)."""
    scenario = make_scenario(
        [(9.74, 13.84), (8.3, 14.22), (6.11, 14.13), (10.23, 15.76), (8.04, 15.76)],
        {"B": [(12.91, 13.7)], "C": [(11.58, 10.91)]},
        ruleset="40k-assault-4e",
    )
    for seed in (0, 1):
        result = solve(scenario, options=SolveOptions(seed=seed, roll_table=False))
        assert result.objective["base_contact"] >= 4
        assert result.stats["settled_by"] == "order search"
        assert result.bound == {"enemy_engaged": 1, "base_contact": 5}
        assert result.status == Status.FEASIBLE
        assert check_placement(scenario, result.placements, order=result.order) == []
