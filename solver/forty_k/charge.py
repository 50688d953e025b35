"""The 40k charge (9th and 10th edition): the most models in base contact, then in engagement,
then the least movement, subject to coherency, engagement of every target and of no other unit."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from chargeopt.geometry import Battlefield, Footprint
from chargeopt.models import Result, ResultAction, Scenario, Status
from chargeopt.solver.bounds.certify import certify
from chargeopt.solver.bounds.contact_bound import roll_lower_bound, straight_line_ceilings
from chargeopt.solver.bounds.proofs import charge_impossibility
from chargeopt.solver.bounds.relaxation_zones import zones
from chargeopt.solver.bounds.ring_packing import contact_ceiling
from chargeopt.solver.bounds.split_bound import split_contact_ceiling
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core import clock, progress
from chargeopt.solver.core.cpsat_blocks import assign_models
from chargeopt.solver.core.dice import chance_at_least, chance_with_reroll
from chargeopt.solver.core.exact_limits import margin
from chargeopt.solver.core.greedy import greedy_packing
from chargeopt.solver.core.ordered_solve import SolveState
from chargeopt.solver.core.polish import polish, poses_of
from chargeopt.solver.core.tolerances import ROLL_MARGIN_IN
from chargeopt.solver.forty_k.charge_packing import base_classes, packing_ceiling
from chargeopt.solver.forty_k.charge_repair import repaired
from chargeopt.solver.forty_k.charge_roll import roll_table, solve_at
from chargeopt.solver.forty_k.contact_witness import contact_spots
from chargeopt.solver.forty_k.engagement_spots import engagement_spots
from chargeopt.solver.forty_k.placements import (
    objective_and_bound,
    objective_of,
    placements_at,
    stay_put,
)
from chargeopt.solver.forty_k.refine import REFINE_MIN_S, finer, keep_refined, may_refine
from chargeopt.solver.forty_k.roll_search import RollOutcomes, search_min_roll
from chargeopt.solver.forty_k.table_proofs import rows_proven_anywhere
from chargeopt.solver.options import SolveOptions

GRID_SHARE = 0.6
"""The candidates' solve may use this share of the time limit; the continuous certificate
(the cell relaxation) has the rest, and whatever the grid leaves unused."""
SPARSE_ENGAGED = 8
"""A model that reaches fewer engaged candidates than this gets the corners of its engagement
region as extra candidates (`engagement_spots`). Given to every model that cannot touch, they
cost the 20- and 30-model layouts of scaling-v1 up to 2 s each and found one more engaged
model on one of them; the candidates miss slivers, not the broad regions of hordes."""
TABLE_SECONDS_PER_ROLL = 0.5
"""The base-contact-by-roll table gives each roll at most this; unproven entries say so."""
TABLE_SHARE = 0.3
"""The whole table may take this share of the work the solve did before it, or one roll's
`TABLE_SECONDS_PER_ROLL` if that is more (issue 32's goal: the table adds at most 30% to
the solve at the scenario's roll)."""


def solve_charge(scenario: Scenario, options: SolveOptions, prior: Result | None = None) -> Result:
    """Solve a charge at the given roll (or at the minimum roll that succeeds), then fill in
    the minimum roll, its chances and the base contact each larger roll buys, and certify it.
    A small unit's answer that is not proven best is solved again on finer candidates
    (`refine`), whose certificate starts from the first one (`prior`)."""
    t0, c0 = time.perf_counter(), clock.now()
    result, battlefield = _grid_answer(scenario, options, t0, c0)
    progress.answer(result)
    end = c0 + options.time_limit_s
    progress.stage("certificate")
    first = certify(result, scenario, battlefield, options, end, prior)
    progress.answer(first)
    left = end - clock.now()
    if not may_refine(scenario, options) or first.status != Status.FEASIBLE or left < REFINE_MIN_S:
        return rows_proven_anywhere(
            repaired(first, scenario, battlefield, options, t0, c0), scenario
        )
    progress.stage("finer candidates")
    fine = solve_charge(scenario, replace(finer(options), time_limit_s=left), first)
    kept = fine if keep_refined(first, fine) else first
    stats = dict(kept.stats)
    stats["refined"] = {
        "kept": "finer" if kept is fine else "first",
        "candidates": {
            "first": first.stats.get("candidates"),
            "finer": fine.stats.get("candidates"),
        },
        "objective": {"first": dict(first.objective), "finer": dict(fine.objective)},
        "certificate": "first" if "certificate_from" in fine.stats else "own",
    }
    stats["seconds"] = round(time.perf_counter() - t0, 3)
    kept = kept.model_copy(update={"stats": stats})
    return rows_proven_anywhere(repaired(kept, scenario, battlefield, options, t0, c0), scenario)


def _grid_answer(
    scenario: Scenario, options: SolveOptions, t0: float, c0: float
) -> tuple[Result, Battlefield]:
    """The best answer over the candidates, not yet certified, and the battlefield."""
    deadline = c0 + options.time_limit_s * GRID_SHARE
    battlefield = Battlefield.from_scenario(scenario)
    rules = scenario.rules
    dice_max = 6 * rules.charge_dice
    given = options.roll if options.roll is not None else scenario.action.roll
    reach_in = given if given is not None and not options.roll_table else dice_max
    c_reach = max(reach_in, given or 0)
    progress.stage("candidates")
    c = cand.generate(scenario, battlefield, c_reach, options)
    lower = max(rules.charge_dice, roll_lower_bound(scenario))

    def remaining(share: float) -> float:
        return clock.now() + (deadline - clock.now()) * share

    table_share = 0.3 if options.roll_table else 0.0
    more: dict[str, object] = {}

    def offer(roll: int) -> Callable[[dict[str, int]], None] | None:
        """Show a listener a heuristic placement at `roll`, unpolished, while the search runs."""
        if not progress.has_listener():
            return None

        def show(placed: dict[str, int]) -> None:
            placements = placements_at(scenario, battlefield, poses_of(c, placed))
            progress.answer(
                Result(
                    scenario=scenario.name,
                    ruleset=scenario.ruleset,
                    action=ResultAction.of(scenario.action, roll),
                    status=Status.FEASIBLE,
                    objective=objective_of(placements),
                    placements=placements,
                    stats={"candidates": len(c), "provisional": "heuristic start"},
                )
            )

        return show

    outcomes = RollOutcomes(lower, dice_max)
    if given is not None:
        c, more = _with_spots(c, c_reach, scenario, battlefield, given, options, deadline)
        progress.stage(f"placing at roll {given}")
        final = solve_at(
            c,
            scenario,
            given,
            options,
            full=True,
            deadline=remaining(1.0 - table_share - 0.1),
            offer=offer(given),
        )
        found = final.assignment is not None
        if lower <= given <= dice_max:
            outcomes.record(given, final.assignment, final.status == "INFEASIBLE")
        if not found and reach_in < dice_max:
            c_reach = dice_max
            c = cand.generate(scenario, battlefield, c_reach, options)
        progress.stage("minimum roll")
        search_min_roll(c, scenario, options, outcomes, remaining(0.5 if table_share else 1.0))
        min_roll, first = outcomes.first_placement()
        if not found and min_roll is not None and min_roll <= given:
            final = SolveState(first, [], "FEASIBLE")
        roll = given
    else:
        progress.stage("minimum roll")
        search_min_roll(c, scenario, options, outcomes, remaining(0.4))
        min_roll, first = outcomes.first_placement()
        roll = min_roll
        if roll is not None:
            wider, more = _with_spots(c, c_reach, scenario, battlefield, roll, options, deadline)
            first = _same_poses(c, wider, first) if first else first
            c = wider
        final = (
            solve_at(
                c,
                scenario,
                roll,
                options,
                full=True,
                deadline=remaining(1.0 - table_share),
                previous=first,
                offer=offer(roll),
            )
            if roll is not None
            else SolveState(None, [], "INFEASIBLE")
        )
    proof_rolls = [roll or dice_max] if min_roll is not None else [max(dice_max, roll or 0)]
    if min_roll is None and roll is not None and roll < proof_rolls[0]:
        proof_rolls.append(roll)
    status, proof, proof_roll = _status(final, scenario, battlefield, proof_rolls)
    if proof_roll is not None:
        more = {**more, "proof_roll": proof_roll}
    if final.assignment:
        final_roll = roll if roll is not None else dice_max
        spots = assign_models(
            c, list(final.assignment.values()), base_classes(c, scenario), {}, final_roll
        )
        poses = polish(scenario, battlefield, poses_of(c, spots), final_roll)
        placements = placements_at(scenario, battlefield, poses)
    else:
        placements = stay_put(scenario)
    objective, bound = objective_and_bound(final, placements)
    result = Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=ResultAction.of(scenario.action, roll),
        status=status,
        min_roll=min_roll,
        success_probability=_prob(chance_at_least, min_roll, rules.charge_dice),
        success_probability_reroll=_prob(chance_with_reroll, min_roll, rules.charge_dice),
        objective=objective,
        bound=bound,
        placements=placements,
        proof=proof,
        stats={
            "seconds": round(time.perf_counter() - t0, 3),
            "candidates": len(c),
            "connectivity_cuts": final.cuts,
            "bound_scope": "candidates",
            "stages": [s.__dict__ for s in final.stages],
            "min_roll_basis": outcomes.basis(),
            "min_roll_settled": outcomes.settled,
            "min_roll_lower": lower,
            **more,
        },
    )
    if not options.roll_table or min_roll is None:
        return result, battlefield
    progress.answer(result)
    progress.stage("roll table")
    rolls = range(min_roll, dice_max + 1)
    table_s = max(TABLE_SECONDS_PER_ROLL, TABLE_SHARE * (clock.now() - c0))
    table_end = min(deadline, clock.now() + table_s)
    known = None
    if final.assignment and roll is not None:
        first_stage = final.stages[0] if final.stages else None
        proven = first_stage is not None and first_stage.status == "OPTIMAL"
        known = (roll, final.assignment, proven)
    table, _ = roll_table(
        c, scenario, options, rolls, table_end, first, TABLE_SECONDS_PER_ROLL, known
    )
    stats = {**result.stats, "seconds": round(time.perf_counter() - t0, 3)}
    result = result.model_copy(update={"rolls": tuple(table), "stats": stats})
    return rows_proven_anywhere(result, scenario), battlefield


