"""The independent rules checker: one hand-built illegal placement per violation kind, with the
models and distances worked out by hand, and hand-built legal placements that give []."""

from __future__ import annotations

import math
from typing import Any

import pytest

from chargeopt.geometry.checker import VIOLATION_KINDS, check_placement, summarise, unmoved_models
from chargeopt.geometry.checker.assault_4e import ASSAULT_4E_KINDS
from chargeopt.geometry.checker.charge_11e import CHARGE_11E_KINDS
from chargeopt.geometry.checker.close_11e import CLOSE_11E_KINDS
from chargeopt.geometry.checker.close_moves import CLOSE_MOVE_KINDS
from chargeopt.geometry.checker.fall_back import FALL_BACK_KINDS
from chargeopt.geometry.checker.heroic_11e import HEROIC_11E_KINDS
from chargeopt.geometry.checker.tokens import TOKEN_KINDS
from chargeopt.geometry.checker.tokens_close import CLOSE_TOKEN_KINDS
from chargeopt.models import (
    Placement,
    Scenario,
    ScenarioError,
    Violation,
)

R = 16 / 25.4  # radius of a 32mm base, inches
CONTACT_X = 16 - 2 * R  # a 32mm base touching a 32mm base centred at x = 16


def unit(uid: str, owner: str, models: list[tuple[str, float, float]], **extra: Any) -> dict:
    """A unit of 32mm INFANTRY models given as (id, x, y)."""
    return {
        "id": uid,
        "owner": owner,
        "keywords": ["INFANTRY"],
        "base": "32mm",
        "models": [{"id": m, "x": x, "y": y} for m, x, y in models],
    } | extra


def scenario(
    units: list[dict],
    *,
    targets: tuple[str, ...] = ("B",),
    roll: int | None = 6,
    terrain: list[dict] = (),
    ruleset: str = "40k-10e",
) -> Scenario:
    """A 44x30 board where unit A charges `targets`."""
    return Scenario.model_validate(
        {
            "ruleset": ruleset,
            "board": {"width": 44.0, "height": 30.0},
            "terrain": list(terrain),
            "units": units,
            "action": {"kind": "charge", "unit": "A", "targets": list(targets), "roll": roll},
        }
    )


def at(model: str, x: float, y: float, **extra: Any) -> Placement:
    return Placement(model=model, x=x, y=y, **extra)


def kinds(found: list[Violation]) -> list[str]:
    return [v.kind for v in found]


def one(found: list[Violation], kind: str) -> Violation:
    """The single violation of a kind (and no other kinds)."""
    assert kinds(found) == [kind], found
    return found[0]


ONE_ON_ONE = scenario(
    [unit("A", "attacker", [("A1", 10.0, 10.0)]), unit("B", "defender", [("B1", 16.0, 10.0)])]
)
TWO_ON_TWO = scenario(
    [
        unit("A", "attacker", [("A1", 10.0, 10.0), ("A2", 10.0, 11.5)]),
        unit("B", "defender", [("B1", 16.0, 10.0), ("B2", 16.0, 11.5)]),
    ]
)


def test_charge_into_base_contact_is_legal() -> None:
    """A marine 6" from an enemy ending in base contact with roll 6 breaks no rule."""
    assert check_placement(ONE_ON_ONE, [at("A1", CONTACT_X, 10.0, contact=("B1",))]) == []


def test_two_models_into_contact_are_legal() -> None:
    """Two marines each touching a defender, 0.24" apart (in coherency), break no rule."""
    assert check_placement(TWO_ON_TWO, [at("A1", CONTACT_X, 10.0), at("A2", CONTACT_X, 11.5)]) == []


def test_bases_never_overlap_not_even_within_the_contact_tolerance() -> None:
    """Ending 0.004" into the target's base is an overlap (bases never overlap; the 0.005"
    tolerance measures touching), 0.000001" into it is still touching, and 0.004" short of
    it is base contact."""
    found = check_placement(ONE_ON_ONE, [at("A1", CONTACT_X + 0.004, 10.0, contact=("B1",))])
    assert [(v.kind, v.models) for v in found] == [("overlap", ("A1", "B1"))]
    assert found[0].distance_in == pytest.approx(0.004)
    assert found[0].message == "model 'A1' overlaps 'B1' by 0.0040\""
    touching = [at("A1", CONTACT_X + 0.000001, 10.0, contact=("B1",))]
    assert check_placement(ONE_ON_ONE, touching) == []
    assert check_placement(ONE_ON_ONE, [at("A1", CONTACT_X - 0.004, 10.0, contact=("B1",))]) == []


