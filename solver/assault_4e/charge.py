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
from chargeopt.solver.assault_4e.ceilings import charge_ceilings, supporters_ceiling
from chargeopt.solver.assault_4e.contact_plan import contact_plan
from chargeopt.solver.assault_4e.guided import guided_first, guided_from, planned_firsts
from chargeopt.solver.assault_4e.order import End, first_spot, greedy_from, judged, values
from chargeopt.solver.assault_4e.order_search import random_walks
from chargeopt.solver.assault_4e.sequence import NO_SPOT, Charge, first_model
from chargeopt.solver.bounds.relaxation_zones import zones
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core import clock
from chargeopt.solver.core.polish import Pose
from chargeopt.solver.core.tolerances import PAIR_KEPT_IN, ROLL_MARGIN_IN
from chargeopt.solver.options import SolveOptions

GREEDY_TOO_UP_TO = 15
"""Units of up to this many models walk the plan from several first moves and then the
best-first greedy, while the answer falls short of the trivial ceilings; larger ones walk the
plan once, and the greedy only when an enemy model is left unengaged (each walk costs
a5-twenty about 0.3 s)."""

MAX_PLANNED_FIRSTS = 2
"""The first model's own planned spots walked from, besides the spot that keeps most of the plan
and its shortest contact (a sampled six-marine charge reached 5 contacts only from the first
model's planned spot, round the far side of its enemy model)."""


def solve_assault_charge(scenario: Scenario, options: SolveOptions) -> Result:
    """The charge under 40k-assault-4e: its placements, the order of moves and who fights.
    A contact plan (a packing of the models' contact spots) steers an order of moves; where
    that falls short, the best-first greedy walks one too and the better is kept. The
    ceilings say whether it is proven."""
    t0 = time.perf_counter()
    deadline = clock.now() + options.time_limit_s
    battlefield = Battlefield.from_scenario(scenario)
    c = charge_candidates(scenario, battlefield, options)
    charge = Charge.of(scenario, battlefield, c)
    first, foe = first_model(charge)
    stats: dict[str, object] = {"candidates": len(c), "first_model": first, "first_target": foe}

    def done(result: Result) -> Result:
        result.stats["seconds"] = round(time.perf_counter() - t0, 3)
        return result

    lead_end = first_spot(charge, first, foe)
    if lead_end is None:
        return done(_first_fails(charge, first, foe, stats))
    queue = [m.id for m in charge.unit.models if m.id != first]
    n = len(charge.unit.models)
    top = (sum(len(scenario.unit_by_id[t].models) for t in scenario.action.targets), n)
    answers: list[tuple[tuple[int, int, int], dict[str, End], list[str], str]] = []

    def keep(run: tuple[dict[str, End], list[str], bool], how: str) -> None:
        ends, order, complete = run
        if complete and _every_target(charge, ends):
            answers.append((_rank(charge, ends), ends, order, how))

    z = zones(scenario, battlefield)
    plan = contact_plan(charge, z, first, foe, deadline, options.seed)
    if plan is not None:
        stats["planned_contacts"] = len(plan)
        lead = guided_first(charge, plan, first, foe) or lead_end
        own = planned_firsts(charge, plan, first, foe)[:MAX_PLANNED_FIRSTS]
        leads = [lead, *own, lead_end] if n <= GREEDY_TOO_UP_TO else [lead]
        for end in dict.fromkeys(leads):
            keep(guided_from(charge, plan, {first: end}, [first], queue), "contact plan")
            if _best(answers) == top:
                break
    planned = _best(answers)
    if planned[0] < top[0] or (planned != top and n <= GREEDY_TOO_UP_TO):
        keep(greedy_from(charge, {first: lead_end}, [first], queue), "greedy")
    found = _best(answers)
    bound: dict[str, int | float] = charge_ceilings(
        scenario, battlefield, z, charge.range_in, (first, foe), found, deadline, options.seed
    )
    goal = (bound["enemy_engaged"], bound["base_contact"])
    if found < goal:
        rank_of = _walk_rank(charge)
        walked = random_walks(charge, first, foe, rank_of, goal, deadline, options.seed, plan)
        if walked is not None:
            keep((*walked, True), "order search")
    if not answers:
        return done(no_answer(scenario, Status.UNKNOWN, _unreached(scenario, c), stats))
    rank, ends, order, how = max(answers, key=lambda a: (a[0], -_moved(a[1])))
    if rank[1] == bound["base_contact"]:
        bound["one_attack"] = min(n - rank[1], supporters_ceiling(scenario, charge.range_in))
    proven = rank == (bound["enemy_engaged"], bound["base_contact"], bound.get("one_attack"))
    stats.update(settled_by=how, bound_scope="continuous")
    status = Status.OPTIMAL if proven else Status.FEASIBLE
    return done(_answer(charge, ends, order, status, bound, stats))


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
        helpers += bool((gaps <= support - PAIR_KEPT_IN).any())
    return (*values(ends), helpers)


def charge_candidates(
    scenario: Scenario, battlefield: Battlefield, options: SolveOptions
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
            margin_in=ROLL_MARGIN_IN,
        )

    return cand.generate(scenario, battlefield, range_in, options, may_end=may_end, stays=True)


def _first_fails(charge: Charge, first: str, foe: str, stats: dict) -> Result:
    """No legal spot in base contact with the nearest enemy model for the first model: the
    charge does not happen (proof measured on the dense contact ring)."""
    sp = charge.spots[first]
    if any(foe in t for t in sp.touches):
        return no_answer(charge.scenario, Status.UNKNOWN, None, stats)
    words = (
        f"model {first!r}, the nearest to the charged unit, must move first into base contact "
        f"with {foe!r}, the nearest model of it; no spot around {foe!r} (every "
        f"{_RING_WORDS}) is in reach along a legal path within its assault range of "
        f'{charge.range_in:g}"'
    )
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
