"""The 40k-assault-4e charge: the first model to the nearest enemy, then every model in an order
that keeps the seed's preferences at every step, read globally (README.md): of the orders the
solver walks (the best-first greedy, one steered by a contact plan, and short of the
ceilings seeded random ones, `order_search.py`), the one with the most enemy models engaged,
then chargers in base contact, then one-attack supporters; `optimal` where it meets the
ceilings that hold anywhere on the table (`ceilings.py`)."""

from __future__ import annotations

import time

import numpy as np

from chargeopt.geometry import Battlefield
from chargeopt.geometry.assault_moves import assault_lengths
from chargeopt.geometry.distance_matrix import edge_distances
from chargeopt.models import Result, Scenario, Status, assault_range_of
from chargeopt.solver.assault_4e.answer import answer, no_answer
from chargeopt.solver.assault_4e.ceilings import (
    charge_ceilings,
    supporters_ceiling,
    unreachable_targets,
)
from chargeopt.solver.assault_4e.contact_plan import ContactPlan, contact_plan
from chargeopt.solver.assault_4e.guided import guided_first, guided_from, planned_firsts
from chargeopt.solver.assault_4e.order import End, first_spot, greedy_from, judged, values
from chargeopt.solver.assault_4e.order_search import moves_budget, random_walks
from chargeopt.solver.assault_4e.sequence import NO_SPOT, Charge, tied_firsts
from chargeopt.solver.bounds.relaxation_zones import Zones, zones
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core import clock
from chargeopt.solver.core.exact_limits import PRINTED, Margins, solve_exactly_if_needed
from chargeopt.solver.core.polish import Pose
from chargeopt.solver.options import SolveOptions

Answer = tuple[tuple[int, int, int], dict[str, End], list[str], str]
"""An answer: its rank (engaged, in contact, supporters), the ends, the order, how found."""

GREEDY_TOO_UP_TO = 15
"""Units of up to this many models walk the plan from several first moves and then the
best-first greedy, while the answer falls short of the trivial ceilings; larger ones walk the
plan once, and the greedy only when an enemy model is left unengaged (each walk costs
a5-twenty about 0.3 s)."""

TIES_SHARE = 0.3
"""Tied first moves after the first are tried while the solver's clock has spent less than
this share of the time limit (each walk charges its steps, `sequence.STEP_COST_S`); the
ceilings cover every tied first move, tried or not."""
MAX_PLANNED_FIRSTS = 2
"""The first model's own planned spots walked from, besides the spot that keeps most of the plan
and its shortest contact (a sampled six-marine charge reached 5 contacts only from the first
model's planned spot, round the far side of its enemy model)."""


def solve_assault_charge(scenario: Scenario, options: SolveOptions) -> Result:
    """The charge under 40k-assault-4e: its placements, the order of moves and who fights.
    A target no model can reach is settled first by the reach proof; then the charge is
    walked from every first move the seed's "nearest" allows (`tied_firsts`), with the
    printed margins and, where that finds none, at exact limits (`exact_limits.py`)."""
    t0 = time.perf_counter()
    deadline = clock.now() + options.time_limit_s
    battlefield = Battlefield.from_scenario(scenario)
    z = zones(scenario, battlefield)
    range_in = assault_range_of(scenario.acting_unit, scenario.rules)
    walled = unreachable_targets(scenario, battlefield, z, range_in)
    if walled:
        result = no_answer(scenario, Status.INFEASIBLE, _walled_words(scenario, walled), {})
    else:
        result = solve_exactly_if_needed(
            lambda margins: _charge(scenario, battlefield, z, options, deadline, margins)
        )
    result.stats["seconds"] = round(time.perf_counter() - t0, 3)
    return result


