"""Properties of the charge solver on random small layouts: what it calls legal is legal, it
never does worse than the greedy baseline, and its statuses say what they promise."""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, event, given, note, settings
from strategies import charges

from chargeopt.geometry.checker import check_placement
from chargeopt.models import Scenario, Status
from chargeopt.solver import solve
from chargeopt.solver.bench.baseline import solve_greedy

TIME_LIMIT_S = 3.0


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    phases=(Phase.explicit, Phase.generate),  # no shrinking: CI stays fast; notes hold the JSON
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(charges())
def test_solver_statuses_keep_their_promises(scenario: Scenario) -> None:
    """Legal when it says so, at least the baseline's contacts, proofs and bounds as promised."""
    result = solve(scenario, time_limit=TIME_LIMIT_S)
    baseline = solve_greedy(scenario)
    note(scenario.model_dump_json(exclude_defaults=True))
    event(f"solver {result.status}, baseline {baseline.status}")
    note(f"solver: {result.status} {result.objective} {result.bound} {result.stats}")
    note(f"baseline: {baseline.status} {baseline.objective} {baseline.stats}")
    assert "checker_rejected" not in result.stats
    assert "checker_rejected" not in baseline.stats
    if result.status in (Status.OPTIMAL, Status.FEASIBLE):
        assert check_placement(scenario, result.placements) == []
        assert result.violations == ()
    if baseline.status == Status.FEASIBLE:
        assert check_placement(scenario, baseline.placements) == []
        assert result.status in (Status.OPTIMAL, Status.FEASIBLE)
        assert result.objective["base_contact"] >= baseline.objective["base_contact"]
        gain = result.objective["base_contact"] - baseline.objective["base_contact"]
        event(f"solver base contact over the baseline's: {gain:+g}")
    if result.status == Status.INFEASIBLE:
        assert result.proof
    if result.status == Status.OPTIMAL:
        assert result.objective["base_contact"] == result.bound["base_contact"]
