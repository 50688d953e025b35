"""The wall-clock safety net (issue 42): CP-SAT sees only deterministic limits, a watchdog
stops a search that runs into the net, and the result and summary say that it fired."""

from __future__ import annotations

import itertools

import pytest
from ortools.sat.python import cp_model
from repo_paths import REPO_ROOT

from chargeopt.solver import load_scenario, solve
from chargeopt.solver.core import clock
from chargeopt.solver.interface.summary import summarise_result

K2 = REPO_ROOT / "benchmarks/layouts/curated-v1/k2-screened-front.toml"


def _hard_model() -> cp_model.CpModel:
    """Sixty all-different values with a weighted maximum: minutes of search to prove."""
    model = cp_model.CpModel()
    x = [model.new_int_var(0, 1000, f"x{i}") for i in range(60)]
    model.add_all_different(x)
    for a, b in itertools.pairwise(x):
        model.add(a + b != 500)
    model.maximize(sum((i % 7) * v for i, v in enumerate(x)))
    return model


def test_cp_sat_is_given_no_wall_limit() -> None:
    """Inside an opened clock, `run` leaves `max_time_in_seconds` unset: the only limit CP-SAT
    sees is its deterministic time."""
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = 5.0
    with clock.opened(20.0) as work:
        clock.run(solver, _hard_model(), 0.05)
    assert solver.parameters.max_time_in_seconds == float("inf")
    assert solver.parameters.max_deterministic_time == pytest.approx(0.05 * clock.DTIME_PER_S)
    assert work.safety is None


def test_the_watchdog_stops_a_search_at_the_net_and_marks_the_clock() -> None:
    """A net of 0.2 s wall against a budget of 1000 s of work: the search is stopped by the
    watchdog and the clock names the step."""
    with clock.opened(0.2 / clock.WALL_SAFETY) as work:
        status = clock.run(cp_model.CpSolver(), _hard_model(), 1000.0, where="test search")
    assert status in (cp_model.FEASIBLE, cp_model.UNKNOWN)
    assert work.safety == "test search"


def test_a_solve_cut_by_the_net_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """The net shrunk to nothing: curated-v1 k2 is still answered and checked, and the result
    (`stats.wall_clock_safety`) and the summary say the wall clock stopped it."""
    monkeypatch.setattr(clock, "WALL_SAFETY", 1e-6)
    result = solve(load_scenario(K2), time_limit=2)
    assert result.stats["wall_clock_safety"]
    assert result.violations == ()
    assert "stopped by the wall-clock safety net" in summarise_result(result)

