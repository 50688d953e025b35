"""Every fall back answer on sampled layouts passes the independent checker, and every
Trapped! verdict comes with its proof and survives two second opinions: no straight move of
the whole unit, every 5 degrees, passes the checker, and a randomised search for bent routes
written apart from the solver (`solver/bench/fall_back_random.py`) finds none either."""

from __future__ import annotations

import math

from builders import sampled_layouts
from fall_back_builders import box, fall_back
from hypothesis import assume, given
from hypothesis import strategies as st

from chargeopt.geometry.checker import check_placement
from chargeopt.models import Placement, Scenario, ScenarioError, Status
from chargeopt.solver import solve
from chargeopt.solver.bench.fall_back_random import random_fall_back

tenths = st.integers(0, 60).map(lambda k: k / 10)


@st.composite
def layouts(draw: st.DrawFn):
    """1-3 marines in a row near the middle, 1-4 enemy models around them (some fought it),
    and an impassable block behind them half the time."""
    count = draw(st.integers(1, 3))
    x0, y0 = 10.0 + draw(tenths), 8.0 + draw(tenths) / 2
    attackers = [(x0 + 1.5 * i, y0) for i in range(count)]
    enemies = {
        f"E{k}": [(x0 - 4 + 2 * draw(tenths), y0 - 3 + draw(tenths))]
        for k in range(draw(st.integers(1, 4)))
    }
    fought = tuple(u for u in enemies if draw(st.booleans()))
    terrain = []
    if draw(st.booleans()):
        top = y0 + 1.0 + draw(tenths) / 2
        terrain.append(box(x0 - 6 + draw(tenths), top, x0 + 4 + draw(tenths), top + 1.0, "block"))
    roll = draw(st.integers(2, 12))
    return fall_back(attackers, enemies, roll=roll, fought_by=fought, terrain=terrain)


@sampled_layouts(12)
@given(layouts())
def test_every_answer_passes_the_checker(scenario) -> None:
    """A legal answer has no violations; a Trapped! verdict has a proof."""
    try:
        result = solve(scenario, time_limit=5.0)
    except ScenarioError:
        assume(False)
        return
    assert not result.stats.get("checker_rejected")
    if result.status in (Status.OPTIMAL, Status.FEASIBLE):
        assert check_placement(scenario, result.placements) == []
    if result.status == Status.INFEASIBLE:
        assert result.proof and result.stats["trapped"] is True
        assert not _straight_moves_the_checker_accepts(scenario)
        assert random_fall_back(scenario, scenario.action.roll or 0, tries=8) is None


def _straight_moves_the_checker_accepts(scenario: Scenario) -> list[tuple[float, float]]:
    """(heading, distance) of the straight moves of the whole unit, every 5 degrees within 90
    of straight back, by the roll or half of it, that the independent checker finds legal."""
    roll = scenario.action.roll
    assert roll is not None
    found = []
    for heading in range(0, 181, 5):
        dx, dy = math.cos(math.radians(heading)), math.sin(math.radians(heading))
        for distance in (roll, roll / 2):
            ends = [
                Placement(model=m.id, x=m.x + distance * dx, y=m.y + distance * dy)
                for m in scenario.acting_unit.models
            ]
            if not check_placement(scenario, ends):
                found.append((heading, distance))
    return found


@st.composite
def hemmed_in(draw: st.DrawFn):
    """1-3 marines with a wall 0.02-0.6" behind their bases and two enemies that did not fight
    them on the flanks, 1.5-3" out: often Trapped!, sometimes only just not."""
    count = draw(st.integers(1, 3))
    attackers = [(13.0 + 2 * i, 10.0) for i in range(count)]
    gap = draw(st.integers(1, 30)) / 50
    top = 10.0 + 16 / 25.4 + gap
    reach = [draw(st.integers(15, 30)) / 10 for _ in range(2)]
    enemies = {
        "B": [(13.0 + count - 1, 8.6)],
        "C": [(13.0 - reach[0] - 1, 8.5 + draw(tenths) / 5)],
        "D": [(13.0 + 2 * (count - 1) + reach[1] + 1, 8.5 + draw(tenths) / 5)],
    }
    terrain = [box(5.0, top, 25.0, top + 1.0, "wall")]
    roll = draw(st.integers(2, 12))
    return fall_back(attackers, enemies, roll=roll, fought_by=("B",), terrain=terrain)


@sampled_layouts(10)
@given(hemmed_in())
def test_no_trapped_verdict_is_refuted_by_a_random_bent_route(scenario) -> None:
    """Trapped! stands against the randomised bent-route search; any move passes the checker."""
    try:
        result = solve(scenario, time_limit=5.0)
    except ScenarioError:
        assume(False)
        return
    if result.status == Status.INFEASIBLE:
        assert random_fall_back(scenario, scenario.action.roll or 0, tries=10) is None
    if result.status in (Status.OPTIMAL, Status.FEASIBLE):
        assert check_placement(scenario, result.placements) == []