def _with_spots(
    c: cand.Candidates,
    c_reach: float,
    scenario: Scenario,
    battlefield: Battlefield,
    roll: int,
    options: SolveOptions,
    deadline: float,
) -> tuple[cand.Candidates, dict[str, object]]:
    """The candidates, with the spots where models reach an engagement band on fewer than
    `SPARSE_ENGAGED` candidates (`engagement_spots`), then those of a contact packing that
    beats the candidates (`_contact_spots`, on the candidates with the first spots, so that
    its contact ceiling stays memoised for the solve); and stats: the ring-packing contact
    ceiling (the certificate's, so it need not pack again) and the spots added."""
    engaged = np.array([bool(e) for e in c.engaged], dtype=bool)
    within_roll = roll - margin(ROLL_MARGIN_IN)
    sparse = [
        m.id
        for m in scenario.acting_unit.models
        if np.count_nonzero(engaged & (c.reach[m.id] <= within_roll)) < SPARSE_ENGAGED
    ]
    found = engagement_spots(scenario, roll, sparse) if sparse else {}
    spots = {c.base_keys.index(b): xy for b, xy in found.items()}
    stats: dict[str, object] = {}
    if spots:
        stats["engagement_spots"] = int(sum(len(xy) for xy in spots.values()))
        c = _generate_with(scenario, battlefield, c_reach, options, c.base_keys, spots)
    contact, more = _contact_spots(c, scenario, battlefield, roll, options, deadline)
    stats.update(more)
    if not contact:
        return c, stats
    for b, xy in contact.items():
        spots[b] = np.vstack([spots[b], xy]) if b in spots else xy
    return _generate_with(scenario, battlefield, c_reach, options, c.base_keys, spots), stats