def _charge(
    scenario: Scenario,
    battlefield: Battlefield,
    z: Zones,
    options: SolveOptions,
    deadline: float,
    margins: Margins,
) -> Result:
    """One pass of the charge with `margins` kept inside every limit."""
    c = charge_candidates(scenario, battlefield, options, margins)
    charge = Charge.of(scenario, battlefield, c, margins)
    firsts = tied_firsts(charge)
    first, foe = firsts[0]
    stats: dict[str, object] = {"candidates": len(c), "first_model": first, "first_target": foe}
    if len(firsts) > 1:
        stats["first_tie"] = [list(pair) for pair in firsts]
    n = len(charge.unit.models)
    top = (sum(len(scenario.unit_by_id[t].models) for t in scenario.action.targets), n)
    answers: list[Answer] = []
    walked: dict[tuple[str, str], ContactPlan | None] = {}
    tie_deadline = clock.now() + TIES_SHARE * options.time_limit_s
    for k, pair in enumerate(firsts):
        if k and walked and clock.now() >= tie_deadline:
            stats["first_tie_untried"] = [list(p) for p in firsts[k:]]
            break
        lead_end = first_spot(charge, *pair)
        if lead_end is None:
            continue
        runs, walked[pair] = _walks(
            charge, z, pair, lead_end, top, deadline, options.seed, lean=bool(k)
        )
        answers += runs
        if _best(answers) == top:
            break
    if not walked:
        return _first_fails(charge, firsts, stats)
    bound: dict[str, int | float] = charge_ceilings(
        scenario, battlefield, z, charge.range_in, firsts, _best(answers), deadline, options.seed
    )
    answers += _order_search(charge, walked, bound, _best(answers), deadline, options.seed)
    if not answers:
        return no_answer(scenario, Status.UNKNOWN, _unreached(scenario, c), stats)
    rank, ends, order, how = max(answers, key=lambda a: (a[0], -_moved(a[1])))
    stats["first_model"], stats["first_target"] = order[0], _first_target(charge, ends, order)
    if rank[1] == bound["base_contact"]:
        bound["one_attack"] = min(n - rank[1], supporters_ceiling(scenario, charge.range_in))
    proven = rank == (bound["enemy_engaged"], bound["base_contact"], bound.get("one_attack"))
    stats.update(settled_by=how, bound_scope="continuous")
    status = Status.OPTIMAL if proven else Status.FEASIBLE
    return _answer(charge, ends, order, status, bound, stats)


def _walks(
    charge: Charge,
    z: Zones,
    pair: tuple[str, str],
    lead_end: End,
    top: tuple[int, int],
    deadline: float,
    seed: int,
    *,
    lean: bool = False,
) -> tuple[list[Answer], ContactPlan | None]:
    """The orders of moves walked from one first move: steered by a contact plan from the
    first model's best spots, then (where they fall short) the best-first greedy; `lean` (a
    tied first move after the first): the plan's walk from its best first spot only. Returns
    them and the contact plan (the order search draws from it)."""
    first, foe = pair
    queue = [m.id for m in charge.unit.models if m.id != first]
    n = len(charge.unit.models)
    answers: list[Answer] = []

    def keep(run: tuple[dict[str, End], list[str], bool], how: str) -> None:
        answers.extend(_kept(charge, run, how))

    plan = contact_plan(charge, z, first, foe, deadline, seed)
    if plan is not None:
        lead = guided_first(charge, plan, first, foe) or lead_end
        own = planned_firsts(charge, plan, first, foe)[:MAX_PLANNED_FIRSTS]
        leads = [lead, *own, lead_end] if n <= GREEDY_TOO_UP_TO and not lean else [lead]
        for end in dict.fromkeys(leads):
            keep(guided_from(charge, plan, {first: end}, [first], queue), "contact plan")
            if _best(answers) == top:
                break
    planned = _best(answers)
    if planned[0] < top[0] or (planned != top and n <= GREEDY_TOO_UP_TO and not lean):
        keep(greedy_from(charge, {first: lead_end}, [first], queue), "greedy")
    return answers, plan


