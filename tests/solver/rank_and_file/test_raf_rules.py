"""The rank-and-file rules added for issue 41, each on a hand-worked table: duplicate chargers,
T9A's declaration conditions, Fighting Over Gaps, T9A's Failed Charge Move, tow's failed
charge, Blocked Path and failed moves inside combined charges."""

from __future__ import annotations

import math

import pytest
from t9a_builders import INCH_25MM, block, table

from chargeopt.geometry.checker.rank_and_file import check_blocks
from chargeopt.geometry.rank_and_file.contact import contact_counts
from chargeopt.geometry.rank_and_file.declaration import check_declarations, declared_sight
from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.models import RankAndFileScenario, ScenarioError, Status, validate_document
from chargeopt.solver import solve

WIDTH_5 = 5 * INCH_25MM
"""A five-wide block of 25 mm bases: 4.921"."""


def _kinds(scenario, result) -> set[str]:
    return {v.kind for v in check_blocks(scenario, result)}


def _with_block(result, **changes):
    entry = dict(result.blocks[0], **changes)
    return result.model_copy(update={"blocks": (entry, *result.blocks[1:])})


# --- duplicate chargers -------------------------------------------------------------------


def test_a_unit_named_twice_is_refused_naming_the_key() -> None:
    data = {
        "ruleset": "t9a-2022",
        "board": {"width": 48, "height": 48},
        "units": [block("A1", "attacker", 10, 30, -90), block("B", "defender", 10, 10, 90)],
        "action": {"kind": "charge", "units": ["A1", "A1"], "targets": ["B"]},
    }
    with pytest.raises(ScenarioError, match=r"x\.toml: action\.units\[1\]: unit 'A1' is named"):
        validate_document(RankAndFileScenario, data, "x.toml")


# --- declaration conditions (T9A) -----------------------------------------------------------


def test_a_target_behind_the_front_cannot_be_declared() -> None:
    """A faces east from x = 31; B lies wholly north-west of A's front-left corner, outside the
    45-degree line: no part of it is in A's Front Arc."""
    scenario = table(
        [block("A", "attacker", 31.0, 16.0, 0.0), block("B", "defender", 30.0, 10.0, 90.0)]
    )
    with pytest.raises(ScenarioError, match=r"action\.unit: B is not in A's Front Arc"):
        check_declarations(scenario, "x.toml")
    with pytest.raises(ScenarioError, match="not in A's Front Arc"):
        solve(scenario)


def test_a_wall_across_the_whole_view_leaves_no_line_of_sight() -> None:
    """The x1-wall table: a wall from x = 2 to 46 between A (y = 30) and B (y <= 10); every
    line from A's front to B crosses it."""
    scenario = table(
        [block("A", "attacker", 14.0, 30.0, -90.0), block("B", "defender", 19.0, 10.0, 90.0)],
        terrain=[[(2.0, 20.0), (46.0, 20.0), (46.0, 22.0), (2.0, 22.0)]],
    )
    with pytest.raises(ScenarioError, match="A has no line of sight to B"):
        check_declarations(scenario, "x.toml")


def test_a_slit_in_the_wall_gives_a_line_of_sight_through_it() -> None:
    """The same wall with a gap from x = 16 to 16.5: the line of sight found crosses the wall's
    band (y 20..22) inside the gap, and the checker accepts it; a claimed line through the
    wall is refused."""
    scenario = table(
        [block("A", "attacker", 14.0, 30.0, -90.0), block("B", "defender", 19.0, 10.0, 90.0)],
        terrain=[
            [(2.0, 20.0), (16.0, 20.0), (16.0, 22.0), (2.0, 22.0)],
            [(16.5, 20.0), (46.0, 20.0), (46.0, 22.0), (16.5, 22.0)],
        ],
    )
    check_declarations(scenario)
    line = declared_sight(scenario, "A")
    assert line is not None
    (x0, y0), (x1, y1) = line
    for y in (20.0, 22.0):
        x = x0 + (x1 - x0) * (y - y0) / (y1 - y0)
        assert 16.0 - 1e-6 <= x <= 16.5 + 1e-6
    result = solve(scenario)
    assert result.status == Status.INFEASIBLE
    assert _kinds(scenario, result) == set()
    bad = _with_block(result, line_of_sight=[[15.0, 30.0], [15.0, 10.0]])
    assert "no_line_of_sight" in _kinds(scenario, bad)


