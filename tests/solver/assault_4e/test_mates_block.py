"""40k-assault-4e charge (seed 001): unit mates block each other's paths ("models may not move
through friendly or enemy models"), ties for the nearest are the player's choice, the limits of
a proof are exact, and a target no model can reach makes the charge infeasible (by hand)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from builders import make_scenario, sampled_layouts
from hypothesis import assume, given
from hypothesis import strategies as st

from chargeopt.geometry import Battlefield
from chargeopt.geometry.assault_moves import assault_lengths
from chargeopt.geometry.checker import check_placement
from chargeopt.geometry.footprints import Footprint
from chargeopt.geometry.paths import obstacle_map
from chargeopt.geometry.standing import detours
from chargeopt.models import Placement, Result, ScenarioError, Status, load_scenario
from chargeopt.solver import solve
from chargeopt.solver.assault_4e.charge import charge_candidates
from chargeopt.solver.assault_4e.sequence import Charge, tied_firsts
from chargeopt.solver.bench.assault_reach_search import reach_witness
from chargeopt.solver.core.exact_limits import (
    EXACT,
    NOTE,
    PRINTED,
    STAT_KEY,
    solve_exactly_if_needed,
)
from chargeopt.solver.interface.assault_text import summarise_assault_4e
from chargeopt.solver.options import SolveOptions

SUITE = Path(__file__).parents[3] / "benchmarks" / "assault-4e-v1"
R = 16 / 25.4
"""A 32mm base's radius: 0.63"."""


def _through(violations, mover: str) -> list[tuple[str, ...]]:
    return [
        v.models for v in violations if v.kind == "moved_through_model" and v.models[0] == mover
    ]


def test_gap_choke_old_answer_walks_through_a1() -> None:
    """a2-gap-choke as it was solved before mates blocked: A1 stands at the gap's exit
    (13.94, 15); A3 and A2 then file through the 1.3" gap, which A1 closes, so each is
    refused by name."""
    scenario = load_scenario(SUITE / "a2-gap-choke.toml")
    ends = {
        "A1": (13.938, 15.0, ("B1",)),
        "A2": (13.981, 13.727, ("B3",)),
        "A3": (13.981, 16.273, ("B2",)),
        "A4": (10.81, 13.226, ()),
    }
    placements = [Placement(model=m, x=x, y=y, contact=c) for m, (x, y, c) in ends.items()]
    found = check_placement(scenario, placements, order=("A1", "A3", "A2", "A4"))
    assert _through(found, "A3") == [("A3", "A1")]
    assert _through(found, "A2") == [("A2", "A1")]
    assert len(found) == 2


def test_gap_choke_answer_goes_round_its_mates() -> None:
    """The solver's a2-gap-choke answer passes the checker with mates blocking; A1 and A3 are
    both 3.54" from B (a tie: both first moves are tried and named)."""
    scenario = load_scenario(SUITE / "a2-gap-choke.toml")
    result = solve(scenario)
    assert result.status in (Status.FEASIBLE, Status.OPTIMAL)
    assert result.objective["enemy_engaged"] == 3
    assert result.objective["base_contact"] == 3
    assert result.stats["first_tie"] == [["A1", "B1"], ["A3", "B2"]]
    assert check_placement(scenario, result.placements, order=result.order) == []
    assert "chosen among the tied nearest" in summarise_assault_4e(result)


def test_round_one_standing_mate_closed_form() -> None:
    """A1 at (10, 10) to (14, 10) with A2 standing at (12, 10): the shortest path runs along a
    tangent, an arc of the circle of radius g = 2r round A2, a tangent:
    2 sqrt(2^2 - g^2) + g (pi - 2 acos(g / 2)) = 4.823"; both the detour and the paths'
    graph measure it within the drawing's 0.01"."""
    scenario = make_scenario(
        [(10.0, 10.0), (12.0, 10.0)], {"B": [(20.0, 20.0)]}, ruleset="40k-assault-4e"
    )
    g = 2 * R
    exact = 2 * math.sqrt(4 - g * g) + g * (math.pi - 2 * math.acos(g / 2))
    assert exact == pytest.approx(4.823, abs=0.001)
    battlefield = Battlefield.from_scenario(scenario)
    omap = obstacle_map(scenario, battlefield, "A1")
    fast = detours(omap, (12.0, 10.0), g, np.array([14.0]), np.array([10.0]))[0]
    mate = {"A2": Footprint(scenario.acting_unit.base_of(scenario.acting_unit.models[1]), 12, 10)}
    graph = assault_lengths(
        scenario,
        battlefield,
        "A1",
        np.array([14.0]),
        np.array([10.0]),
        0.0,
        range_in=6.0,
        difficult_roll=None,
        standing=mate,
    )[0]
    alone = assault_lengths(
        scenario,
        battlefield,
        "A1",
        np.array([14.0]),
        np.array([10.0]),
        0.0,
        range_in=6.0,
        difficult_roll=None,
    )[0]
    assert alone == pytest.approx(4.0)
    assert exact <= fast <= exact + 0.01
    assert exact - 1e-6 <= graph <= exact + 0.01


