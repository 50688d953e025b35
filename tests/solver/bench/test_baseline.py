"""The greedy baseline (what a player does without a solver) on layouts worked out by hand."""

from __future__ import annotations

import math

import pytest
from builders import make_scenario

from chargeopt.geometry.checker import check_placement
from chargeopt.models import ChargeoptError, Status
from chargeopt.solver import SolveOptions
from chargeopt.solver.bench.baseline import solve_greedy

R32 = 32 / 25.4 / 2


def _one_on_one(gap_in: float, roll: int | None):
    return make_scenario([(10.0, 10.0)], {"B": [(10.0 + gap_in + 2 * R32, 10.0)]}, roll=roll)


def test_one_model_6_inches_away_rolls_7_into_base_contact() -> None:
    """Edge gap 6", roll 7: the model moves 6" straight on and touches B1."""
    s = _one_on_one(6.0, roll=7)
    result = solve_greedy(s)
    assert result.status == Status.FEASIBLE
    assert result.objective["base_contact"] == 1
    assert result.objective["engaged"] == 1
    (p,) = result.placements
    assert p.contact == ("B1",)
    assert p.moved == pytest.approx(6.0, abs=0.01)
    assert (p.x, p.y) == pytest.approx((16.0, 10.0), abs=0.01)
    assert result.bound == {}
    assert result.stats["method"] == "greedy"
    assert check_placement(s, result.placements) == []


def test_three_models_all_touch_one_target() -> None:
    """Three 32mm models around one 32mm target: six fit, and any two spots on the contact
    ring (centres 2r + 0.0025" from B1, the candidates' contact gap, written to 0.001") are at
    most 4r - 2r = 1.26" apart edge to edge, so all three touch it and stay in coherency."""
    s = make_scenario([(14.0, 10.0), (14.0, 11.6), (14.0, 13.2)], {"B": [(18.0, 11.6)]}, roll=8)
    result = solve_greedy(s)
    assert result.status == Status.FEASIBLE
    assert result.objective["base_contact"] == 3
    assert result.objective["engaged"] == 3
    for p in result.placements:
        assert math.hypot(p.x - 18.0, p.y - 11.6) == pytest.approx(2 * R32 + 0.0025, abs=0.001)
    assert check_placement(s, result.placements) == []
    assert result.violations == ()


def test_too_short_roll_leaves_the_models_where_they_stood() -> None:
    """Edge gap 6", roll 4: no spot is within 1" of B1, so the answer is `unknown`, unmoved."""
    s = _one_on_one(6.0, roll=4)
    result = solve_greedy(s)
    assert result.status == Status.UNKNOWN
    assert "reason" in result.stats
    (p,) = result.placements
    assert (p.x, p.y, p.moved) == (10.0, 10.0, 0.0)
    assert result.objective == {}


def test_the_roll_argument_wins_over_options_and_scenario() -> None:
    """roll= beats options.roll, which beats the scenario's roll (here 4, too short)."""
    s = _one_on_one(6.0, roll=4)
    assert solve_greedy(s, SolveOptions(roll=7)).action.roll == 7
    assert solve_greedy(s, SolveOptions(roll=7), roll=5).action.roll == 5


def test_a_charge_without_a_roll_is_refused() -> None:
    """No roll anywhere: a typed error saying where to give one."""
    with pytest.raises(ChargeoptError, match="roll"):
        solve_greedy(_one_on_one(6.0, roll=None))
