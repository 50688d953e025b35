"""The configuration space of a base against closed-form areas."""

from __future__ import annotations

import math

import pytest
from builders import make_scenario

from chargeopt.geometry import Battlefield
from chargeopt.geometry.config_space import free_space

R32 = 32 / 25.4 / 2


def test_open_board_is_the_board_shrunk_by_the_radius() -> None:
    """Alone on a 44x30 board (one far target), the free space of a 32mm base is the board
    less the target's disk grown by both radii: (44 - 2r)(30 - 2r) - pi (2r)^2."""
    s = make_scenario([(5.0, 5.0)], {"B": [(30.0, 20.0)]})
    area = free_space(s, Battlefield.from_scenario(s), "A1").area
    expected = (44 - 2 * R32) * (30 - 2 * R32) - math.pi * (2 * R32) ** 2
    assert area == pytest.approx(expected, rel=2e-4)


def test_impassable_square_is_grown_by_the_radius() -> None:
    """A 2x2 impassable square removes its Minkowski sum with the base: 4 + 8r + pi r^2."""
    square = {"id": "rock", "kind": "impassable", "path": [[20, 10], [22, 10], [22, 12], [20, 12]]}
    s = make_scenario([(5.0, 5.0)], {"B": [(30.0, 20.0)]}, terrain=[square])
    open_field = make_scenario([(5.0, 5.0)], {"B": [(30.0, 20.0)]})
    without = free_space(open_field, Battlefield.from_scenario(open_field), "A1").area
    removed = without - free_space(s, Battlefield.from_scenario(s), "A1").area
    assert removed == pytest.approx(4 + 8 * R32 + math.pi * R32**2, rel=2e-3)


def test_upper_floor_holds_only_whole_bases() -> None:
    """On a 10x10 floor at 3", the centre may stand within (10 - 2r)^2 of it."""
    floor = {
        "id": "f",
        "kind": "floor",
        "path": [[5, 5], [15, 5], [15, 15], [5, 15]],
        "height": 3.0,
    }
    s = make_scenario([(2.0, 2.0)], {"B": [(30.0, 20.0)]}, terrain=[floor])
    region = free_space(s, Battlefield.from_scenario(s), "A1", z=3.0)
    assert region.area == pytest.approx((10 - 2 * R32) ** 2, rel=1e-6)
    assert free_space(s, Battlefield.from_scenario(s), "A1", z=4.0).is_empty
