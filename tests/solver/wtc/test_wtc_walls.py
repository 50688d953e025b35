"""The WTC rule for fighting through walls (seed 000) on the seed's examples 1A, 1B and 2
(benchmarks/layouts/wtc-walls), a walled room, and the checker's token rules.

Geometry shared by the examples (32mm bases, radius r = 0.629921"): the wall's outside face is
at x = 15.75 and it is 0.6" thick; B's models stand at x = 17.979921, their edges 1.6" from the
outside face (1.0" from the inside one, too little for a 1.2598" base). A's front models stand
at x = 9.420079 (edge at 10.05: 5.7" from the wall; 7.3" from B level with one of B's models),
two more 1.5" behind and one 3" behind. A token spot touches the outside face: centre at
x = 15.120079, a straight move of 5.7" from the front, 7.2" from the second rank and 8.7" from
the last model."""

from __future__ import annotations

from functools import cache

import pytest
from repo_paths import REPO_ROOT

from chargeopt.geometry.checker import check_placement
from chargeopt.models import Placement, Result, Scenario, Status
from chargeopt.solver import load_scenario, solve
from chargeopt.solver.core.tolerances import CONTACT_GAP_IN

LAYOUTS = REPO_ROOT / "benchmarks" / "layouts" / "wtc-walls"
R32 = 32 / 25.4 / 2
TOKEN_X = 15.75 - R32
TOKEN_SPOT_X = TOKEN_X - CONTACT_GAP_IN
"""Where a token model's centre stands: the candidates' contact gap (0.0025") off the wall."""
INSIDE_X = 16.35 + R32
TIME_LIMIT_S = 20.0


@cache
def scenario(name: str, ruleset: tuple[str, ...] | None = None) -> Scenario:
    s = load_scenario(LAYOUTS / f"{name}.toml")
    if ruleset is None:
        return s
    return Scenario.model_validate({**s.model_dump(mode="json"), "ruleset": list(ruleset)})


@cache
def solved(name: str, roll: int, ruleset: tuple[str, ...] | None = None) -> Result:
    return solve(scenario(name, ruleset), roll=roll, time_limit=TIME_LIMIT_S)


def by_model(result: Result) -> dict[str, Placement]:
    return {p.model: p for p in result.placements}


def tokens(result: Result) -> set[str]:
    return {p.model for p in result.placements if p.token}


def test_example_1a_distances_are_the_seeds() -> None:
    """1A-B: A is 7.3" from B with the wall ignored, the closest normal legal position is 8.1"
    away (A1 to the spot against the inside of the wall touching B1: 7.559842" across and
    2.9084" along, the hypotenuse 8.1"), the wall 5.7" away."""
    d = solved("example-1a", 7).stats["wtc_walls"]["distances"]
    assert d["to_target_walls_ignored_in"]["B"] == pytest.approx(7.3, abs=1e-3)
    assert d["to_normal_position_in"]["B"] == pytest.approx(8.1, abs=2e-3)
    assert d["to_wall_in"] == pytest.approx(5.7, abs=1e-3)
    assert d["wall"] == "ruin"


def test_example_1a_roll_of_7_front_models_take_tokens() -> None:
    """1A-C to 1A-E: with a 7 no model reaches a normal legal position (8.1" away); the three
    front models reach the wall (5.7") and take tokens; the others cannot touch it (7.2" and
    8.7") and make a legal charge move."""
    result = solved("example-1a", 7)
    assert result.status == Status.OPTIMAL
    assert result.stats["wtc_walls"]["applies"] is True
    assert tokens(result) == {"A1", "A2", "A3"}
    placed = by_model(result)
    for mid in ("A1", "A2", "A3"):
        assert placed[mid].wall == "ruin"
        assert placed[mid].x == pytest.approx(TOKEN_SPOT_X, abs=6e-4)
        assert placed[mid].engaged == ("B",)
    assert all(not placed[m].engaged for m in ("A4", "A5", "A6"))
    assert result.objective["engaged"] == 0
    assert result.objective["tokens"] == 3
    assert result.min_roll == 7
    assert result.violations == ()


def test_example_1a_roll_of_8_second_rank_reaches_the_wall() -> None:
    """With an 8 the second rank reaches the wall too (7.2"), the last model does not (8.7");
    the normal position (8.1") is still out of reach."""
    result = solved("example-1a", 8)
    assert result.status == Status.OPTIMAL
    assert tokens(result) == {"A1", "A2", "A3", "A4", "A5"}
    assert result.objective["engaged"] == 0
    assert not by_model(result)["A6"].token
    assert result.violations == ()