def test_unit_mates_may_not_overlap_by_the_contact_tolerance() -> None:
    """Two marines touching B1 that overlap each other by 0.003" break the overlap rule;
    0.0005" apart they do not."""
    x = CONTACT_X
    half = 32 / 25.4 / 2
    for gap, kinds in ((-0.003, ["overlap"]), (0.0005, [])):
        y2 = 10.0 + 2 * half + gap
        placement = [at("A1", x, 10.0, contact=("B1",)), at("A2", x, y2)]
        found = check_placement(TWO_ON_TWO, placement)
        assert [v.kind for v in found if v.kind == "overlap"] == kinds


def test_moved_too_far() -> None:
    """(10,10) to (17,10) is a 7" move: more than a roll of 6."""
    s = scenario(
        [
            unit("A", "attacker", [("A1", 10.0, 10.0)]),
            unit("B", "defender", [("B1", 17.0 + 2 * R + 0.5, 10.0)]),
        ]
    )
    v = one(check_placement(s, [at("A1", 17.0, 10.0)]), "moved_too_far")
    assert (v.models, v.distance_in, v.limit_in) == (("A1",), 7.0, 6.0)
    assert v.message == (
        "model 'A1' moves 7.00\" along its shortest legal path, more than the roll of 6\""
    )


def test_roll_argument_overrides_the_scenario() -> None:
    """The same 7" move is legal when the roll passed in is 7."""
    s = scenario(
        [
            unit("A", "attacker", [("A1", 10.0, 10.0)]),
            unit("B", "defender", [("B1", 17.0 + 2 * R + 0.5, 10.0)]),
        ]
    )
    assert check_placement(s, [at("A1", 17.0, 10.0)], roll=7) == []


def test_turning_an_oval_counts_its_arc() -> None:
    """A 60x35mm oval moving 5" and turning 90 degrees travels 5 + a*pi/2 > 6."""
    a, b = 30 / 25.4, 17.5 / 25.4
    oval = unit("A", "attacker", [("A1", 10.0, 10.0)], base="60x35mm")
    s = scenario([oval, unit("B", "defender", [("B1", 15 + b + R + 0.5, 10.0)])])
    v = one(check_placement(s, [at("A1", 15.0, 10.0, facing=90.0)]), "moved_too_far")
    assert v.distance_in == pytest.approx(5 + a * math.pi / 2, abs=1e-9)
    assert v.limit_in == 6.0


def test_missing_model_is_judged_where_it_started() -> None:
    """A2 without a placement stays at (10, 11.5): not closer, out of coherency, unit split;
    its absence is not itself a violation, and `unmoved_models` names it."""
    placements = [at("A1", CONTACT_X, 10.0)]
    found = check_placement(TWO_ON_TWO, placements)
    assert kinds(found) == ["not_closer", "coherency", "coherency", "coherency_split"]
    assert found[0].models == ("A2",)
    assert [v.models for v in found[1:3]] == [("A1",), ("A2",)]
    assert unmoved_models(TWO_ON_TWO, placements) == ("A2",)


def test_unknown_and_duplicate_models() -> None:
    """A placement of an enemy model, of a model that does not exist, and A1 twice."""
    found = check_placement(
        ONE_ON_ONE,
        [at("A1", CONTACT_X, 10.0), at("B1", 3.0, 3.0), at("Z9", 3.0, 3.0), at("A1", 3.0, 3.0)],
    )
    assert kinds(found) == ["unknown_model", "unknown_model", "duplicate_model"]
    assert [v.models for v in found] == [("B1",), ("Z9",), ("A1",)]
    assert found[0].message == (
        "a placement names model 'B1', which is not in the acting unit 'A' (it is in unit 'B')"
    )


def test_off_board() -> None:
    """Ending 0.5" from the top edge, a 32mm base sticks out by r - 0.5."""
    s = scenario(
        [unit("A", "attacker", [("A1", 10.0, 1.0)]), unit("B", "defender", [("B1", 16.0, 1.0)])]
    )
    v = one(check_placement(s, [at("A1", CONTACT_X, 0.5)]), "off_board")
    assert v.models == ("A1",)
    assert v.distance_in == pytest.approx(R - 0.5, abs=1e-12)
    assert v.message == "model 'A1' sticks out of the board by 0.13\" past the top edge"


