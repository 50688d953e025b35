"""The 40k-assault-4e literal greedy baseline: the seed's order, model by model, checked."""

from __future__ import annotations

from builders import make_scenario

from chargeopt.geometry.checker import check_placement
from chargeopt.models import Status
from chargeopt.solver.bench.methods import METHODS


def test_literal_greedy_follows_the_seed_and_passes_the_checker() -> None:
    """Three in a line on two: A1 to B1, A2 to B2 (unengaged), A3 within 2"; no bound."""
    scenario = make_scenario(
        [(10.0, 10.0), (8.0, 10.0), (6.0, 10.0)],
        {"B": [(14.0, 10.0), (14.0, 12.0)]},
        ruleset="40k-assault-4e",
    )
    result = METHODS["greedy"](scenario, None, 20.0, 0)
    assert result.status == Status.FEASIBLE and result.bound == {}
    assert result.order == ("A1", "A2", "A3")
    assert [p.contact for p in result.placements] == [("B1",), ("B2",), ()]
    assert check_placement(scenario, result.placements, order=result.order) == []
