"""T9A 2022 charges measured by hand: the seed's worked example, a straight charge, the Charge
Range and its odds, the Align Move's priorities in conflict, an unaligned charge with the
target's rotation, and refusals of impossible charges with their reasons."""

from __future__ import annotations

import math

import pytest
from t9a_builders import INCH_25MM, block, table

from chargeopt.geometry.checker.rank_and_file import check_blocks
from chargeopt.models import Status
from chargeopt.solver import solve
from chargeopt.solver.rank_and_file.odds import chance_of_range

W5 = 5 * INCH_25MM
"""A 5-file front of 25 mm bases: 4.92126"."""


def _one(result):
    assert not result.violations, result.violations
    return next(b for b in result.blocks if b["role"] == "charger")


@pytest.mark.parametrize(
    ("maximised", "table_pct"),
    [(False, [100, 83, 67, 50, 33, 17]), (True, [100, 97, 89, 75, 56, 31])],
)
def test_the_seeds_odds_table(maximised: bool, table_pct: list[int]) -> None:
    got = [round(100 * float(chance_of_range(n, 0, maximised))) for n in range(5, 11)]
    assert got == table_pct


def test_charge_speed_adds_to_the_range() -> None:
    assert chance_of_range(8, charge_speed_in=1) == chance_of_range(7)
    assert chance_of_range(11) == 0


def test_straight_charge_head_on() -> None:
    """B faces down the table at y = 20 (front x from 11.08 to 16); A faces up with its front
    at y = 30, x from 10: 10" apart, Charge Range 10 needed (1 in 6); A ends flush on B's front,
    5 and 5 models in contact, its front-left corner on B's front-right corner."""
    scenario = table(
        [
            block("A", "attacker", 10.0, 30.0, -90.0, ranks=4),
            block("B", "defender", 16.0, 20.0, 90.0),
        ],
        roll=10,
    )
    result = solve(scenario)
    a = _one(result)
    assert result.status == Status.OPTIMAL
    assert a["distance_in"] == pytest.approx(10.0)
    assert (result.min_roll, result.success_probability) == (10, pytest.approx(1 / 6, abs=1e-4))
    assert (a["target_models_in_contact"], a["models_in_contact"]) == (5, 5)
    assert (a["x"], a["y"], a["facing"]) == (pytest.approx(16 - W5), 20.0, -90.0)
    assert a["aligned"] is True and a["arc"] == "front"


def test_short_charge_range_fails_with_the_distance() -> None:
    scenario = table(
        [block("A", "attacker", 10.0, 30.0, -90.0), block("B", "defender", 16.0, 20.0, 90.0)],
        roll=9,
    )
    result = solve(scenario)
    assert result.status == Status.INFEASIBLE
    assert 'Charge Range of 9" is short of the 10.00"' in result.proof


def test_the_seeds_example_forward_wheel_forward_align() -> None:
    """The seed's figure: A cannot reach B straight ahead (its lane x 15..19.92 misses B's
    front x 25.08..30) but its front's centre (17.46, 18) is in B's front arc, 0.27" inside
    the 45-degree line from B's front-right corner ((17.46 - 25.08 + 8) / sqrt 2). A wheels
    about its front-right corner toward B, moves forward into contact and aligns: 5 and 5."""
    scenario = table(
        [block("A", "attacker", 15.0, 18.0, -90.0), block("B", "defender", 30.0, 10.0, 90.0)]
    )
    result = solve(scenario)
    a = _one(result)
    assert result.status == Status.OPTIMAL
    assert a["arc"] == "front"
    margin = (15 + W5 / 2 - (30 - W5) + 8) / math.sqrt(2)
    assert a["arc_margin_in"] == pytest.approx(margin, abs=1e-3)
    moves = [step["move"] for step in a["path"]]
    assert "wheel" in moves and moves[-1] == "align" and moves[-2] == "forward"
    wheel = next(step for step in a["path"] if step["move"] == "wheel")
    assert wheel["pivot"] == "front-right" and wheel["angle_deg"] > 0
    assert wheel["travel_in"] == pytest.approx(W5 * math.radians(wheel["angle_deg"]), abs=1e-3)
    assert a["aligned"] is True
    assert (a["target_models_in_contact"], a["models_in_contact"]) == (5, 5)
    assert a["range_needed"] == math.ceil(a["distance_in"])


