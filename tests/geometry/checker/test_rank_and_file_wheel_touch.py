"""TOW's wheel straight into contact (issue 42): a 6x2 block of 25x50mm whose wheel from the
start, with no forward move, ends with its front touching the target's front-left corner,
then closes the door. The path is an isolated point of the door family (d1 has a double root
there), so the checker finds it in closed form, and refuses an end moved off it."""

from __future__ import annotations

import pytest
from t9a_builders import tow_wheel_into_touch

from chargeopt.geometry.checker.rank_and_file_door import first_clash, wheeled_into_touch
from chargeopt.geometry.checker.rank_and_file_reach_end import check_end_reach, hinges_of
from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.models import Status
from chargeopt.solver import solve

WIDTH_IN, DEPTH_IN = 6 * 25 / 25.4, 2 * 50 / 25.4
START = BlockPose(WIDTH_IN, DEPTH_IN, 17.2, 23.8, -98.9)
TARGET = BlockPose(5 * 25 / 25.4, 3 * 25 / 25.4, 26.0, 18.0, 90.0)
END_X = 20.436413


def test_the_wheel_into_the_corner_is_found_and_clear() -> None:
    end = BlockPose(WIDTH_IN, DEPTH_IN, END_X, 18.0, -90.0)
    found = wheeled_into_touch(START, end, hinges_of(end, TARGET), "chord")
    assert len(found) == 1
    path = found[0].path
    assert (path.d1_in, path.d2_in) == (0.0, 0.0)
    assert path.angle_deg == pytest.approx(77.087, abs=1e-3)
    assert path.length_in == pytest.approx(7.3596, abs=1e-4)
    assert found[0].door_deg == pytest.approx(-68.187, abs=1e-3)
    assert found[0].hinge == pytest.approx((21.0787, 18.0), abs=1e-4)
    assert first_clash(START, found[0], [], TARGET.polygon) is None


@pytest.mark.parametrize(
    ("off_in", "expected"), [(0.02, ["unreachable"]), (0.1, ["unreachable"]), (-0.02, [])]
)
def test_an_end_off_the_wheel_is_judged_by_the_sampled_family(
    off_in: float, expected: list[str]
) -> None:
    """Moved right, no path reaches the end (d1 < 0 at every door angle); moved left, d1's
    double root splits and forward-wheel-forward paths with d1 > 0 reach it."""
    end = BlockPose(WIDTH_IN, DEPTH_IN, END_X + off_in, 18.0, -90.0)
    assert wheeled_into_touch(START, end, hinges_of(end, TARGET), "chord") == []
    kinds = [
        v.kind
        for v in check_end_reach(tow_wheel_into_touch(), "A", START, end, TARGET, TARGET, [], 12.0)
    ]
    assert kinds == expected


def test_the_solve_is_optimal_with_five_and_six_in_contact() -> None:
    from chargeopt.geometry.checker.rank_and_file import check_blocks

    scenario = tow_wheel_into_touch()
    result = solve(scenario)
    assert result.status == Status.OPTIMAL
    assert not result.violations
    assert check_blocks(scenario, result) == []
    charger = next(b for b in result.blocks if b["unit"] == "A")
    assert (charger["target_models_in_contact"], charger["models_in_contact"]) == (5, 6)
    assert [s["move"] for s in charger["path"]] == ["wheel", "forward", "align"]
