"""Climbing over dense terrain (13.06) and taking to the skies (21.03) in the 11th-edition
charge, on one layout worked out in closed form.

A dense block 3" high runs x 4 to 36, y 14 to 15 (1" deep, 32" long). A1 (32mm, radius R)
stands at (20, 10), B1 at (20, 18.5): 8.5" centre to centre, 7.24" edge to edge. A model that
cannot cross the block ends with its centre at y <= 14 - R (near side: at least 5.13" from
B1's centre, never engaged) or y >= 15 + R = 15.63 (far side). Straight over the block:
engaged (centre 3.26" from B1's, y >= 15.24, so y = 15.63) costs 5.63" plus 3" up and 3" down
= 11.63"; within 1" (centre y >= 16.24) costs 6.24 + 6 = 12.24". Around either end of the
block (x <= 4 - R or x >= 36 + R) is more than 16" each way. Taking to the skies, the climb is
not counted and the move is the roll less 2."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

from chargeopt.geometry.checker import check_placement
from chargeopt.geometry.checker.path_lengths import climbing_length
from chargeopt.geometry.climb_11e import climb_sets
from chargeopt.geometry.footprints import Footprint
from chargeopt.geometry.move_state import MoveState
from chargeopt.geometry.terrain import Battlefield
from chargeopt.geometry.terrain_11e import climbs
from chargeopt.models import Placement, RoundBase, Scenario, ScenarioError, Status
from chargeopt.models.loading import validate_document
from chargeopt.solver import SolveOptions, solve

R = 16 / 25.4
OPTIONS = SolveOptions(time_limit_s=10.0, roll_table=False)
BLOCK = {
    "id": "wall-block",
    "kind": "dense",
    "path": [[4.0, 14.0], [36.0, 14.0], [36.0, 15.0], [4.0, 15.0]],
    "height_in": 3.0,
}


def layout(
    keywords: list[str],
    roll: int,
    *,
    skies: bool = False,
    second: bool = False,
    ruleset: str = "40k-11e",
) -> dict[str, Any]:
    models = [{"id": "A1", "x": 20.0, "y": 10.0}]
    if second:
        models.append({"id": "A2", "x": 23.0, "y": 16.8})
    action: dict[str, Any] = {"kind": "charge", "unit": "A", "targets": ["B"], "roll": roll}
    if skies:
        action["take_to_the_skies"] = True
    return {
        "ruleset": ruleset,
        "board": {"width": 40.0, "height": 30.0},
        "terrain": [BLOCK],
        "units": [
            {
                "id": "A",
                "owner": "attacker",
                "keywords": keywords,
                "base": "32mm",
                "models": models,
            },
            {
                "id": "B",
                "owner": "defender",
                "keywords": ["INFANTRY"],
                "base": "32mm",
                "models": [{"id": "B1", "x": 20.0, "y": 18.5}],
            },
        ],
        "action": action,
    }


def scenario(*args: Any, **kwargs: Any) -> Scenario:
    return Scenario.model_validate(layout(*args, **kwargs))


def test_a_vehicle_climbs_over_the_block_to_engage() -> None:
    """On a 12 the climb (11.63") engages B1, never within 1" (12.24"); the answer moves at
    least 11.63" and passes the checker."""
    s = scenario(["VEHICLE"], 12)
    result = solve(s, options=OPTIONS)
    assert result.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert (result.objective["within_1"], result.objective["engaged"]) == (0, 1)
    a1 = result.placements[0]
    assert a1.y >= 15 + R - 1e-6
    assert 11.63 <= a1.moved <= 12.0
    assert check_placement(s, result.placements) == []


def test_on_an_11_the_climb_is_too_long_and_nothing_is_claimed_proven() -> None:
    """On an 11 no path reaches B1's 2" (climb 11.63"): no placement, and no proof either
    (the straight line would reach, so chargeopt proves nothing a climb could refute)."""
    result = solve(scenario(["VEHICLE"], 11), options=OPTIONS)
    assert result.status == Status.UNKNOWN
    assert result.proof is None


def test_infantry_cross_the_block_without_climbing() -> None:
    """INFANTRY move through dense terrain: within 1" costs 6.24" on an 8 (B is 7.24" away)."""
    result = solve(scenario(["INFANTRY"], 8), options=OPTIONS)
    assert (result.objective["within_1"], result.objective["engaged"]) == (1, 1)


def _judged(s: Scenario, x: float, y: float, roll: int) -> list[str]:
    placement = Placement(model="A1", x=x, y=y, z=0.0)
    return [v.kind for v in check_placement(s, [placement], roll=roll)]


def test_the_checker_counts_the_climb_up_and_down() -> None:
    """A1 at (20, 15.7): 5.70" across plus 6" of climb = 11.70": legal on a 12, too far on an
    11; the checker's own climbing path costs exactly that."""
    s = scenario(["VEHICLE"], 12)
    assert _judged(s, 20.0, 15.7, 12) == []
    assert "moved_too_far" in _judged(s, 20.0, 15.7, 11)
    field = Battlefield.from_scenario(s)
    placements = {"A1": Placement(model="A1", x=20.0, y=15.7, z=0.0)}
    move = MoveState(s, field, 12, placements, 0.0)
    end = Footprint(RoundBase(diameter_mm=32), 20.0, 15.7, 0.0, 0.0)
    assert climbing_length(move, "A1", end, ()) == pytest.approx(11.70, abs=1e-3)


def test_the_checker_refuses_an_end_on_the_block() -> None:
    """The climber may not end on the block (on the ground it would stand through it)."""
    assert "in_terrain" in _judged(scenario(["VEHICLE"], 12), 20.0, 14.5, 12)


def test_taking_to_the_skies_ignores_the_climb_and_moves_two_inches_less() -> None:
    """A FLY VEHICLE with A2 already past the block (2.19" from B1). Taking to the skies on an
    8 it moves 6": A1 engages (5.63") but is not within 1" (6.24"); on a 9 (7") it is. On
    foot on an 8 the climb (11.63") keeps A1 on the near side: 1 engaged."""
    flying = scenario(["VEHICLE", "FLY"], 8, skies=True, second=True)
    at_eight = solve(flying, options=OPTIONS)
    assert (at_eight.objective["within_1"], at_eight.objective["engaged"]) == (1, 2)
    assert all(p.moved <= 6.0 for p in at_eight.placements)
    assert check_placement(flying, at_eight.placements) == []
    at_nine = solve(scenario(["VEHICLE", "FLY"], 9, skies=True, second=True), options=OPTIONS)
    assert (at_nine.objective["within_1"], at_nine.objective["engaged"]) == (2, 2)
    on_foot = solve(scenario(["VEHICLE", "FLY"], 8, second=True), options=OPTIONS)
    assert on_foot.objective["engaged"] == 1


def test_the_checker_holds_a_flyer_to_the_roll_less_two() -> None:
    """A1 flown to (20, 16.24), 6.24" straight over the block: legal on a 9 (7"), too far on
    an 8 (6"); and the target must be within the roll less 2 (7.24" > 7 on a 9, alone)."""
    s = scenario(["VEHICLE", "FLY"], 9, skies=True, second=True)
    p = [Placement(model="A1", x=20.0, y=16.25, z=0.0), Placement(model="A2", x=21.4, y=16.8)]
    assert [v.kind for v in check_placement(s, p, roll=9)] == []
    assert "moved_too_far" in [v.kind for v in check_placement(s, p, roll=8)]
    alone = scenario(["VEHICLE", "FLY"], 9, skies=True)
    found = check_placement(alone, [Placement(model="A1", x=20.0, y=16.0, z=0.0)], roll=9)
    assert "target_not_eligible" in [v.kind for v in found]
    result = solve(alone, options=OPTIONS)
    assert result.status == Status.INFEASIBLE
    assert '7" (the roll of 9 less 2)' in (result.proof or "")
    assert result.min_roll == 10


@pytest.mark.parametrize(
    ("changes", "line"),
    [
        (
            {"keywords": ["VEHICLE"]},
            "c.toml: action.take_to_the_skies: unit 'A' cannot FLY (it has no FLY keyword); "
            'add "FLY" to its keywords, or remove take_to_the_skies',
        ),
        (
            {"ruleset": "40k-10e"},
            "c.toml: action.take_to_the_skies: 40k-10e has no taking to the skies (only 40k-11e "
            "reads it); remove it",
        ),
        (
            {"action": {"kind": "pile-in", "unit": "A", "take_to_the_skies": True}},
            "c.toml: action.take_to_the_skies: a pile-in cannot take to the skies (a charge or a "
            "heroic intervention can); remove it",
        ),
    ],
)
def test_take_to_the_skies_is_refused_where_it_cannot_apply(changes, line) -> None:
    document = layout(["VEHICLE", "FLY"], 9, skies=True)
    if "keywords" in changes:
        document["units"][0]["keywords"] = changes["keywords"]
    if "ruleset" in changes:
        document["ruleset"] = changes["ruleset"]
        document["terrain"] = []
    if "action" in changes:
        document["action"] = changes["action"]
    with pytest.raises(ScenarioError) as caught:
        validate_document(Scenario, document, "c.toml")
    assert caught.value.lines() == [line]


@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    phases=(Phase.explicit, Phase.generate),
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    x=st.floats(6.0, 34.0),
    height=st.sampled_from([2.5, 3.0, 4.0]),
    roll=st.integers(8, 12),
    skies=st.booleans(),
)
def test_every_climbing_or_flying_answer_passes_the_checker(
    x: float, height: float, roll: int, skies: bool
) -> None:
    """A FLY VEHICLE anywhere behind a block of random height, on foot (climbing) or taking to
    the skies: every placement chargeopt writes is legal by the checker's own path costing."""
    document = layout(["VEHICLE", "FLY"], roll, skies=skies)
    document["units"][0]["models"][0]["x"] = x
    document["terrain"][0] = {**BLOCK, "height_in": height}
    s = Scenario.model_validate(document)
    result = solve(s, options=SolveOptions(time_limit_s=3.0, roll_table=False))
    note(f"{result.status} {result.objective}")
    if result.status in (Status.OPTIMAL, Status.FEASIBLE):
        assert check_placement(s, result.placements) == []


def test_a_close_move_never_climbs() -> None:
    """A tall area is more than 2" high, so its climb (up and down) is more than 4": within
    a 3" pile in or consolidation no set of areas is worth trying; within 6", this one is."""
    s = scenario(["VEHICLE"], 12)
    field = Battlefield.from_scenario(s)
    found = climbs(s.rules, frozenset({"VEHICLE"}), field)
    assert [(c.terrain_id, c.cost_in) for c in found] == [("wall-block", 6.0)]
    assert climb_sets(found, (20.0, 10.0), 3.0) == []
    assert climb_sets(found, (20.0, 10.0), 12.0) == [found]
    assert climbs(s.rules, frozenset({"MOBILE"}), field) == ()


def test_the_checker_counts_each_area_climbed() -> None:
    """Two blocks 2.05" high (climb 4.1" each), y 12 to 12.5 and 13.5 to 14, B1 at (20, 17.5).
    A1 from (20, 11.2) to (20, 14.7): 3.5" across both plus 8.2" of climbs = 11.7" (engaged:
    2.8" centre to centre); legal on a 12, too far on an 11."""
    document = layout(["VEHICLE"], 12)
    document["units"][0]["models"][0]["y"] = 11.2
    document["units"][1]["models"][0]["y"] = 17.5
    document["terrain"] = [
        {**BLOCK, "id": "first", "path": [[4, 12], [36, 12], [36, 12.5], [4, 12.5]]},
        {**BLOCK, "id": "second", "path": [[4, 13.5], [36, 13.5], [36, 14], [4, 14]]},
    ]
    for piece in document["terrain"]:
        piece["height_in"] = 2.05
    s = Scenario.model_validate(document)
    assert _judged(s, 20.0, 14.7, 12) == []
    assert "moved_too_far" in _judged(s, 20.0, 14.7, 11)
    placements = {"A1": Placement(model="A1", x=20.0, y=14.7, z=0.0)}
    move = MoveState(s, Battlefield.from_scenario(s), 12, placements, 0.0)
    end = Footprint(RoundBase(diameter_mm=32), 20.0, 14.7, 0.0, 0.0)
    assert climbing_length(move, "A1", end, ()) == pytest.approx(11.7, abs=1e-3)


def test_into_the_fray_taking_to_the_skies_moves_four_inches() -> None:
    """Into the Fray counts a 12 as 6, and taking to the skies takes 2" off: 4". A1 cannot
    reach the far side (5.63"), so it stays near the block within 2" of A2 (A2 within 1" of
    B1): 1 within 1", 1 engaged, nobody moving more than 4"; the checker agrees."""
    document = layout(["MONSTER", "FLY"], 12, skies=True, second=True)
    document["action"] = {
        "kind": "heroic-intervention",
        "unit": "A",
        "heroic_mode": "into-the-fray",
        "take_to_the_skies": True,
        "roll": 12,
    }
    s = Scenario.model_validate(document)
    result = solve(s, options=OPTIONS)
    assert (result.objective["within_1"], result.objective["engaged"]) == (1, 1)
    assert all(p.moved <= 4.0 for p in result.placements)
    assert check_placement(s, result.placements) == []
