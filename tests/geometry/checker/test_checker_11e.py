"""The independent checker on 11th-edition charges placed by hand: terrain categories (walls,
enclosed blocks, dense areas a unit cannot cross), the targets an answer charges, and the
engaged duty's witness."""

from __future__ import annotations

from builders import make_scenario

from chargeopt.geometry.checker import check_placement
from chargeopt.models import Placement

D = 32 / 25.4
WALLED = {
    "id": "ruin",
    "kind": "dense",
    "path": [[14.0, 10.0], [18.0, 10.0], [18.0, 20.0], [14.0, 20.0]],
    "height_in": 5.0,
    "walls": [[[16.0, 10.0], [16.0, 20.0]]],
}
CONTAINER = {
    "id": "box",
    "kind": "dense",
    "path": [[14.0, 10.0], [18.0, 10.0], [18.0, 20.0], [14.0, 20.0]],
    "height_in": 5.0,
    "enclosed": True,
}


def scenario(terrain: dict, keywords: tuple[str, ...] = ("INFANTRY",)):
    return make_scenario(
        [(10.0, 15.0)],
        {"B": [(22.0, 15.0)]},
        targets=(),
        ruleset="40k-11e",
        roll=12,
        terrain=[terrain],
        keywords=keywords,
    )


def kinds(found) -> list[str]:
    return sorted(v.kind for v in found)


def test_no_model_ends_partway_through_a_wall() -> None:
    """Ending astride the wall at x = 16 is refused; just clear of it (and within 2" of B1 at
    22 - 1.26 - 1.9 = 18.84) is not a wall problem."""
    found = check_placement(scenario(WALLED), [Placement(model="A1", x=16.0, y=15.0)], roll=12)
    assert "in_terrain" in kinds(found)
    wall = next(v for v in found if v.kind == "in_terrain")
    assert wall.terrain == ("ruin",)
    assert "partway through wall 1" in wall.message
    clear = check_placement(
        scenario(WALLED), [Placement(model="A1", x=22.0 - D - 1.9, y=15.0)], roll=12
    )
    assert "in_terrain" not in kinds(clear)


def test_no_model_ends_inside_an_enclosed_block() -> None:
    found = check_placement(scenario(CONTAINER), [Placement(model="A1", x=17.0, y=15.0)], roll=12)
    assert "in_terrain" in kinds(found)
    assert any("enclosed solid block" in v.message for v in found)


def test_a_vehicle_cannot_end_inside_tall_dense_terrain() -> None:
    """A VEHICLE does not cross a dense area taller than 2": ending inside it is refused (and
    there is no path there); INFANTRY may end inside."""
    tank = check_placement(
        scenario(WALLED, ("VEHICLE",)), [Placement(model="A1", x=17.5, y=15.0)], roll=12
    )
    assert "in_terrain" in kinds(tank)
    foot = check_placement(scenario(WALLED), [Placement(model="A1", x=17.5, y=15.0)], roll=12)
    assert "in_terrain" not in kinds(foot)


def test_the_targets_of_an_unnamed_charge_are_the_units_it_ends_engaged_with() -> None:
    """Nothing engaged: no target; engaged: B is the target and the placement is judged."""
    far = check_placement(scenario(WALLED), [Placement(model="A1", x=12.0, y=15.0)], roll=12)
    assert "no_target_engaged" in kinds(far)
    touching = check_placement(
        scenario(WALLED), [Placement(model="A1", x=22.0 - D, y=15.0)], roll=12
    )
    assert touching == []


def test_a_model_that_could_end_within_1_must() -> None:
    """A2 stops 2.6" from B1 though a spot within 1" of it, beside A1, is in its reach."""
    s = make_scenario(
        [(10.0, 15.0), (10.0, 16.5)], {"B": [(20.0, 15.0)]}, targets=(), ruleset="40k-11e", roll=9
    )
    placements = [
        Placement(model="A1", x=20.0 - D, y=15.0),
        Placement(model="A2", x=20.0 - D - 2.5, y=16.0),
    ]
    found = check_placement(s, placements, roll=9)
    assert [v.kind for v in found] == ["could_end_within_1"]


def test_a_model_that_could_end_engaged_must() -> None:
    """A1 starts 8" from B1 and A2 10.6" on a roll of 9: A2 can end 1.6" from B1 (engaged,
    not within 1"). Left 3" from B1 behind A1, it breaks the engaged duty only."""
    a1 = (20.0 - D - 8.0, 15.0)
    a2 = (20.0 - D - 10.6, 15.0)
    s = make_scenario([a1, a2], {"B": [(20.0, 15.0)]}, targets=(), ruleset="40k-11e", roll=9)
    placements = [
        Placement(model="A1", x=20.0 - D, y=15.0),
        Placement(model="A2", x=20.0 - D - 3.0, y=15.0),
    ]
    found = check_placement(s, placements, roll=9)
    assert [v.kind for v in found] == ["could_end_engaged"]
    assert found[0].models == ("A2",)