def test_another_unit_in_the_way_blocks_the_line_of_sight() -> None:
    """A friendly block C wider than both stands squarely between A and B."""
    scenario = table(
        [
            block("A", "attacker", 14.0, 30.0, -90.0),
            block("B", "defender", 19.0, 10.0, 90.0),
            block("C", "attacker", 8.0, 22.0, -90.0, files=16, ranks=1),
        ],
    )
    with pytest.raises(ScenarioError, match="no line of sight"):
        check_declarations(scenario)


def test_a_line_grazing_a_corner_still_sees() -> None:
    """Two rocks meet B's view only at their corners: the one line between them, through the
    point (16.5, 21), grazes both and is a line of sight."""
    scenario = table(
        [block("A", "attacker", 14.0, 30.0, -90.0), block("B", "defender", 19.0, 10.0, 90.0)],
        terrain=[
            [(2.0, 20.0), (16.5, 20.0), (16.5, 21.0), (2.0, 21.0)],
            [(16.5, 21.0), (46.0, 21.0), (46.0, 22.0), (16.5, 22.0)],
        ],
    )
    line = declared_sight(scenario, "A")
    assert line is not None
    (x0, y0), (x1, y1) = line
    assert x0 + (x1 - x0) * (21.0 - y0) / (y1 - y0) == pytest.approx(16.5, abs=1e-6)


def test_declaration_is_t9a_only() -> None:
    scenario = table(
        [
            block("A", "attacker", 31.0, 16.0, 0.0, profile={"movement": 4}),
            block("B", "defender", 30.0, 10.0, 90.0),
        ],
        ruleset="whfb-6e",
    )
    check_declarations(scenario)


# --- Fighting Over Gaps -------------------------------------------------------------------


def _rear_charge(ruleset: str):
    """B: 5 files, 13 models (its third rank holds 3, at the left), facing up (front y = 20,
    rear y = 22.953). A, 5 wide, faces it from below at y = 26."""
    extra = {"profile": {"movement": 5}} if ruleset != "t9a-2022" else {}
    units = [
        block("A", "attacker", 20.0, 26.0, -90.0, **extra),
        block("B", "defender", 20.0, 20.0, -90.0, ranks=None, models=13),
    ]
    return table(units, roll=12 if ruleset != "whfb-6e" else None, ruleset=ruleset)


def test_rear_of_an_incomplete_rank_counts_five_and_five_over_the_gaps() -> None:
    """The rear rank's 3 models touch A's front; the two second-rank models behind its empty
    slots fight over the gap: 5 target models against A's 5 (not 3 against 5)."""
    scenario = _rear_charge("t9a-2022")
    result = solve(scenario)
    a = result.blocks[0]
    assert result.status == Status.OPTIMAL and a["target_facing"] == "rear"
    assert (a["target_models_in_contact"], a["models_in_contact"]) == (5, 5)
    assert _kinds(scenario, result) == set()
    assert "count_mismatch" in _kinds(scenario, _with_block(result, target_models_in_contact=3))