def test_keeping_the_contact_point_costs_a_model() -> None:
    """A (3 files, 2.95") already touches B's front with its front-left corner only, 0.3" from
    B's front-right end, turned 20 degrees away (its front's centre is in B's front arc); it
    can neither move nor wheel first. Keeping that point allows slides -2.65..0.3: at best 4
    of B's models (e.g. front over 0.3..3.25) and 3 of A's. At slide 0.98 (front 0.98..3.94,
    touching B's bases 1 to 5, two of them corner to corner) 5 of B's would touch: the higher
    priority wins, 4 it is."""
    scenario = table(
        [
            block("A", "attacker", 30 - W5 + 0.3, 10.0, -70.0, files=3, ranks=4),
            block("B", "defender", 30.0, 10.0, 90.0),
        ]
    )
    result = solve(scenario)
    a = _one(result)
    assert result.status == Status.OPTIMAL
    assert a["arc"] == "front" and "blocked_path" not in a
    assert (a["target_models_in_contact"], a["models_in_contact"]) == (4, 3)
    assert a["most_possible"] == [5, 3]
    assert a["initial_contact"] == pytest.approx([30 - W5 + 0.3, 10.0], abs=1e-6)
    assert -3 * INCH_25MM + 0.3 - 1e-9 <= a["slide_in"] <= 0.3 + 1e-9


def _rocks(b_front_right_x: float) -> list[list[tuple[float, float]]]:
    """Two low rocks on B's front line: along -1..-0.5 and 2..2.5 from its front-right
    corner, 0.3" deep."""
    x = b_front_right_x
    return [
        [(x - 1.0, 10.0), (x - 0.5, 10.0), (x - 0.5, 10.3), (x - 1.0, 10.3)],
        [(x + 2.0, 10.0), (x + 2.5, 10.0), (x + 2.5, 10.3), (x + 2.0, 10.3)],
    ]


def _touching_at(x: float, heading: float) -> tuple[float, float]:
    """The front-left corner of a 5-file block at `heading` whose front-right corner is at
    (x, 10), on B's front line."""
    f = (math.cos(math.radians(heading)), math.sin(math.radians(heading)))
    r = (-f[1], f[0])
    return (x - W5 * r[0], 10.0 - W5 * r[1])


def test_unaligned_charge_with_the_targets_rotation() -> None:
    """A touches B's front 1" from its front-right corner with its own front-right corner,
    turned 30 degrees. No flush placement fits between the two rocks (2.5" apart, A is 4.92"
    wide), so the charge is unaligned: the least turn keeping the point clears the left rock
    (0.3" high, 1.5" away): atan(0.3 / 1.5) = 11.31 degrees. B then turns about the contact
    point by the same 11.31 degrees (nothing is in its way), ending fully aligned: B's bases
    1 and 2 and A's two right-hand files touch."""
    bfr = 30 - W5
    fl = _touching_at(bfr + 1.0, -120.0)
    scenario = table(
        [block("A", "attacker", fl[0], fl[1], -120.0), block("B", "defender", 30.0, 10.0, 90.0)],
        terrain=_rocks(bfr),
    )
    result = solve(scenario)
    charger = _one(result)
    assert result.status == Status.OPTIMAL
    assert charger["aligned"] is True  # after B's turn
    least = math.degrees(math.atan(0.3 / 1.5))
    assert abs(charger["target_rotation_deg"]) == pytest.approx(least, abs=1e-3)
    assert charger["angle_deg"] == pytest.approx(0.0, abs=1e-3)
    assert charger["initial_contact"] == pytest.approx([bfr + 1.0, 10.0], abs=1e-5)
    assert (charger["target_models_in_contact"], charger["models_in_contact"]) == (2, 2)
    target = next(b for b in result.blocks if b["role"] == "target")
    assert target["outcome"] == "rotates"


def test_no_path_is_infeasible_with_the_reason() -> None:
    """A wall of impassable terrain across A's whole front, wider than any wheel, with a 1/2"
    slit A sees B through (a wall without one leaves no line of sight: the charge cannot be
    declared, test_declaration.py): no charge."""
    scenario = table(
        [block("A", "attacker", 14.0, 30.0, -90.0), block("B", "defender", 19.0, 10.0, 90.0)],
        terrain=[
            [(2.0, 20.0), (16.0, 20.0), (16.0, 22.0), (2.0, 22.0)],
            [(16.5, 20.0), (46.0, 20.0), (46.0, 22.0), (16.5, 22.0)],
        ],
    )
    result = solve(scenario)
    assert result.status == Status.INFEASIBLE
    assert "no Snaking Forward Move" in result.proof and "rock-" in result.proof


def test_checker_catches_a_moved_answer() -> None:
    scenario = table(
        [
            block("A", "attacker", 10.0, 30.0, -90.0, ranks=4),
            block("B", "defender", 16.0, 20.0, 90.0),
        ],
        roll=10,
    )
    result = solve(scenario)
    moved = dict(result.blocks[0], y=20.5)
    bad = result.model_copy(update={"blocks": (moved,)})
    kinds = {v.kind for v in check_blocks(scenario, bad)}
    assert "no_contact" in kinds and "front_not_on_facing" in kinds


