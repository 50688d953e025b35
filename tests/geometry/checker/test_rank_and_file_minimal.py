"""Every answer the rank-and-file solvers print passes the checker when written by hand (unit,
x, y, facing: no path, no claims): the checker finds its own witness path or proof, and never
refuses a legal placement for a claim it was not given; turned 2 degrees off flush, each is
refused as `not_flush`. Random T9A (one or two chargers), 6e and TOW charges, sometimes a
rock."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st
from t9a_builders import block, property_settings, table

from chargeopt.geometry.checker.rank_and_file import check_blocks
from chargeopt.geometry.checker.rank_and_file_flush import shared_stretch, touched_facing
from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.geometry.rank_and_file.moves import rotate_about
from chargeopt.geometry.rank_and_file.start import check_block_layout
from chargeopt.models import RankAndFileScenario, Result, ScenarioError, Status


def _tenths(lo: float, hi: float) -> st.SearchStrategy[float]:
    return st.integers(round(lo * 10), round(hi * 10)).map(lambda v: v / 10)


@st.composite
def charges(draw: st.DrawFn) -> RankAndFileScenario:
    edition = draw(st.sampled_from(["t9a-2022", "whfb-6e", "tow"]))
    units = [block("B", "defender", 26.0, 18.0, draw(st.sampled_from([90.0, 0.0, 45.0, 180.0])))]
    ids = draw(st.sampled_from([("A",), ("A", "C")])) if edition == "t9a-2022" else ("A",)
    movement = draw(st.integers(3, 8))
    for uid in ids:
        x, y = draw(_tenths(6, 40)), draw(_tenths(6, 40))
        toward_b = math.degrees(math.atan2(16.0 - y, 24.0 - x))
        units.append(
            block(
                uid,
                "attacker",
                x,
                y,
                round(toward_b + draw(_tenths(-50, 50)), 1),
                files=draw(st.integers(2, 6)),
                ranks=draw(st.integers(1, 4)),
                base=draw(st.sampled_from(["25x25mm", "20x20mm", "25x50mm"])),
                profile={"movement": movement},
            )
        )
    terrain = []
    if draw(st.booleans()):
        rx, ry = draw(_tenths(10, 36)), draw(_tenths(10, 36))
        terrain.append([(rx, ry), (rx + 2, ry), (rx + 2, ry + 1.5), (rx, ry + 1.5)])
    roll = movement + draw(st.integers(1, 6)) if edition == "tow" else None
    try:
        scenario = table(units, terrain=terrain, chargers=ids, roll=roll, ruleset=edition)
        check_block_layout(scenario)
    except ScenarioError:
        assume(False)
    return scenario


@property_settings(15)
@given(charges())
def test_every_answer_written_by_hand_passes(scenario: RankAndFileScenario) -> None:
    from chargeopt.solver import solve

    result = solve(scenario)
    assume(result.status in (Status.OPTIMAL, Status.FEASIBLE))
    assert check_blocks(scenario, result) == []
    by_hand = tuple(
        {k: b[k] for k in ("unit", "x", "y", "facing")}
        | (
            {"outcome": b["outcome"]}
            if b.get("outcome") not in (None, "charges", "rotates")
            else {}
        )
        for b in result.blocks
    )
    found = check_blocks(scenario, result.model_copy(update={"blocks": by_hand}))
    assert found == [], [v.message for v in found]
    for i, entry in enumerate(by_hand):
        turned = _turned_two_degrees(scenario, result, entry)
        if turned is not None:
            broken = (*by_hand[:i], turned, *by_hand[i + 1 :])
            kinds = {
                v.kind for v in check_blocks(scenario, result.model_copy(update={"blocks": broken}))
            }
            assert "not_flush" in kinds, kinds


def _turned_two_degrees(
    scenario: RankAndFileScenario, result: Result, entry: dict[str, Any]
) -> dict[str, Any] | None:
    """A flush charger turned 2 degrees about an end of its shared stretch, lifting off."""
    if entry["unit"] not in scenario.action.chargers or "outcome" in entry:
        return None
    unit = scenario.unit_by_id[entry["unit"]]
    pose = BlockPose(unit.width_in, unit.depth_in, entry["x"], entry["y"], entry["facing"])
    tid = result.action.targets[0]
    moved = next((b for b in result.blocks if b["unit"] == tid), None)
    t_unit = scenario.unit_by_id[tid]
    target = (
        BlockPose(t_unit.width_in, t_unit.depth_in, moved["x"], moved["y"], moved["facing"])
        if moved
        else BlockPose.of(t_unit)
    )
    on = touched_facing(pose, target)
    stretch = shared_stretch(pose, on.facing) if on is not None and on.flush else None
    if stretch is None or stretch[1] - stretch[0] < 0.1:
        return None
    for t in stretch:
        for sign in (1.0, -1.0):
            new = rotate_about(pose, on.facing.point_at(t), 2.0 * sign)
            if new.polygon.intersection(target.polygon).area < 1e-9:
                return {**entry, "x": new.x, "y": new.y, "facing": new.facing}
    return None
