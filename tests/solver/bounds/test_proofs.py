"""Proofs and bounds of whole charges: `infeasible` only with a proof a second solver
confirmed, `optimal` only where the continuous bound meets the objective, and a proof that no
smaller roll than the minimum succeeds."""

from __future__ import annotations

import math

import numpy as np
from builders import make_scenario

from chargeopt.geometry.checker import check_placement
from chargeopt.models import Status
from chargeopt.solver import solve

R32 = 32 / 25.4 / 2


def test_walled_room_is_infeasible_under_tenth_edition() -> None:
    """B in a 2.4" room with 0.6" walls: no 32mm base fits beside it, none outside is within
    1" of it (1.17" at best): infeasible with a proof naming B."""
    path = [[18.5, 13.5], [21.5, 13.5], [21.5, 16.5], [18.5, 16.5], [18.5, 13.5]]
    wall = {"id": "room", "kind": "wall", "path": path, "thickness": 0.6, "height": 5.0}
    s = make_scenario([(10.0, 15.0)], {"B": [(20.0, 15.0)]}, roll=12, terrain=[wall])
    assert s.ruleset == ("40k-10e",)
    result = solve(s)
    assert result.status == Status.INFEASIBLE
    assert result.min_roll is None
    assert "B" in (result.proof or "") and "terrain" in (result.proof or "")
    assert result.stats["proof_confirmed_by"]


def test_screened_target_proof_names_both_units() -> None:
    """B1 ringed by non-target C models: infeasible, the proof names B and C."""
    ring = [
        (20.0 + 1.6 * math.cos(a), 15.0 + 1.6 * math.sin(a))
        for a in [k * math.pi / 4 for k in range(8)]
    ]
    s = make_scenario([(10.0, 15.0)], {"B": [(20.0, 15.0)], "C": ring}, enemy_base="25mm")
    result = solve(s)
    assert result.status == Status.INFEASIBLE
    assert "non-target C" in (result.proof or "") and "of B" in (result.proof or "")
    assert result.stats["bound_scope"] == "continuous"


