"""The start-layout check under 40k-11e: a model standing partway through a wall of a dense
or light area, or on the ground inside an enclosed solid block, is refused at load with one
line naming the file, the model's key path and the fix; touching a wall is fine."""

from __future__ import annotations

from typing import Any

import pytest

from chargeopt.geometry.start_layout import check_start_layout
from chargeopt.models import Scenario, ScenarioError

R32 = 16 / 25.4
RUIN = {
    "id": "ruin",
    "kind": "dense",
    "path": [[10.0, 2.0], [16.0, 2.0], [16.0, 8.0], [10.0, 8.0]],
    "height_in": 5.0,
    "walls": [[[10.0, 2.0], [10.0, 8.0]]],
}
"""A dense ruin footprint whose west wall runs along x = 10 (0.25" thick: x 9.875 to 10.125)."""
LOW_WALL = {
    "id": "barricade",
    "kind": "light",
    "path": [[2.0, 12.0], [8.0, 12.0], [8.0, 13.0], [2.0, 13.0]],
    "height_in": 1.0,
    "walls": [[[2.0, 12.5], [8.0, 12.5]]],
}
BOX = {
    "id": "container",
    "kind": "dense",
    "path": [[20.0, 2.0], [24.0, 2.0], [24.0, 6.0], [20.0, 6.0]],
    "height_in": 3.0,
    "enclosed": True,
}


def scenario(a1: dict[str, Any], ruleset: str = "40k-11e") -> Scenario:
    return Scenario.model_validate(
        {
            "ruleset": ruleset,
            "board": {"width": 30.0, "height": 20.0},
            "terrain": [RUIN, LOW_WALL, BOX],
            "units": [
                {
                    "id": "A",
                    "owner": "attacker",
                    "keywords": ["INFANTRY"],
                    "base": "32mm",
                    "models": [{"id": "A1", **a1}],
                },
                {
                    "id": "B",
                    "owner": "defender",
                    "base": "32mm",
                    "models": [{"id": "B1", "x": 27.0, "y": 17.0}],
                },
            ],
            "action": {"kind": "charge", "unit": "A", "roll": 7},
        }
    )


def problems(s: Scenario) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        check_start_layout(s, "s.toml")
    return caught.value.lines()


def test_through_a_dense_areas_wall() -> None:
    """Centre at x = 9.5, 0.375" from the wall's face at 9.875: r - 0.375 = 0.2549" deep."""
    assert problems(scenario({"x": 9.5, "y": 5.0})) == [
        "s.toml: units[0].models[0]: model 'A1' stands 0.25\" partway through wall 1 of terrain "
        "'ruin'; move it out of the wall"
    ]


def test_through_a_light_areas_wall() -> None:
    """A light area's wall along y = 12.5 (12.375 to 12.625); a centre at y = 12.1 is 0.275"
    from its face: r - 0.275 = 0.35" deep."""
    assert problems(scenario({"x": 5.0, "y": 12.1})) == [
        "s.toml: units[0].models[0]: model 'A1' stands 0.35\" partway through wall 1 of terrain "
        "'barricade'; move it out of the wall"
    ]


def test_inside_an_enclosed_block() -> None:
    """A centre 1" inside the container's west side (x 21): the base is 1 + r = 1.63" deep."""
    assert problems(scenario({"x": 21.0, "y": 4.0})) == [
        "s.toml: units[0].models[0]: model 'A1' stands 1.63\" through the enclosed solid block "
        "terrain 'container'; move it out of the block (or set enclosed = false if it is open)"
    ]


def test_touching_a_wall_and_standing_in_the_open_ruin_pass() -> None:
    """Base touching the wall's face (x = 9.875 - r), and inside the ruin's footprint away from
    its wall (INFANTRY stand in ruins): no problem."""
    check_start_layout(scenario({"x": 9.875 - R32, "y": 5.0}))
    check_start_layout(scenario({"x": 13.0, "y": 5.0}))


def test_a_wall_deep_model_on_an_upper_level_is_not_judged_here() -> None:
    """The zones bind models on the ground (the 11th-edition charge places them there)."""
    with pytest.raises(ScenarioError, match="no floor at that height"):
        check_start_layout(scenario({"x": 9.5, "y": 5.0, "z": 3.0}), "s.toml")
