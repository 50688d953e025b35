"""Proofs over every path (issue 41): the least one-wheel path length in closed form, w4's
exact-contact answer, and no Charge Range or chance for a charge no move reaches."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st
from repo_paths import REPO_ROOT
from t9a_builders import INCH_25MM, block, property_settings, table

from chargeopt.geometry.checker.rank_and_file import check_blocks
from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.models import Status
from chargeopt.solver import load_scenario, solve
from chargeopt.solver.bench.wheel_search import generated, simulate
from chargeopt.solver.rank_and_file.wheel_charge import charge_move_of
from chargeopt.solver.rank_and_file.wheel_plan import plan_charge
from chargeopt.solver.rank_and_file.wheel_reach import _cone_gap, _Side, least_length

W = 5 * INCH_25MM
W4 = REPO_ROOT / "benchmarks/rank-and-file-wheel-v1/w4-6e-arc-too-long.toml"


def test_least_path_in_closed_form() -> None:
    """w4's frame: A's front-left corner (20, 20) facing up, B's front on x = 30 facing left.
    The end slide whose front-right corner touches B's front at (30, 19.016) (slide -W/5):
    in A's start frame c = (10, 0.984); a right wheel about the front-right corner only lengthens
    the path (dL/dphi = (cx - W) sec^2(phi/2) / 2 + W > 0) and d1 >= 0 needs tan(phi) >=
    (cx - W) / cy, so the least is phi = atan2(cx - W, cy): L = W phi + hypot(cx - W, cy)."""
    scenario = load_scenario(W4)
    start, target = BlockPose.of(scenario.acting_unit), BlockPose.of(scenario.target)
    facing = target.facing_segment("front")
    slide = -W / 5
    cx, cy = 10.0, 20.0 - (20.0 - W + slide + W)
    phi = math.atan2(cx - W, cy)
    expected = W * phi + math.hypot(cx - W, cy)
    reach = least_length(start, facing, slide, slide, "arc")
    assert abs(expected - 11.9615) < 1e-3
    assert expected - 2e-4 <= reach.lower_in <= expected + 1e-9
    assert reach.witness is not None
    assert abs(reach.witness.phi_deg - math.degrees(phi)) < 0.01
    assert abs(reach.witness.length_in - expected) < 2e-4


def test_straight_ahead_least_is_the_gap() -> None:
    """Straight ahead onto B's front: the least path to the aligned slide is the 6" gap."""
    scenario = table(
        [
            block("A", "attacker", 25.08, 16.0, -90.0, profile={"movement": 4}),
            block("B", "defender", 30.0, 10.0, 90.0),
        ],
        ruleset="whfb-6e",
    )
    start, target = BlockPose.of(scenario.acting_unit), BlockPose.of(scenario.target)
    reach = least_length(start, target.facing_segment("front"), 0.0, 0.0, "arc")
    assert abs(reach.lower_in - 6.0) < 2e-4


def test_w4_reaches_five_and_five() -> None:
    """The issue's w4: a 79.04-degree wheel (6.789" of arc) and 5.173" forward, 11.962" of
    the 12" charge move, brings 5 of B's models and 5 of A's into contact: optimal."""
    result = solve(load_scenario(W4))
    block_ = result.blocks[0]
    assert result.status == Status.OPTIMAL
    assert (block_["target_models_in_contact"], block_["models_in_contact"]) == (5, 5)
    wheel = next(s for s in block_["path"] if s["move"] == "wheel")
    assert abs(wheel["angle_deg"] - 79.03) < 0.05
    assert abs(wheel["travel_in"] - 6.789) < 0.005
    assert 11.96 <= block_["moved_in"] <= 12.0
    assert check_blocks(load_scenario(W4), result) == []


