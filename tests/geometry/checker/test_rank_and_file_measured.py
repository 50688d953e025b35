"""The rank-and-file checker measures the end it is given, from hand-worked tables: flush to
the degree, reach by the ruleset's move in closed form (straight ahead: the gap; the one-wheel
inversion: forward, wheel, forward recovered exactly), a wall across the board, the written
path's end and 6e's door that never slides."""

from __future__ import annotations

import math

from t9a_builders import INCH_25MM, block, table

from chargeopt.geometry.checker.rank_and_file import check_blocks
from chargeopt.geometry.checker.rank_and_file_door import one_wheel_to
from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.geometry.rank_and_file.moves import forward, rotate_about, wheel
from chargeopt.models import RankAndFileScenario, Result, Violation

W5 = 5 * INCH_25MM
"""Five 25 mm files: the width of both blocks' fronts."""
FLUSH = {"unit": "A", "x": 30.0 - W5, "y": 10.0, "facing": -90.0}
"""A flush on B's whole front (B's front-left corner at (30, 10), B facing down the board)."""


def head_on(gap_in: float, ruleset: str = "t9a-2022", **action: object) -> RankAndFileScenario:
    """A straight in front of B, `gap_in` away, front to front."""
    extra = {"profile": {"movement": action.pop("movement")}} if "movement" in action else {}
    return table(
        [
            block("A", "attacker", 30.0 - W5, 10.0 + gap_in, -90.0, **extra),
            block("B", "defender", 30.0, 10.0, 90.0),
        ],
        ruleset=ruleset,
        **action,
    )


def judge(scenario: RankAndFileScenario, *blocks: dict) -> list[Violation]:
    return check_blocks(scenario, Result(blocks=tuple(blocks)))


def names(found: list[Violation]) -> list[str]:
    return sorted(v.kind for v in found)


def test_flush_written_by_hand_passes_and_two_degrees_off_fails() -> None:
    scenario = head_on(6.0, roll=10)
    assert judge(scenario, FLUSH) == []
    pose = BlockPose(W5, 3 * INCH_25MM, FLUSH["x"], FLUSH["y"], FLUSH["facing"])
    turned = rotate_about(pose, (30.0, 10.0), 2.0)
    found = judge(scenario, {"unit": "A", "x": turned.x, "y": turned.y, "facing": turned.facing})
    assert "not_flush" in names(found)
    flush = next(v for v in found if v.kind == "not_flush")
    assert "turned 2.000 degrees" in flush.message


def test_tow_shortest_path_a_hair_over_the_charge_range_is_unreachable() -> None:
    scenario = head_on(11.063, "tow", movement=5, roll=11)
    found = judge(scenario, FLUSH)
    unreachable = next(v for v in found if v.kind == "unreachable")
    assert math.isclose(unreachable.distance_in, 11.063, abs_tol=1e-9)
    assert unreachable.limit_in == 11
    assert judge(head_on(11.063, "tow", movement=6, roll=12), FLUSH) == []


def test_6e_needing_eight_and_a_half_of_an_eight_inch_move_with_a_path_ending_elsewhere() -> None:
    scenario = head_on(8.5, "whfb-6e", movement=4)
    path = [{"move": "forward", "distance_in": 5.5}]
    found = judge(scenario, {**FLUSH, "path": path})
    assert {"unreachable", "path_end_mismatch"} <= set(names(found))
    assert math.isclose(next(v for v in found if v.kind == "unreachable").distance_in, 8.5)
    assert judge(head_on(8.5, "whfb-6e", movement=4.25), FLUSH) == []


def test_6e_door_never_slides() -> None:
    scenario = head_on(3.0, "whfb-6e", movement=4)
    path = [{"move": "forward", "distance_in": 3.0}]
    assert judge(scenario, {**FLUSH, "path": path}) == []
    slid = {**FLUSH, "x": FLUSH["x"] - 0.5, "path": path}
    assert "door_slid" in names(judge(scenario, slid))


def test_t9a_charge_through_a_wall_across_the_board_is_unreachable() -> None:
    scenario = table(
        [
            block("A", "attacker", 30.0 - W5, 16.0, -90.0),
            block("B", "defender", 30.0, 10.0, 90.0),
        ],
        terrain=[[(0.0, 13.5), (48.0, 13.5), (48.0, 14.0), (0.0, 14.0)]],
        roll=10,
    )
    found = judge(scenario, FLUSH)
    assert names(found) == ["unreachable"]
    assert "no charge move of any kind" in found[0].message


def test_one_wheel_inversion_recovers_the_seeds_forward_wheel_forward() -> None:
    start = BlockPose(W5, 3 * INCH_25MM, 10.0, 30.0, -90.0)
    before = forward(wheel(forward(start, 2.0), 30.0), 3.0)
    path = one_wheel_to(start, before, "arc")
    assert path is not None
    assert math.isclose(path.d1_in, 2.0, abs_tol=1e-9)
    assert math.isclose(path.angle_deg, 30.0, abs_tol=1e-9)
    assert math.isclose(path.d2_in, 3.0, abs_tol=1e-9)
    assert math.isclose(path.length_in, 5.0 + W5 * math.pi / 6, abs_tol=1e-9)
    chord = one_wheel_to(start, before, "chord")
    assert math.isclose(chord.length_in, 5.0 + 2 * W5 * math.sin(math.pi / 12), abs_tol=1e-9)
    assert one_wheel_to(start, forward(start, -1.0), "arc") is None


def test_t9a_end_reached_only_by_two_wheels_passes_written_by_hand() -> None:
    """A faces east beside B's front (the solver's two-wheel table): the end flush on B's whole
    front, written by hand, is reached by the checker's own two-wheel witness."""
    scenario = table(
        [block("A", "attacker", 31.0, 16.0, 0.0), block("B", "defender", 30.0, 10.0, 90.0)]
    )
    assert judge(scenario, FLUSH) == []


def test_a_gap_narrower_than_the_block_is_a_wall_a_wider_one_is_not() -> None:
    """The centre keeps half the block's smaller side (its depth here, 2.95") from everything:
    a 2.5" gap in the wall straight ahead is closed (proof), a 6" one lets it through."""
    middle = 30.0 - W5 / 2
    for gap, kinds in ((2.5, ["unreachable"]), (6.0, [])):
        left, right = middle - gap / 2, middle + gap / 2
        scenario = table(
            [
                block("A", "attacker", 30.0 - W5, 18.0, -90.0),
                block("B", "defender", 30.0, 10.0, 90.0),
            ],
            terrain=[
                [(0.0, 13.5), (left, 13.5), (left, 14.0), (0.0, 14.0)],
                [(right, 13.5), (48.0, 13.5), (48.0, 14.0), (right, 14.0)],
            ],
            roll=10,
        )
        found = judge(scenario, FLUSH)
        assert names(found) == kinds, found
