"""The charge solver on cases worked out by hand."""

from __future__ import annotations

import math

import pytest
from builders import make_scenario

from chargeopt.geometry.checker import check_placement
from chargeopt.models import ScenarioError, Status
from chargeopt.models.rulesets import EDITIONS
from chargeopt.solver import solve

R32 = 32 / 25.4 / 2


def _coherent_neighbours(result, model_id: str, radius: float, reach: float = 2.0) -> int:
    me = next(p for p in result.placements if p.model == model_id)
    return sum(
        1
        for p in result.placements
        if p.model != model_id and math.hypot(p.x - me.x, p.y - me.y) - 2 * radius <= reach + 1e-9
    )


def test_one_on_one_min_roll_is_ceiling_of_gap_minus_engagement() -> None:
    """Edge gap 6.5": the minimum roll is ceil(6.5 - 1) = 6, with 2D6 chance 26/36."""
    gap = 6.5
    s = make_scenario([(10.0, 10.0)], {"B": [(10.0 + gap + 2 * R32, 10.0)]})
    result = solve(s)
    assert result.status == Status.OPTIMAL
    assert result.min_roll == 6
    assert result.success_probability == pytest.approx(26 / 36, abs=1e-4)
    assert result.success_probability_reroll == pytest.approx(1 - (10 / 36) ** 2, abs=1e-4)
    assert result.objective["base_contact"] == 0  # 6" cannot close a 6.5" gap
    assert result.objective["engaged"] == 1
    assert [r["base_contact"] for r in result.rolls] == [0, 1, 1, 1, 1, 1, 1]
    assert result.violations == ()


def test_one_on_one_with_enough_roll_ends_in_base_contact() -> None:
    """Edge gap 6.5" and a roll of 7: the model ends touching B1, moving 6.5"."""
    s = make_scenario([(10.0, 10.0)], {"B": [(10.0 + 6.5 + 2 * R32, 10.0)]}, roll=7)
    result = solve(s)
    assert result.status == Status.OPTIMAL
    (p,) = result.placements
    assert p.contact == ("B1",)
    assert p.moved == pytest.approx(6.5, abs=0.01)
    assert check_placement(s, result.placements, roll=7) == []


