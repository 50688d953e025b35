"""The charge solver with oval and hull bases, on layouts worked out by hand."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest
from builders import make_scenario

from chargeopt.geometry import Footprint, edge_distance
from chargeopt.geometry.checker import check_placement
from chargeopt.models import Placement, Scenario, Status, parse_base
from chargeopt.solver import SolveOptions, solve

R32 = 32 / 25.4 / 2
OVAL_A = 60 / 25.4 / 2
OVAL_B = 35 / 25.4 / 2
HULL = {"kind": "hull", "points": [[-2.0, -1.25], [2.0, -1.25], [2.0, 1.25], [-2.0, 1.25]]}
"""A 4" x 2.5" rectangle, long side along the facing."""


COARSE = SolveOptions(
    time_limit_s=5, near_spacing_in=2.0, far_spacing_in=3.0, oval_facings=2, contact_step_deg=6.0
)
"""Few candidates: oval pair relations cost a 256-gon distance per pair (1772 candidates take
~140 s with the defaults), and these layouts need no fine lattice."""


def _one_on_one(mover: Any, mover_at: tuple[float, float], target_at: tuple[float, float]):
    """One model of base `mover` (facing 0) charging one 32mm model, roll 8, in the open."""
    return Scenario.model_validate(
        {
            "name": "bases",
            "ruleset": "40k-10e",
            "board": {"width": 44.0, "height": 30.0},
            "units": [
                {
                    "id": "A",
                    "owner": "attacker",
                    "keywords": ["VEHICLE"],
                    "base": mover,
                    "models": [{"id": "A1", "x": mover_at[0], "y": mover_at[1]}],
                },
                {
                    "id": "B",
                    "owner": "defender",
                    "keywords": ["INFANTRY"],
                    "base": "32mm",
                    "models": [{"id": "B1", "x": target_at[0], "y": target_at[1]}],
                },
            ],
            "action": {"kind": "charge", "unit": "A", "targets": ["B"], "roll": 8},
        }
    )


OVAL_START = (10.0, 10.0)
OVAL_TARGET = (10.0 + OVAL_A + 5.0 + R32, 10.0)
"""The oval's long axis points at the target; 5" of open board lie between their edges."""


def test_oval_charges_round_model_into_base_contact() -> None:
    """A 60x35mm oval 5" from its target ends touching it, within the 8" roll."""
    s = _one_on_one("60x35mm", OVAL_START, OVAL_TARGET)
    result = solve(s, options=COARSE)
    assert result.status == Status.OPTIMAL
    (p,) = result.placements
    assert p.contact == ("B1",)
    assert 5.0 - 0.01 <= p.moved <= 8.0
    assert check_placement(s, result.placements) == []
    assert result.violations == ()


def test_oval_tip_contact_after_a_straight_5_inch_move_is_legal() -> None:
    """Moving the oval 5" straight on puts its tip in base contact: legal with a roll of 6."""
    s = _one_on_one("60x35mm", OVAL_START, OVAL_TARGET)
    end = Placement(model="A1", x=OVAL_START[0] + 5.0 - 0.001, y=OVAL_START[1], facing=0.0)
    oval = Footprint(parse_base("60x35mm"), end.x, end.y)
    assert edge_distance(oval, Footprint(parse_base("32mm"), *OVAL_TARGET)) <= 0.002
    assert check_placement(s, [end], roll=6) == []


def test_oval_reaches_tip_contact_with_roll_6() -> None:
    """With a roll of 6 the solver finds the straight 5" move into base contact."""
    s = _one_on_one("60x35mm", OVAL_START, OVAL_TARGET)
    result = solve(s, options=replace(COARSE, roll=6))
    assert result.objective["base_contact"] == 1


def test_hull_charges_straight_into_base_contact() -> None:
    """A 4" x 2.5" hull whose long side faces its target 4" away moves 4" straight on."""
    target = (20.0, 10.0)
    s = _one_on_one(HULL, (20.0, 10.0 + R32 + 4.0 + 1.25), target)
    result = solve(s, time_limit=5)
    assert result.status == Status.OPTIMAL
    (p,) = result.placements
    assert p.contact == ("B1",)
    assert p.moved == pytest.approx(4.0, abs=0.01)
    assert (p.x, p.y) == pytest.approx((20.0, 10.0 + R32 + 1.25), abs=0.01)
    assert check_placement(s, result.placements) == []
    assert result.violations == ()


def _around_oval(t_deg: float, centre: tuple[float, float], gap_in: float = 0.001):
    """Centre of a 32mm base touching a facing-0 60x35mm oval along the ellipse's normal at
    parameter t (the ellipse point (a cos t, b sin t)), `gap_in` from its edge."""
    t = math.radians(t_deg)
    nx, ny = OVAL_B * math.cos(t), OVAL_A * math.sin(t)
    norm = math.hypot(nx, ny)
    d = R32 + gap_in
    return (
        centre[0] + OVAL_A * math.cos(t) + d * nx / norm,
        centre[1] + OVAL_B * math.sin(t) + d * ny / norm,
    )


OVAL_AT = (20.0, 16.0)
SIX_AROUND = (0.0, 60.0, 120.0, 180.0, 240.0, 300.0)
"""Ellipse parameters of six touching 32mm bases; neighbours are >= 0.3" apart (by hand:
the chord between the centres at t=0 and t=60 exceeds 2r by 0.31", t=60 and t=120 too)."""


def _marines_around_oval() -> Scenario:
    attackers = [(16.0 + 1.6 * i, 11.0) for i in range(6)]
    return make_scenario(attackers, {"B": [OVAL_AT]}, enemy_base="60x35mm", roll=12)


def test_six_32mm_bases_fit_around_a_60x35mm_oval() -> None:
    """Six 32mm bases on the oval's normals at t = 0, 60, ..., 300 degrees: a legal charge
    with all six in base contact, so six is a lower bound for the best charge."""
    s = _marines_around_oval()
    spots = [_around_oval(t, OVAL_AT) for t in SIX_AROUND]
    placements = [Placement(model=f"A{i + 1}", x=x, y=y) for i, (x, y) in enumerate(spots)]
    oval = Footprint(parse_base("60x35mm"), *OVAL_AT)
    for x, y in spots:
        assert edge_distance(Footprint(parse_base("32mm"), x, y), oval) <= 0.002
    for (x0, y0), (x1, y1) in zip(spots, spots[1:] + spots[:1], strict=True):
        assert math.hypot(x1 - x0, y1 - y0) - 2 * R32 >= 0.3
    assert check_placement(s, placements) == []


def test_solver_answer_around_oval_is_legal() -> None:
    """Whatever the solver finds around the oval passes the checker and touches it at least
    at both ends of its long axis (two contacts)."""
    s = _marines_around_oval()
    result = solve(s, time_limit=5)
    assert result.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert result.objective["base_contact"] >= 2
    assert check_placement(s, result.placements) == []


def test_solver_fits_six_around_oval() -> None:
    """The solver matches the hand-made six contacts around one 60x35mm oval."""
    result = solve(_marines_around_oval(), time_limit=5)
    assert result.objective["base_contact"] >= len(SIX_AROUND)
