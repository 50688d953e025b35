"""The 40k-assault-4e reinforcement move and consolidation, worked out by hand."""

from __future__ import annotations

import math

import pytest
from builders import make_scenario

from chargeopt.geometry import Battlefield, Footprint
from chargeopt.geometry.assault_moves import free_lengths
from chargeopt.geometry.checker import check_placement
from chargeopt.models import Placement, Scenario, Status
from chargeopt.solver import solve
from chargeopt.solver.assault_4e.approach import closest_spot
from chargeopt.solver.interface.assault_text import summarise_assault_4e as summarise

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


def consolidating(attackers: list[tuple[float, float]]) -> Scenario:
    """Unit A at `attackers` consolidates; E1 stands at (13, 10)."""
    return make_scenario(
        attackers,
        {"E": [(13.0, 10.0)]},
        ruleset="40k-assault-4e",
        action={"kind": "consolidate", "unit": "A"},
    )


def test_consolidation_keeps_coherency() -> None:
    """E1 is 1.74" from A1 but A1 there would stand 2.48" from A2: A1 stays; alone it goes."""
    pair = consolidating([(10.0, 10.0), (8.0, 10.0)])
    result = solve(pair)
    assert all(p.moved == 0.0 for p in result.placements)
    assert check_placement(pair, result.placements) == []
    alone = consolidating([(10.0, 10.0)])
    (a1,) = solve(alone).placements
    assert a1.moved == pytest.approx(3.0 - TOUCH, abs=0.002) and a1.contact == ("E1",)


def test_every_mover_in_contact_is_optimal() -> None:
    """A1 stays in contact with B1, A2 reaches B2: 2 of 2 in base contact, both enemy models
    engaged, which the ceilings allow at most: optimal anywhere on the table."""
    result = solve(locked("pile-in"))
    assert result.status == Status.OPTIMAL
    assert result.bound == {"enemy_engaged": 2, "base_contact": 2}
    assert result.stats["bound_scope"] == "continuous"


def test_consolidation_short_of_its_ceiling_is_feasible() -> None:
    """E1 is 1.74" from A1, within 3": the ceiling is 1 in base contact, but coherency with A2
    (3.74" from E1, out of reach) holds A1 back: 0 of at most 1, feasible."""
    pair = consolidating([(10.0, 10.0), (8.0, 10.0)])
    result = solve(pair)
    assert result.status == Status.FEASIBLE
    assert result.objective["base_contact"] == 0
    assert result.bound == {"enemy_engaged": 1, "base_contact": 1}
    assert "(most possible: 1)" in summarise(result)


def with_locked(scenario: Scenario, *units: str) -> Scenario:
    """The scenario with unit A locked with `units`."""
    data = scenario.model_dump(mode="json", exclude_none=True)
    data["units"][0]["locked_with"] = list(units)
    return Scenario.model_validate(data)


def framed() -> Scenario:
    """B1 at (14, 10) in a square frame of impassable terrain 0.7" to 2.5" from its centre:
    every spot in base contact with it is in the terrain. A1 at (10, 10) is locked with B."""
    pieces = [
        ("left", 11.5, 7.5, 13.3, 12.5),
        ("right", 14.7, 7.5, 16.5, 12.5),
        ("low", 13.3, 7.5, 14.7, 9.3),
        ("high", 13.3, 10.7, 14.7, 12.5),
    ]
    terrain = [
        {"id": i, "kind": "impassable", "path": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}
        for i, x0, y0, x1, y1 in pieces
    ]
    scenario = make_scenario(
        [(10.0, 10.0)],
        {"B": [(14.0, 10.0)]},
        ruleset="40k-assault-4e",
        terrain=terrain,
        action={"kind": "pile-in", "unit": "A"},
    )
    return with_locked(scenario, "B")


def test_a_model_that_cannot_touch_gets_as_close_as_it_can() -> None:
    """A1 (2.74" from B1) cannot end in contact; the nearest open ground is against the
    frame's left face: x = 11.5 - R - 0.011 (margin) - 0.003 (drawn inside) = 10.856, 0.856"
    moved, 14 - 10.856 - 2R = 1.884" from B1. Every spot of B1's contact ring is inside the
    frame, so the ceiling is 0 in base contact: 0 is optimal."""
    scenario = framed()
    result = solve(scenario)
    (a1,) = result.placements
    assert (a1.x, a1.y) == pytest.approx((11.5 - R - 0.014, 10.0), abs=0.0015)
    assert a1.moved == pytest.approx(0.856, abs=0.0015) and a1.contact == ()
    assert result.status == Status.OPTIMAL
    assert result.bound == {"enemy_engaged": 0, "base_contact": 0}
    assert check_placement(scenario, result.placements) == []
    assert "base contact: 0 of 1 models (most possible: 0)" in summarise(result)


def test_the_checker_flags_a_model_that_stayed_put() -> None:
    """A1 left at (10, 10), 2.74" from B1: spots such as 0.75" toward B1 (x = 10.75, 1.99"
    from it, 0.12" off the frame) are legal and closer by more than 0.02"; the checker names
    its nearest, never nearer than the solver's 1.884"."""
    scenario = framed()
    found = check_placement(scenario, [Placement(model="A1", x=10.0, y=10.0)])
    assert [v.kind for v in found] == ["reinforcement_not_closest"]
    assert found[0].message.startswith("model 'A1' ends 2.74\" from the nearest enemy model")
    assert found[0].distance_in == pytest.approx(4.0 - 2 * R)