def test_ninth_edition_unit_of_six_cannot_span_far_targets() -> None:
    """Targets 16" apart: infeasible (it was `unknown` before the relaxation), proven by the
    coherency span and confirmed by CP-SAT and HiGHS."""
    attackers = [(15.5 + 1.5 * (i % 3), 12.0 + 1.5 * (i // 3)) for i in range(6)]
    defenders = {"B": [(9.0, 16.0)], "C": [(25.0, 16.0)]}
    s = make_scenario(attackers, defenders, targets=("B", "C"), roll=12, ruleset="40k-9e")
    result = solve(s, time_limit=6)
    assert result.status == Status.INFEASIBLE
    assert result.min_roll is None
    assert "a unit of 6 in 9th edition needs 2 coherency neighbours each" in (result.proof or "")
    assert "span:B-C" in result.stats["proof_groups"]
    assert result.stats["proof_confirmed_by"] == ["cp-sat", "highs"]
    assert result.stats["bound_scope"] == "continuous"


def test_minimum_roll_comes_with_a_proof_for_the_roll_below() -> None:
    """Edge gap 6.5": the minimum roll 6 is proven, since with 5 no spot within 1" of B is
    reachable: a straight line shows it, no relaxation needed."""
    s = make_scenario([(10.0, 10.0)], {"B": [(10.0 + 6.5 + 2 * R32, 10.0)]})
    result = solve(s)
    assert result.min_roll == 6
    assert result.stats["min_roll_proven"] is True
    proof = result.stats["min_roll_proof"]
    assert proof.startswith("No legal placement of A exists with a roll of 5")
    assert '6.50" away edge to edge in a straight line' in proof
    assert result.stats["min_roll_proof_confirmed_by"] == ["straight line"]


def test_open_field_bound_meets_objective_and_is_optimal() -> None:
    """Ten 32mm models, one 32mm target, roll 12: six touch it (the kissing number), all ten
    engage; the relaxation proves both, so `optimal` on the continuous board."""
    attackers = [(14.0 + 1.9 * (i % 5), 10.0 + 1.9 * (i // 5)) for i in range(10)]
    s = make_scenario(attackers, {"B": [(20.0, 16.0)]}, roll=12)
    result = solve(s)
    assert result.status == Status.OPTIMAL
    assert result.stats["bound_scope"] == "continuous"
    assert result.objective["base_contact"] == result.bound["base_contact"] == 6
    assert result.objective["engaged"] == result.bound["engaged"]


def test_one_model_one_target_is_optimal_on_the_continuous_board() -> None:
    """One model, roll 7, gap 6.5": it touches B; bound 1 = objective, scope continuous."""
    s = make_scenario([(10.0, 10.0)], {"B": [(10.0 + 6.5 + 2 * R32, 10.0)]}, roll=7)
    result = solve(s)
    assert result.status == Status.OPTIMAL
    assert result.bound == {"base_contact": 1, "engaged": 1}
    assert result.stats["bound_scope"] == "continuous"


def test_tight_gap_is_found_or_unknown_never_infeasible() -> None:
    """Four non-target models 3.21" out around B (turned 1.5"): the only way in is a
    corridor 0.0098" wider than their engagement range; never `infeasible`, and a placement,
    if found, passes the checker."""
    cs = [
        (20 + 3.21 * math.cos(a), 15 + 3.21 * math.sin(a))
        for a in np.radians([1.5, 91.5, 181.5, 271.5])
    ]
    s = make_scenario([(10.0, 15.0)], {"B": [(20.0, 15.0)], "C": cs}, roll=12)
    result = solve(s, time_limit=6)
    assert result.status != Status.INFEASIBLE
    if result.status in (Status.OPTIMAL, Status.FEASIBLE):
        assert check_placement(s, result.placements, roll=12) == []


def _fence(roll: int):
    """A1 and A2 at (10, 15) and (8.6, 15) charge B1 at (18, 15); twelve non-target C models
    stand 1.3" apart on x = 14 from y = 8 to 22.3, so no base passes between them. The spots
    within 1" of B1 that a straight move of up to 7" reaches lie within 1" of C (within
    2.26" of a C centre), and any legal path must go round the fence's ends, more than 1" from
    every C model: 19" or more."""
    fence = [(14.0, 8.0 + 1.3 * i) for i in range(12)]
    return make_scenario([(10.0, 15.0), (8.6, 15.0)], {"B": [(18.0, 15.0)], "C": fence}, roll=roll)


def test_a_non_target_fence_is_proven_impossible_by_the_legal_paths() -> None:
    """Every model's end region (within 1" of B, off the bases, more than 1" from C) is farther
    than any roll along legal paths (they may not cross within 1" of C): infeasible for every
    roll up to 12, in words, before any search runs out of time."""
    from chargeopt.geometry import Battlefield
    from chargeopt.solver.bounds.proofs import no_model_reaches_engagement

    s = _fence(7)
    bf = Battlefield.from_scenario(s)
    words = no_model_reaches_engagement(s, bf, 12)
    assert words is not None
    assert 'within 1" of non-target C' in words and "A1 19." in words and "A2 19." in words
    assert no_model_reaches_engagement(s, bf, 22) is None
    result = solve(s, time_limit=10)
    assert result.status == Status.INFEASIBLE
    assert result.min_roll is None
    assert result.stats["proof_roll"] == 12
    assert 'paths may not cross within 1" of a unit that is not a target' in (result.proof or "")


def test_the_path_proof_never_refutes_a_charge_that_exists() -> None:
    """With a roll of 22 a model walks round the fence: the proof stays silent and the solve
    finds the charge (the proof's lengths are lower bounds)."""
    result = solve(_fence(22), time_limit=10)
    assert result.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert result.objective["engaged"] >= 1
    assert result.violations == ()


def test_a_screen_below_an_unreachable_floor_still_screens() -> None:
    """The straight-line proof at roll 6 with non-target C beside B: a floor 6" up elsewhere on
    the table (out of C's vertical engagement range) no longer switches the screen off."""
    floor = {
        "id": "f1",
        "kind": "floor",
        "path": [[30.0, 2.0], [40.0, 2.0], [40.0, 8.0], [30.0, 8.0]],
        "height": 6.0,
    }
    s = make_scenario(
        [(10.0, 15.0)],
        {"B": [(18.0, 15.0)], "C": [(13.92, 15.0)]},
        roll=6,
        terrain=[floor],
    )
    from chargeopt.geometry import Battlefield
    from chargeopt.solver.bounds.proofs import charge_impossibility

    words = charge_impossibility(s, Battlefield.from_scenario(s), 6)
    assert words is not None and "non-target C" in words