def test_overlap_of_two_moved_models() -> None:
    """A2 ending 1.05" below A1: two 32mm bases overlap by 2r - 1.05."""
    found = check_placement(TWO_ON_TWO, [at("A1", CONTACT_X, 10.0), at("A2", CONTACT_X, 11.05)])
    v = one(found, "overlap")
    assert v.models == ("A2", "A1")
    assert v.distance_in == pytest.approx(2 * R - 1.05, abs=1e-12)
    assert v.message == "model 'A2' overlaps 'A1' by 0.21\""


def test_overlap_with_a_model_that_does_not_move() -> None:
    """Ending 0.3" too far into the target's base is an overlap of 0.3"."""
    v = one(check_placement(ONE_ON_ONE, [at("A1", CONTACT_X + 0.3, 10.0)]), "overlap")
    assert v.models == ("A1", "B1")
    assert v.distance_in == pytest.approx(0.3, abs=1e-12)


def test_in_terrain() -> None:
    """Centre 0.375" from a wall's face: the base is r - 0.375 deep inside it."""
    wall = {
        "id": "w",
        "kind": "wall",
        "path": [[14.0, 5.0], [14.0, 15.0]],
        "thickness": 0.25,
        "height": 5.0,
    }
    s = scenario(
        [unit("A", "attacker", [("A1", 10.0, 10.0)]), unit("B", "defender", [("B1", 15.2, 10.0)])],
        terrain=[wall],
    )
    v = one(check_placement(s, [at("A1", 13.5, 10.0)]), "in_terrain")
    assert (v.models, v.terrain) == (("A1",), ("w",))
    assert v.distance_in == pytest.approx(R - 0.375, abs=1e-12)
    assert v.message == "model 'A1' ends 0.25\" deep inside wall 'w'"


def test_not_on_surface_in_the_air() -> None:
    """Ending at z = 3 where there is no floor."""
    v = one(check_placement(ONE_ON_ONE, [at("A1", CONTACT_X, 10.0, z=3.0)]), "not_on_surface")
    assert (v.models, v.terrain, v.distance_in) == (("A1",), (), None)
    assert v.message == "model 'A1' ends at z=3.0 where no floor is"


def test_not_on_surface_overhanging_a_floor() -> None:
    """Centre 2r - 1 inside a floor's edge at x = 15: the base overhangs by 1 - r."""
    floor = {
        "id": "f",
        "kind": "floor",
        "path": [[12, 5], [15, 5], [15, 15], [12, 15]],
        "height": 3.0,
    }
    s = scenario(
        [unit("A", "attacker", [("A1", 10.0, 10.0)]), unit("B", "defender", [("B1", 16.0, 10.0)])],
        terrain=[floor],
        roll=9,
    )
    v = one(check_placement(s, [at("A1", CONTACT_X, 10.0, z=3.0)]), "not_on_surface")
    assert (v.models, v.terrain) == (("A1",), ("f",))
    assert v.distance_in == pytest.approx(1 - R, abs=1e-12)
    assert v.message == "model 'A1' overhangs the edge of floor 'f' by 0.37\""


def test_upper_floor_forbidden() -> None:
    """A VEHICLE at z = 3 (even wholly on a floor) may not end on an upper floor."""
    floor = {
        "id": "f",
        "kind": "floor",
        "path": [[12, 5], [15, 5], [15, 15], [12, 15]],
        "height": 3.0,
    }
    tank = unit("A", "attacker", [("A1", 10.0, 10.0)], keywords=["VEHICLE"])
    s = scenario([tank, unit("B", "defender", [("B1", 16.0, 10.0)])], terrain=[floor], roll=12)
    v = one(check_placement(s, [at("A1", 14.0, 10.0, z=3.0)]), "upper_floor_forbidden")
    assert v.models == ("A1",)
    assert v.message == (
        "model 'A1' ends on an upper floor (z=3.0) but unit 'A' has none of "
        "the keywords BEAST, BEASTS, FLY, INFANTRY"
    )


def test_climbing_onto_a_floor_counts() -> None:
    """Infantry moving 4" onto a 3" floor moves 4 + 3 = 7": too far with 6, legal with 7."""
    floor = {
        "id": "f",
        "kind": "floor",
        "path": [[12, 5], [15, 5], [15, 15], [12, 15]],
        "height": 3.0,
    }
    s = scenario(
        [unit("A", "attacker", [("A1", 10.0, 10.0)]), unit("B", "defender", [("B1", 16.0, 10.0)])],
        terrain=[floor],
    )
    v = one(check_placement(s, [at("A1", 14.0, 10.0, z=3.0)]), "moved_too_far")
    assert (v.distance_in, v.limit_in) == (7.0, 6.0)
    assert check_placement(s, [at("A1", 14.0, 10.0, z=3.0)], roll=7) == []