def in_a_line() -> Scenario:
    """A2 at (10, 10), A1 1" (edge to edge) to its right, B1 7" beyond A1 on the same line;
    A is locked with B."""
    a1_x = 10.0 + 2 * R + 1.0
    scenario = make_scenario(
        [(a1_x, 10.0), (10.0, 10.0)],
        {"B": [(a1_x + 2 * R + 7.0, 10.0)]},
        ruleset="40k-assault-4e",
        action={"kind": "pile-in", "unit": "A"},
    )
    return with_locked(scenario, "B")


def test_coherency_holds_the_nearest_model_back() -> None:
    """A1 moves first with A2 still where it stands: 2" (less 0.0145" kept and 0.003" drawn
    inside) from A2 at most, so 1 - 0.0175 = 0.9825" forward, 7 - 0.9825 = 6.0175" from B1."""
    scenario = in_a_line()
    battlefield = Battlefield.from_scenario(scenario)
    unit = scenario.acting_unit
    pos = {m.id: Footprint(unit.base_of(m), m.x, m.y) for m in unit.models}
    (b1,) = scenario.unit_by_id["B"].models
    foe = Footprint(scenario.unit_by_id["B"].base_of(b1), b1.x, b1.y)
    start = (pos["A1"].x, pos["A1"].y)
    _, _, length, gap = closest_spot(
        scenario,
        battlefield,
        "A1",
        start,
        pos,
        [foe],
        [foe],
        lambda xs, ys: free_lengths(start, xs, ys),
        6.0,
        True,
    )
    assert length == pytest.approx(0.9825, abs=0.0015)
    assert gap == pytest.approx(6.0175, abs=0.0015)


def test_the_unit_ends_as_close_as_it_can() -> None:
    """Judged where the unit ends: A2 follows 6" (less the 0.014" margins), so A1 may too:
    both move 5.986", A1 ends 7 - 5.986 = 1.014" from B1, A2 1" behind it. The literal
    one-pass answer (A1 held to 0.9825" by A2's start, then A2 6") is flagged: A1 could have
    got closer with A2 where it ends."""
    scenario = in_a_line()
    result = solve(scenario)
    ends = by_model(result)
    assert ends["A1"].moved == pytest.approx(5.986, abs=0.0015)
    assert ends["A2"].moved == pytest.approx(5.986, abs=0.0015)
    assert check_placement(scenario, result.placements) == []
    assert result.status == Status.OPTIMAL and result.bound["base_contact"] == 0
    a1_x, a2_x = scenario.acting_unit.models[0].x, scenario.acting_unit.models[1].x
    literal = [
        Placement(model="A1", x=round(a1_x + 0.9825, 3), y=10.0),
        Placement(model="A2", x=round(a2_x + 5.986, 3), y=10.0),
    ]
    assert [v.kind for v in check_placement(scenario, literal)] == ["reinforcement_not_closest"]


def bridged() -> Scenario:
    """A1 (10, 10) and A3 (14, 10), 2.74" apart, are in contact with B2 and B3 on their outer
    sides; A2 (12, 10) links them; B1 at (11, 14.26) is 3" from A2."""
    return make_scenario(
        [(10.0, 10.0), (12.0, 10.0), (14.0, 10.0)],
        {"B": [(11.0, 14.26), (10.0 - 2 * R - 0.002, 10.0), (14.0 + 2 * R + 0.002, 10.0)]},
        ruleset="40k-assault-4e",
        action={"kind": "pile-in", "unit": "A"},
    )


def test_a_bridging_model_may_not_leave() -> None:
    """Every spot touching B1 is over 2" from A3, which would then stand alone: A2 goes as
    close as the 2" to both allows, the top of the lens between them: x = 12,
    y = 10 + sqrt((2R + 2 - 0.0175)^2 - 2^2) = 12.553 (0.0145" kept, 0.003" drawn inside).
    The checker holds no contact witness against it (only a spot that keeps one group). A2's
    6" meets B1's contact ring on open ground, so the ceiling is 3 in base contact (A1 and A3
    stay in theirs) and 3 enemy models engaged: 2 of 3 is feasible, not proven."""
    scenario = bridged()
    result = solve(scenario)
    a2 = by_model(result)["A2"]
    top = 10.0 + math.sqrt((2 * R + 2 - 0.0175) ** 2 - 4)
    assert (a2.x, a2.y) == pytest.approx((12.0, top), abs=0.0015) and a2.contact == ()
    assert check_placement(scenario, result.placements) == []
    assert result.status == Status.FEASIBLE
    assert result.bound == {"enemy_engaged": 3, "base_contact": 3}
    lines = summarise(result).splitlines()
    assert lines[0] == "FEASIBLE: A piles in (legal; not proven best)"
    assert lines[1].startswith(
        "Enemy models engaged: 2 (most possible: 3); base contact: 2 of 3 models (most possible: 3)"
    )
