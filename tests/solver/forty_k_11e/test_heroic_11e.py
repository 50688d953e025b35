"""The 11th edition's heroic intervention (stratagem 15.11) in its two modes, worked out by
hand. 32mm bases: D = 1.25984"; a charge ends each model within 1" of a target if it can."""

from __future__ import annotations

import pytest
from builders import make_scenario

from chargeopt.geometry.checker import check_placement
from chargeopt.models import IneligibleMoveError, Placement, Scenario, Status
from chargeopt.solver import SolveOptions, solve

D = 32 / 25.4
OPTIONS = SolveOptions(time_limit_s=10.0)
PAIR = ([(10.0, 10.0), (8.2, 10.0)], {"B": [(10.0 + D + 5.5, 10.0)]})
"""A1 is 5.5" from B1, A2 (0.54" behind A1) is 7.3" from it: within 1" of B1 it needs 6.3"."""


def heroic(layout, **action: object) -> Scenario:
    return make_scenario(
        *layout,
        ruleset="40k-11e",
        action={"kind": "heroic-intervention", "unit": "A", **action},
    )


def test_into_the_fray_caps_the_roll_at_6() -> None:
    """A roll of 9 counts as 6: A1 ends within 1" (5.5" moved at least) but A2 cannot (6.3" >
    6), so one model within 1" and both engaged; the plain charge at 9 has both within 1"."""
    result = solve(heroic(PAIR, heroic_mode="into-the-fray", roll=9), options=OPTIONS)
    assert result.status == Status.OPTIMAL
    assert result.action.roll == 6
    assert result.objective["within_1"] == 1
    assert result.objective["engaged"] == 2
    assert all(p.moved <= 6.0 for p in result.placements)
    assert result.violations == ()
    charge = make_scenario(*PAIR, ruleset="40k-11e", action={"kind": "charge", "unit": "A"})
    plain = solve(charge, options=SolveOptions(time_limit_s=10.0, roll=9))
    assert plain.objective["within_1"] == 2
    judged = check_placement(heroic(PAIR, heroic_mode="into-the-fray"), plain.placements, roll=9)
    assert "moved_too_far" in {v.kind for v in judged}


def test_into_the_fray_targets_only_units_within_6_in() -> None:
    far = ([(10.0, 10.0)], {"B": [(10.0 + D + 6.5, 10.0)]})
    with pytest.raises(IneligibleMoveError, match='within 6"'):
        solve(heroic(far, heroic_mode="into-the-fray", roll=6), options=OPTIONS)
    end = [Placement(model="A1", x=10.0 + 6.0, y=10.0)]
    judged = check_placement(heroic(far, heroic_mode="into-the-fray"), end, roll=8)
    assert "target_not_allowed" in {v.kind for v in judged}


LEAP = ([(10.0, 10.0)], {"B": [(10.0 + D + 5.0, 10.0)], "C": [(10.0 - D - 3.0, 10.0)]})
"""B (5" east) made a charge move this phase; C (3" west) did not."""


def test_leap_to_defend_refuses_a_target_that_did_not_charge() -> None:
    scenario = heroic(LEAP, heroic_mode="leap-to-defend", charged_units=["B"], roll=8)
    result = solve(scenario, options=OPTIONS)
    assert result.status == Status.OPTIMAL
    assert result.action.targets == ("B",)
    assert result.violations == ()
    named = heroic(LEAP, heroic_mode="leap-to-defend", charged_units=["B"], targets=["C"], roll=8)
    with pytest.raises(IneligibleMoveError, match="Leap to Defend"):
        solve(named, options=OPTIONS)
    toward_c = [Placement(model="A1", x=10.0 - 2.5, y=10.0)]
    judged = check_placement(scenario, toward_c, roll=8)
    assert "target_not_allowed" in {v.kind for v in judged}


def test_a_heroic_intervention_needs_its_mode_and_an_unengaged_unit() -> None:
    with pytest.raises(IneligibleMoveError, match="heroic_mode"):
        solve(heroic(LEAP, roll=8), options=OPTIONS)
    engaged = ([(10.0, 10.0)], {"B": [(10.0 + D + 1.5, 10.0)]})
    with pytest.raises(IneligibleMoveError, match="engaged"):
        solve(heroic(engaged, heroic_mode="into-the-fray", roll=6), options=OPTIONS)