POCKET = [
    {"id": "top", "kind": "impassable", "path": [[13, 8.65], [17, 8.65], [17, 9.5], [13, 9.5]]},
    {"id": "low", "kind": "impassable", "path": [[13, 6.5], [17, 6.5], [17, 7.35], [13, 7.35]]},
    {
        "id": "back",
        "kind": "impassable",
        "path": [[15.7, 7.35], [17, 7.35], [17, 8.65], [15.7, 8.65]],
    },
]


def pocket():
    """B1 (15, 8) in a pocket open to the left only: one base fits in base contact with it, at
    (13.74, 8). B2 (15, 10.8) in the open. A1 (10, 9.4) is 5.19" from both centres (a tie
    for its nearest); A2 (9, 6) reaches only B1's pocket spot (B2 is 7.68 - 1.26 = 6.42" away
    edge to edge, more than 6")."""
    return make_scenario(
        [(10.0, 9.4), (9.0, 6.0)],
        {"B": [(15.0, 8.0), (15.0, 10.8)]},
        ruleset="40k-assault-4e",
        terrain=POCKET,
    )


def test_nearest_tie_second_choice_is_better() -> None:
    """A1 to B1 (first in the file) takes the pocket: A2 then touches nothing (1 engaged).
    A1 to B2 (the tied choice) leaves the pocket to A2, within 2" of A1 at B2's lowest
    contact (2.46 - 1.26 = 1.2"): 2 engaged, 2 in contact, which the ceilings prove."""
    scenario = pocket()
    battlefield = Battlefield.from_scenario(scenario)
    charge = Charge.of(
        scenario, battlefield, charge_candidates(scenario, battlefield, SolveOptions())
    )
    assert tied_firsts(charge) == [("A1", "B1"), ("A1", "B2")]
    result = solve(scenario)
    assert result.status == Status.OPTIMAL
    assert result.objective["enemy_engaged"] == 2 and result.objective["base_contact"] == 2
    ends = {p.model: p for p in result.placements}
    assert result.order == ("A1", "A2")
    assert ends["A1"].contact == ("B2",) and ends["A2"].contact == ("B1",)
    assert result.stats["first_target"] == "B2"
    assert result.stats["first_tie"] == [["A1", "B1"], ["A1", "B2"]]
    assert check_placement(scenario, result.placements, order=result.order) == []


def test_a_model_5_992_away_reaches_contact_at_exact_limits() -> None:
    """B1 5.992" from A1 edge to edge, assault range 6": the contact spot 0.0025" off B1 is a
    5.9895" move, legal as measured but inside the 0.012" the printed answer keeps: the
    answer is `feasible`, with the note."""
    scenario = make_scenario(
        [(10.0, 10.0)], {"B": [(10.0 + 5.992 + 2 * R, 10.0)]}, ruleset="40k-assault-4e"
    )
    result = solve(scenario)
    assert result.status == Status.FEASIBLE
    (a1,) = result.placements
    assert a1.contact == ("B1",)
    assert a1.moved == pytest.approx(5.9895, abs=0.001)
    assert result.stats[STAT_KEY] == NOTE
    assert 'legal as measured to 0.001"' in summarise_assault_4e(result)
    assert check_placement(scenario, result.placements, order=result.order) == []


def test_exact_limits_runs_a_second_pass_only_without_an_answer() -> None:
    """The printed margins first; the exact pass only when the first has no answer, and its
    answer is `feasible` with the note; its proof stands where it has none either."""
    seen = []

    def fake(answer_at: set):
        def run(margins):
            seen.append(margins)
            if margins in answer_at:
                return Result(
                    scenario="s",
                    status=Status.OPTIMAL,
                    placements=(Placement(model="A1", x=1.0, y=1.0),),
                )
            return Result(scenario="s", status=Status.INFEASIBLE, proof=str(margins.exact))

        return run

    assert solve_exactly_if_needed(fake({PRINTED})).status == Status.OPTIMAL
    assert seen == [PRINTED]
    inside = solve_exactly_if_needed(fake({EXACT}))
    assert inside.status == Status.FEASIBLE and inside.stats[STAT_KEY] == NOTE
    none = solve_exactly_if_needed(fake(set()))
    assert none.status == Status.INFEASIBLE and none.proof == "True"