def test_contact_counts_with_and_without_gaps() -> None:
    """Flush on B's rear: bases touching the other's boundary give 3 and 5; over the gaps 5
    and 5. Slid 2 bases to the right (x = 21.969), A's front covers files 2..4 of B: the third
    rank's model 2, the second rank's models 3 and 4 behind the gaps, and model 1 corner to
    corner; A's models 0..2, and 3 corner to corner: 4 and 4 over the gaps. By bases: B's
    models 1 (corner) and 2 against A's 4."""
    scenario = _rear_charge("t9a-2022")
    b = scenario.unit_by_id["B"]
    a = scenario.unit_by_id["A"]
    tpose = BlockPose.of(b)
    rear_y = 20.0 + 3 * INCH_25MM
    flush = BlockPose(WIDTH_5, a.depth_in, 20.0, rear_y, -90.0)
    t, c = contact_counts(b, tpose, a, flush, over_gaps=True)
    assert (len(t), len(c)) == (5, 5)
    t, c = contact_counts(b, tpose, a, flush, over_gaps=False)
    assert (len(t), len(c)) == (3, 5)
    slid = BlockPose(WIDTH_5, a.depth_in, 20.0 + 2 * INCH_25MM, rear_y, -90.0)
    t, c = contact_counts(b, tpose, a, slid, over_gaps=True)
    assert (len(t), len(c)) == (4, 4)
    t, c = contact_counts(b, tpose, a, slid, over_gaps=False)
    assert (len(t), len(c)) == (2, 4)


def test_gaps_are_t9a_only() -> None:
    """6e counts bases touching the other unit's boundary (the spec's reading): 3 and 5."""
    scenario = _rear_charge("whfb-6e")
    result = solve(scenario)
    assert result.objective["target_models_in_contact"] == 3
    assert result.objective["models_in_contact"] == 5


# --- T9A Failed Charge Move -----------------------------------------------------------------


def test_failed_charge_straight_at_the_target_goes_four_inches() -> None:
    """A (front y = 40) faces up; B's rear facing centre lies straight ahead of A's centre: no
    wheel, 4" forward, front at y = 36."""
    scenario = table(
        [block("A", "attacker", 20.0, 40.0, -90.0), block("B", "defender", 20.0, 20.0, -90.0)],
        roll=10,
    )
    result = solve(scenario)
    a = result.blocks[0]
    assert result.status == Status.INFEASIBLE and a["outcome"] == "fails"
    assert a["y"] == pytest.approx(36.0, abs=1e-6) and a["x"] == pytest.approx(20.0, abs=1e-6)
    assert a["moved_in"] == pytest.approx(4.0) and a["failed_move_in"] == 4.0
    assert _kinds(scenario, result) == set()
    short = _with_block(result, y=37.0, path=[{"move": "forward", "distance_in": 3.0}])
    assert "failed_move_short" in _kinds(scenario, short)
    long = _with_block(result, y=35.0, path=[{"move": "forward", "distance_in": 5.0}])
    assert "failed_move_too_long" in _kinds(scenario, long)
    moved = _with_block(result, y=35.0)
    assert "path_end_mismatch" in _kinds(scenario, moved)


def test_failed_charge_wheel_stops_at_four_inches_of_travel() -> None:
    """A, ten 25 mm bases wide (9.843"), faces up; B's rear centre is 51.8 degrees to its right
    (from A's centre), B's corner inside A's Front Arc: the wheel towards it runs out of the 4"
    first: 4 / 9.843 radians = 23.28 degrees, no forward."""
    scenario = table(
        [
            block("A", "attacker", 4.0, 40.0, -90.0, files=10),
            block("B", "defender", 30.0, 20.0, -90.0),
        ],
        roll=8,
    )
    result = solve(scenario)
    a = result.blocks[0]
    wheel = a["path"][0]
    assert wheel["move"] == "wheel" and wheel["pivot"] == "front-right"
    assert wheel["angle_deg"] == pytest.approx(math.degrees(4.0 / (10 * INCH_25MM)), abs=1e-3)
    assert a["path"][1]["distance_in"] == pytest.approx(0.0, abs=1e-6)
    assert _kinds(scenario, result) == set()