def test_combined_charge_packs_two_units_on_one_facing() -> None:
    """Two 3-file units (2.95" each) charge B's 4.92" front side by side: together they are
    0.98" wider than it, so one file hangs off an end, touching B's corner point: all 5 of B's
    models and all 6 front models of the chargers are in contact (corner contact counts)."""
    scenario = table(
        [
            block("A1", "attacker", 24.0, 16.0, -90.0, files=3),
            block("A2", "attacker", 28.5, 16.0, -90.0, files=3),
            block("B", "defender", 30.0, 10.0, 90.0),
        ],
        chargers=("A1", "A2"),
    )
    result = solve(scenario)
    assert not result.violations
    assert result.status == Status.OPTIMAL
    assert result.objective == {"charges": 2, "target_models_in_contact": 5, "models_in_contact": 6}
    blocks = {b["unit"]: b for b in result.blocks}
    assert {blocks["A1"]["order"], blocks["A2"]["order"]} == {1, 2}
    assert all(b["aligned"] for b in blocks.values())


def test_combined_charge_never_unaligned() -> None:
    """The rocks of the unaligned test leave no flush place for A: in a combined charge that
    charge is impossible (no unaligned rules), while C, straight in on B's left, succeeds."""
    bfr = 30 - W5
    fl = _touching_at(bfr + 1.0, -120.0)
    scenario = table(
        [
            block("A", "attacker", fl[0], fl[1], -120.0),
            block("C", "attacker", bfr + 2.6, 14.0, -90.0, files=2),
            block("B", "defender", 30.0, 10.0, 90.0),
        ],
        terrain=_rocks(bfr),
        chargers=("A", "C"),
    )
    result = solve(scenario)
    blocks = {b["unit"]: b for b in result.blocks}
    assert not result.violations
    assert blocks["A"]["outcome"] == "impossible"
    assert blocks["C"]["outcome"] == "charges" and blocks["C"]["aligned"]
    assert result.objective["charges"] == 1


def test_blocked_path_lets_the_charger_take_the_front() -> None:
    """A drives up-left at heading -150 degrees; its front's centre (39.89, 19.13) is in B's
    left arc, 0.54" past the 45-degree line from B's front-left corner (30, 10). Rock covers
    B's whole left flank and a 0.2" lip below the corner, so the left facing cannot be
    reached; straight ahead the first thing A meets is B's front (its front-right corner
    reaches (29, 10) after 14"). Blocked Path: A may charge the front instead, where it fits
    exactly between the lip and B's front-right end: 5 and 5 in contact."""
    h = -150.0
    f = (math.cos(math.radians(h)), math.sin(math.radians(h)))
    r = (-f[1], f[0])
    fr0 = (29.0 - 14.0 * f[0], 10.0 - 14.0 * f[1])
    fl0 = (fr0[0] - W5 * r[0], fr0[1] - W5 * r[1])
    scenario = table(
        [block("A", "attacker", fl0[0], fl0[1], h), block("B", "defender", 30.0, 10.0, 90.0)],
        terrain=[[(30, 3), (36, 3), (36, 10.2), (30, 10.2)]],
    )
    result = solve(scenario)
    a = _one(result)
    assert result.status == Status.OPTIMAL
    assert a["arc"] == "left" and a["arc_margin_in"] == pytest.approx(0.54, abs=0.01)
    assert a["blocked_path"] is True and a["target_facing"] == "front"
    assert (a["x"], a["y"], a["facing"]) == (pytest.approx(30 - W5), 10.0, -90.0)
    assert (a["target_models_in_contact"], a["models_in_contact"]) == (5, 5)
    assert [s["move"] for s in a["path"]] == ["forward", "align"]
    assert a["path"][0]["distance_in"] == pytest.approx(14.0, abs=1e-3)


def test_checker_replays_the_path_a_baseline_drives_through_a_wall() -> None:
    """The straight-in baseline (community tools) ends A beyond an impassable wall in front
    of B: the place is legal, the way there is not, and the checker says so."""
    from chargeopt.solver.bench.block_baseline import solve_straight_in
    from chargeopt.solver.options import SolveOptions

    scenario = table(
        [block("A", "attacker", 14.0, 30.0, -90.0), block("B", "defender", 19.0, 10.0, 90.0)],
        terrain=[[(2.0, 20.0), (46.0, 20.0), (46.0, 22.0), (2.0, 22.0)]],
    )
    baseline = solve_straight_in(scenario, SolveOptions())
    assert baseline.status == Status.FEASIBLE
    messages = [v.message for v in check_blocks(scenario, baseline) if v.kind == "illegal_path"]
    assert messages == ["A's Snaking Forward Move: step 1 (forward) runs into rock-0"]


