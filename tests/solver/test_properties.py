"""Properties of the charge solver on random small layouts: what it calls legal is legal, it
never does worse than the greedy baseline, and its statuses say what they promise."""

from __future__ import annotations

from typing import Any

from builders import make_scenario
from hypothesis import HealthCheck, Phase, assume, event, given, note, settings
from hypothesis import strategies as st

from chargeopt.geometry.checker import check_placement
from chargeopt.geometry.start_layout import check_start_layout
from chargeopt.models import Scenario, ScenarioError, Status
from chargeopt.solver import solve
from chargeopt.solver.bench.baseline import solve_greedy

SPACING_IN = 1.7
"""Grid step of a unit's models; with jitter of at most 0.2" two 32mm bases never overlap."""
TIME_LIMIT_S = 3.0


def _tenths(lo: float, hi: float) -> st.SearchStrategy[float]:
    return st.integers(round(lo * 10), round(hi * 10)).map(lambda v: v / 10)


@st.composite
def _unit(draw: st.DrawFn, x: float, y: float, count: int) -> list[tuple[float, float]]:
    """`count` models on a loose 3-wide grid from (x, y), each jittered by up to 0.2"."""
    return [
        (
            x + SPACING_IN * (i % 3) + draw(_tenths(-0.2, 0.2)),
            y + SPACING_IN * (i // 3) + draw(_tenths(-0.2, 0.2)),
        )
        for i in range(count)
    ]


@st.composite
def charges(draw: st.DrawFn) -> Scenario:
    """A valid start layout: 1-5 attackers, 1-4 target models 1-8" beyond them, maybe a
    non-target unit near the target and a wall segment between the two, and a roll of 3-12."""
    ax, ay = draw(_tenths(6.0, 12.0)), draw(_tenths(8.0, 18.0))
    attackers = draw(_unit(ax, ay, draw(st.integers(1, 5))))
    tx = ax + 2 * SPACING_IN + draw(_tenths(1.0, 8.0))
    ty = ay + draw(_tenths(-3.0, 3.0))
    defenders = {"B": draw(_unit(tx, ty, draw(st.integers(1, 4))))}
    if draw(st.booleans()):
        cx, cy = tx + draw(_tenths(-3.5, 3.5)), ty + draw(_tenths(-3.5, 3.5))
        defenders["C"] = draw(_unit(cx, cy, draw(st.integers(1, 2))))
    terrain: list[dict[str, Any]] = []
    if draw(st.booleans()):
        wx, wy = draw(_tenths(ax + 2.0, tx)), ay + draw(_tenths(-4.0, 2.0))
        length = draw(_tenths(2.0, 6.0))
        end = (wx, wy + length) if draw(st.booleans()) else (wx + length, wy)
        terrain.append(
            {
                "id": "wall",
                "kind": "wall",
                "path": [[wx, wy], list(end)],
                "thickness": 0.25,
                "height": 5.0,
            }
        )
    scenario = make_scenario(
        attackers,
        defenders,
        base=draw(st.sampled_from(["32mm", "25mm"])),
        enemy_base=draw(st.sampled_from(["25mm", "32mm", "40mm"])),
        roll=draw(st.integers(3, 12)),
        terrain=terrain,
    )
    try:
        check_start_layout(scenario)
    except ScenarioError:
        assume(False)
    return scenario


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