def test_failed_charge_wheels_only_to_its_aim() -> None:
    """B's rear centre lies ahead and a little to the right: the wheel stops where A's centre
    points at it, then forward makes up the 4"; a wheel stopped halfway is flagged."""
    scenario = table(
        [block("A", "attacker", 20.0, 40.0, -90.0), block("B", "defender", 24.0, 20.0, -90.0)],
        roll=10,
    )
    result = solve(scenario)
    a = result.blocks[0]
    wheel, ahead = a["path"]
    end = BlockPose(WIDTH_5, 3 * INCH_25MM, a["x"], a["y"], a["facing"])
    centre = end.polygon.centroid
    aim = (24.0 + WIDTH_5 / 2, 20.0 + 3 * INCH_25MM)
    heading = math.degrees(math.atan2(aim[1] - centre.y, aim[0] - centre.x))
    assert heading == pytest.approx(a["facing"], abs=0.01)
    assert wheel["travel_in"] + ahead["distance_in"] == pytest.approx(4.0, abs=1e-3)
    assert _kinds(scenario, result) == set()
    half = dict(wheel, angle_deg=wheel["angle_deg"] / 2)
    start = BlockPose(WIDTH_5, 3 * INCH_25MM, 20.0, 40.0, -90.0)
    from chargeopt.geometry.rank_and_file.moves import forward
    from chargeopt.geometry.rank_and_file.moves import wheel as wheel_about

    pose = forward(wheel_about(start, half["angle_deg"]), ahead["distance_in"])
    bad = _with_block(result, x=pose.x, y=pose.y, facing=pose.facing, path=[half, ahead])
    assert "failed_move_short" in _kinds(scenario, bad)


def test_failed_charge_stops_just_before_terrain() -> None:
    """A rock's edge 2" ahead of A's front: no wheel (B straight ahead), forward 2 - 0.02"."""
    scenario = table(
        [block("A", "attacker", 20.0, 40.0, -90.0), block("B", "defender", 20.0, 20.0, -90.0)],
        terrain=[[(23.0, 37.0), (30.0, 37.0), (30.0, 38.0), (23.0, 38.0)]],
        roll=10,
    )
    result = solve(scenario)
    a = result.blocks[0]
    assert a["path"][-1]["distance_in"] == pytest.approx(1.98, abs=1e-3)
    assert _kinds(scenario, result) == set()
    through = _with_block(result, y=36.0, path=[{"move": "forward", "distance_in": 4.0}])
    assert "illegal_path" in _kinds(scenario, through)


def test_an_impossible_charge_makes_the_failed_move_too() -> None:
    """The slit table (no path through 1/2"): the charge is impossible, and A still makes its
    Failed Charge Move, stopping short of the wall (its front 0.02" from y = 22)."""
    scenario = table(
        [block("A", "attacker", 14.0, 30.0, -90.0), block("B", "defender", 19.0, 10.0, 90.0)],
        terrain=[
            [(2.0, 20.0), (16.0, 20.0), (16.0, 22.0), (2.0, 22.0)],
            [(16.5, 20.0), (46.0, 20.0), (46.0, 22.0), (16.5, 22.0)],
        ],
    )
    result = solve(scenario)
    a = result.blocks[0]
    assert a["outcome"] == "impossible" and a["path"]
    assert "Failed Charge Move" in result.proof
    assert _kinds(scenario, result) == set()


# --- tow's failed charge --------------------------------------------------------------------


def test_tow_failed_charge_moves_the_higher_die() -> None:
    """Movement 4, roll 5 (the higher die a 1), B 6" straight ahead: the charge fails and A
    moves 1" straight at B; 1.5" is too long."""
    scenario = table(
        [
            block("A", "attacker", 20.0, 30.0, -90.0, profile={"movement": 4}),
            block("B", "defender", 20.0, 24.0 - 3 * INCH_25MM, -90.0),
        ],
        roll=5,
        ruleset="tow",
    )
    result = solve(scenario)
    a = result.blocks[0]
    assert result.status == Status.INFEASIBLE and a["outcome"] == "fails"
    assert a["y"] == pytest.approx(29.0, abs=1e-6) and a["failed_move_in"] == 1.0
    assert _kinds(scenario, result) == set()
    long = _with_block(result, y=28.5, path=[{"move": "forward", "distance_in": 1.5}])
    assert "failed_move_too_long" in _kinds(scenario, long)


