"""The 40k-11e baseline (the public engines' snap charge) and the 11e random greedy, on the
forty-k-11e-v1 layouts whose values README.md works out by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from chargeopt.geometry.checker import check_placement
from chargeopt.models import Result, ResultAction, Status, UnsupportedRuleError
from chargeopt.solver import load_scenario
from chargeopt.solver.bench.baseline_11e import (
    baseline_targets,
    effective_roll,
    solve_baseline_11e,
)
from chargeopt.solver.bench.baseline_close_11e import solve_baseline_close_11e
from chargeopt.solver.bench.methods import METHODS
from chargeopt.solver.bench.random_11e import (
    eligible_targets,
    generated,
    refutes,
    solve_random_11e,
)

SUITE = Path(__file__).resolve().parents[3] / "benchmarks" / "forty-k-11e-v1"
AROUND_THE_BLOCK_IN = 10.311
"""c04: the shortest path around the dense block to engage the target (README.md)."""


def _load(stem: str):
    return load_scenario(next(SUITE.glob(f"{stem}-*.toml")))


@pytest.mark.parametrize(
    ("stem", "within_1", "engaged"),
    [
        ("c01", 1, 1),
        ("c02", 5, 10),
        ("c03", 5, 5),
        ("c04", 0, 1),
        ("c05", 1, 1),
        ("c07", 5, 10),
        ("c08", 2, 2),
        ("h01", 5, 5),
        ("h02", 5, 10),
    ],
)
def test_baseline_meets_the_hand_optimum_and_the_checker(
    stem: str, within_1: int, engaged: int
) -> None:
    """On these layouts the snap charge (or intervention) reaches the optimum README.md works
    out, legally."""
    scenario = _load(stem)
    result = solve_baseline_11e(scenario, scenario.action.roll)
    assert result.status == Status.FEASIBLE
    assert (result.objective["within_1"], result.objective["engaged"]) == (within_1, engaged)
    assert check_placement(scenario, result.placements, roll=scenario.action.roll) == []


def test_baseline_goes_around_the_dense_block() -> None:
    """c04: the monster may not cross the 5" block, so it moves at least the path around it."""
    scenario = _load("c04")
    result = solve_baseline_11e(scenario, 11)
    assert result.placements[0].moved >= AROUND_THE_BLOCK_IN
    assert result.placements[0].y > 14.0


def test_baseline_answer_on_the_nine_inch_layout_is_refused() -> None:
    """c09 is infeasible: the baseline still answers, and the checker refuses the answer."""
    scenario = _load("c09")
    result = solve_baseline_11e(scenario, 12)
    assert result.status == Status.FEASIBLE
    assert check_placement(scenario, result.placements, roll=12)


def test_targets_and_rolls_of_each_mode() -> None:
    """Nearest eligible unit without targets (c06: B, never C); Leap to Defend only the unit
    that charged; Into the Fray caps 9 at 6 and skips the unit 6.5" away."""
    assert baseline_targets(_load("c06"), 7) == ("B",)
    assert eligible_targets(_load("c06"), 7) == ["B", "D"]
    leap = _load("h01")
    assert baseline_targets(leap, 7) == ("C",) and eligible_targets(leap, 7) == ["C"]
    fray = _load("h02")
    assert effective_roll(fray, 9) == 6 and effective_roll(fray, 5) == 5
    assert eligible_targets(fray, 6) == ["E"]


def test_baseline_refuses_close_moves() -> None:
    with pytest.raises(UnsupportedRuleError, match="charges"):
        solve_baseline_11e(_load("p01"), None)
    assert "baseline-11e" in METHODS


@pytest.mark.parametrize(
    ("stem", "mode", "term", "count"),
    [
        ("p01", "pile-in", "engaged_closest", 4),
        ("o01", "ongoing", "engaged_closest", 3),
        ("o02", "engaging", "engaged_closest", 3),
        ("o03", "objective", "on_objective", 2),
    ],
)
def test_auto_pile_in_baseline(stem: str, mode: str, term: str, count: int) -> None:
    """The engines' auto pile in: the first mode the rules name, base-contact models left
    standing, legal answers; on o03 its nearest spots leave A3 off the marker (2 of 3)."""
    scenario = _load(stem)
    result = solve_baseline_close_11e(scenario)
    assert result.stats["mode"] == mode and result.objective[term] == count
    assert check_placement(scenario, result.placements) == []
    start = {m.id: (m.x, m.y) for m in scenario.acting_unit.models}
    for p in result.placements:
        if (p.model in {"A1", "A2"} and stem == "p01") or (p.model == "A1" and stem == "o01"):
            assert (p.x, p.y, p.moved) == (*start[p.model], 0.0)


def test_random_greedy_never_beats_the_hand_optimum() -> None:
    """c04: legal, engaged, never within 1"; c09: nothing the checker accepts."""
    scenario = _load("c04")
    found = solve_random_11e(scenario, 11, restarts=4, seed=1)
    assert found.status == Status.FEASIBLE
    assert (found.objective["within_1"], found.objective["engaged"]) == (0, 1)
    assert found.placements[0].moved >= AROUND_THE_BLOCK_IN
    nine = solve_random_11e(_load("c09"), 12, restarts=3, seed=1)
    assert nine.status == Status.UNKNOWN and nine.stats["refused_by_checker"] == 3


def test_refutes_names_a_better_legal_answer() -> None:
    scenario = _load("c02")
    action = ResultAction.of(scenario.action, 5)

    def result(status: Status, within: int, engaged: int) -> Result:
        objective = {"within_1": within, "engaged": engaged, "movement_in": 40.0}
        return Result(
            scenario="s", ruleset=("40k-11e",), action=action, status=status, objective=objective
        )

    found = result(Status.FEASIBLE, 5, 10)
    assert refutes(result(Status.OPTIMAL, 5, 9), found) is not None
    assert refutes(result(Status.OPTIMAL, 5, 10), found) is None
    assert refutes(result(Status.FEASIBLE, 4, 9), found) is None
    assert "infeasible" in (refutes(result(Status.INFEASIBLE, 0, 0), found) or "")


def test_generated_charges_are_seeded_and_their_target_is_within_the_roll() -> None:
    """The sampled charges the random greedy is run on: the same for a seed, B a legal
    target on each roll, a monster every fifth, a dense block or a second unit in some."""
    first, again = generated(12, 3), generated(12, 3)
    assert [s for _, s in first] == [s for _, s in again]
    for _, scenario in first:
        assert "B" in eligible_targets(scenario, scenario.action.roll)
    assert any(s.terrain for _, s in first) and any(len(s.units) == 3 for _, s in first)
    assert "MONSTER" in first[4][1].acting_unit.keywords