def test_wheel_chord_metric_as_a_ruleset_modifier() -> None:
    """ruleset = ["t9a-2022", "wheel-chord"]: the wheel counts the outer corner's straight
    line, 2 W sin(angle / 2), not the arc W * angle."""
    units = [block("A", "attacker", 15.0, 18.0, -90.0), block("B", "defender", 30.0, 10.0, 90.0)]
    chord = table(units, ruleset=["t9a-2022", "wheel-chord"])
    assert chord.rules.wheel_metric == "chord"
    a = _one(solve(chord))
    wheel = next(step for step in a["path"] if step["move"] == "wheel")
    angle = math.radians(abs(wheel["angle_deg"]))
    assert wheel["metric"] == "chord"
    assert wheel["travel_in"] == pytest.approx(2 * W5 * math.sin(angle / 2), abs=1e-3)


def test_two_wheels_when_one_is_not_enough() -> None:
    """A faces east (its front x = 31, y 16..20.92), B's front is up to its north-west (y = 10,
    x 25.08..30); A's front's centre (31, 18.46) is in B's front arc. No single wheel of at
    most 90 degrees points A at B's front, so the search falls back to two: a quarter turn
    to the left about the front-left corner, forward, a second left wheel, forward into
    contact; A aligns fully: 5 and 5. B stands behind A's front, outside its Front Arc, so
    T9A refuses the declaration (test_declaration.py); the move itself is searched directly."""
    from chargeopt.geometry.rank_and_file.frame import BlockPose
    from chargeopt.geometry.rank_and_file.obstacles import table_obstacles
    from chargeopt.models import ScenarioError
    from chargeopt.solver.rank_and_file.facing_charge import attempt_facing

    scenario = table(
        [block("A", "attacker", 31.0, 16.0, 0.0), block("B", "defender", 30.0, 10.0, 90.0)]
    )
    with pytest.raises(ScenarioError, match="not in A's Front Arc"):
        solve(scenario)
    a_block, b_block = scenario.unit_by_id["A"], scenario.unit_by_id["B"]
    obstacles = table_obstacles(scenario, {"A", "B"})
    attempt = attempt_facing(
        scenario, a_block, BlockPose.of(a_block), b_block, BlockPose.of(b_block), "front", obstacles
    )
    update = attempt.ruling_update
    assert update is not None and update["aligned"]
    wheels = [s for s in update["path"] if s["move"] == "wheel"]
    assert len(wheels) == 2 and all(w["pivot"] == "front-left" for w in wheels)
    assert wheels[0]["angle_deg"] == -90
    assert (update["target_models"], update["charger_models"]) == (5, 5)


def test_combined_charge_where_the_order_decides() -> None:
    """A2 starts behind A1. Its way to B crosses the place where A1 ends, so A2 must move
    first: the answer orders A2 then A1, and A2's path (replayed from the result) runs
    through A1's final place, which the checker accepts only because A1 moves later."""
    from chargeopt.geometry.rank_and_file.frame import BlockPose
    from chargeopt.geometry.rank_and_file.moves import forward, forward_sweep, wheel, wheel_sweep
    from chargeopt.geometry.rank_and_file.obstacles import overlaps

    scenario = table(
        [
            block("B", "defender", 30.0, 10.0, 90.0),
            block("A1", "attacker", 33.6, 20.7, -83.3, files=2, ranks=2),
            block("A2", "attacker", 34.6, 25.0, -80.0, files=3, ranks=2),
        ],
        chargers=("A1", "A2"),
    )
    result = solve(scenario)
    assert not result.violations and result.status == Status.OPTIMAL
    assert result.stats["order"] == ["A2", "A1"]
    assert result.objective["charges"] == 2
    blocks = {b["unit"]: b for b in result.blocks}
    a1_end = BlockPose.of(scenario.unit_by_id["A1"]).moved(
        blocks["A1"]["x"], blocks["A1"]["y"], blocks["A1"]["facing"]
    )
    pose, crossed = BlockPose.of(scenario.unit_by_id["A2"]), False
    for step in blocks["A2"]["path"]:
        if step["move"] == "forward":
            crossed |= overlaps(forward_sweep(pose, step["distance_in"]), a1_end.polygon)
            pose = forward(pose, step["distance_in"])
        elif step["move"] == "wheel":
            crossed |= overlaps(wheel_sweep(pose, step["angle_deg"]), a1_end.polygon)
            pose = wheel(pose, step["angle_deg"])
    assert crossed
    wrong = {**blocks["A1"], "order": 1}, {**blocks["A2"], "order": 2}
    late = result.model_copy(update={"blocks": wrong})
    assert any(v.kind == "illegal_path" for v in check_blocks(scenario, late))
