"""The 11th edition's pile in, consolidation (three modes) and who fights, on hand-built layouts
worked out by hand. 32mm bases: D = 1.25984" across; engagement range 2" edge to edge."""

from __future__ import annotations

import math

import pytest
from builders import make_scenario

from chargeopt.geometry.checker import check_placement
from chargeopt.geometry.fight import fight_eligibility
from chargeopt.models import IneligibleMoveError, Placement, Scenario, Status
from chargeopt.solver import SolveOptions, solve

D = 32 / 25.4
OPTIONS = SolveOptions(time_limit_s=10.0)


def close(
    attackers: list[tuple[float, float]],
    defenders: dict[str, list[tuple[float, float]]],
    kind: str,
    *,
    objectives: list[dict] | None = None,
    base: str = "32mm",
    **action: object,
) -> Scenario:
    return make_scenario(
        attackers,
        defenders,
        ruleset="40k-11e",
        base=base,
        enemy_base=base,
        action={"kind": kind, "unit": "A", **action},
        objectives=objectives,
    )


def placed(result, model_id: str) -> Placement:
    return next(p for p in result.placements if p.model == model_id)


def kinds(scenario: Scenario, moves: dict[str, tuple[float, float]]) -> set[str]:
    """The checker's violation kinds for the unit with `moves` applied (others stay)."""
    placements = [
        Placement(model=m.id, x=moves.get(m.id, (m.x, m.y))[0], y=moves.get(m.id, (m.x, m.y))[1])
        for m in scenario.acting_unit.models
    ]
    return {v.kind for v in check_placement(scenario, placements)}


FROZEN = ([(10.0, 10.0), (10.0, 13.2)], {"B": [(10.0 + D, 10.0)]})
"""A1 touches B1; A2 is 3.2 - D = 1.94" from A1 (coherent) and hypot(D, 3.2) - D = 2.18" from
B1: out of engagement range, so it piles in at least 0.18"."""


def test_a_pile_in_whose_base_contact_model_stays() -> None:
    scenario = close(*FROZEN, "pile-in", charged=True)
    result = solve(scenario, options=OPTIONS)
    assert result.status == Status.OPTIMAL
    a1, a2 = placed(result, "A1"), placed(result, "A2")
    assert (a1.x, a1.y, a1.moved) == (10.0, 10.0, 0.0)
    assert a2.engaged == ("B",)
    assert 0.179 <= a2.moved <= 0.3
    assert result.objective["engaged_closest"] == 2
    assert result.violations == ()


def test_the_checker_refuses_a_base_contact_model_that_moves() -> None:
    scenario = close(*FROZEN, "pile-in", charged=True)
    assert "moved_from_contact" in kinds(scenario, {"A1": (10.0, 10.5), "A2": (10.5, 12.2)})


def test_an_unengaged_pile_in_needs_a_charge_or_an_overrun_fight() -> None:
    """B1 is 3" away: unengaged. Without charged or overrun it may not pile in; an overrun
    fight's extra pile in may, and ends engaged (a 1" move brings it to 2")."""
    layout = ([(10.0, 10.0)], {"B": [(13.0 + D, 10.0)]})
    with pytest.raises(IneligibleMoveError, match="overrun"):
        solve(close(*layout, "pile-in"), options=OPTIONS)
    result = solve(close(*layout, "pile-in", overrun=True), options=OPTIONS)
    assert result.status == Status.OPTIMAL
    assert placed(result, "A1").engaged == ("B",)
    assert placed(result, "A1").moved == pytest.approx(1.0, abs=0.05)


def test_a_pile_in_goes_toward_the_closest_selected_unit() -> None:
    """Pile-in targets B (3" away) and C (4" away the other way), both within 5". With targets
    = ["C"], the model moves toward C; the checker refuses it moving toward B instead."""
    layout = ([(20.0, 10.0)], {"B": [(23.0 + D, 10.0)], "C": [(16.0 - D, 10.0)]})
    scenario = close(*layout, "pile-in", charged=True, targets=["C"])
    result = solve(scenario, options=OPTIONS)
    a1 = placed(result, "A1")
    assert a1.x < 20.0 and a1.engaged == ("C",)
    assert result.violations == ()
    assert "not_closer_to_closest" in kinds(scenario, {"A1": (21.5, 10.0)})


ONGOING = ([(10.0, 10.0), (10.0, 11.9)], {"B": [(11.5 + D, 10.0)]})
"""A1 is 1.5" from B1 (engaged); A2 is hypot(1.5 + D, 1.9) - D = 2.09" from B1 (not)."""


def test_ongoing_consolidation() -> None:
    scenario = close(*ONGOING, "consolidate")
    result = solve(scenario, options=OPTIONS)
    assert result.status == Status.OPTIMAL
    assert result.stats["mode"] == "ongoing"
    assert result.objective["engaged"] == 2
    assert placed(result, "A1").engaged == ("B",)
    assert result.violations == ()
    left = kinds(scenario, {"A1": (8.0, 10.0), "A2": (8.0, 11.9)})
    assert {"left_engagement", "not_closer_to_closest"} <= left


ENGAGING = ([(10.0, 10.0), (10.0, 11.9)], {"B": [(12.5 + D, 10.0)]})
"""B1 is 2.5" from A1: not engaged, within 3": engaging consolidation."""


