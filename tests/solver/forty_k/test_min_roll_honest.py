"""The minimum roll never overstates: it is a roll at which a direct solve finds a charge, and
either the roll below it has none (a direct solve there finds nothing) or the answer marks the
minimum unproven with the interval it lies in. Over the quick and curated suites and sampled
charges."""

from __future__ import annotations

import pytest
from builders import sampled_layouts
from hypothesis import given
from repo_paths import LAYOUTS
from strategies import charges

from chargeopt.models import ActionKind, Result, Scenario, Status, load_scenario
from chargeopt.solver import SolveOptions, solve
from chargeopt.solver.bench.suite import load_suite

OPTIONS = SolveOptions(time_limit_s=10.0)
SOLVED = (Status.OPTIMAL, Status.FEASIBLE)


def _layouts() -> list:
    out = []
    for name in ("quick-v1", "curated-v1"):
        suite = load_suite(LAYOUTS / name)
        out += [pytest.param(layout.path, id=f"{name}/{layout.file}") for layout in suite.layouts]
    return out


def _honest(scenario: Scenario, answer: Result) -> None:
    m = answer.min_roll
    if m is None:
        assert answer.min_roll_proven is None
        return
    assert answer.min_roll_at_least is not None and answer.min_roll_at_least <= m
    assert (answer.min_roll_at_least == m) is bool(answer.min_roll_proven)
    at = solve(scenario, roll=m, options=OPTIONS)
    assert at.status in SOLVED, f"min_roll {m} but a direct solve at {m}: {at.status}"
    below = m - 1
    if below < scenario.rules.charge_dice:
        return
    direct = solve(scenario, roll=below, options=OPTIONS)
    if direct.status in SOLVED:
        assert answer.min_roll_proven is False and answer.min_roll_at_least <= below, (
            f"min_roll {m} stated as proven, but a direct solve at {below} charges"
        )


@pytest.mark.parametrize("path", _layouts())
def test_benchmark_minimum_rolls_are_honest(path) -> None:
    scenario = load_scenario(path)
    if scenario.action.kind != ActionKind.CHARGE:
        pytest.skip("not a charge")
    _honest(scenario, solve(scenario, options=OPTIONS))


@sampled_layouts(6)
@given(charges())
def test_sampled_minimum_rolls_are_honest(scenario: Scenario) -> None:
    _honest(scenario, solve(scenario, options=OPTIONS))