def _order_search(
    charge: Charge,
    walked: dict[tuple[str, str], ContactPlan | None],
    bound: dict[str, int | float],
    best: tuple[int, int],
    deadline: float,
    seed: int,
) -> list[Answer]:
    """The seeded random orders (`order_search.py`) from each tied first move walked, while
    the best answer is below `bound` (the ceilings over every tied first move, so no first
    move is proven against another's); each first move's walks have an equal share of the
    single-model moves (`order_search.moves_budget`), all stopping at the solve's `deadline`
    on its clock (each step measured charges it, `sequence.STEP_COST_S`: both are counts,
    the same on any machine)."""
    goal = (bound["enemy_engaged"], bound["base_contact"])
    found: list[Answer] = []
    rank_of = _walk_rank(charge)
    steps = moves_budget(len(charge.unit.models)) // len(walked)
    for (first, foe), plan in walked.items():
        if not steps or max(best, _best(found)) >= goal:
            break
        run = random_walks(charge, first, foe, rank_of, goal, deadline, seed, plan, steps=steps)
        if run is not None:
            found += _kept(charge, (*run, True), "order search")
    return found


def _kept(charge: Charge, run: tuple[dict[str, End], list[str], bool], how: str) -> list[Answer]:
    """The run as an answer, if it is complete and touches every charged unit."""
    ends, order, complete = run
    if complete and _every_target(charge, ends):
        return [(_rank(charge, ends), ends, order, how)]
    return []


def _first_target(charge: Charge, ends: dict[str, End], order: list[str]) -> str:
    """The enemy model the answer's first model touches (of the primary target)."""
    primary = {m.id for m in charge.scenario.unit_by_id[charge.scenario.action.targets[0]].models}
    return next((e for e in ends[order[0]][2] if e in primary), "")


def _walled_words(scenario: Scenario, walled: list[str]) -> str:
    """The reach proof of a charged unit no model can reach."""
    units = " and ".join(repr(u) for u in walled)
    return (
        f"no model of unit {scenario.action.unit!r} can reach base contact with any model of "
        f"unit {units} within its assault range (every contact spot measured against the "
        "shortest path any model could take, other models and the 1\" no-go ignored), so a "
        "charge on every target named cannot be made"
    )


def _answer(
    charge: Charge,
    ends: dict[str, End],
    order: list[str],
    status: Status,
    bound: dict[str, int | float],
    stats: dict[str, object],
) -> Result:
    stats["best_category_by_step"] = judged(charge, ends, order)
    poses = {
        mid: Pose(x, y, 0.0, charge.start(mid).facing, moved)
        for mid, (x, y, _, moved) in ends.items()
    }
    return answer(
        charge.scenario,
        charge.battlefield,
        poses,
        status=status,
        order=order,
        bound=bound,
        stats=stats,
    )


def _best(answers: list) -> tuple[int, int]:
    """The most enemy models engaged and chargers in contact among `answers` ((0, 0) if none)."""
    return max((a[0][:2] for a in answers), default=(0, 0))


def _walk_rank(charge: Charge):
    """The rank the order search keeps its best walk by: the answer's, then least movement;
    a walk that leaves a charged unit untouched ranks lowest."""

    def rank(ends: dict[str, End]) -> tuple:
        if not _every_target(charge, ends):
            return (-1,)
        return (*_rank(charge, ends), -_moved(ends))

    return rank


def _moved(ends: dict[str, End]) -> float:
    """Inches moved in all (the tie break between answers of equal rank)."""
    return sum(end[3] for end in ends.values())


def _every_target(charge: Charge, ends: dict[str, End]) -> bool:
    """Whether every charged unit has a model in base contact."""
    owner = dict((mid, uid) for uid, mid in charge.target_ids)
    touched = {owner[e] for end in ends.values() for e in end[2]}
    return touched >= set(charge.scenario.action.targets)