def test_example_1a_roll_of_6_is_short_even_without_the_wall() -> None:
    """A roll of 6 does not cover 7.3" - 1": no charge, and the rule does not apply; the
    smallest roll that charges (under the rule) is 7."""
    result = solved("example-1a", 6)
    assert result.status == Status.INFEASIBLE
    assert result.stats["wtc_walls"]["case"] == "roll_too_short"
    assert "wtc-walls rule does not help" in (result.proof or "")
    assert result.min_roll == 7


def test_example_1b_inside_or_outside_the_ruin_is_the_same() -> None:
    """1B: the mirror image, A inside the ruin: the same distances and the same tokens."""
    result = solved("example-1b", 7)
    d = result.stats["wtc_walls"]["distances"]
    assert d["to_target_walls_ignored_in"]["B"] == pytest.approx(7.3, abs=1e-3)
    assert d["to_normal_position_in"]["B"] == pytest.approx(8.1, abs=2e-3)
    assert d["to_wall_in"] == pytest.approx(5.7, abs=1e-3)
    assert tokens(result) == {"A1", "A2", "A3"}
    for mid in ("A1", "A2", "A3"):
        assert by_model(result)[mid].x == pytest.approx(30 - TOKEN_SPOT_X, abs=6e-4)
    assert result.violations == ()


def test_example_2_roll_of_8_one_model_must_take_the_legal_position() -> None:
    """2B-2E: the one normal legal position (against the inside of the wall between B8 and B9)
    is 7.9" from A3, so with an 8 A3 must take it; A1, A2 (5.7") and A4, A5 (7.2") take
    tokens; A6 (8.7") cannot reach the wall."""
    result = solved("example-2", 8)
    d = result.stats["wtc_walls"]["distances"]
    assert d["to_normal_position_in"]["B"] == pytest.approx(7.9, abs=2e-3)
    assert d["to_target_walls_ignored_in"]["B"] == pytest.approx(7.3, abs=1e-3)
    assert result.status == Status.OPTIMAL
    placed = by_model(result)
    assert not placed["A3"].token and placed["A3"].engaged == ("B",)
    assert placed["A3"].x == pytest.approx(INSIDE_X, abs=0.6)
    assert 15.66 <= placed["A3"].y <= 16.44
    assert tokens(result) == {"A1", "A2", "A4", "A5"}
    assert not placed["A6"].token
    assert result.objective["engaged"] == 1
    assert result.min_roll == 7
    assert result.violations == ()


def test_example_2_roll_of_7_no_model_reaches_the_legal_position() -> None:
    """With a 7 the legal position (7.9") is out of reach: the front three take tokens."""
    result = solved("example-2", 7)
    assert tokens(result) == {"A1", "A2", "A3"}
    assert result.objective["engaged"] == 0


def test_walled_room_plain_rules_prove_the_charge_impossible() -> None:
    """B1 in a 2.6" room: no 32mm base fits inside, so under plain 40k-10e no roll charges."""
    result = solved("walled-room", 6, ("40k-10e",))
    assert result.status == Status.INFEASIBLE
    assert "inside terrain or overlaps another unit's model" in (result.proof or "")


def test_walled_room_charged_with_tokens() -> None:
    """Under wtc-walls all three models touch the room's outside face (x = 10.2 - r, less the
    0.0025" contact gap; a 4" move) with tokens: B1's edge is 0.5" + 0.67" = 1.17" away across
    the wall."""
    result = solved("walled-room", 6)
    assert result.status == Status.OPTIMAL
    assert tokens(result) == {"A1", "A2", "A3"}
    for p in result.placements:
        assert p.x == pytest.approx(10.2 - R32 - CONTACT_GAP_IN, abs=6e-4)
        assert p.moved == pytest.approx(4.0, abs=0.01)
    assert result.min_roll == 5
    assert check_placement(scenario("walled-room"), result.placements) == []


def test_keywords_the_rule_does_not_cover() -> None:
    """A MONSTER unit gets no tokens: the rule is for INFANTRY, BEAST, IMPERIUM PRIMARCH and
    BELISARIUS CAWL."""
    s = scenario("walled-room")
    data = s.model_dump(mode="json")
    data["units"][0]["keywords"] = ["MONSTER"]
    result = solve(Scenario.model_validate(data), roll=6, time_limit=5)
    assert result.stats["wtc_walls"]["case"] == "keywords"
    assert result.status == Status.INFEASIBLE
    assert not tokens(result)


