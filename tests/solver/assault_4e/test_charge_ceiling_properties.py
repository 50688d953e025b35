"""The 40k-assault-4e charge's ceilings hold: on sampled charges (a screen of another enemy unit
beside some), no answer of the solver or of the literal greedy goes above them, and `optimal`
means every term meets its ceiling."""

from __future__ import annotations

from builders import make_scenario, sampled_layouts
from hypothesis import assume, given
from hypothesis import strategies as st

from chargeopt.geometry.checker import check_placement
from chargeopt.geometry.start_layout import check_start_layout
from chargeopt.models import ScenarioError, Status
from chargeopt.solver import solve
from chargeopt.solver.bench.assault_baseline import solve_literal_charge
from chargeopt.solver.options import SolveOptions

JITTER = st.floats(-0.8, 0.8, allow_nan=False)
TERMS = ("enemy_engaged", "base_contact", "one_attack")


@st.composite
def charges(draw: st.DrawFn) -> tuple[list, dict[str, list]]:
    """3-7 attackers in two ranks at x = 8-10, 1-4 defenders 3.5-7" ahead, sometimes a
    one-model unit C (not charged) beside them."""
    n = draw(st.integers(3, 7))
    attackers = [(10.0 - 1.7 * (i % 2) + draw(JITTER) / 4, 8.0 + 1.7 * (i // 2)) for i in range(n)]
    gap = draw(st.floats(3.5, 7.0))
    k = draw(st.integers(1, 4))
    defenders = [(10.0 + gap + draw(JITTER), 8.0 + 1.7 * j + draw(JITTER) / 2) for j in range(k)]
    units = {"B": defenders}
    if draw(st.booleans()):
        units["C"] = [(10.0 + gap + draw(JITTER), 4.5 + draw(JITTER))]
    return attackers, units


@sampled_layouts(12)
@given(charges())
def test_no_answer_beats_the_ceilings(layout) -> None:
    """Solver and literal greedy stay at or under every ceiling; `optimal` meets them all."""
    attackers, units = layout
    try:
        scenario = make_scenario(attackers, units, ruleset="40k-assault-4e")
        check_start_layout(scenario)
    except (ValueError, ScenarioError):
        assume(False)
    result = solve(scenario)
    assume(result.placements)
    assert check_placement(scenario, result.placements, order=result.order) == []
    bound = result.bound
    for term in TERMS:
        if term in bound:
            assert result.objective[term] <= bound[term]
    if result.status == Status.OPTIMAL:
        assert all(result.objective[t] == bound[t] for t in TERMS)
    literal = solve_literal_charge(scenario, SolveOptions())
    if literal.placements:
        for term in ("enemy_engaged", "base_contact"):
            assert literal.objective[term] <= bound[term]
