"""The continuous repair (`solver.engaged_repair`) brings one more model within engagement range
by shifting the unit off the candidates, and only keeps what the independent checker passes."""

from __future__ import annotations

import math
import time
from dataclasses import replace
from pathlib import Path

from builders import make_scenario

from chargeopt.geometry import Battlefield
from chargeopt.geometry.checker import check_placement
from chargeopt.models import Placement, Status, load_scenario
from chargeopt.solver import solve
from chargeopt.solver.engaged_repair import applies_to, repair_engaged
from chargeopt.solver.options import SolveOptions
from chargeopt.solver.polish import Pose
from chargeopt.solver.summary import repair_lines, summarise_result

LAYOUTS = Path(__file__).resolve().parents[2] / "benchmarks" / "layouts"
R_IN = 16 / 25.4
"""A 32mm base's radius."""
TARGET = (20.0, 20.0)


def _two_marines():
    """Two marines (roll 8) charging one marine at (20, 20): A1 ends touching it from the west,
    A2 ends 3.64" from its centre, in coherency with A1 but out of engagement range."""
    scenario = make_scenario([(12.0, 20.0), (12.0, 21.5)], {"B": [TARGET]}, roll=8)
    poses = {
        "A1": Pose(TARGET[0] - 2 * R_IN - 0.001, 20.0, 0.0, 0.0, 7.74),
        "A2": Pose(16.5, 21.0, 0.0, 0.0, math.hypot(4.5, 0.5)),
    }
    return scenario, poses


def _placements(poses: dict[str, Pose]) -> list[Placement]:
    return [Placement(model=m, x=p.x, y=p.y) for m, p in poses.items()]


def _engaged(poses: dict[str, Pose]) -> int:
    return sum(math.dist((p.x, p.y), TARGET) <= 2 * R_IN + 1.0 for p in poses.values())


def _checked(scenario):
    def accept(poses: dict[str, Pose], at_least: int) -> bool:
        return _engaged(poses) >= at_least and not check_placement(scenario, _placements(poses))

    return accept


def _repair(scenario, poses: dict[str, Pose], roll: int, ceiling: int = 2, accept=None):
    """The repair of A1 touching B1 and nothing else engaged, with ten seconds to spare."""
    return repair_engaged(
        scenario,
        Battlefield.from_scenario(scenario),
        poses,
        {"A1"},
        {"A1": "B1"},
        roll,
        ceiling,
        time.perf_counter() + 10,
        accept or _checked(scenario),
    )


def test_the_second_marine_is_brought_within_engagement_range() -> None:
    scenario, poses = _two_marines()
    battlefield = Battlefield.from_scenario(scenario)
    assert applies_to(scenario, battlefield)
    assert not check_placement(scenario, _placements(poses))
    assert _engaged(poses) == 1
    repair = _repair(scenario, poses, 8)
    assert repair is not None
    assert repair.added == ("A2",)
    assert _engaged(repair.poses) == 2
    a1 = repair.poses["A1"]
    assert math.dist((a1.x, a1.y), TARGET) - 2 * R_IN <= 0.005
    a2 = repair.poses["A2"]
    assert a2.moved <= 8.0
    assert math.isclose(a2.moved, math.dist((12.0, 21.5), (a2.x, a2.y)), abs_tol=1e-6)
    assert not check_placement(scenario, _placements(repair.poses))


def test_nothing_is_tried_at_the_ceiling_or_when_the_checker_refuses() -> None:
    scenario, poses = _two_marines()
    assert _repair(scenario, poses, 8, ceiling=1) is None
    assert _repair(scenario, poses, 8, accept=lambda poses, at_least: False) is None


def test_a_model_that_cannot_reach_engagement_range_is_not_added() -> None:
    """A2 starts 9.3" from the target's centre: a roll of 7 leaves it 2.3" away, beyond the
    2.26" of engagement range between two 32mm bases."""
    scenario = make_scenario([(12.0, 20.0), (10.7, 20.0)], {"B": [TARGET]}, roll=7)
    touching = TARGET[0] - 2 * R_IN - 0.001
    poses = {
        "A1": Pose(touching, 20.0, 0.0, 0.0, touching - 12.0),
        "A2": Pose(15.5, 20.0, 0.0, 0.0, 4.8),
    }
    assert not check_placement(scenario, _placements(poses))
    assert _repair(scenario, poses, 7) is None


def test_a_horde_gains_a_model_in_engagement_range() -> None:
    """scaling-v1 c30-open-s2: the candidates' best has 23 engaged (of at most 28); asked for,
    the repair finds a 24th, and the answer still passes the checker."""
    scenario = load_scenario(LAYOUTS / "scaling-v1" / "c30-open-s2.toml")
    options = SolveOptions(roll_table=False, time_limit_s=10.0)
    plain = solve(scenario, options=options)
    assert plain.objective["engaged"] == 23
    assert "repair" not in plain.stats
    result = solve(scenario, options=replace(options, repair=True))
    assert result.status == Status.FEASIBLE
    assert not result.violations
    assert result.objective["base_contact"] == 15
    assert 24 <= result.objective["engaged"] <= result.bound["engaged"] == 28
    repair = result.stats["repair"]
    assert repair["engaged"] == {"candidates": 23, "repaired": result.objective["engaged"]}
    assert len(repair["added"]) == result.objective["engaged"] - 23
    assert "Repaired: " in summarise_result(result)


def test_the_summary_names_the_repaired_models() -> None:
    stats = {"added": ["A25"], "engaged": {"candidates": 23, "repaired": 24}, "seconds": 0.3}
    assert repair_lines(stats) == [
        "  Repaired: A25 brought within engagement range by shifting the unit off the "
        "candidates (24 engaged; 23 on the candidates)"
    ]
    assert repair_lines({"added": [], "seconds": 0.1}) == []
    assert repair_lines(None) == []
