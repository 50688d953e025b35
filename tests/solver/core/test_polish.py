"""Continuous polishing: moves are shortened to what the rules need, never made illegal."""

from __future__ import annotations

from builders import make_scenario

from chargeopt.geometry.checker import check_placement
from chargeopt.models import Status
from chargeopt.solver import solve

R32 = 32 / 25.4 / 2


def test_short_roll_ends_just_inside_engagement_range() -> None:
    """Gap 6.5" and roll 6: the best is engagement, not contact; the move is polished down to
    the 5.511" that brings the bases within 1" less the 0.011" margin the solver keeps inside
    the range (polishing resolves 1/4096 of the move, 0.0014"; the JSON rounds to 0.001")."""
    s = make_scenario([(10.0, 10.0)], {"B": [(10.0 + 6.5 + 2 * R32, 10.0)]}, roll=6)
    result = solve(s)
    assert result.status == Status.OPTIMAL
    (p,) = result.placements
    assert p.contact == ()
    assert p.engaged == ("B",)
    assert 5.511 - 0.0008 <= p.moved <= 5.511 + 0.0022
    assert check_placement(s, result.placements, roll=6) == []


def test_polished_moves_stay_within_the_roll_and_legal() -> None:
    """With a large roll every polished move stays within it and the checker accepts all."""
    s = make_scenario(
        [(10.0, 10.0), (10.0, 11.5), (10.0, 13.0)], {"B": [(16.0, 11.0), (16.0, 12.5)]}, roll=12
    )
    result = solve(s)
    assert result.status == Status.OPTIMAL
    assert all(p.moved is not None and p.moved <= 12 for p in result.placements)
    assert check_placement(s, result.placements, roll=12) == []
