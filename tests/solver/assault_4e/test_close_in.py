"""The 40k-assault-4e reinforcement move and consolidation, worked out by hand."""

from __future__ import annotations

import pytest
from builders import make_scenario

from chargeopt.geometry.checker import check_placement
from chargeopt.models import Status
from chargeopt.solver import solve

R = 16 / 25.4
TOUCH = 2 * R + 0.0025
WALL = {
    "id": "wall",
    "kind": "wall",
    "path": [[11.7, 12.0], [11.7, 14.0]],
    "thickness": 0.2,
    "height": 3.0,
}
"""A 2" long, 3" high wall at x = 11.7 between A2 and B2."""


def locked(kind: str, *, b2_x: float = 14.0, wall: bool = True, a2=(10.5, 13.0)):
    """A1 in base contact with B1; A2 (in coherency with A1) 3.5" left of B2, a wall between."""
    return make_scenario(
        [(14.0 - 2 * R, 11.2), a2],
        {"B": [(14.0, 11.2), (b2_x, 13.0)]},
        ruleset="40k-assault-4e",
        terrain=[WALL] if wall else [],
        action={"kind": kind, "unit": "A"},
    )


def by_model(result):
    """The placements by model id."""
    return {p.model: p for p in result.placements}


def test_reinforcement_goes_through_the_wall() -> None:
    """A2 moves straight through the wall into contact with B2 (unengaged): 3.5 - 1.2625"."""
    scenario = locked("pile-in")
    result = solve(scenario)
    ends = by_model(result)
    assert ends["A1"].moved == 0.0
    assert ends["A2"].contact == ("B2",)
    assert ends["A2"].moved == pytest.approx(3.5 - TOUCH, abs=0.002)
    assert ends["A2"].y == pytest.approx(13.0, abs=0.001)
    assert result.fighters["full"] == ("A1", "A2")
    assert check_placement(scenario, result.placements) == []


def test_consolidation_is_blocked_by_the_wall() -> None:
    """The wall turns A2's 2.24" into more than 3" round it: A2 stays, one attack."""
    scenario = locked("consolidate")
    result = solve(scenario)
    assert by_model(result)["A2"].moved == 0.0
    assert result.fighters == {"full": ("A1",), "one_attack": ("A2",)}
    assert check_placement(scenario, result.placements) == []


def test_consolidation_3in_into_contact() -> None:
    """Without the wall A2 consolidates 2.2375" into contact with B2; with B2 1" further
    (3.2375") it takes the engaged B1 instead, within 3"."""
    near = solve(locked("consolidate", wall=False))
    assert by_model(near)["A2"].moved == pytest.approx(3.5 - TOUCH, abs=0.002)
    assert by_model(near)["A2"].contact == ("B2",)
    far = locked("consolidate", wall=False, b2_x=15.0)
    result = solve(far)
    a2 = by_model(result)["A2"]
    assert a2.contact == ("B1",) and 0.0 < a2.moved <= 3.0
    assert check_placement(far, result.placements) == []


def test_consolidation_keeps_coherency() -> None:
    """E1 is 1.74" from A1 but A1 there would stand 2.48" from A2: A1 stays; alone it goes."""
    pair = make_scenario(
        [(10.0, 10.0), (8.0, 10.0)],
        {"E": [(13.0, 10.0)]},
        ruleset="40k-assault-4e",
        action={"kind": "consolidate", "unit": "A"},
    )
    result = solve(pair)
    assert all(p.moved == 0.0 for p in result.placements)
    assert check_placement(pair, result.placements) == []
    alone = make_scenario(
        [(10.0, 10.0)],
        {"E": [(13.0, 10.0)]},
        ruleset="40k-assault-4e",
        action={"kind": "consolidate", "unit": "A"},
    )
    (a1,) = solve(alone).placements
    assert a1.moved == pytest.approx(3.0 - TOUCH, abs=0.002) and a1.contact == ("E1",)


def test_answers_are_feasible_not_proven() -> None:
    """The model-by-model move proves no bound: its status says feasible."""
    assert solve(locked("pile-in")).status == Status.FEASIBLE