def _generate_with(
    scenario: Scenario,
    battlefield: Battlefield,
    c_reach: float,
    options: SolveOptions,
    base_keys: list[object],
    spots: dict[int, np.ndarray],
) -> cand.Candidates:
    """The candidates again, with `spots` (centres per index into `base_keys`) among them."""

    def extra(base: object, facing: float, targets: list[Footprint]) -> np.ndarray:
        xy = spots.get(base_keys.index(base), np.empty((0, 2)))
        n = len(xy)
        return np.column_stack((xy, np.zeros(n), np.full(n, -1.0), np.zeros(n)))

    return cand.generate(scenario, battlefield, c_reach, options, extra=extra)


def _contact_spots(
    c: cand.Candidates,
    scenario: Scenario,
    battlefield: Battlefield,
    roll: int,
    options: SolveOptions,
    deadline: float,
) -> tuple[dict[int, np.ndarray] | None, dict[str, object]]:
    """The spots of a packing that has more models in base contact than any placement over
    the candidates can (`contact_witness`), where the ring-packing ceiling leaves room for
    that, per base index; and stats. Only where the straight line or the split-unit ceiling
    already leaves some model out of contact: there the candidates' contact ceiling computed
    here is the one the solve needs anyway (memoised); where every model may touch, the
    greedy starts settle the first stage without it, and computing it cost each 10-model
    layout of scaling-v1 0.2 s. What decides is the count the candidates' packing placed, not
    its bound: a packing stopped at its cap keeps a bound that may be the straight line's, and
    deciding on it left a horde of issue 32 at 15 contacts of a possible 16. A greedy packing
    that already places that many decides it without CP-SAT (issue 45)."""
    top = straight_line_ceilings(scenario, roll)["base_contact"]
    split = split_contact_ceiling(scenario)
    cap = min(top, split.base_contact) if split is not None else top
    if cap >= len(scenario.acting_unit.models):
        return None, {}
    if len(greedy_packing(c, scenario, roll)) >= cap:
        return None, {}
    held, packed = packing_ceiling(c, scenario, roll, options, "contact", least_movement=True)
    found = len(packed)
    if found >= cap:
        return None, {}
    z = zones(scenario, battlefield)
    ceiling = contact_ceiling(scenario, battlefield, z, roll, deadline, options.seed, top)
    stats: dict[str, object] = {}
    if ceiling is not None:
        stats["ring_packing_bound"] = {"base_contact": ceiling}
    spots = contact_spots(scenario, battlefield, z, roll, found, ceiling, deadline, options.seed)
    if spots is None:
        return None, stats
    stats["contact_spots"] = {
        "spots": int(sum(len(xy) for xy in spots.values())),
        "candidate_ceiling": held,
    }
    if held != found:
        stats["contact_spots"]["candidate_found"] = found
    return spots, stats


def _same_poses(
    old: cand.Candidates, new: cand.Candidates, placed: dict[str, int]
) -> dict[str, int] | None:
    """The placement over `old` as indices into `new`, if every pose is among them."""
    index = {
        pose: k
        for k, pose in enumerate(zip(new.x, new.y, new.z, new.facing, new.base_of, strict=True))
    }
    out = {}
    for mid, p in placed.items():
        k = index.get((old.x[p], old.y[p], old.z[p], old.facing[p], old.base_of[p]))
        if k is None:
            return None
        out[mid] = k
    return out


def _prob(fn, roll: int | None, dice: int) -> float | None:
    return None if roll is None else round(float(fn(roll, dice)), 4)


def _status(state: SolveState, scenario: Scenario, battlefield: Battlefield, rolls: list[int]):
    """The status of the grid's answer; without one, a proof at the first of `rolls` that
    works (a proof at a larger roll covers every smaller one), and that roll."""
    if state.assignment is not None:
        return (Status.OPTIMAL if state.status == "OPTIMAL" else Status.FEASIBLE), None, None
    for roll in rolls:
        reason = charge_impossibility(scenario, battlefield, roll)
        if reason is not None:
            return Status.INFEASIBLE, reason, roll
    return Status.UNKNOWN, None, None
