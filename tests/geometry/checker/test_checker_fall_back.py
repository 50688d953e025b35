"""The independent checker on fall backs (40k-assault-4e) written by hand: each rule broken
once, with the distances worked out by hand."""

from __future__ import annotations

import math
from typing import Any

import pytest
from fall_back_builders import R, against_wall, before_difficult, fall_back, pocket

from chargeopt.geometry.checker import VIOLATION_KINDS, check_placement
from chargeopt.geometry.checker.fall_back import FALL_BACK_KINDS
from chargeopt.models import Placement, Scenario


def kinds(scenario: Scenario, *placements: dict[str, Any]) -> list[str]:
    return [v.kind for v in check_placement(scenario, [Placement(**p) for p in placements])]


def moved_by(scenario: Scenario, dx: float, dy: float) -> list[dict[str, Any]]:
    return [{"model": m.id, "x": m.x + dx, "y": m.y + dy} for m in scenario.acting_unit.models]


def test_straight_back_is_legal() -> None:
    """Straight back 7" in the pocket keeps 0.015" outside C1's 1"."""
    assert kinds(pocket(roll=7), {"model": "A1", "x": 10.0, "y": 17.0}) == []


def test_closer_than_one_inch_to_an_enemy_that_did_not_fight() -> None:
    """A roll of 8 straight back ends 1.275" from C1 centre to centre: 0.985" inside its 1"."""
    violations = check_placement(pocket(roll=8), [Placement(model="A1", x=10.0, y=18.0)])
    assert [v.kind for v in violations] == ["within_1in_of_enemy"]
    assert violations[0].distance_in == pytest.approx(2 * R + 1 - 1.275, abs=1e-6)


def test_not_full_and_doubled_back() -> None:
    """5" of a 7" roll is short; a path that steps 1" up first doubles back."""
    assert kinds(pocket(roll=7), {"model": "A1", "x": 10.0, "y": 15.0}) == ["not_full_move"]
    path = [(10.0, 10.0), (10.0, 9.5), (10.0, 16.0)]
    got = kinds(pocket(roll=7), {"model": "A1", "x": 10.0, "y": 16.0, "path": path})
    assert got == ["doubled_back"]


def test_halved_by_difficult_terrain() -> None:
    """A roll of 8 straight back would enter the mud: 4" is the full move, 8" too far."""
    assert kinds(before_difficult(8), {"model": "A1", "x": 10.0, "y": 14.0}) == []
    assert kinds(before_difficult(8), {"model": "A1", "x": 10.0, "y": 18.0}) == ["moved_too_far"]


def test_through_impassable_terrain_and_sideways_along_it() -> None:
    """Straight back through the wall is blocked; sliding 7" left along it is a full fall back
    (the corridor gives way to moving around the obstruction); a step up is doubling back."""
    scenario = against_wall(fought_by=("B", "C", "D"))
    assert set(kinds(scenario, *moved_by(scenario, 0.0, 7.0))) == {"path_blocked"}
    ends = moved_by(scenario, -7.0, 0.0)
    ends[0] = {"model": "A1", "x": 6.0, "y": 10.0, "path": [(13.0, 10.0), (6.0, 10.0)]}
    ends[2] = {"model": "A3", "x": 10.0, "y": 10.0}
    assert kinds(scenario, *ends) == []
    wide = [*ends[:2], {"model": "A3", "x": 10.0, "y": 10.0, "path": [(17.0, 10.0), (16.0, 9.0)]}]
    assert "doubled_back" in kinds(scenario, *wide)


def test_path_must_start_where_the_model_stands() -> None:
    got = kinds(pocket(roll=7), {"model": "A1", "x": 10.0, "y": 17.0, "path": [(9, 10), (10, 17)]})
    assert "path_mismatch" in got


def test_end_overlap_and_coherency() -> None:
    """Two models ending on each other overlap; one 3" away from the others breaks the chain."""
    scenario = against_wall(fought_by=("B", "C", "D"))
    ends = moved_by(scenario, -7.0, 0.0)
    ends[1] = {"model": "A2", "x": 6.5, "y": 10.0, "path": [(15.0, 10.0), (8.0, 10.0), (6.5, 10.0)]}
    assert "overlap" in kinds(scenario, *ends)
    apart = moved_by(scenario, -7.0, 0.0)
    apart[2] = {"model": "A3", "x": 17.0, "y": 10.0}
    assert {"coherency", "coherency_split"} <= set(kinds(scenario, *apart))