def test_x1_wall_with_a_slit_has_no_chance() -> None:
    """x1-wall's table with a 1/2" slit A sees B through (x1-wall itself leaves no line of sight:
    refused, test_raf_rules.py): no Charge Move reaches, so no smallest Charge Range and no
    chance."""
    units = [block("A", "attacker", 14.0, 30.0, -90.0), block("B", "defender", 19.0, 10.0, 90.0)]
    walls = [
        [(2.0, 20.0), (16.0, 20.0), (16.0, 22.0), (2.0, 22.0)],
        [(16.5, 20.0), (46.0, 20.0), (46.0, 22.0), (16.5, 22.0)],
    ]
    result = solve(table(units, terrain=walls))
    assert result.status == Status.INFEASIBLE
    assert result.min_roll is None and result.success_probability is None
    assert "proven: no Charge Range the dice can give" in (result.proof or "")


def test_walled_off_t9a_charge_has_no_chance() -> None:
    """A wall across the whole board between A and B, 6" apart, but for a 1/2" slit A sees B
    through, Charge Range 10: no move reaches; no Charge Range succeeds and the proof says the
    verdict's scope."""
    units = [block("A", "attacker", 25.08, 16.0, -90.0), block("B", "defender", 30.0, 10.0, 90.0)]
    wall = [
        [(0.0, 12.5), (27.0, 12.5), (27.0, 13.5), (0.0, 13.5)],
        [(27.5, 12.5), (48.0, 12.5), (48.0, 13.5), (27.5, 13.5)],
    ]
    result = solve(table(units, terrain=wall, roll=10))
    assert result.status == Status.INFEASIBLE
    assert result.min_roll is None and result.success_probability is None
    assert "not proven over every Snaking Forward Move" in (result.proof or "")


@property_settings(6)
@given(st.integers(0, 10_000))
def test_no_answer_above_the_ceiling(seed: int) -> None:
    """Generated 6e/TOW charges: the answer's counts never exceed the least-path ceiling, an
    optimal answer meets it, and every answer passes the checker (every third with a rock)."""
    scenario = generated(3, seed)[seed % 3]
    result = solve(scenario)
    plan = plan_charge(scenario, scenario.action.roll)
    ceiling = plan.path_bound(charge_move_of(scenario, scenario.action.roll))
    block_ = result.blocks[0]
    if result.status in (Status.OPTIMAL, Status.FEASIBLE) and not block_.get("redirected_from"):
        t, c = block_["target_models_in_contact"], block_["models_in_contact"]
        assert ceiling is not None and (t + c, c) <= ceiling
        if result.status == Status.OPTIMAL:
            assert (t + c, c) == ceiling
        assert check_blocks(scenario, result) == []
        assert not result.violations


@property_settings(25)
@given(
    st.integers(0, 10_000),
    st.floats(0.0, 8.0),
    st.floats(-90.0, 90.0),
)
def test_no_path_shorter_than_the_bound(seed: int, d1: float, phi: float) -> None:
    """Any one-wheel path, simulated on its own (wheel_search.simulate: first touch, the door
    closed), ends at a slide whose least path length bound is no longer than the path."""
    scenario = generated(1, seed)[0]
    plan = plan_charge(scenario, scenario.action.roll)
    metric = scenario.rules.wheel_metric
    arrived = simulate(plan.start, plan.target_pose, plan.facing, d1, phi, metric)
    if arrived is None:
        return
    end, _, length = arrived
    slide = plan.facing.along(end.corners["front-left"])
    reach = least_length(plan.start, plan.facing, slide, slide, metric)
    assert reach.lower_in <= length + 1e-6


def test_corner_to_corner_room() -> None:
    """A front-right corner on a facing's start: the block's corner quarter is behind and left
    of it (180-270 degrees in its frame). A target ahead and to the right (0-90 degrees)
    leaves a quarter turn of room each way; one behind and to the left overlaps it."""
    ahead, right = (0.0, 1.0), (1.0, 0.0)
    clear = _Side(W, (0.0, 0.0), (1.0, 0.0), (0.0, -1.0), 3.0, False)
    assert abs(_cone_gap(clear, "facing-start", W, right, ahead) - math.pi / 2) < 1e-12
    overlapping = _Side(W, (0.0, 0.0), (-1.0, 0.0), (0.0, 1.0), 3.0, False)
    assert abs(_cone_gap(overlapping, "facing-start", W, right, ahead) + math.pi / 2) < 1e-12
