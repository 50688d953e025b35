"""Charges with floors and walls: climbing counts, vertical engagement, going around walls."""

from __future__ import annotations

import pytest
from builders import make_scenario

from chargeopt.geometry.checker import check_placement
from chargeopt.models import Status
from chargeopt.solver import solve

R32 = 32 / 25.4 / 2
FLOOR = {
    "id": "floor-1",
    "kind": "floor",
    "path": [[20, 5], [30, 5], [30, 15], [20, 15]],
    "height": 3.0,
}


def _floor_scenario(roll: int):
    s = make_scenario([(17.0, 10.0)], {"B": [(21.0 + 2 * R32, 10.0)]}, roll=roll, terrain=[FLOOR])
    data = s.model_dump(mode="json")
    data["units"][1]["models"][0]["z"] = 3.0
    return type(s).model_validate(data)


def test_base_contact_on_a_floor_counts_the_climb() -> None:
    """B1 stands on a 3" floor 4" away edge to edge (its edge at x=21): touching it means
    4" across plus 3" up = 7", so a roll of 8 makes contact at z=3 with a 7" move."""
    s = _floor_scenario(8)
    result = solve(s)
    assert result.status == Status.OPTIMAL
    (p,) = result.placements
    assert p.contact == ("B1",)
    assert p.z == pytest.approx(3.0)
    assert p.moved == pytest.approx(7.0, abs=0.01)
    assert check_placement(s, result.placements, roll=8) == []


def test_engagement_from_the_ground_below_a_floor() -> None:
    """With a roll of 4 the climb is out of reach, but 3" of height is within the 5" vertical
    engagement range: the model ends on the ground within 1" of B1 less the 0.011" margin,
    moving 3.011" (up to the polish's resolution and the JSON's rounding)."""
    s = _floor_scenario(4)
    result = solve(s)
    assert result.status == Status.OPTIMAL
    (p,) = result.placements
    assert p.contact == ()
    assert p.engaged == ("B",)
    assert p.z == 0.0
    assert 3.011 - 0.0008 <= p.moved <= 3.011 + 0.003
    assert check_placement(s, result.placements, roll=4) == []


WALL = {"id": "wall-1", "kind": "wall", "path": [[12, 6], [12, 14]], "thickness": 0.25}


def test_a_vehicle_goes_around_a_wall_that_infantry_walks_through() -> None:
    """A wall between charger and target: INFANTRY's minimum roll is the straight-line one,
    a VEHICLE's is larger (it must drive round the wall's end)."""
    layout = ([(9.0, 10.0)], {"B": [(15.0, 10.0)]})
    infantry = solve(make_scenario(*layout, terrain=[WALL]))
    vehicle = solve(make_scenario(*layout, terrain=[WALL], keywords=("VEHICLE",)))
    straight = 6.0 - 2 * R32 - 1.0
    assert infantry.min_roll == int(-(-straight // 1))
    assert vehicle.min_roll is not None and vehicle.min_roll > infantry.min_roll + 3
    for result in (infantry, vehicle):
        assert result.violations == ()
