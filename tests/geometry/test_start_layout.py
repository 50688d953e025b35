"""The start-layout check: each problem a judge would refuse, with its exact message."""

from __future__ import annotations

from typing import Any

import pytest

from chargeopt.geometry.start_layout import check_start_layout
from chargeopt.models import Scenario, ScenarioError

R32 = 16 / 25.4  # radius of a 32mm base in inches


def scenario(attackers: list[dict[str, Any]], terrain: list[dict[str, Any]] = ()) -> Scenario:
    """A 44x30 board, attackers of 32mm bases and one defender far away at (40, 25)."""
    return Scenario.model_validate(
        {
            "ruleset": "40k-10e",
            "board": {"width": 44.0, "height": 30.0},
            "terrain": list(terrain),
            "units": [
                {
                    "id": "A",
                    "owner": "attacker",
                    "keywords": ["INFANTRY"],
                    "base": "32mm",
                    "models": attackers,
                },
                {
                    "id": "B",
                    "owner": "defender",
                    "base": "32mm",
                    "models": [{"id": "B1", "x": 40.0, "y": 25.0}],
                },
            ],
            "action": {"kind": "charge", "unit": "A", "targets": ["B"], "roll": 7},
        }
    )


def problems(s: Scenario) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        check_start_layout(s, "s.toml")
    return caught.value.lines()


def test_legal_layout_passes() -> None:
    """Two touching bases on the board and on the ground raise nothing."""
    check_start_layout(
        scenario([{"id": "A1", "x": 10.0, "y": 10.0}, {"id": "A2", "x": 10.0 + 2 * R32, "y": 10.0}])
    )


def test_base_off_the_left_edge() -> None:
    """A 32mm base centred 0.5" from the left edge sticks out by r - 0.5 = 0.13"."""
    assert problems(scenario([{"id": "A1", "x": 0.5, "y": 10.0}])) == [
        "s.toml: units[0].models[0]: model 'A1' sticks out of the board by 0.13\" past the "
        "left edge; move it onto the board"
    ]


def test_base_off_a_corner_names_both_edges() -> None:
    """At (43.8, 29.5) a 32mm base passes the right edge by 0.43" and the bottom by 0.13"."""
    assert problems(scenario([{"id": "A1", "x": 43.8, "y": 29.5}])) == [
        "s.toml: units[0].models[0]: model 'A1' sticks out of the board by 0.43\" past the "
        'right edge and 0.13" past the bottom edge; move it onto the board'
    ]


def test_overlapping_models_name_both() -> None:
    """Centres 1.05" apart: two 32mm bases overlap by 2r - 1.05 = 0.21"."""
    assert problems(
        scenario([{"id": "A1", "x": 10.0, "y": 10.0}, {"id": "A2", "x": 11.05, "y": 10.0}])
    ) == ["s.toml: units[0].models[1]: model 'A2' overlaps 'A1' by 0.21\"; move it apart"]


def test_touching_bases_are_contact_and_overlapping_ones_are_refused() -> None:
    """Bases touching exactly are base contact; an overlap of 0.004" (under the 0.005" contact
    tolerance, which measures touching) is refused with its depth to a ten-thousandth."""
    touching = [
        {"id": "A1", "x": 10.0, "y": 10.0},
        {"id": "A2", "x": 10.0 + 2 * R32, "y": 10.0},
    ]
    check_start_layout(scenario(touching))
    touching[1]["x"] -= 0.004
    with pytest.raises(ScenarioError, match=r"model 'A2' overlaps 'A1' by 0\.0040\""):
        check_start_layout(scenario(touching))


WALL = {
    "id": "ruin-w",
    "kind": "wall",
    "path": [[20.0, 4.0], [20.0, 10.0]],
    "thickness": 0.25,
    "height": 5.0,
}


def test_model_inside_a_wall() -> None:
    """Centre 0.375" from the wall's face (x = 19.875): the base reaches r - 0.375 = 0.25" in."""
    assert problems(scenario([{"id": "A1", "x": 19.5, "y": 7.0}], [WALL])) == [
        "s.toml: units[0].models[0]: model 'A1' stands 0.25\" deep inside wall 'ruin-w'; "
        "move it out of the terrain"
    ]


def test_model_inside_impassable_and_barricade() -> None:
    """Impassable areas and barricades are named by their kind and id."""
    rock = {"id": "rock", "kind": "impassable", "path": [[0, 0], [4, 0], [4, 4], [0, 4]]}
    fence = {
        "id": "fence",
        "kind": "barricade",
        "path": [[30.0, 0.0], [30.0, 20.0]],
        "thickness": 0.5,
        "height": 1.0,
    }
    assert problems(
        scenario(
            [{"id": "A1", "x": 4.5, "y": 2.0}, {"id": "A2", "x": 30.0, "y": 10.0}], [rock, fence]
        )
    ) == [
        "s.toml: units[0].models[0]: model 'A1' stands 0.13\" deep inside impassable area "
        "'rock'; move it out of the terrain",
        "s.toml: units[0].models[1]: model 'A2' stands 0.88\" deep inside barricade 'fence'; "
        "move it out of the terrain",
    ]


def test_model_in_the_air() -> None:
    """z = 3 with no floor at 3" is refused with the height in the message."""
    assert problems(scenario([{"id": "A1", "x": 10.0, "y": 10.0, "z": 3.0}])) == [
        "s.toml: units[0].models[0]: model 'A1' stands at z=3.0 but no floor at that height "
        "holds its base; set z = 0 or the height of the floor under it"
    ]


FLOOR = {"id": "f1", "kind": "floor", "path": [[0, 0], [10, 0], [10, 10], [0, 10]], "height": 3.0}


def test_model_overhanging_a_floor() -> None:
    """Centre 0.2" inside the floor's edge: the base overhangs by r - 0.2 = 0.43"."""
    assert problems(scenario([{"id": "A1", "x": 9.8, "y": 5.0, "z": 3.0}], [FLOOR])) == [
        "s.toml: units[0].models[0]: model 'A1' stands at z=3.0 on floor 'f1' but its base "
        'overhangs the edge by 0.43"; move it wholly onto the floor'
    ]


def test_model_on_a_floor_above_a_short_wall() -> None:
    """A floor at 3" over a 3" wall: the model stands on the floor, not inside the wall."""
    low_wall = {**WALL, "path": [[5.0, 2.0], [5.0, 8.0]], "height": 3.0}
    check_start_layout(scenario([{"id": "A1", "x": 5.0, "y": 5.0, "z": 3.0}], [FLOOR, low_wall]))


def test_models_at_different_heights_do_not_overlap() -> None:
    """A model on a floor above one on the ground is not an overlap."""
    check_start_layout(
        scenario(
            [{"id": "A1", "x": 5.0, "y": 5.0, "z": 3.0}, {"id": "A2", "x": 5.0, "y": 5.0}], [FLOOR]
        )
    )


def test_at_most_ten_problems() -> None:
    """Twelve models off the board give ten lines, in model order."""
    models = [{"id": f"A{i}", "x": 0.1, "y": 2.0 * i + 2} for i in range(12)]
    lines = problems(scenario(models))
    assert len(lines) == 10
    assert lines[0].startswith("s.toml: units[0].models[0]: model 'A0' ")
    assert lines[9].startswith("s.toml: units[0].models[9]: model 'A9' ")
