"""Fall backs that must bend, and Trapped! over every route (40k-assault-4e): hand-made
layouts whose verdicts and distances are worked out by hand."""

from __future__ import annotations

import math

import pytest
from fall_back_builders import R, halved_with_little_to_spare, rock_in_corridor, wall_with_an_end

from chargeopt.geometry.checker import check_placement
from chargeopt.models import Status
from chargeopt.models.loading import load_scenario
from chargeopt.solver import solve

T1 = "benchmarks/assault-4e-v1/t1-trapped-against-rocks.toml"


def test_rock_in_the_corridor_side_step() -> None:
    """Roll 12: no straight move passes the rock (0.1" behind A2, walls 0.05" beside A1 and
    A3), but A2 steps 0.8" right (clear of the rock's 10.15 + R = 10.78) and runs on."""
    scenario = rock_in_corridor(roll=12)
    result = solve(scenario)
    assert result.status == Status.FEASIBLE
    assert check_placement(scenario, result.placements) == []
    a2 = result.placements[1]
    assert len(a2.path or ()) == 3
    assert a2.x >= 10.15 + R
    assert all(p.moved == pytest.approx(12.0, abs=0.002) for p in result.placements)


def test_rock_in_the_corridor_escapes_on_every_roll() -> None:
    result = solve(rock_in_corridor(roll=None))
    assert result.trapped_chance == "0"
    assert [r["trapped"] for r in result.rolls] == [False] * 11


def test_bend_around_the_end_of_a_wall() -> None:
    """The wall behind ends at x = 11.5, a block stands left of the model and another from
    x = 13.5: the path steps right past the end (centre x in [11.5 + R, 13.5 - R]) and then
    heads for the edge."""
    scenario = wall_with_an_end(roll=6)
    result = solve(scenario)
    assert result.status == Status.FEASIBLE
    assert check_placement(scenario, result.placements) == []
    (a1,) = result.placements
    assert len(a1.path or ()) == 3
    assert 11.5 + R <= a1.x <= 13.5 - R
    assert a1.y > 10.7 + R
    assert a1.moved == pytest.approx(6.0, abs=0.002)


def test_t1_is_not_trapped_on_any_roll() -> None:
    """t1: A3 to A5 drop under D1's 1" (2R + 1 = 2.26" from D1 at y = 13, so y > 15.26) while
    keeping off the rocks (y < 16 - R = 15.37), then run along the rocks: a full move on every
    roll, checked."""
    scenario = load_scenario(T1)
    result = solve(scenario)
    assert result.status == Status.FEASIBLE
    assert check_placement(scenario, result.placements) == []
    assert result.bound["progress_in"] >= 1 - R
    no_roll = scenario.model_copy(
        update={"action": scenario.action.model_copy(update={"roll": None})}
    )
    chance = solve(no_roll)
    assert chance.status == Status.OPTIMAL
    assert chance.trapped_chance == "0"


def test_halved_with_eight_thousandths_to_spare_is_answered() -> None:
    """Roll 8 halved to 4" by the mud; C1 stands 0.008" beyond where the 1" rule stops A1:
    less than the margin kept, yet legal as measured: answered, not unknown."""
    scenario = halved_with_little_to_spare(0.008)
    result = solve(scenario)
    assert result.status == Status.FEASIBLE
    (a1,) = result.placements
    assert (a1.x, a1.y) == (10.0, 14.0)
    assert result.stats["legal_as_measured_in"] == pytest.approx(0.008, abs=1e-4)
    assert check_placement(scenario, result.placements) == []
    assert math.isclose(a1.moved or 0, 4.0)
