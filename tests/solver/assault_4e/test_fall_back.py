"""Fall back and Trapped! (40k-assault-4e): verdicts, distances and chances worked out by hand."""

from __future__ import annotations

import math

import pytest
from fall_back_builders import R, against_wall, before_difficult, fall_back, pocket

from chargeopt.geometry.checker import check_placement
from chargeopt.models import Status
from chargeopt.solver import solve


def test_trapped_by_wall_and_enemies() -> None:
    """Wall behind, C1 and D1 1" zones on the flanks: every heading is blocked."""
    result = solve(against_wall())
    assert result.status == Status.INFEASIBLE
    assert result.placements == ()
    assert result.stats["trapped"] is True
    assert set(result.stats["blocking"]) == {"wall", "C1", "D1"}
    assert "every route of every model" in (result.proof or "")


def test_escapes_when_the_flank_enemy_fought_it() -> None:
    """With C among the units that fought it, the unit slides left along the wall; no route
    can get closer to the edge than the wall's 1 - R = 0.37" gap (the bound over every route
    keeps within a cell, 0.05", and a half of it of that)."""
    scenario = against_wall(fought_by=("B", "C"))
    result = solve(scenario)
    assert result.status == Status.FEASIBLE
    assert 1 - R <= result.bound["progress_in"] <= 1 - R + 0.075
    assert result.objective["progress_in"] >= 0.37 - 0.012
    assert all(p.moved == pytest.approx(7.0, abs=0.001) for p in result.placements)
    assert all(p.x < 13.0 for p in result.placements)
    assert check_placement(scenario, result.placements) == []


def test_just_escapes_straight_back() -> None:
    """Roll 7: straight back ends 2.275" from C1, centre to centre, 0.015" outside its 1"."""
    result = solve(pocket(roll=7))
    assert result.status == Status.OPTIMAL
    (a1,) = result.placements
    assert (a1.x, a1.y) == (10.0, 17.0)
    assert math.hypot(a1.x - 10.0, a1.y - 19.275) - 2 * R - 1.0 == pytest.approx(0.0152, abs=1e-4)


def test_one_inch_more_is_trapped() -> None:
    """Roll 8 runs into C1's 1"; the blocks 0.02" either side leave no other heading."""
    result = solve(pocket(roll=8))
    assert result.status == Status.INFEASIBLE
    assert set(result.stats["blocking"]) <= {"C1", "left", "right"}


@pytest.mark.parametrize(
    ("roll", "moved", "halved"), [(8, 4.0, True), (4, 4.0, False), (3, 3.0, False)]
)
def test_difficult_terrain_halves_the_roll(roll: int, moved: float, halved: bool) -> None:
    """Difficult ground 5" behind: a roll of 8 would enter it, so the unit moves 4"; a roll of
    4 stops short of it and moves the full 4" (proven best: the roll itself). The halved move
    is not claimed best (the bound over every route does not reason about halving)."""
    result = solve(before_difficult(roll))
    assert result.status == (Status.FEASIBLE if halved else Status.OPTIMAL)
    (a1,) = result.placements
    assert (a1.x, a1.y, a1.moved) == (10.0, 10.0 + moved, moved)
    assert result.stats["halved"] is halved


@pytest.mark.parametrize(("fast", "chance"), [(False, "5/12"), (True, "181/216")])
def test_trapped_chance_is_exact(fast: bool, chance: str) -> None:
    """Trapped on 8 or more: 15/36 on 2D6, 1 - 35/216 on 3D6."""
    result = solve(pocket(roll=None, fast=fast))
    assert result.status == Status.OPTIMAL
    assert result.trapped_chance == chance
    trapped = [r["roll"] for r in result.rolls if r["trapped"]]
    assert trapped == list(range(8, 6 * (3 if fast else 2) + 1))


def test_trapped_chance_against_wall() -> None:
    """Rolls 2 and 3 escape (3: every model drops 0.35" toward the wall, then slides 2.65"
    right, A3 ending short of D1's 1" at x = 21 - 1.27 = 19.73); from 6 up A2 cannot make the
    move either way (15 -> 19.73 or 10.27 plus the 0.37" drop: 5.1"); 4 and 5 would need A1
    and A3 to pass each other: not decided (the proof ignores mates). 26/36 proven, 33/36 at
    most."""
    result = solve(against_wall(roll=None))
    assert result.status == Status.UNKNOWN
    assert result.trapped_chance == "13/18"
    assert result.stats["trapped_chance_at_most"] == "11/12"
    assert [r["trapped"] for r in result.rolls] == [False, False, None, None] + [True] * 7


def test_a_unit_near_its_edge_reaches_it() -> None:
    """1.37" from the bottom edge (24 - 22 - R) with a roll of 9: the move ends at the edge,
    within the checker's 0.005", as far toward it as any route (optimal)."""
    scenario = fall_back([(10.0, 22.0), (12.0, 22.0)], {"C": [(11.0, 19.0)]}, roll=9)
    result = solve(scenario)
    assert result.status == Status.OPTIMAL
    assert result.objective["progress_in"] >= 24 - 22 - R - 0.012
    assert all(24 - p.y - R <= 0.005 for p in result.placements)
    assert check_placement(scenario, result.placements) == []