def test_second_target_walled_off_is_infeasible() -> None:
    """C1 (10, 15) is 3.74" from A1 in a straight line, but an impassable wall from the board
    edge to x = 20 at y = 12-12.5 puts every path over 10" long: the charge on B and C
    cannot be made, proven by reach (exit 0), not left `unknown`."""
    wall = [
        {"id": "wall", "kind": "impassable", "path": [[0, 12], [20, 12], [20, 12.5], [0, 12.5]]}
    ]
    scenario = make_scenario(
        [(10.0, 10.0), (8.0, 10.0)],
        {"B": [(14.0, 10.0)], "C": [(10.0, 15.0)]},
        targets=("B", "C"),
        ruleset="40k-assault-4e",
        terrain=wall,
    )
    result = solve(scenario)
    assert result.status == Status.INFEASIBLE
    assert result.placements == ()
    assert "unit 'C'" in result.proof
    assert reach_witness(scenario, "C") is None
    assert reach_witness(scenario, "B") is not None


JITTER = st.floats(-0.3, 0.3, allow_nan=False)


@st.composite
def ranks(draw: st.DrawFn) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """A front rank of 2-3 at x = 10 and a rear rank right behind it at x = 8.6 (so rear paths
    run into front bases), 1-3 defenders 3-5" to the right."""
    n = draw(st.integers(2, 3))
    front = [(10.0 + draw(JITTER) / 3, 8.0 + 1.6 * i) for i in range(n)]
    rear = [(8.6 + draw(JITTER) / 3, 8.0 + 1.6 * i + draw(JITTER)) for i in range(n)]
    gap = draw(st.floats(3.0, 5.0))
    k = draw(st.integers(1, 3))
    defenders = [(10.0 + gap + draw(JITTER), 8.8 + 1.4 * j) for j in range(k)]
    return front + rear, defenders


@sampled_layouts(8)
@given(ranks(), st.sampled_from(["charge", "consolidate"]))
def test_every_answer_passes_the_checker_with_mates_blocking(layout, kind: str) -> None:
    """Two ranks charging or consolidating: every answer with placements has no violation,
    the order's paths going round the mates standing at each step."""
    attackers, defenders = layout
    action = None if kind == "charge" else {"kind": kind, "unit": "A"}
    try:
        scenario = make_scenario(
            attackers, {"B": defenders}, ruleset="40k-assault-4e", action=action
        )
        result = solve(scenario, time_limit=10)
    except (ValueError, ScenarioError):
        assume(False)
    if result.placements:
        assert check_placement(scenario, result.placements, order=result.order) == []


def test_consolidating_through_a_mate_is_refused() -> None:
    """A2 (8.7, 10) consolidates to (11.3, 10), 2.6" straight through A1 standing at (10, 10);
    round A1 it is 2 sqrt(1.3^2 - g^2) + g (pi - 2 acos(g / 1.3)) = 3.97", over 3"."""
    scenario = make_scenario(
        [(10.0, 10.0), (8.7, 10.0)],
        {"B": [(14.0, 10.0)]},
        ruleset="40k-assault-4e",
        action={"kind": "consolidate", "unit": "A"},
    )
    placements = [Placement(model="A1", x=10.0, y=10.0), Placement(model="A2", x=11.3, y=10.0)]
    found = check_placement(scenario, placements, order=("A2",))
    assert [v.kind for v in found] == ["moved_through_model"]
    assert found[0].models == ("A2", "A1")


GAP = [
    {"id": "north", "kind": "impassable", "path": [[12, 15.65], [13, 15.65], [13, 30], [12, 30]]},
    {"id": "south", "kind": "impassable", "path": [[12, 0], [13, 0], [13, 14.35], [12, 14.35]]},
]


def test_a_mate_standing_in_the_gap_chokes_the_charge() -> None:
    """A 1.3" gap (x 12-13) for 1.26" bases; A1 (10.4, 15) and A2 (8.8, 15) charge B1
    (15.2, 15). A1 straight in would end at (13.94, 15), 0.94" from the gap's exit centre,
    inside the 1.26" A2's centre must keep, and choke A2 off; A1 going in off the line (its
    centre at least 1.26" from the exit) leaves the gap open: 2 in contact, proven."""
    scenario = make_scenario(
        [(10.4, 15.0), (8.8, 15.0)], {"B": [(15.2, 15.0)]}, ruleset="40k-assault-4e", terrain=GAP
    )
    result = solve(scenario)
    assert result.status == Status.OPTIMAL
    assert result.objective["base_contact"] == 2
    a1 = {p.model: p for p in result.placements}["A1"]
    assert math.hypot(a1.x - 13.0, a1.y - 15.0) >= 2 * R
    assert check_placement(scenario, result.placements, order=result.order) == []