CORRIDOR = [  # two impassable blocks leave a 2" corridor y in (9, 11) from x = 12 to 18
    {"id": "north", "kind": "impassable", "path": [[12, 0], [18, 0], [18, 9], [12, 9]]},
    {"id": "south", "kind": "impassable", "path": [[12, 11], [18, 11], [18, 30], [12, 30]]},
]


def test_moved_through_engagement() -> None:
    """The only way out of the corridor passes within 0.44" of C1, which is not a target."""
    s = scenario(
        [
            unit("A", "attacker", [("A1", 10.0, 10.0)]),
            unit("B", "defender", [("B1", 22.0, 15.0 + 2 * R)]),
            unit("C", "defender", [("C1", 19.0, 9.0)]),
        ],
        terrain=CORRIDOR,
        roll=20,
    )
    v = one(check_placement(s, [at("A1", 22.0, 15.0)]), "moved_through_engagement")
    assert v.models == ("A1",)
    assert "engagement range of unit 'C'" in v.message
    assert 13.0 < v.distance_in < 20.0


def test_unreachable() -> None:
    """An end position inside a closed box of impassable strips has no legal path."""
    box = [
        {"id": "n", "kind": "impassable", "path": [[22.5, 7.5], [27.5, 7.5], [27.5, 8], [22.5, 8]]},
        {
            "id": "s",
            "kind": "impassable",
            "path": [[22.5, 12], [27.5, 12], [27.5, 12.5], [22.5, 12.5]],
        },
        {
            "id": "w",
            "kind": "impassable",
            "path": [[22.5, 7.5], [23, 7.5], [23, 12.5], [22.5, 12.5]],
        },
        {
            "id": "e",
            "kind": "impassable",
            "path": [[27, 7.5], [27.5, 7.5], [27.5, 12.5], [27, 12.5]],
        },
    ]
    s = scenario(
        [
            unit("A", "attacker", [("A1", 10.0, 10.0)]),
            unit("B", "defender", [("B1", 25.0 + 2 * R, 10.0)]),
        ],
        terrain=box,
        roll=20,
    )
    v = one(check_placement(s, [at("A1", 25.0, 10.0)]), "unreachable")
    assert (v.models, v.distance_in, v.limit_in) == (("A1",), None, 20.0)


def test_not_closer_when_staying_put() -> None:
    """A model left where it started is neither closer nor engaging: both rules break."""
    found = check_placement(ONE_ON_ONE, [at("A1", 10.0, 10.0)])
    assert kinds(found) == ["not_closer", "target_not_engaged"]
    assert found[0].models == ("A1",)
    assert found[0].distance_in == found[0].limit_in == pytest.approx(6 - 2 * R, abs=1e-12)


def test_closer_to_one_of_two_targets_is_enough() -> None:
    """A2 ends farther from B (4.24" -> 4.55" centre to centre) but closer to C, both targets:
    legal, with A1 engaging B and A2 engaging C, none in base contact."""
    s = scenario(
        [
            unit("A", "attacker", [("A1", 10.0, 10.0), ("A2", 10.0, 11.5)]),
            unit("B", "defender", [("B1", 13.0, 8.5)]),
            unit("C", "defender", [("C1", 13.0, 13.0)]),
        ],
        targets=("B", "C"),
    )
    assert check_placement(s, [at("A1", 12.0, 9.8), at("A2", 11.5, 12.8)]) == []


def test_not_closer_when_moving_sideways() -> None:
    """A2 steps from 3.61" to 3.96" (centre to centre) from B1 and touches nothing: not closer."""
    s = scenario(
        [
            unit("A", "attacker", [("A1", 10.0, 10.0), ("A2", 14.0, 13.0)]),
            unit("B", "defender", [("B1", 16.0, 10.0)]),
        ]
    )
    v = one(check_placement(s, [at("A1", CONTACT_X, 10.0), at("A2", 13.2, 12.8)]), "not_closer")
    assert v.models == ("A2",)
    assert v.distance_in == pytest.approx(math.hypot(2.8, 2.8) - 2 * R, abs=1e-12)
    assert v.limit_in == pytest.approx(math.hypot(2, 3) - 2 * R, abs=1e-12)
    assert v.message == (
        "model 'A2' is not in base contact with a target model and does not "
        "end closer to any target (unit 'B' 2.35\" -> 2.70\")"
    )


