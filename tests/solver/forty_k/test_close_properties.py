"""Properties of the 3" close-combat moves on random small layouts: every placement the solver
returns passes the independent checker, the fight count it reports is the checker's, and the
heuristic start never changes the proven counts."""

from __future__ import annotations

from dataclasses import replace

from builders import make_scenario
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from chargeopt.geometry.checker import check_placement
from chargeopt.geometry.fight import fight_eligibility
from chargeopt.geometry.start_layout import check_start_layout
from chargeopt.models import IneligibleMoveError, Scenario, ScenarioError, Status
from chargeopt.solver import SolveOptions, solve

SPACING_IN = 1.7
"""Grid step of a unit's models; with jitter of at most 0.2" two 32mm bases never overlap."""
OPTIONS = SolveOptions(time_limit_s=3.0)


def _tenths(lo: float, hi: float) -> st.SearchStrategy[float]:
    return st.integers(round(lo * 10), round(hi * 10)).map(lambda v: v / 10)


@st.composite
def close_moves(draw: st.DrawFn) -> Scenario:
    """A unit of 1 to 6 models facing one or two enemy units 0 to 4" away (sometimes with a
    model already in base contact), piling in or consolidating (9th or 10th edition),
    sometimes with an objective marker."""
    count = draw(st.integers(1, 6))
    x0, y0 = 8.0, draw(_tenths(6.0, 10.0))
    attackers = [
        (
            x0 + SPACING_IN * (i % 2) + draw(_tenths(-0.2, 0.2)),
            y0 + SPACING_IN * (i // 2) + draw(_tenths(-0.2, 0.2)),
        )
        for i in range(count)
    ]
    front = x0 + SPACING_IN + 1.3 + draw(_tenths(0.0, 4.0))
    defenders = {"B": [(front, y0 + SPACING_IN * k + draw(_tenths(-0.3, 0.3))) for k in range(2)]}
    if count > 1 and draw(st.booleans()):
        ax, ay = attackers[1]
        defenders["B"][0] = (ax + 32 / 25.4, ay)
    if draw(st.booleans()):
        defenders["C"] = [(front + draw(_tenths(0.0, 2.0)), y0 + 3 * SPACING_IN + 0.5)]
    kind = draw(st.sampled_from(["pile-in", "consolidate"]))
    objectives = (
        [{"id": "M1", "x": x0, "y": y0 + 6.0 + draw(_tenths(0.0, 3.0))}]
        if draw(st.booleans())
        else []
    )
    return make_scenario(
        attackers,
        defenders,
        ruleset=draw(st.sampled_from(["40k-9e", "40k-10e"])),
        action={"kind": kind, "unit": "A", "charged": kind == "pile-in"},
        objectives=objectives,
        board=(30.0, 24.0),
    )


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(close_moves())
def test_every_placement_passes_the_checker(scenario: Scenario) -> None:
    """Whatever the solver places is legal by the independent checker, and each model's
    `fights` is what `geometry.fight` measures."""
    try:
        check_start_layout(scenario, "<hypothesis>")
    except ScenarioError:
        assume(False)
    try:
        result = solve(scenario, options=OPTIONS)
    except IneligibleMoveError:
        assume(False)
        return
    if result.status in (Status.OPTIMAL, Status.FEASIBLE):
        assert check_placement(scenario, result.placements) == []
        assert result.violations == ()
        fights = fight_eligibility(scenario, result.placements)
        assert {p.model: p.fights for p in result.placements} == fights
        assert result.objective["can_fight"] == sum(1 for f in fights.values() if f)


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(close_moves())
def test_heuristic_start_keeps_the_proven_counts(scenario: Scenario) -> None:
    """With the heuristic start (which skips CP-SAT when it meets every proven ceiling) and
    with CP-SAT alone, an optimal answer has the same base contact and fight counts."""
    try:
        check_start_layout(scenario, "<hypothesis>")
        with_start = solve(scenario, options=OPTIONS)
    except (ScenarioError, IneligibleMoveError):
        assume(False)
        return
    alone = solve(scenario, options=replace(OPTIONS, use_hint=False))
    assume(with_start.status == alone.status == Status.OPTIMAL)
    counts = ("base_contact", "can_fight", "on_objective")
    assert {k: with_start.objective.get(k) for k in counts} == {
        k: alone.objective.get(k) for k in counts
    }
