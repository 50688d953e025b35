"""Properties of the 11th edition's pile in and consolidation on random small layouts: every
placement the solver returns passes the independent checker, and each model's `fights` is the
geometry's (engaged, 2")."""

from __future__ import annotations

from builders import make_scenario
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from chargeopt.geometry.checker import check_placement
from chargeopt.geometry.fight import fight_eligibility
from chargeopt.geometry.start_layout import check_start_layout
from chargeopt.models import IneligibleMoveError, Scenario, ScenarioError, Status
from chargeopt.solver import SolveOptions, solve

SPACING_IN = 1.7
OPTIONS = SolveOptions(time_limit_s=3.0)


def _tenths(lo: float, hi: float) -> st.SearchStrategy[float]:
    return st.integers(round(lo * 10), round(hi * 10)).map(lambda v: v / 10)


@st.composite
def close_moves_11e(draw: st.DrawFn) -> Scenario:
    """A unit of 1 to 6 models facing one or two enemy units 0 to 5" away (sometimes with a
    model in base contact), piling in (charged or overrun) or consolidating, sometimes with an
    objective marker, sometimes across a dense or light area's wall."""
    count = draw(st.integers(1, 6))
    x0, y0 = 8.0, draw(_tenths(6.0, 10.0))
    attackers = [
        (
            x0 + SPACING_IN * (i % 2) + draw(_tenths(-0.2, 0.2)),
            y0 + SPACING_IN * (i // 2) + draw(_tenths(-0.2, 0.2)),
        )
        for i in range(count)
    ]
    front = x0 + SPACING_IN + 1.3 + draw(_tenths(0.0, 5.0))
    defenders = {"B": [(front, y0 + SPACING_IN * k + draw(_tenths(-0.3, 0.3))) for k in range(2)]}
    if count > 1 and draw(st.booleans()):
        ax, ay = attackers[1]
        defenders["B"][0] = (ax + 32 / 25.4, ay)
    if draw(st.booleans()):
        defenders["C"] = [(front + draw(_tenths(0.0, 2.0)), y0 + 3 * SPACING_IN + 0.5)]
    kind = draw(st.sampled_from(["pile-in", "consolidate"]))
    objectives = (
        [{"id": "M1", "x": x0, "y": y0 + 5.0 + draw(_tenths(0.0, 3.0))}]
        if draw(st.booleans())
        else []
    )
    terrain = []
    if draw(st.booleans()):
        wall_x = x0 + SPACING_IN + draw(_tenths(0.8, 3.0))
        terrain.append(
            {
                "id": "ruin",
                "kind": draw(st.sampled_from(["dense", "light"])),
                "path": [
                    [wall_x - 1, y0 - 2],
                    [wall_x + 1, y0 - 2],
                    [wall_x + 1, y0 + 3],
                    [wall_x - 1, y0 + 3],
                ],
                "height_in": 5.0,
                "walls": [[[wall_x, y0 - 2], [wall_x, y0 + 3]]],
            }
        )
    action = {"kind": kind, "unit": "A"}
    if kind == "pile-in":
        action[draw(st.sampled_from(["charged", "overrun"]))] = True
    return make_scenario(
        attackers,
        defenders,
        ruleset="40k-11e",
        action=action,
        objectives=objectives,
        terrain=terrain,
        board=(30.0, 24.0),
    )


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(close_moves_11e())
def test_every_11e_placement_passes_the_checker(scenario: Scenario) -> None:
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
        assert result.objective["engaged"] == sum(1 for f in fights.values() if f)


@st.composite
def heroic_interventions(draw: st.DrawFn) -> Scenario:
    """A unit of 1 to 4 models 2 to 7" from unit B (which charged) and sometimes a unit C,
    intervening in either mode with a roll of 3 to 10."""
    count = draw(st.integers(1, 4))
    x0, y0 = 8.0, draw(_tenths(6.0, 10.0))
    attackers = [(x0 + SPACING_IN * (i % 2), y0 + SPACING_IN * (i // 2)) for i in range(count)]
    front = x0 + SPACING_IN + 1.3 + draw(_tenths(2.0, 7.0))
    defenders = {"B": [(front, y0 + draw(_tenths(-1.0, 1.0)))]}
    if draw(st.booleans()):
        defenders["C"] = [(front - draw(_tenths(0.0, 3.0)), y0 + 4 * SPACING_IN)]
    mode = draw(st.sampled_from(["leap-to-defend", "into-the-fray"]))
    action = {
        "kind": "heroic-intervention",
        "unit": "A",
        "heroic_mode": mode,
        "charged_units": ["B"],
        "roll": draw(st.integers(3, 10)),
    }
    return make_scenario(attackers, defenders, ruleset="40k-11e", action=action, board=(30.0, 24.0))


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(heroic_interventions())
def test_every_11e_heroic_intervention_passes_the_checker(scenario: Scenario) -> None:
    try:
        check_start_layout(scenario, "<hypothesis>")
        result = solve(scenario, options=OPTIONS)
    except (ScenarioError, IneligibleMoveError):
        assume(False)
        return
    if result.status in (Status.OPTIMAL, Status.FEASIBLE):
        assert check_placement(scenario, result.placements, roll=result.action.roll) == []
        assert result.violations == ()
        assert result.action.roll <= scenario.action.roll
        if scenario.action.heroic_mode == "into-the-fray":
            assert result.action.roll <= 6
        else:
            assert set(result.action.targets) <= {"B"}