def test_target_not_engaged() -> None:
    """With targets B and C, touching B1 leaves C1 (10" below) unengaged."""
    s = scenario(
        [
            unit("A", "attacker", [("A1", 10.0, 10.0)]),
            unit("B", "defender", [("B1", 16.0, 10.0)]),
            unit("C", "defender", [("C1", 16.0, 20.0)]),
        ],
        targets=("B", "C"),
    )
    v = one(check_placement(s, [at("A1", CONTACT_X, 10.0)]), "target_not_engaged")
    assert v.models == ("A1", "C1")
    assert v.distance_in == pytest.approx(math.hypot(2 * R, 10) - 2 * R, abs=1e-12)
    assert v.limit_in == 1.0


def test_engaged_non_target() -> None:
    """Touching B1 while 2 - 2r (0.74") from C1, which is not a target."""
    s = scenario(
        [
            unit("A", "attacker", [("A1", 10.0, 10.0)]),
            unit("B", "defender", [("B1", 16.0, 10.0)]),
            unit("C", "defender", [("C1", CONTACT_X, 12.0)]),
        ]
    )
    v = one(check_placement(s, [at("A1", CONTACT_X, 10.0)]), "engaged_non_target")
    assert v.models == ("A1", "C1")
    assert v.distance_in == pytest.approx(2 - 2 * R, abs=1e-12)
    assert v.limit_in == 1.0
    assert v.message == (
        "model 'A1' (unit 'A') ends 0.74\" from 'C1' (unit 'C'), within "
        'engagement range (1.00") of a unit it does not charge'
    )


def line_of_six(ruleset: str) -> tuple[Scenario, list[Placement]]:
    """Six marines 3" apart (neighbours 1.74" apart edge to edge) charge six defenders 3"
    below them, each ending in base contact."""
    xs = [10.0 + 3 * k for k in range(6)]
    s = scenario(
        [
            unit("A", "attacker", [(f"A{k + 1}", x, 10.0) for k, x in enumerate(xs)]),
            unit("B", "defender", [(f"B{k + 1}", x, 13.0) for k, x in enumerate(xs)]),
        ],
        ruleset=ruleset,
    )
    return s, [at(f"A{k + 1}", x, 13.0 - 2 * R) for k, x in enumerate(xs)]


def test_coherency_of_six_in_10th_needs_one_neighbour() -> None:
    """In the 10th edition a unit of 6 needs one neighbour each: a line is coherent."""
    s, placements = line_of_six("40k-10e")
    assert check_placement(s, placements) == []


def test_coherency_of_six_in_9th_needs_two_neighbours() -> None:
    """In the 9th edition a unit of 6 needs two: the two ends of the line have one."""
    s, placements = line_of_six("40k-9e")
    found = check_placement(s, placements)
    assert kinds(found) == ["coherency", "coherency"]
    assert [v.models for v in found] == [("A1",), ("A6",)]
    assert found[0].distance_in == pytest.approx(6 - 2 * R, abs=1e-12)
    assert found[0].message == "model 'A1' has 1 unit mate within 2.00\" (needs 2 in a unit of 6)"


def test_coherency_split() -> None:
    """Two coherent pairs 8" apart: every model has its neighbour, but the unit is split."""
    ys = [10.0, 12.0, 20.0, 22.0]
    s = scenario(
        [
            unit("A", "attacker", [(f"A{k + 1}", 10.0, y) for k, y in enumerate(ys)]),
            unit("B", "defender", [(f"B{k + 1}", 14.0, y) for k, y in enumerate(ys)]),
        ]
    )
    v = one(
        check_placement(s, [at(f"A{k + 1}", 14.0 - 2 * R, y) for k, y in enumerate(ys)]),
        "coherency_split",
    )
    assert v.models == ("A1", "A2", "A3", "A4")
    assert v.distance_in == pytest.approx(8 - 2 * R, abs=1e-12)
    assert v.message == "unit 'A' is split into 2 groups: A1, A2 | A3, A4"