def _tokened(name: str, roll: int, **change: object) -> list[Placement]:
    placed = by_model(solved(name, roll))
    placed["A1"] = placed["A1"].model_copy(update=change)
    return list(placed.values())


def test_checker_token_off_the_wall() -> None:
    """A token model 0.3" off the wall breaks the rule (it must touch it)."""
    kinds = [
        v.kind
        for v in check_placement(
            scenario("example-1a"), _tokened("example-1a", 7, x=TOKEN_X - 0.3), roll=7
        )
    ]
    assert "token_not_touching_wall" in kinds


def test_checker_token_without_the_rule() -> None:
    """The same placement under plain 40k-10e: tokens are not allowed, and B is not engaged."""
    placements = solved("example-1a", 7).placements
    kinds = {v.kind for v in check_placement(scenario("example-1a", ("40k-10e",)), placements)}
    assert {"token_without_rule", "target_not_engaged"} <= kinds


def test_checker_token_in_normal_range_or_with_a_legal_spot() -> None:
    """Example 2, roll 8: A3 in the pocket given a token is in normal range; A3 kept at the
    wall with a token while the pocket is free: the witness finds the pocket."""
    s = scenario("example-2")
    placed = by_model(solved("example-2", 8))
    pocket = placed["A3"].model_copy(update={"token": True, "wall": "ruin"})
    found = check_placement(s, list({**placed, "A3": pocket}.values()))
    assert [v.kind for v in found] == ["token_not_allowed"]
    at_wall = placed["A3"].model_copy(
        update={"x": TOKEN_X - 0.001, "y": 16.5, "token": True, "wall": "ruin", "contact": ()}
    )
    found = check_placement(s, list({**placed, "A3": at_wall}.values()))
    assert "token_not_allowed" in [v.kind for v in found]


def test_checker_token_out_of_range() -> None:
    """A token model touching the wall 3" past B's last model is not within 2" of B."""
    found = check_placement(
        scenario("example-1a"), _tokened("example-1a", 7, y=18.5, x=TOKEN_X - 0.001), roll=7
    )
    assert "token_out_of_range" in [v.kind for v in found]


def test_token_wall_must_name_a_wall() -> None:
    """A model's token_wall (its token at the start of a later move) names a ruin wall; an
    unknown id is refused with its key path."""
    from chargeopt.models import ScenarioError, validate_document

    data = scenario("walled-room").model_dump(mode="json")
    data["units"][0]["models"][1].update({"token": True, "token_wall": "rom"})
    with pytest.raises(ScenarioError) as caught:
        validate_document(Scenario, data, "room.toml")
    assert str(caught.value) == (
        "room.toml: units[0].models[1].token_wall: no wall 'rom'; choose one of room"
    )


def _after_charge(
    acting: str, c_models: list[dict[str, object]], c_owner: str, a_charged: list[str]
) -> Scenario:
    """Unit A has charged B through the wall (x = 16.05, 0.6" thick): A1 and A2 touch its
    outside face with tokens, 1.600999" from B1 and B2 (edge to edge, across the wall); A3
    stands behind them. Unit C (`c_models`, owned by `c_owner`) is placed per example."""
    tx, bx = TOKEN_X - 0.001, 17.35 + R32
    data = {
        "ruleset": ["40k-10e", "wtc-walls"],
        "board": {"width": 30.0, "height": 22.0},
        "terrain": [
            {
                "id": "ruin",
                "kind": "wall",
                "path": [[16.05, 2.0], [16.05, 20.0]],
                "thickness": 0.6,
                "height": 5.0,
            }
        ],
        "units": [
            {
                "id": "A",
                "owner": "attacker",
                "keywords": ["INFANTRY"],
                "base": "32mm",
                "charged_units": a_charged,
                "models": [
                    {"id": "A1", "x": tx, "y": 10.0, "token": True, "token_wall": "ruin"},
                    {"id": "A2", "x": tx, "y": 11.4, "token": True, "token_wall": "ruin"},
                    {"id": "A3", "x": 12.0, "y": 10.7},
                ],
            },
            {
                "id": "B",
                "owner": "defender",
                "keywords": ["INFANTRY"],
                "base": "32mm",
                "models": [{"id": "B1", "x": bx, "y": 10.0}, {"id": "B2", "x": bx, "y": 11.4}],
            },
            {"id": "C", "owner": c_owner, "base": "32mm", "models": c_models},
        ],
        "action": {"kind": "pile-in", "unit": acting},
    }
    return Scenario.model_validate(data)


