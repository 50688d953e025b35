"""The 40k-assault-4e charge: the seed's sequence, gaps, the 1" no-go, who fights (by hand)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from builders import make_scenario

from chargeopt.geometry import Battlefield
from chargeopt.geometry.checker import check_placement
from chargeopt.models import Status, load_scenario
from chargeopt.solver import solve
from chargeopt.solver.assault_4e.ceilings import charge_ceilings
from chargeopt.solver.bounds.relaxation_zones import zones
from chargeopt.solver.core import clock

SUITE = Path(__file__).parents[3] / "benchmarks" / "assault-4e-v1"

R = 16 / 25.4
"""A 32mm base's radius: 0.63"."""
TOUCH = 2 * R + 0.0025
"""Centre distance of two 32mm bases the solver puts in base contact."""


def three_on_two():
    """A1, A2, A3 in a line at 2" steps; B1 4" ahead of A1, B2 2" above B1."""
    return make_scenario(
        [(10.0, 10.0), (8.0, 10.0), (6.0, 10.0)],
        {"B": [(14.0, 10.0), (14.0, 12.0)]},
        ruleset="40k-assault-4e",
    )


def by_model(result):
    """The placements by model id."""
    return {p.model: p for p in result.placements}


def test_nearest_model_moves_first_into_contact_with_the_nearest_enemy() -> None:
    """A1 (4" from B1) moves first, straight into contact: 4 - 1.2625 = 2.7375"."""
    scenario = three_on_two()
    result = solve(scenario)
    assert result.status == Status.OPTIMAL
    a1 = by_model(result)["A1"]
    assert result.order[0] == "A1"
    assert a1.contact == ("B1",)
    assert a1.moved == pytest.approx(4.0 - TOUCH, abs=0.002)
    assert a1.y == pytest.approx(10.0, abs=0.001)
    assert check_placement(scenario, result.placements, order=result.order) == []


def test_unengaged_enemy_before_engaged_then_the_2in_chain() -> None:
    """A2 takes B2 (not yet engaged), not B1; A3 (6.74" from any contact) ends within 2" of an
    engaged mate and fights with one attack."""
    result = solve(three_on_two())
    ends = by_model(result)
    assert result.order == ("A1", "A2", "A3")
    assert ends["A2"].contact == ("B2",)
    assert ends["A3"].contact == ()
    assert result.stats["best_category_by_step"] == [1, 1, 3]
    a3 = ends["A3"]
    chain = min(math.hypot(a3.x - ends[m].x, a3.y - ends[m].y) - 2 * R for m in ("A1", "A2"))
    assert chain <= 2.0
    assert result.objective["enemy_engaged"] == 2 and result.bound["enemy_engaged"] == 2


def test_who_fights() -> None:
    """Base contact: full attacks (A1, A2); within 2" of an engaged mate: one attack (A3)."""
    result = solve(three_on_two())
    assert result.fighters == {"full": ("A1", "A2"), "one_attack": ("A3",)}
    assert result.objective["base_contact"] == 2 and result.objective["one_attack"] == 1


def walled_gap(half_width_in: float):
    """Impassable blocks at 12 <= x <= 13 close the board but for a gap at y = 10 of the given
    half width; B1 stands 5" beyond A1."""
    blocks = [
        {
            "id": "low",
            "kind": "impassable",
            "path": [[12, 0], [13, 0], [13, 10 - half_width_in], [12, 10 - half_width_in]],
        },
        {
            "id": "high",
            "kind": "impassable",
            "path": [[12, 10 + half_width_in], [13, 10 + half_width_in], [13, 20], [12, 20]],
        },
    ]
    return make_scenario(
        [(10.0, 10.0)],
        {"B": [(15.0, 10.0)]},
        ruleset="40k-assault-4e",
        board=(30.0, 20.0),
        terrain=blocks,
    )


def test_gap_a_hair_narrower_than_the_base_blocks() -> None:
    """A 1.25" gap stops a 1.26" base: no charge; a 1.28" gap lets it through, 5 - 1.2625"."""
    closed = solve(walled_gap(0.625))
    assert closed.status in (Status.INFEASIBLE, Status.UNKNOWN) and closed.placements == ()
    scenario = walled_gap(0.64)
    open_ = solve(scenario)
    assert open_.status == Status.OPTIMAL
    (a1,) = open_.placements
    assert a1.contact == ("B1",)
    assert a1.moved == pytest.approx(5.0 - TOUCH, abs=0.002)
    assert check_placement(scenario, open_.placements, order=open_.order) == []