def test_false_contact() -> None:
    """Claiming contact with B2, 3" below B1, when the model touches only B1."""
    found = check_placement(
        TWO_ON_TWO, [at("A1", CONTACT_X, 10.0, contact=("B1", "B2")), at("A2", CONTACT_X, 11.5)]
    )
    v = one(found, "false_contact")
    assert v.models == ("A1", "B2")
    assert v.distance_in == pytest.approx(math.hypot(2 * R, 1.5) - 2 * R, abs=1e-12)


BARRICADE = {
    "id": "fence",
    "kind": "barricade",
    "path": [[15.0, 8.0], [15.0, 12.0]],
    "thickness": 0.5,
    "height": 1.0,
}


def across_barricade(gap: float, terrain: list[dict]) -> list[Violation]:
    """A1 ends 0.01" short of the barricade's near face; B1 stands `gap` beyond its far face."""
    s = scenario(
        [
            unit("A", "attacker", [("A1", 10.0, 10.0)]),
            unit("B", "defender", [("B1", 15.25 + R + gap, 10.0)]),
        ],
        terrain=terrain,
    )
    return check_placement(s, [at("A1", 14.75 - R - 0.01, 10.0)])


def test_barricade_gives_two_inch_engagement() -> None:
    """1.7" apart across a barricade (0.01 + 0.5 + 1.19) is within its 2" engagement range."""
    assert across_barricade(1.19, [BARRICADE]) == []


def test_without_the_barricade_one_inch_applies() -> None:
    """The same 1.7" gap with no barricade is out of the 1" engagement range."""
    v = one(across_barricade(1.19, []), "target_not_engaged")
    assert v.distance_in == pytest.approx(1.7, abs=1e-9)
    assert v.limit_in == 1.0


def test_barricade_range_has_a_limit() -> None:
    """2.3" apart across a barricade is out of its 2" range."""
    v = one(across_barricade(1.79, [BARRICADE]), "target_not_engaged")
    assert v.distance_in == pytest.approx(2.3, abs=1e-9)
    assert v.limit_in == 2.0


def test_a_charge_needs_a_roll() -> None:
    """Without a roll in the scenario or the call the checker names action.roll."""
    s = scenario(
        [unit("A", "attacker", [("A1", 10.0, 10.0)]), unit("B", "defender", [("B1", 16.0, 10.0)])],
        roll=None,
    )
    with pytest.raises(ScenarioError) as caught:
        check_placement(s, [at("A1", CONTACT_X, 10.0)], file="c.toml")
    assert caught.value.lines() == [
        "c.toml: action.roll: a charge needs the roll to check the move distance; add roll = N "
        "or pass --roll N"
    ]


def test_a_pile_in_needs_no_roll() -> None:
    """A pile in is checked without a roll (its rules: test_checker_close_moves.py)."""
    s = Scenario.model_validate(
        ONE_ON_ONE.model_dump() | {"action": {"kind": "pile-in", "unit": "A", "charged": True}}
    )
    assert check_placement(s, [at("A1", 10.0, 10.0)]) == []


def test_summarise() -> None:
    """The summary counts the violations and lists one a line."""
    v = Violation(kind="overlap", message="model 'A2' overlaps 'A1' by 0.21\"")
    assert summarise([]) == "no violations: the placement is legal"
    assert summarise([v]) == "1 violation:\n  - [overlap] model 'A2' overlaps 'A1' by 0.21\""


def test_every_kind_is_exercised() -> None:
    """The list of kinds the checker documents is the list the tests above cover."""
    close_moves = set(CLOSE_MOVE_KINDS)  # covered in test_checker_close_moves.py
    tokens = set(TOKEN_KINDS) | set(CLOSE_TOKEN_KINDS)  # covered in tests/solver/test_wtc_*
    fall_back = set(FALL_BACK_KINDS)  # covered in test_checker_fall_back.py
    assault = set(ASSAULT_4E_KINDS)  # test_checker_assault_4e.py, tests/solver/assault_4e
    eleventh = {*CHARGE_11E_KINDS, *CLOSE_11E_KINDS, *HEROIC_11E_KINDS}  # tests/*/forty_k_11e
    assert set(VIOLATION_KINDS) - close_moves - tokens - fall_back - assault - eleventh == {
        "unknown_model",
        "duplicate_model",
        "off_board",
        "overlap",
        "in_terrain",
        "not_on_surface",
        "upper_floor_forbidden",
        "moved_too_far",
        "moved_through_engagement",
        "unreachable",
        "not_closer",
        "target_not_engaged",
        "engaged_non_target",
        "coherency",
        "coherency_split",
        "false_contact",
    }
