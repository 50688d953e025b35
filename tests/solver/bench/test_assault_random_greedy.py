"""The 40k-assault-4e random greedy with restarts (`assault_random_greedy.py`): its answers
pass the checker, and on the assault-4e-v1 charges the solver's answer is never worse."""

from __future__ import annotations

import pytest
from builders import make_scenario, sampled_layouts
from hypothesis import assume, given
from hypothesis import strategies as st
from repo_paths import REPO_ROOT

from chargeopt.geometry.checker import check_placement
from chargeopt.geometry.start_layout import check_start_layout
from chargeopt.models import ActionKind, ScenarioError, Status, load_scenario
from chargeopt.solver import solve
from chargeopt.solver.bench.assault_random_greedy import solve_random_greedy
from chargeopt.solver.bench.methods import METHODS
from chargeopt.solver.options import SolveOptions

SUITE = REPO_ROOT / "benchmarks" / "assault-4e-v1"
CHARGES = sorted(
    p.name
    for p in SUITE.glob("*.toml")
    if p.name != "suite.toml" and load_scenario(p).action.kind == ActionKind.CHARGE
)
JITTER = st.floats(-0.8, 0.8, allow_nan=False)


def counts(result) -> tuple[int, int]:
    return result.objective["enemy_engaged"], result.objective["base_contact"]


def test_three_in_a_line_on_two() -> None:
    """A1 to B1 first, then B2 (unengaged) is taken and the third stays in the 2" chain."""
    scenario = make_scenario(
        [(10.0, 10.0), (8.0, 10.0), (6.0, 10.0)],
        {"B": [(14.0, 10.0), (14.0, 12.0)]},
        ruleset="40k-assault-4e",
    )
    result = METHODS["random-greedy"](scenario, None, 20.0, 0)
    assert result.status == Status.FEASIBLE and result.bound == {}
    assert result.order[0] == "A1"
    assert counts(result) == (2, 2)
    assert check_placement(scenario, result.placements, order=result.order) == []


@st.composite
def charges(draw: st.DrawFn) -> tuple[list, dict[str, list]]:
    """3-6 attackers in two ranks, 1-4 defenders 3-6" ahead, sometimes a unit C not charged."""
    n = draw(st.integers(3, 6))
    attackers = [(10.0 - 1.7 * (i % 2) + draw(JITTER) / 4, 8.0 + 1.7 * (i // 2)) for i in range(n)]
    gap = draw(st.floats(3.0, 6.0))
    k = draw(st.integers(1, 4))
    spread = draw(st.sampled_from((1.7, 3.0)))
    defenders = [(10.0 + gap + draw(JITTER), 8.0 + spread * j + draw(JITTER) / 2) for j in range(k)]
    units = {"B": defenders}
    if draw(st.booleans()):
        units["C"] = [(10.0 + gap + draw(JITTER), 4.5 + draw(JITTER))]
    return attackers, units


@sampled_layouts(8)
@given(charges())
def test_every_answer_passes_the_checker(layout) -> None:
    """No walk the search keeps is refused by the checker, and the answer it returns is legal."""
    attackers, units = layout
    try:
        scenario = make_scenario(attackers, units, ruleset="40k-assault-4e")
        check_start_layout(scenario)
    except (ValueError, ScenarioError):
        assume(False)
    result = solve_random_greedy(scenario, restarts=4, seed=1)
    assume(result.placements)
    assert result.stats["refused_by_checker"] == 0
    assert check_placement(scenario, result.placements, order=result.order) == []


@pytest.mark.parametrize("name", CHARGES)
def test_the_solver_is_never_worse_on_the_suite(name: str) -> None:
    """On each assault-4e-v1 charge the solver engages as many enemy models, and then puts
    as many chargers in contact, as the random greedy (seed 0, a few restarts)."""
    scenario = load_scenario(SUITE / name)
    rival = solve_random_greedy(scenario, restarts=3, seed=0)
    ours = solve(scenario, options=SolveOptions(roll_table=False))
    assert rival.placements and ours.placements
    assert counts(ours) >= counts(rival)


def test_a_tie_for_nearest_is_the_players_choice() -> None:
    """a2-gap-choke: A1 and A3 are both 3.54" from B, a tie the player chooses. The solver
    tries both first moves (both listed as the tie) and, with mates blocking in the gap, is
    never worse than the random greedy drawing among the tied models (seed 0, 48 restarts:
    3 engaged, 2 in contact; the solver 3 and 3)."""
    scenario = load_scenario(SUITE / "a2-gap-choke.toml")
    rival = solve_random_greedy(scenario, restarts=48, seed=0)
    ours = solve(scenario, options=SolveOptions(roll_table=False))
    assert ours.stats["first_tie"] == [["A1", "B1"], ["A3", "B2"]]
    assert rival.stats["refused_by_checker"] == 0
    assert counts(ours) >= counts(rival)
