"""Every 11th-edition charge answer passes the independent checker, on random small layouts:
a unit, one or two enemy units in reach, maybe a dense block between them, with or without
named targets, with a roll."""

from __future__ import annotations

from typing import Any

from builders import make_scenario
from hypothesis import HealthCheck, Phase, assume, event, given, note, settings
from hypothesis import strategies as st

from chargeopt.geometry.checker import check_placement
from chargeopt.geometry.start_layout import check_start_layout
from chargeopt.models import Scenario, ScenarioError, Status
from chargeopt.models.errors import IneligibleMoveError
from chargeopt.solver import solve

SPACING_IN = 1.7


def _tenths(lo: float, hi: float) -> st.SearchStrategy[float]:
    return st.integers(round(lo * 10), round(hi * 10)).map(lambda v: v / 10)


@st.composite
def _unit(draw: st.DrawFn, x: float, y: float, count: int) -> list[tuple[float, float]]:
    return [
        (
            x + SPACING_IN * (i % 3) + draw(_tenths(-0.2, 0.2)),
            y + SPACING_IN * (i // 3) + draw(_tenths(-0.2, 0.2)),
        )
        for i in range(count)
    ]


@st.composite
def charges_11e(draw: st.DrawFn) -> Scenario:
    """1-6 attackers, a unit B 2.5-9" beyond them, maybe a unit C near B, maybe a dense block
    (INFANTRY cross it, VEHICLES go round), named targets or not, a roll of 6-12."""
    ax, ay = draw(_tenths(6.0, 12.0)), draw(_tenths(8.0, 18.0))
    attackers = draw(_unit(ax, ay, draw(st.integers(1, 6))))
    tx = ax + 2 * SPACING_IN + draw(_tenths(2.5, 9.0))
    ty = ay + draw(_tenths(-3.0, 3.0))
    defenders = {"B": draw(_unit(tx, ty, draw(st.integers(1, 3))))}
    if draw(st.booleans()):
        cx, cy = tx + draw(_tenths(-4.0, 4.0)), ty + draw(_tenths(3.0, 6.0))
        defenders["C"] = draw(_unit(cx, cy, draw(st.integers(1, 2))))
    terrain: list[dict[str, Any]] = []
    if draw(st.booleans()):
        wx, wy = draw(_tenths(ax + 4.0, tx - 1.0)), ay + draw(_tenths(-4.0, 1.0))
        w, h = draw(_tenths(0.5, 2.0)), draw(_tenths(1.0, 4.0))
        terrain.append(
            {
                "id": "block",
                "kind": "dense",
                "path": [[wx, wy], [wx + w, wy], [wx + w, wy + h], [wx, wy + h]],
                "height_in": draw(st.sampled_from([1.5, 5.0])),
                "walls": [[[wx, wy], [wx + w, wy]]] if draw(st.booleans()) else [],
            }
        )
    named = draw(st.sampled_from([(), ("B",)]))
    keywords = draw(st.sampled_from([("INFANTRY",), ("VEHICLE",)]))
    try:
        scenario = make_scenario(
            attackers,
            defenders,
            targets=named,
            ruleset="40k-11e",
            base=draw(st.sampled_from(["32mm", "25mm"])),
            enemy_base=draw(st.sampled_from(["25mm", "32mm"])),
            roll=draw(st.integers(6, 12)),
            terrain=terrain,
            keywords=keywords,
        )
        check_start_layout(scenario)
    except ScenarioError:
        assume(False)
    return scenario


@settings(
    max_examples=10,
    deadline=None,
    derandomize=True,
    database=None,
    phases=(Phase.explicit, Phase.generate),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(charges_11e())
def test_every_11e_charge_answer_passes_the_checker(scenario: Scenario) -> None:
    """Legal when it says so (every set's placement, not only the answer's); a proof when
    infeasible; an optimal answer meets its bound."""
    note(scenario.model_dump_json(exclude_defaults=True))
    try:
        result = solve(scenario, time_limit=3.0)
    except IneligibleMoveError:
        event("starts engaged")
        return
    event(f"status {result.status}")
    note(f"{result.status} {result.objective} {result.bound} {result.proof}")
    assert "checker_rejected" not in result.stats
    if result.status in (Status.OPTIMAL, Status.FEASIBLE):
        assert check_placement(scenario, result.placements) == []
        assert result.action.targets
    if result.status == Status.INFEASIBLE:
        assert result.proof
    if result.status == Status.OPTIMAL:
        for key in ("within_1", "engaged"):
            assert result.objective[key] == result.bound[key]
    for row in result.target_sets:
        if row["status"] in ("optimal", "feasible") and row["roll"] == result.action.roll:
            from chargeopt.models import Placement

            placements = [Placement(**p) for p in row["placements"]]
            assert check_placement(scenario, placements, roll=row["roll"]) == []