def test_engaging_consolidation_ends_engaged_with_the_selected_unit() -> None:
    scenario = close(*ENGAGING, "consolidate")
    result = solve(scenario, options=OPTIONS)
    assert result.status == Status.OPTIMAL
    assert result.stats["mode"] == "engaging"
    assert placed(result, "A1").engaged == ("B",)
    assert result.violations == ()
    short = kinds(scenario, {"A1": (10.3, 10.0)})
    assert {"not_engaged_with_selected", "could_end_engaged"} <= short
    assert kinds(scenario, {}) == set()


OBJECTIVE = (
    [(10.0, 10.0), (10.0, 12.0)],
    {"B": [(40.0, 4.0)]},
)
MARKER = [{"id": "M1", "x": 14.0, "y": 11.0}]
"""No enemy within 3"; the 40mm marker is hypot(4, 1) - 0.63 - 0.79 = 2.71" from A1."""


def test_objective_consolidation_ends_within_range() -> None:
    scenario = close(*OBJECTIVE, "consolidate", objectives=MARKER)
    result = solve(scenario, options=OPTIONS)
    assert result.status == Status.OPTIMAL
    assert result.stats["mode"] == "objective"
    assert result.objective["on_objective"] == 2
    radius = 40 / 25.4 / 2 + D / 2
    for p in result.placements:
        assert math.hypot(p.x - 14.0, p.y - 11.0) <= radius
    assert result.violations == ()
    assert "not_closer_to_objective" in kinds(scenario, {"A1": (9.0, 10.0)})
    assert "could_end_in_range" in kinds(scenario, {"A1": (11.0, 10.3)})


def test_an_enemy_within_3_in_comes_before_the_objective() -> None:
    scenario = close(*ENGAGING, "consolidate", objectives=MARKER)
    assert solve(scenario, options=OPTIONS).stats["mode"] == "engaging"


def test_no_consolidation_mode_applies() -> None:
    with pytest.raises(IneligibleMoveError, match="cannot consolidate"):
        solve(close(*OBJECTIVE, "consolidate"), options=OPTIONS)


def test_who_fights_is_engagement_at_2_in() -> None:
    """A1 is 1.9" from B1 and fights it; A2 is hypot(1.9 + D, 1.5) - D = 2.24" from it and
    does not."""
    scenario = close([(10.0, 10.0), (10.0, 11.5)], {"B": [(11.9 + D, 10.0)]}, "pile-in")
    near = fight_eligibility(scenario, [])
    assert near["A1"] == ("B",)
    assert near["A2"] == ()


def test_no_fight_through_a_mate_in_base_contact() -> None:
    """60mm bases (2.36" across): A1 touches B1, A2 touches A1 from behind, 2.36" from B1. In
    the 10th edition A2 fights through A1; in the 11th it is not engaged, so it does not."""
    d = 60 / 25.4
    layout = ([(10.0, 10.0), (10.0 - d, 10.0)], {"B": [(10.0 + d, 10.0)]})
    eleventh = close(*layout, "pile-in", base="60mm")
    assert fight_eligibility(eleventh, [])["A2"] == ()
    tenth = make_scenario(
        *layout,
        ruleset="40k-10e",
        base="60mm",
        enemy_base="60mm",
        action={"kind": "pile-in", "unit": "A"},
    )
    assert fight_eligibility(tenth, [])["A2"] == ("B",)


def test_a_pile_in_target_beyond_5_in_is_refused() -> None:
    """C is 6.5" away: an unengaged unit selects pile-in targets within 5" only."""
    layout = ([(20.0, 10.0)], {"B": [(23.0 + D, 10.0)], "C": [(13.5 - D, 10.0)]})
    scenario = close(*layout, "pile-in", charged=True, targets=["C"])
    with pytest.raises(IneligibleMoveError, match="cannot be selected"):
        solve(scenario, options=OPTIONS)
    assert "not_eligible" in kinds(scenario, {"A1": (19.0, 10.0)})


def walled(keywords: tuple[str, ...]) -> Scenario:
    """B1 is 3.5" east of A1 behind a 5" dense area (x 11.2 to 13.2) with a wall at x = 12.2."""
    ruin = {
        "id": "ruin",
        "kind": "dense",
        "path": [[11.2, 6.0], [13.2, 6.0], [13.2, 14.0], [11.2, 14.0]],
        "height_in": 5.0,
        "walls": [[[12.2, 6.0], [12.2, 14.0]]],
    }
    return make_scenario(
        [(10.0, 10.0), (10.0, 11.5)],
        {"B": [(13.5 + D, 10.0)]},
        ruleset="40k-11e",
        keywords=keywords,
        terrain=[ruin],
        action={"kind": "pile-in", "unit": "A", "charged": True},
    )


def test_infantry_piles_in_through_dense_terrain_but_not_a_vehicle() -> None:
    """INFANTRY crosses the dense area and ends clear of the wall (its base's near edge past
    12.2 + 0.125); a VEHICLE cannot cross a 5" dense area within 3", so it cannot end engaged:
    no pile in."""
    infantry = solve(walled(("INFANTRY",)), options=OPTIONS)
    assert infantry.status == Status.OPTIMAL
    assert infantry.objective["engaged"] >= 1
    assert infantry.violations == ()
    for p in infantry.placements:
        assert abs(p.x - 12.2) >= 0.125 + D / 2 - 1e-3
    vehicle = solve(walled(("VEHICLE",)), options=OPTIONS)
    assert vehicle.status == Status.INFEASIBLE
    assert all(p.moved == 0.0 for p in vehicle.placements)
    assert "the unit ends engaged" in vehicle.proof