def test_every_fall_back_kind_is_a_checker_kind() -> None:
    """The fall back kinds are listed with every other kind the checker reports."""
    assert set(FALL_BACK_KINDS) <= set(VIOLATION_KINDS)


def test_there_and_back_is_doubling_back() -> None:
    """Against the wall with every enemy fought: 3.5" left then 3.5" right, ending where it
    started, is no 7" fall back (no direction has both legs gaining along it)."""
    scenario = against_wall(fought_by=("B", "C", "D"))
    ends = [
        {"model": m.id, "x": m.x, "y": m.y, "path": [(m.x, m.y), (m.x - 3.5, m.y), (m.x, m.y)]}
        for m in scenario.acting_unit.models
    ]
    assert kinds(scenario, *ends).count("doubled_back") == 1


def test_zig_zag_is_doubling_back() -> None:
    """In the pocket, 45 degrees one way then the other (each leg gaining toward the edge) turns
    both ways: a zig-zag; one bend around something (45 degrees, then straight) is not."""
    leg = 7 / 4 / math.sqrt(2)
    zig = [(10.0, 10.0)]
    for k in range(4):
        x, y = zig[-1]
        zig.append((x + (leg if k % 2 == 0 else -leg), y + leg))
    scenario = pocket(roll=7)
    got = check_placement(scenario, [Placement(model="A1", x=10.0, y=zig[-1][1], path=zig)])
    assert "doubled_back" in [v.kind for v in got]
    open_field = fall_back([(10.0, 10.0)], {}, roll=7)
    bend = [(10.0, 10.0), (11.0, 11.0), (11.0, 11.0 + 7 - math.sqrt(2))]
    assert kinds(open_field, {"model": "A1", "x": 11.0, "y": bend[-1][1], "path": bend}) == []


def test_written_position_must_be_the_path_end() -> None:
    """A model written at (500, -300) with a legal path is refused: the path is not where it
    is written."""
    path = [(10.0, 10.0), (10.0, 17.0)]
    got = kinds(pocket(roll=7), {"model": "A1", "x": 500.0, "y": -300.0, "path": path})
    assert "path_mismatch" in got


def test_mates_are_not_walked_through() -> None:
    """Three in a line slide 7" left along the wall: fine one at a time from the front; A3
    running to A1's start while A1 stays there is not."""
    scenario = against_wall(fought_by=("B", "C", "D"))
    assert kinds(scenario, *moved_by(scenario, -7.0, 0.0)) == []
    ends = moved_by(scenario, -7.0, 0.0)
    ends[0] = {"model": "A1", "x": 13.0 - 7.0, "y": 10.0}
    ends[2] = {"model": "A3", "x": 10.0, "y": 10.0, "path": [(17.0, 10.0), (10.0, 10.0)]}
    ends[1] = {"model": "A2", "x": 8.0, "y": 10.0, "path": [(15.0, 10.0), (8.0, 10.0)]}
    assert kinds(scenario, *ends) == []
    through = [ends[0], {"model": "A2", "x": 15.0, "y": 10.0}, ends[2]]
    assert "path_blocked" in kinds(scenario, *through)


def test_more_than_a_quarter_turn_is_doubling_back() -> None:
    """Turning one way from 80 degrees left of straight back to 80 right (a U-turn in all
    but name) has no d with both legs within a quarter turn on one side: refused."""
    open_field = fall_back([(15.0, 10.0)], {}, roll=6)
    s, c = math.sin(math.radians(80)), math.cos(math.radians(80))
    mid = (15.0 - 3 * s, 10.0 + 3 * c)
    end = (mid[0] + 3 * s, mid[1] + 3 * c)
    path = [(15.0, 10.0), mid, end]
    got = kinds(open_field, {"model": "A1", "x": end[0], "y": end[1], "path": path})
    assert got == ["doubled_back"]


def test_a_path_corner_off_the_board_is_refused() -> None:
    """A corner 1" past the left edge (the base 1.63" off) is off the board mid-move, though
    the path ends back on it (7" in all: 3.606" out, 3.394" back)."""
    scenario = fall_back([(2.0, 10.0)], {}, roll=7)
    back = 7 - math.hypot(3, 2)
    end = (1.0, 12.0 + math.sqrt(back**2 - 4))
    path = [(2.0, 10.0), (-1.0, 12.0), end]
    violations = check_placement(scenario, [Placement(model="A1", x=end[0], y=end[1], path=path)])
    off = [v for v in violations if v.kind == "off_board"]
    assert len(off) == 1 and off[0].distance_in == pytest.approx(1 + R, abs=1e-6)
