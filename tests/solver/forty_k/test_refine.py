"""A small unit's unproven answer is solved again on finer candidates (`solver.refine`), and
its contact ceiling packed again on shorter sectors (`ring_packing.FINE_ARCS_IN`)."""

from __future__ import annotations

from dataclasses import replace

from builders import make_scenario

from chargeopt.geometry import Battlefield
from chargeopt.models import Result, ResultAction, Scenario, Status
from chargeopt.solver import solve
from chargeopt.solver.bounds import certify as certify_module
from chargeopt.solver.bounds import ring_packing as rp
from chargeopt.solver.bounds.certify import _same_bound_question
from chargeopt.solver.bounds.relaxation_zones import zones
from chargeopt.solver.core import clock
from chargeopt.solver.forty_k.refine import finer, keep_refined, may_refine
from chargeopt.solver.interface.summary import summarise_result
from chargeopt.solver.options import SolveOptions

WALLS = [
    {"id": "w0", "kind": "wall", "path": [[9.53, 19.58], [10.97, 23.57]], "thickness": 0.25},
    {"id": "w1", "kind": "wall", "path": [[14.15, 12.69], [13.90, 15.51]], "thickness": 0.25},
]


def _squeeze():
    """Five marines, roll 9, one target marine B1 with a non-target marine C1 beside it and a
    wall across the way: A2, A3 and A5 can reach engagement range of B1 only on its north-west,
    where C1's range leaves a small space; A1 and A4 cannot reach it. The marines stand 0.1"
    nearer than the layout this was found on (x 7.25 to 10.3): there the third model needed
    0.9975" of the 1" range and a 1.997" coherency link, inside the margins a written answer
    keeps (0.011" and 0.016")."""
    attackers = [(7.35, 14.67), (8.9, 14.68), (10.4, 14.65), (7.26, 16.09), (8.74, 16.16)]
    defenders = {"B": [(18.45, 14.72)], "C": [(15.96, 13.87)]}
    return make_scenario(attackers, defenders, roll=9, terrain=[dict(w, height=5.0) for w in WALLS])


def test_a_squeezed_third_model_is_found_on_finer_candidates() -> None:
    result = solve(_squeeze(), options=SolveOptions(roll_table=False))
    assert result.status == Status.OPTIMAL
    assert result.objective["base_contact"] == 2
    assert result.objective["engaged"] == 3
    assert result.bound == {"base_contact": 2, "engaged": 3}
    refined = result.stats["refined"]
    assert refined["kept"] == "finer"
    assert refined["objective"]["first"]["engaged"] == 2
    assert refined["certificate"] == "own"
    assert refined["candidates"]["finer"] > refined["candidates"]["first"]
    assert not result.violations
    assert "solved again on" in summarise_result(result)


def test_finer_candidates_alone_settle_it_without_a_second_solve() -> None:
    options = finer(SolveOptions(roll_table=False))
    result = solve(_squeeze(), options=options)
    assert result.status == Status.OPTIMAL
    assert result.objective["engaged"] == 3
    assert "refined" not in result.stats


def test_finer_never_coarsens_what_the_user_chose() -> None:
    fine = finer(SolveOptions())
    assert (fine.contact_step_deg, fine.near_spacing_in, fine.far_spacing_in) == (1.0, 0.3, 0.6)
    mine = SolveOptions(contact_step_deg=0.5, near_spacing_in=0.2, far_spacing_in=0.8)
    assert finer(mine) == replace(mine, far_spacing_in=0.6)
    assert finer(fine) == fine


def test_only_small_units_on_coarser_candidates_are_refined() -> None:
    five = _squeeze()
    assert may_refine(five, SolveOptions())
    assert not may_refine(five, finer(SolveOptions()))
    eleven = make_scenario([(2.0 + 1.5 * i, 5.0) for i in range(11)], {"B": [(10.0, 12.0)]})
    assert not may_refine(eleven, SolveOptions())


def _result(status: Status, contact: int, engaged: int) -> Result:
    objective = {"base_contact": contact, "engaged": engaged} if status != Status.UNKNOWN else {}
    return Result(scenario="s", ruleset=("40k-10e",), status=status, objective=objective)


def test_the_refined_answer_is_kept_only_when_it_is_no_worse() -> None:
    first = _result(Status.FEASIBLE, 2, 2)
    assert keep_refined(first, _result(Status.OPTIMAL, 2, 3))
    assert keep_refined(first, _result(Status.FEASIBLE, 2, 2))
    assert keep_refined(first, _result(Status.FEASIBLE, 3, 1))
    assert not keep_refined(first, _result(Status.FEASIBLE, 1, 4))
    assert not keep_refined(first, _result(Status.FEASIBLE, 2, 1))
    assert not keep_refined(first, _result(Status.UNKNOWN, 0, 0))


def _short_of_a_third() -> Scenario:
    """Five marines, roll 8, one target marine B1 with a non-target marine C1 between: along
    legal paths (around C1's engagement range) only A2, A3 and A5 reach B1's edge, on its
    south-west: A5 from 210.6 to 248.4 degrees, A2 from 210.6 to 268.8 (measured on 3,600
    points of the edge). Two 32mm bases touching B1 need about 60 degrees between them, so a
    third contact is short by more than 1.5 degrees (0.03" of edge)."""
    attackers = [(7.17, 11.14), (8.69, 11.28), (10.16, 11.25), (7.2, 12.72), (8.63, 12.72)]
    wall = {"id": "w0", "kind": "wall", "path": [[12.35, 16.17], [13.68, 17.67]]}
    return make_scenario(
        attackers,
        {"B": [(16.64, 11.45)], "C": [(14.38, 12.74)]},
        roll=8,
        terrain=[dict(wall, thickness=0.25, height=5.0)],
    )


