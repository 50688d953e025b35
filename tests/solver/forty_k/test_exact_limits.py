"""The 40k charge under the shared exact-limits rule (issue 42): the margins that keep a
printed answer legal at 0.01" shape the answer, never the verdict. One 32mm charger, one 32mm
target straight ahead, roll 5 (10th edition: end within 1" of the target): the printed pass
keeps 0.012" inside the roll and 0.011" inside engagement range, so it reaches only an edge
gap of 1.008" or more from where the charger ends; the exact pass reaches the range itself."""

from __future__ import annotations

import math

from builders import make_scenario
from hypothesis import given, settings
from hypothesis import strategies as st

from chargeopt.geometry.checker import check_placement
from chargeopt.models import Result, Status
from chargeopt.solver import solve
from chargeopt.solver.core.exact_limits import NOTE, STAT_KEY
from chargeopt.solver.interface.summary import summarise_result

R32 = 16 / 25.4
START = (10.0, 10.0)


def _charge(gap_in: float) -> tuple[Result, float]:
    """The charge with the target `gap_in` away edge to edge, and the target's x."""
    target_x = START[0] + 2 * R32 + gap_in
    scenario = make_scenario([START], {"B": [(target_x, START[1])]}, roll=5)
    return solve(scenario, time_limit=5), target_x


def _moved_and_gap(result: Result, target_x: float) -> tuple[float, float]:
    end = result.placements[0]
    moved = math.hypot(end.x - START[0], end.y - START[1])
    return moved, math.hypot(target_x - end.x, START[1] - end.y) - 2 * R32


def test_the_issues_charge_inside_the_margins_is_feasible_with_the_note() -> None:
    """5.9969" apart (the issue's 0.9974" left after 4.9995"): no end keeps both margins
    (4.988" of roll leaves 1.0089" > 0.989"), so the printed pass finds nothing; the exact
    pass ends the charger 0.9979" away after 4.999" (on the written grid), legal as written,
    `feasible` with the note, and the checker finds nothing wrong."""
    result, target_x = _charge(5.9969)
    assert result.status == Status.FEASIBLE
    assert result.violations == ()
    assert result.stats[STAT_KEY] == NOTE
    assert result.objective["engaged"] == 1 and result.objective["base_contact"] == 0
    moved, gap = _moved_and_gap(result, target_x)
    assert 5 - 0.012 < moved <= 5.0
    assert 1 - 0.011 < gap <= 1.0
    assert f"Note: {NOTE}." in summarise_result(result).splitlines()


def test_a_charge_short_only_by_the_roll_margin_needs_the_exact_pass() -> None:
    """5.995" apart: 4.988" of roll leaves 1.007", outside range with or without its margin;
    only the roll's last 0.012" reaches it: `feasible` at exact limits, with the note."""
    result, target_x = _charge(5.995)
    assert result.status == Status.FEASIBLE
    assert result.stats[STAT_KEY] == NOTE
    moved, gap = _moved_and_gap(result, target_x)
    assert moved > 5 - 0.012 and gap <= 1.0


def test_a_charge_the_margins_allow_runs_no_exact_pass() -> None:
    """5.9" apart: the printed pass ends 0.989" or closer inside a 4.988" move: `optimal`,
    no note."""
    result, target_x = _charge(5.9)
    assert result.status == Status.OPTIMAL
    assert STAT_KEY not in result.stats
    moved, gap = _moved_and_gap(result, target_x)
    assert moved <= 5 - 0.012 and gap <= 1 - 0.011


def test_a_charge_beyond_the_exact_limits_stays_infeasible() -> None:
    """6.01" apart: 5" and 1" do not reach, at any margin: `infeasible`, with its proof."""
    result, _ = _charge(6.01)
    assert result.status == Status.INFEASIBLE
    assert STAT_KEY not in result.stats
    assert "6.01\" away edge to edge" in (result.proof or "")


@settings(max_examples=8, deadline=None, derandomize=True, database=None)
@given(
    gap_in=st.floats(5.99, 5.997),
    angle=st.floats(0.0, 2 * math.pi, exclude_max=True),
)
def test_a_charge_only_inside_the_margins_is_found_in_any_direction(
    gap_in: float, angle: float
) -> None:
    """5.99" to 5.997" apart in any direction: the legal ends are a sliver 0.003" to 0.01"
    deep, beyond the printed margins; the exact pass finds one on the written grid (the
    corners of the sliver, drawn a written step inside it), `feasible` with the note, and
    the JSON as written passes the checker."""
    start = (15.0, 15.0)
    far = 2 * R32 + gap_in
    target = (start[0] + far * math.cos(angle), start[1] + far * math.sin(angle))
    scenario = make_scenario([start], {"B": [target]}, roll=5)
    result = solve(scenario, time_limit=2)
    assert result.status == Status.FEASIBLE and result.stats[STAT_KEY] == NOTE
    assert check_placement(scenario, result.placements, roll=5) == []
