"""Every 40k-assault-4e answer on sampled layouts passes the independent checker as written."""

from __future__ import annotations

import pytest
from builders import make_scenario, sampled_layouts
from hypothesis import assume, given
from hypothesis import strategies as st

from chargeopt.geometry.checker import check_placement
from chargeopt.models import IneligibleMoveError, Scenario
from chargeopt.solver import solve

JITTER = st.floats(-0.6, 0.6, allow_nan=False)


@st.composite
def layouts(draw: st.DrawFn) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """2-4 attackers in a rough column at x = 10, 1-3 defenders 3-6" to their right."""
    n = draw(st.integers(2, 4))
    attackers = [(10.0 + draw(JITTER), 8.0 + 2.0 * i) for i in range(n)]
    gap = draw(st.floats(3.0, 6.0))
    k = draw(st.integers(1, 3))
    defenders = [(10.0 + gap + draw(JITTER), 9.0 + 2.0 * j + draw(JITTER) / 2) for j in range(k)]
    return attackers, defenders


@sampled_layouts(10)
@given(layouts(), st.sampled_from(["charge", "pile-in", "consolidate"]))
def test_every_answer_passes_the_checker(layout, kind: str) -> None:
    """Charge and consolidation: answers with placements have no violation; a reinforcement
    by the unit, locked in no combat (its models a gap away), is refused."""
    attackers, defenders = layout
    action = None if kind == "charge" else {"kind": kind, "unit": "A"}
    try:
        scenario = make_scenario(
            attackers, {"B": defenders}, ruleset="40k-assault-4e", action=action
        )
    except ValueError:
        assume(False)
    if kind == "pile-in":
        with pytest.raises(IneligibleMoveError, match="locked in no combat"):
            solve(scenario)
        return
    result = solve(scenario)
    if result.placements:
        assert check_placement(scenario, result.placements, order=result.order) == []


@st.composite
def locked_layouts(draw: st.DrawFn) -> tuple[list, list, list]:
    """2-4 attackers in a rough column at x = 10 locked with 1-3 defenders 4.5-9" to their
    right (many out of reach), an impassable block between them half the time."""
    attackers, _ = draw(layouts())
    gap = draw(st.floats(4.5, 9.0))
    k = draw(st.integers(1, 3))
    defenders = [(10.0 + gap + draw(JITTER), 9.0 + 2.0 * j + draw(JITTER) / 2) for j in range(k)]
    terrain = []
    if draw(st.booleans()):
        x0, y0 = 11.5 + draw(st.floats(0.0, 0.5)), draw(st.floats(6.0, 10.0))
        block = [[x0, y0], [x0 + 1.0, y0], [x0 + 1.0, y0 + 4.0], [x0, y0 + 4.0]]
        terrain = [{"id": "block", "kind": "impassable", "path": block}]
    return attackers, defenders, terrain


@sampled_layouts(12)
@given(locked_layouts())
def test_every_reinforcement_passes_the_checker(layout) -> None:
    """Locked units piling in (into contact, else as close as they can get): no violation, and
    no count above its ceiling."""
    attackers, defenders, terrain = layout
    try:
        scenario = make_scenario(
            attackers,
            {"B": defenders},
            ruleset="40k-assault-4e",
            terrain=terrain,
            action={"kind": "pile-in", "unit": "A"},
        )
        data = scenario.model_dump(mode="json", exclude_none=True)
        data["units"][0]["locked_with"] = ["B"]
        scenario = Scenario.model_validate(data)
    except ValueError:
        assume(False)
    result = solve(scenario)
    assert check_placement(scenario, result.placements) == []
    assert all(result.objective[k] <= ceiling for k, ceiling in result.bound.items())