def test_fight_after_the_charge_token_models_fight_across_the_wall() -> None:
    """1A-G: after the charge with a 7, the token models can fight B (2" across the wall);
    the others, out of range, cannot."""
    from chargeopt.geometry.fight import fight_eligibility

    result = solved("example-1a", 7)
    can = fight_eligibility(scenario("example-1a"), result.placements)
    assert can == {"A1": ("B",), "A2": ("B",), "A3": ("B",), "A4": (), "A5": (), "A6": ()}


def test_example_3_a_third_unit_near_the_target_does_not_join() -> None:
    """Example 3: C (A's side, no tokens, charged nothing) stands 1.93" from B2 across the
    wall; B fights A's token models at 1.6" but not C."""
    from chargeopt.geometry.fight import fight_eligibility

    s = _after_charge("B", [{"id": "C1", "x": TOKEN_X - 0.001, "y": 12.8}], "attacker", ["B"])
    assert fight_eligibility(s, []) == {"B1": ("A",), "B2": ("A",)}


def test_example_4_defenders_that_stay_keep_their_two_inches() -> None:
    """Example 4: B fights first and piles in B2 away (3.12" from A2); B1 stays and still
    fights A across the wall."""
    from chargeopt.geometry.fight import fight_eligibility

    s = _after_charge("B", [{"id": "C1", "x": 3.0, "y": 3.0}], "attacker", ["B"])
    moved = [Placement(model="B2", x=19.5, y=11.4)]
    assert fight_eligibility(s, moved) == {"B1": ("A",), "B2": ()}


def test_example_5_tokens_lost_in_normal_range_of_a_charged_unit() -> None:
    """Example 5: A charged B and C; C1 stands 0.41" from A1 and A2 (normal range), so their
    tokens are gone: A fights only C, and B can no longer fight A."""
    from chargeopt.geometry.fight import fight_eligibility

    c = [{"id": "C1", "x": 13.6, "y": 10.7}]
    a = _after_charge("A", c, "defender", ["B", "C"])
    assert fight_eligibility(a, []) == {"A1": ("C",), "A2": ("C",), "A3": ("C",)}
    b = _after_charge("B", c, "defender", ["B", "C"])
    assert fight_eligibility(b, []) == {"B1": (), "B2": ()}


def test_example_6_heroic_intervention_ends_the_rule() -> None:
    """Example 6: C (not charged) heroically intervenes into normal range of A's token
    models: they fight C, not B, and B cannot fight A."""
    from chargeopt.geometry.fight import fight_eligibility

    c = [{"id": "C1", "x": 13.6, "y": 10.7}]
    a = _after_charge("A", c, "defender", ["B"])
    assert fight_eligibility(a, []) == {"A1": ("C",), "A2": ("C",), "A3": ("C",)}
    b = _after_charge("B", c, "defender", ["B"])
    assert fight_eligibility(b, []) == {"B1": (), "B2": ()}


def test_charged_units_must_exist() -> None:
    """Unit.charged_units names units of the scenario; an unknown id is refused."""
    from chargeopt.models import ScenarioError, validate_document

    data = _after_charge("B", [{"id": "C1", "x": 3.0, "y": 3.0}], "attacker", ["B"])
    doc = data.model_dump(mode="json")
    doc["units"][0]["charged_units"] = ["B", "D"]
    with pytest.raises(ScenarioError) as caught:
        validate_document(Scenario, doc, "fight.toml")
    assert str(caught.value).startswith("fight.toml: units[0].charged_units[1]: no unit 'D'")


def test_checker_token_naming_no_wall() -> None:
    """A token needs the id of the ruin wall it fights across."""
    found = check_placement(scenario("example-1a"), _tokened("example-1a", 7, wall="nope"), roll=7)
    assert [v.kind for v in found] == ["token_without_wall"]


def test_checker_tokens_with_a_roll_short_even_without_the_wall() -> None:
    """Tokens at a roll of 5: B is 7.3" away, more than 5" + 1" with the wall ignored (the
    moves are too long as well)."""
    found = check_placement(scenario("example-1a"), solved("example-1a", 7).placements, roll=5)
    short = [v for v in found if v.kind == "token_roll_too_short"]
    assert len(short) == 1
    assert short[0].distance_in == pytest.approx(7.3, abs=1e-3)
    assert short[0].limit_in == 6.0