@pytest.mark.parametrize(
    ("mover", "target", "expected"), [("32mm", "32mm", 6), ("25mm", "40mm", 7), ("40mm", "25mm", 4)]
)
def test_most_models_touching_one_base(mover: str, target: str, expected: int) -> None:
    """n bases of radius r fit around one of radius R, touching it within the 0.005" contact
    tolerance and never overlapping each other, while 2 (R + r + 0.005) sin(pi / n) >= 2 r.
    For 25mm around 40mm that is 7 (7.99: bases never overlap, so an eighth does not fit),
    for the others 6 and 4. The proven bound on base contact is the same; the answer is
    `optimal` exactly when every bound meets its objective, which all but 40mm around 25mm
    (engagement) do."""
    r = float(mover[:-2]) / 25.4 / 2
    big_r = float(target[:-2]) / 25.4 / 2
    tolerance = EDITIONS["40k-10e"].base_contact_tolerance_in
    fit = math.pi / math.asin(r / (big_r + r + tolerance))
    assert math.floor(fit) == expected
    attackers = [(14.0 + 1.9 * (i % 5), 10.0 + 1.9 * (i // 5)) for i in range(10)]
    s = make_scenario(attackers, {"B": [(20.0, 16.0)]}, base=mover, enemy_base=target, roll=12)
    result = solve(s)
    assert result.objective["base_contact"] == expected
    assert result.bound["base_contact"] == expected
    closed = all(result.bound[t] == result.objective[t] for t in ("base_contact", "engaged"))
    assert result.status == (Status.OPTIMAL if closed else Status.FEASIBLE)
    assert result.stats["bound_scope"] == ("continuous" if closed else "candidates")
    assert closed or mover == "40mm"
    assert check_placement(s, result.placements, roll=12) == []
    assert result.violations == ()


def test_screened_target_is_infeasible_for_every_roll() -> None:
    """B1 ringed by non-target C models: every spot within 1" of B1 is within 1" of C."""
    ring = [
        (20.0 + 1.6 * math.cos(a), 15.0 + 1.6 * math.sin(a))
        for a in [k * math.pi / 4 for k in range(8)]
    ]
    s = make_scenario([(10.0, 15.0)], {"B": [(20.0, 15.0)], "C": ring}, enemy_base="25mm")
    result = solve(s)
    assert result.status == Status.INFEASIBLE
    assert result.min_roll is None
    assert "C" in (result.proof or "") and "B" in (result.proof or "")


def test_two_targets_must_both_be_engaged() -> None:
    """Targets 14" apart: one 32mm model cannot be within 1" of both; two in coherency can."""
    b, c = (10.0, 20.0), (24.0, 20.0)
    alone = make_scenario([(17.0, 14.0)], {"B": [b], "C": [c]}, targets=("B", "C"), roll=12)
    assert solve(alone, time_limit=6).status in (Status.INFEASIBLE, Status.UNKNOWN)
    far = make_scenario([(17.0, 14.0)], {"B": [b], "C": [(40.0, 20.0)]}, targets=("B", "C"))
    far_result = solve(far)
    assert far_result.status == Status.INFEASIBLE
    assert "C" in (far_result.proof or "")


def test_two_targets_engaged_by_a_coherent_unit() -> None:
    """Four models between two targets 9" apart engage both and stay coherent."""
    s = make_scenario(
        [(15.0, 14.0), (16.5, 14.0), (18.0, 14.0), (19.5, 14.0)],
        {"B": [(12.0, 20.0)], "C": [(21.0, 20.0)]},
        targets=("B", "C"),
        roll=9,
    )
    result = solve(s, time_limit=6)
    assert result.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert result.objective["base_contact"] >= 2
    engaged = {u for p in result.placements for u in p.engaged}
    assert engaged == {"B", "C"}
    assert check_placement(s, result.placements, roll=9) == []


def test_ninth_needs_two_neighbours_tenth_one() -> None:
    """Six models must span targets 16" apart (end centres 11.48" apart at least). With two
    neighbours each, six 32mm models span at most 3 hops of 3.26" = 9.78" (min degree 2 on six
    vertices leaves a diameter of 3 hops): 9th edition cannot; a 10th-edition chain (16.3") can."""
    attackers = [(15.5 + 1.5 * (i % 3), 12.0 + 1.5 * (i // 3)) for i in range(6)]
    defenders = {"B": [(9.0, 16.0)], "C": [(25.0, 16.0)]}
    tenth = solve(make_scenario(attackers, defenders, targets=("B", "C"), roll=12), time_limit=6)
    assert tenth.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert tenth.violations == ()
    assert min(_coherent_neighbours(tenth, p.model, R32) for p in tenth.placements) == 1
    ninth = solve(
        make_scenario(attackers, defenders, targets=("B", "C"), roll=12, ruleset="40k-9e"),
        time_limit=6,
    )
    assert ninth.status not in (Status.OPTIMAL, Status.FEASIBLE)
    assert ninth.min_roll is None


def test_same_input_same_output() -> None:
    """Solving twice gives the same placements."""
    s = make_scenario(
        [(10.0, 10.0), (11.5, 10.0), (10.0, 11.5)], {"B": [(17.0, 10.5), (17.0, 12.0)]}, roll=8
    )
    assert solve(s).placements == solve(s).placements


def test_models_take_the_spots_nearest_them() -> None:
    """Two models facing two targets: each touches the one straight ahead (4.74" each), the
    least total movement; swapping would cross the moves and cost more."""
    s = make_scenario([(10.0, 10.0), (10.0, 13.0)], {"B": [(16.0, 10.0), (16.0, 13.0)]}, roll=7)
    result = solve(s)
    by_model = {p.model: p for p in result.placements}
    assert by_model["A1"].contact == ("B1",)
    assert by_model["A2"].contact == ("B2",)
    assert by_model["A1"].moved == pytest.approx(6.0 - 4 * R32 + 2 * R32, abs=0.01)
    assert by_model["A2"].moved == pytest.approx(6.0 - 2 * R32, abs=0.01)


def test_a_start_layout_the_loader_refuses_is_refused_by_solve_too() -> None:
    """A scenario built in code, with two marines 1" apart centre to centre (their 32mm bases
    overlap by 0.26"): `solve` raises the loader's error rather than answer from it."""
    s = make_scenario([(10.0, 10.0), (11.0, 10.0)], {"B": [(20.0, 10.0)]}, roll=8)
    with pytest.raises(ScenarioError) as raised:
        solve(s)
    assert "units[0].models[1]" in str(raised.value)
    assert "overlaps 'A1' by 0.26\"" in str(raised.value)
