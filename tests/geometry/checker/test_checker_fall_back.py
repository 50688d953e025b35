"""The independent checker on fall backs (40k-assault-4e) written by hand: each rule broken
once, with the distances worked out by hand."""

from __future__ import annotations

from typing import Any

import pytest
from fall_back_builders import R, against_wall, before_difficult, pocket

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


def test_through_impassable_terrain_and_out_of_corridor() -> None:
    """Straight back through the wall is blocked; one model wandering 1" sideways leaves the
    corridor between the outermost models."""
    scenario = against_wall(fought_by=("B", "C", "D"))
    assert set(kinds(scenario, *moved_by(scenario, 0.0, 7.0))) == {"path_blocked"}
    ends = moved_by(scenario, -7.0, 0.0)
    ends[0] = {"model": "A1", "x": 6.0, "y": 10.0, "path": [(13.0, 10.0), (6.0, 10.0)]}
    ends[2] = {"model": "A3", "x": 10.0, "y": 10.0}
    assert kinds(scenario, *ends) == []
    wide = [*ends[:2], {"model": "A3", "x": 10.0, "y": 10.0, "path": [(17.0, 10.0), (16.0, 9.0)]}]
    assert "outside_corridor" in kinds(scenario, *wide)


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