# --- combined charges: Blocked Path and failed moves ----------------------------------------


def _combined(rolls: dict[str, int]):
    """The b1-blocked-path table (A's Target Facing, B's left, walled off by a rock; B the
    first thing straight ahead of A) with A2 in B's right arc."""
    return table(
        [
            block("A", "attacker", 38.663726, 21.261936, -150.0),
            block("B", "defender", 30.0, 10.0, 90.0),
            block("A2", "attacker", 18.0, 7.0, 0.0, files=3),
        ],
        terrain=[[(30, 3), (36, 3), (36, 10.2), (30, 10.2)]],
        chargers=("A", "A2"),
        rolls=rolls,
    )


def test_blocked_path_inside_a_combined_charge() -> None:
    """A takes Blocked Path to B's front (flush, 5 and 5), A2 charges B's right flank (3 and
    3, B's front-right corner model counted once): 2 charges, 7 target models, 8 chargers'."""
    scenario = _combined({"A": 14, "A2": 12})
    result = solve(scenario)
    assert result.status == Status.OPTIMAL
    assert result.objective == {
        "charges": 2,
        "target_models_in_contact": 7,
        "models_in_contact": 8,
    }
    a, a2 = result.blocks
    assert a["blocked_path"] is True and a["target_facing"] == "front"
    assert a2["target_facing"] == "right" and "blocked_path" not in a2
    assert _kinds(scenario, result) == set()


def test_a_failing_combined_charger_makes_its_failed_move_after_the_charges() -> None:
    """A's roll of 12 is short of the 13.14" to B: A2 charges alone, then A makes its Failed
    Charge Move (4") clear of everything, and the checker accepts both."""
    scenario = _combined({"A": 12, "A2": 12})
    result = solve(scenario)
    a = result.blocks[0]
    assert result.objective["charges"] == 1
    assert a["outcome"] == "fails" and a["moved_in"] == pytest.approx(4.0)
    assert "Failed Charge Move" in a["reason"]
    assert _kinds(scenario, result) == set()


def test_the_cli_refuses_an_undeclarable_charge_in_one_line() -> None:
    """x1-wall: exit 2, one `error:` line naming the file, the key, why and the fix."""
    from click.testing import CliRunner
    from repo_paths import REPO_ROOT as REPO

    from chargeopt.solver.interface.cli import main

    path = REPO / "benchmarks" / "rank-and-file-v1" / "x1-wall.toml"
    run = CliRunner().invoke(main, ["solve", str(path)])
    assert run.exit_code == 2
    lines = [line for line in run.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "x1-wall.toml: action.unit: A has no line of sight to B" in lines[0]
    assert "turn or move the charger" in lines[0]


def test_failed_charge_wheel_stops_just_before_a_friend() -> None:
    """Wheeling right towards B (its aim 31.44 degrees), A's front-left corner swings into the
    friendly C: the wheel stops 0.02" short of C (30.47 degrees) and the forward move too; a
    wheel on to the aim would run into C."""
    scenario = table(
        [
            block("A", "attacker", 20.0, 40.0, -90.0),
            block("B", "defender", 30.0, 20.0, -90.0),
            block("C", "attacker", 20.5, 36.5, -90.0, files=2, ranks=1),
        ],
        roll=5,
    )
    result = solve(scenario)
    wheel, ahead = result.blocks[0]["path"]
    assert wheel["angle_deg"] == pytest.approx(30.473, abs=0.01)
    assert ahead["distance_in"] < 0.02
    assert _kinds(scenario, result) == set()
    from chargeopt.geometry.rank_and_file.moves import wheel as wheel_about

    start = BlockPose.of(scenario.unit_by_id["A"])
    on = wheel_about(start, 31.444)
    bad = _with_block(
        result,
        x=on.x,
        y=on.y,
        facing=on.facing,
        path=[dict(wheel, angle_deg=31.444), dict(ahead, distance_in=0.0)],
    )
    assert "illegal_path" in _kinds(scenario, bad)