def _rank(charge: Charge, ends: dict[str, End]) -> tuple[int, int, int]:
    """(enemy models engaged, models in contact, one-attack supporters) of an answer."""
    engaged_models = [m for m, e in ends.items() if e[2]]
    support = charge.scenario.rules.fight_support_range_in or 0.0
    helpers = 0
    for mid, end in ends.items():
        if end[2] or not engaged_models:
            continue
        start = charge.start(mid)
        fps = [
            type(start)(charge.start(o).base, ends[o][0], ends[o][1], 0.0, charge.start(o).facing)
            for o in engaged_models
        ]
        gaps = edge_distances(
            start.base, np.array([end[0]]), np.array([end[1]]), np.array([start.facing]), fps
        )
        helpers += bool((gaps <= support - charge.margins.pair_in).any())
    return (*values(ends), helpers)


def charge_candidates(
    scenario: Scenario,
    battlefield: Battlefield,
    options: SolveOptions,
    margins: Margins = PRINTED,
) -> cand.Candidates:
    """The shared candidates, each model's reach measured as the assault move (difficult
    terrain by the difficult roll, the 1" no-go of enemy units not charged)."""
    rules = scenario.rules
    unit = scenario.acting_unit
    range_in = assault_range_of(unit, rules)
    avoid = sorted(u.id for u in scenario.enemies_of(unit) if u.id not in scenario.action.targets)

    def may_end(model, cands, idx, length):
        return assault_lengths(
            scenario,
            battlefield,
            model.id,
            cands.x[idx],
            cands.y[idx],
            cands.z[idx],
            range_in=range_in,
            difficult_roll=scenario.action.difficult_roll,
            avoid_units=avoid,
            margin_in=margins.roll_in,
        )

    return cand.generate(scenario, battlefield, range_in, options, may_end=may_end, stays=True)


def _first_fails(charge: Charge, firsts: list[tuple[str, str]], stats: dict) -> Result:
    """No legal spot in base contact with the nearest enemy model for the first model (any
    of the tied ones): the charge does not happen (proof measured on the dense contact ring,
    along paths around the unit's other models where they stand)."""
    sp = charge.spots
    if any(foe in t for first, foe in firsts for t in sp[first].touches):
        blocked = [pair for pair in firsts if any(pair[1] in t for t in sp[pair[0]].touches)]
        first, foe = blocked[0]
        words = (
            f"model {first!r}, the nearest to the charged unit, must move first into base "
            f"contact with {foe!r}, the nearest model of it; every spot around {foe!r} it "
            "could reach alone is cut off by its own unit's models standing in the way (seed "
            '001: "models may not move through friendly or enemy models"), so the charge is '
            "choked"
        )
    else:
        first, foe = firsts[0]
        words = (
            f"model {first!r}, the nearest to the charged unit, must move first into base "
            f"contact with {foe!r}, the nearest model of it; no spot around {foe!r} (every "
            f"{_RING_WORDS}) is in reach along a legal path within its assault range of "
            f'{charge.range_in:g}"'
        )
    if len(firsts) > 1:
        others = ", ".join(f"{a!r} to {b!r}" for a, b in firsts[1:])
        words += f"; the same holds for the tied first moves {others}"
    stats["category_without_move"] = NO_SPOT
    return no_answer(charge.scenario, Status.INFEASIBLE, words, stats)


_RING_WORDS = 'degree, clear of other models and of the 1" no-go'


def _unreached(scenario: Scenario, c: cand.Candidates) -> str | None:
    """Words for a target unit that no candidate touches, if one is."""
    touched = {e for t in c.contact for e in t}
    for uid in scenario.action.targets:
        mids = [m.id for m in scenario.unit_by_id[uid].models]
        if not touched & set(mids):
            return (
                f"no model of unit {scenario.action.unit!r} reaches base contact with unit "
                f"{uid!r} within its assault range, so the charge on every target cannot be "
                "made without breaking coherency"
            )
    return None