def test_shorter_contact_sectors_prove_the_third_contact_impossible() -> None:
    scenario = _short_of_a_third()
    battlefield = Battlefield.from_scenario(scenario)
    z = zones(scenario, battlefield)
    work = (clock.now() + 30, 1.0, 0)
    cells, base_of, allowed = rp.contact_reach(scenario, battlefield, z, 8.0, rp.ARC_IN)
    assert rp.pack(cells, allowed, base_of, z, work, rp.MAX_CELLS, 5) == 3
    result = solve(scenario, options=SolveOptions(roll_table=False))
    assert result.status == Status.OPTIMAL
    assert result.objective["base_contact"] == 2
    assert result.objective["engaged"] == 4
    assert result.bound == {"base_contact": 2, "engaged": 4}
    assert result.stats["ring_packing_bound"]["base_contact"] == 2
    assert "refined" not in result.stats


def _crowded_edge() -> Scenario:
    """Seven marines (9th edition), roll 9, one target marine B1 and a non-target marine C1
    2.65" from it: at most five touch B1 (the contact rings' packing), and with five touching
    the sectors of B1's band hold no more than one more model within engagement range, where
    the band's squares of 0.1" allow two."""
    attackers = [(8.58, 17.68), (10.15, 17.59), (11.53, 17.61), (8.55, 19.14), (10.11, 19.15)]
    attackers += [(11.65, 19.19), (8.64, 20.74)]
    defenders = {"B": [(17.73, 17.68)], "C": [(15.23, 18.57)]}
    return make_scenario(attackers, defenders, ruleset="40k-9e", roll=9)


def test_band_sectors_bound_engagement_where_squares_cannot(monkeypatch) -> None:
    scenario = _crowded_edge()
    battlefield = Battlefield.from_scenario(scenario)
    z = zones(scenario, battlefield)

    def engaged_ceiling() -> int | None:
        deadline = clock.now() + 30
        packed = rp.ring_packing_ceilings(
            scenario, battlefield, z, 9.0, deadline, found_contact=5, ceilings={"engaged": 7}
        )
        return packed.bounds["engaged"]

    assert engaged_ceiling() == 6
    with monkeypatch.context() as squares_only:
        squares_only.setattr(rp, "FINE_MAX_MODELS", 0)
        assert engaged_ceiling() == 7
    result = solve(scenario, options=SolveOptions(roll_table=False))
    assert result.status == Status.OPTIMAL
    assert result.objective["base_contact"] == 5
    assert result.objective["engaged"] == 6
    assert result.bound == {"base_contact": 5, "engaged": 6}


def _behind_a_ruin() -> Scenario:
    """Ten marines, roll 6, two target marines with a ruin wall across B1's south-west: the
    first answer (2 in base contact, 3 engaged, at most 5 by the band's packing) is not
    proven, and the finer candidates find the same counts."""
    attackers = [(5.99, 6.29), (7.62, 6.29), (6.19, 7.67), (7.55, 7.76), (6.04, 9.17)]
    attackers += [(7.53, 9.29), (6.16, 10.78), (7.53, 10.8), (6.09, 12.16), (7.58, 12.2)]
    walls = [[[10.86, 14.85], [12.84, 17.32]], [[13.23, 6.4], [11.79, 7.92]]]
    terrain = [
        {"id": f"w{i}", "kind": "wall", "path": path, "thickness": 0.25, "height": 5.0}
        for i, path in enumerate(walls)
    ]
    return make_scenario(attackers, {"B": [(13.63, 8.3), (15.03, 8.36)]}, roll=6, terrain=terrain)


def test_the_refined_answer_takes_the_first_certificate_for_the_same_counts(monkeypatch) -> None:
    searches: list[float] = []
    real = certify_module.ring_packing_ceilings

    def counted(*args, **kwargs):
        searches.append(args[3])
        return real(*args, **kwargs)

    monkeypatch.setattr(certify_module, "ring_packing_ceilings", counted)
    result = solve(_behind_a_ruin(), options=SolveOptions(roll_table=False, time_limit_s=10))
    assert result.status == Status.FEASIBLE
    assert (result.objective["base_contact"], result.objective["engaged"]) == (2, 3)
    assert result.bound == {"base_contact": 2, "engaged": 5}
    refined = result.stats["refined"]
    assert refined["kept"] == "finer"
    assert refined["objective"]["first"]["engaged"] == 3
    assert refined["certificate"] == "first"
    assert searches == [6.0]
    assert result.stats["certificate_from"] == certify_module.REUSED
    assert result.stats["ring_packing_bound"]["engaged"] == 5
    assert result.stats["min_roll_proven"] is True
    assert not result.violations
    assert "the first answer's bounds stand" in summarise_result(result)


def _charge(roll: int) -> ResultAction:
    return ResultAction(kind="charge", unit="A", targets=("B",), roll=roll)


def test_a_certificate_is_taken_only_for_the_same_roll_and_counts() -> None:
    first = _result(Status.FEASIBLE, 2, 3).model_copy(update={"action": _charge(6)})
    same = _result(Status.FEASIBLE, 2, 3).model_copy(update={"action": _charge(6)})
    assert _same_bound_question(first, same)
    assert not _same_bound_question(first, same.model_copy(update={"action": _charge(7)}))
    more = _result(Status.FEASIBLE, 2, 4).model_copy(update={"action": _charge(6)})
    assert not _same_bound_question(first, more)
    fewer_contacts = _result(Status.FEASIBLE, 1, 3).model_copy(update={"action": _charge(6)})
    assert not _same_bound_question(first, fewer_contacts)
    unknown = _result(Status.UNKNOWN, 0, 0).model_copy(update={"action": _charge(6)})
    assert not _same_bound_question(unknown, same)