def test_keeps_out_of_one_inch_of_a_unit_not_charged() -> None:
    """C1 at (14, 11.6) is 0.78" from the straight-in spot (12.74, 10): A1 goes round to a
    contact on B1 more than 1" from C1, a longer move."""
    scenario = make_scenario(
        [(10.0, 10.0)],
        {"B": [(14.0, 10.0)], "C": [(14.0, 11.6)]},
        ruleset="40k-assault-4e",
    )
    result = solve(scenario)
    assert result.status == Status.OPTIMAL
    (a1,) = result.placements
    assert a1.contact == ("B1",)
    assert math.hypot(a1.x - 14.0, a1.y - 11.6) - 2 * R > 1.0
    assert a1.moved > 4.0 - TOUCH + 0.01
    assert check_placement(scenario, result.placements, order=result.order) == []


def test_unreachable_first_model_is_refused_with_a_reason() -> None:
    """B1 8" away edge to edge, beyond the 6" assault range: no charge, no placements."""
    result = solve(
        make_scenario([(10.0, 10.0)], {"B": [(18.0 + 2 * R, 10.0)]}, ruleset="40k-assault-4e")
    )
    assert result.status in (Status.INFEASIBLE, Status.UNKNOWN)
    assert result.placements == ()


def test_ten_marines_round_their_mates_into_contact_with_five_orks() -> None:
    """Five 32mm orks in a line 1.6" apart, ten marines 3.74" and 5.34" off: every ork engaged
    and at least nine marines in contact, each rear marine's path going round the front rank
    and the marines already moved (the answer that put all ten in contact walked A10 through
    A5, A9 through A4 and A7 through A2, which the checker now refuses)."""
    scenario = load_scenario(SUITE / "a4-ten.toml")
    result = solve(scenario)
    assert result.status in (Status.FEASIBLE, Status.OPTIMAL)
    assert result.objective["base_contact"] >= 9
    assert result.objective["enemy_engaged"] == 5
    assert result.bound["enemy_engaged"] == 5 and result.bound["base_contact"] == 10
    assert check_placement(scenario, result.placements, order=result.order) == []


def two_reach_one_cannot():
    """A1 and A2 2.7" from B1; A3 7.54" centre to centre from B1, so 6.28" from its contact
    ring; B2 16" from everyone."""
    return make_scenario(
        [(10.0, 15.0), (10.0, 16.6), (6.5, 15.0)],
        {"B": [(14.0, 15.8), (30.0, 15.0)]},
        ruleset="40k-assault-4e",
    )


def test_ceilings_worked_out_by_hand() -> None:
    """Only B1 can be engaged and only A1 and A2 reach its contact ring: the ceilings are 1
    enemy model and 2 chargers, with A3 the one supporter, so the answer is proven."""
    scenario = two_reach_one_cannot()
    battlefield = Battlefield.from_scenario(scenario)
    z = zones(scenario, battlefield)
    ceilings = charge_ceilings(scenario, battlefield, z, 6.0, ("A2", "B1"), (0, 0), clock.now() + 9)
    assert ceilings == {"enemy_engaged": 1, "base_contact": 2}
    result = solve(scenario)
    assert result.status == Status.OPTIMAL
    assert result.bound == {"enemy_engaged": 1, "base_contact": 2, "one_attack": 1}
    assert result.fighters["one_attack"] == ("A3",)
    assert check_placement(scenario, result.placements, order=result.order) == []


def test_one_model_in_the_notch_engages_two() -> None:
    """B1 and B2 stand 1.4" apart (centres): A1 fits in the notch, 1.26" from both centres at
    (12.952, 10), a move of 2.95", and engages both; the ceiling counts both enemy models a
    single base can touch, so the answer is proven."""
    scenario = make_scenario(
        [(10.0, 10.0)], {"B": [(14.0, 9.3), (14.0, 10.7)]}, ruleset="40k-assault-4e"
    )
    result = solve(scenario)
    assert result.status == Status.OPTIMAL
    assert result.objective["enemy_engaged"] == 2
    assert result.bound == {"enemy_engaged": 2, "base_contact": 1, "one_attack": 0}
    a1 = by_model(result)["A1"]
    assert set(a1.contact) == {"B1", "B2"}
    assert a1.x == pytest.approx(14.0 - math.sqrt(TOUCH**2 - 0.7**2), abs=0.002)
    assert a1.moved == pytest.approx(4.0 - math.sqrt(TOUCH**2 - 0.7**2), abs=0.002)
