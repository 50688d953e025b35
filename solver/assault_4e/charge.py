"""The 40k-assault-4e charge: the first model to the nearest enemy, then every model in an order
that keeps the seed's preferences, read globally (README.md): over the candidate spots, the
first model's contact fixed, then the most enemy models engaged, the most chargers in base
contact, the most one-attack supporters; then an order of moves that replays it, each step
checked against the best category open to its model, and repaired model by model if one is
not."""

from __future__ import annotations

import time

import numpy as np
from ortools.sat.python import cp_model

from chargeopt.geometry import Battlefield
from chargeopt.geometry.assault_moves import assault_lengths
from chargeopt.geometry.distance_matrix import edge_distances
from chargeopt.models import Result, Scenario, Status, assault_range_of
from chargeopt.solver.assault_4e.answer import answer, no_answer
from chargeopt.solver.assault_4e.order import (
    End,
    first_spot,
    greedy_from,
    judged,
    replay_order,
    values,
)
from chargeopt.solver.assault_4e.sequence import NO_SPOT, Charge, first_model
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core.coherency_constraints import add_coherency, neighbours
from chargeopt.solver.core.cpsat_blocks import add_no_overlap, assign_models, assignment
from chargeopt.solver.core.ordered_solve import (
    REPEATABLE_WORKERS,
    Objective,
    StageOutcome,
    solve_ordered,
)
from chargeopt.solver.core.polish import Pose
from chargeopt.solver.core.tolerances import APART_IN, PAIR_KEPT_IN, ROLL_MARGIN_IN
from chargeopt.solver.options import SolveOptions

STATUS = {"OPTIMAL": Status.OPTIMAL, "FEASIBLE": Status.FEASIBLE}


def solve_assault_charge(scenario: Scenario, options: SolveOptions) -> Result:
    """The charge under 40k-assault-4e: its placements, the order of moves and who fights.
    The best-first greedy answers first; where it reaches the ceilings (every enemy model
    engaged, every charger in contact) it is optimal, else CP-SAT solves the candidates and
    the better replayable answer is kept."""
    t0 = time.perf_counter()
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
    ceiling = (len(charge.targets), len(charge.unit.models))
    g_ends, g_order, g_done = greedy_from(charge, {first: lead_end}, [first], queue)
    answers: list[tuple[tuple[int, ...], dict[str, End], list[str], Status]] = []
    if g_done and _every_target(charge, g_ends):
        answers.append((_rank(charge, g_ends), g_ends, g_order, Status.FEASIBLE))
        if values(g_ends) == ceiling:
            stats["settled_by"] = "greedy at the ceilings"
            return done(
                _answer(
                    charge,
                    g_ends,
                    g_order,
                    Status.OPTIMAL,
                    dict(zip(("enemy_engaged", "base_contact"), ceiling, strict=True)),
                    stats,
                )
            )
    bound: dict[str, int | float] = {}
    lead = np.flatnonzero(
        np.isfinite(c.reach[first])
        & np.array([foe in t for t in c.contact], dtype=bool)
        & _clear_of_starts(charge, c, first)
    ).tolist()
    if lead:
        ends, status, bound = _optimum(scenario, c, charge, first, lead, options)
        if ends is not None:
            replay = replay_order(charge, ends, first)
            wrong = None if replay is None else replay.first_wrong_step
            if replay is not None and wrong is None:
                answers.append((_rank(charge, ends), ends, replay.order, status))
            else:
                keep = [first] if replay is None else replay.order[:wrong]
                rest = [m for m in queue if m not in keep]
                r_ends, r_order, r_done = greedy_from(charge, ends, keep, rest)
                stats["repaired_from_step"] = len(keep) + 1
                if r_done and _every_target(charge, r_ends):
                    answers.append((_rank(charge, r_ends), r_ends, r_order, Status.FEASIBLE))
    if not answers:
        if not lead:
            return done(no_answer(scenario, Status.UNKNOWN, None, stats))
        return done(no_answer(scenario, Status.UNKNOWN, _unreached(scenario, c), stats))
    rank, ends, order, status = max(answers, key=lambda a: a[0])
    proven = [bound.get("enemy_engaged"), bound.get("base_contact"), bound.get("one_attack")]
    short = any(b is None or v < b for v, b in zip(rank, proven, strict=True))
    if status == Status.OPTIMAL and short:
        status = Status.FEASIBLE
    if status != Status.OPTIMAL and list(rank) == proven:
        status = Status.OPTIMAL
    stats["bound_over"] = "candidates"
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


def _clear_of_starts(charge: Charge, c: cand.Candidates, mover: str) -> np.ndarray:
    """Candidates clear of every unit mate's start (the first model moves before them)."""
    mates = [charge.start(m.id) for m in charge.unit.models if m.id != mover]
    start = charge.start(mover)
    if not mates:
        return np.ones(len(c), bool)
    gaps = edge_distances(start.base, c.x, c.y, np.full(len(c), start.facing), mates)
    return (gaps >= APART_IN / 2).all(axis=1)


def _optimum(
    scenario: Scenario,
    c: cand.Candidates,
    charge: Charge,
    first: str,
    lead: list[int],
    options: SolveOptions,
) -> tuple[dict[str, End] | None, Status, dict[str, int | float]]:
    """The lexicographic optimum over the candidates, as ends per model."""
    unit = scenario.acting_unit
    range_in = charge.range_in
    classes: dict[int, list[str]] = {}
    for m in unit.models:
        classes.setdefault(c.base_keys.index(unit.base_of(m)), []).append(m.id)
    pm = assignment(c, range_in, classes, symmetric=options.symmetry_classes)
    if pm is None:
        return None, Status.UNKNOWN, {}
    add_no_overlap(pm, c)
    live = sorted(pm.y)
    adjacency = neighbours(c, live)
    if len(unit.models) > 1:
        add_coherency(pm, adjacency, 1)
    own = pm.x.get(first, {})
    lead_set = set(lead)
    pm.model.AddBoolOr([own[p] if p in own else pm.y[p] for p in lead if p in pm.y])
    for p, v in own.items():
        if p not in lead_set:
            pm.model.Add(v == 0)
    touching: dict[str, list[int]] = {}
    units_touched: dict[str, list[int]] = {u: [] for u in scenario.action.targets}
    owner = {mid: uid for uid, mid in charge.target_ids}
    for p in live:
        for e in c.contact[p]:
            touching.setdefault(e, []).append(p)
            units_touched[owner[e]].append(p)
    for spots in units_touched.values():
        if not spots:
            return None, Status.INFEASIBLE, {}
        pm.model.AddBoolOr([pm.y[p] for p in spots])
    engaged = []
    for e, spots in touching.items():
        z = pm.model.NewBoolVar(f"engaged[{e}]")
        pm.model.AddBoolOr([pm.y[p] for p in spots]).OnlyEnforceIf(z)
        engaged.append(z)
    contact = [pm.y[p] for p in live if c.contact[p]]
    support = []
    for p in live:
        if c.contact[p]:
            continue
        near = [pm.y[q] for q in adjacency[p] if c.contact[q]]
        if not near:
            continue
        s = pm.model.NewBoolVar(f"support[{p}]")
        pm.model.AddImplication(s, pm.y[p])
        pm.model.AddBoolOr(near).OnlyEnforceIf(s)
        support.append(s)
    n = len(unit.models)
    objectives = [
        Objective("enemy_engaged", cp_model.LinearExpr.Sum(engaged), True, len(engaged)),
        Objective("base_contact", cp_model.LinearExpr.Sum(contact), True, n),
    ]
    run = dict(
        roll=range_in,
        time_limit_s=options.time_limit_s * 0.4,
        seed=options.seed,
        workers=REPEATABLE_WORKERS,
        need_connected=n > 1,
    )
    state = solve_ordered(pm, c, objectives, adjacency, **run)
    if state.status == "OPTIMAL" and state.stages[-1].value < n:
        most = n - round(state.stages[-1].value)
        more = Objective("one_attack", cp_model.LinearExpr.Sum(support), True, most)
        extra = solve_ordered(pm, c, [more], adjacency, hint=list(state.assignment.values()), **run)
        if extra.assignment is not None:
            state.stages += extra.stages
            state.assignment, state.status = extra.assignment, extra.status
    elif state.status == "OPTIMAL":
        state.stages.append(StageOutcome("one_attack", 0.0, 0.0, "OPTIMAL", 0.0))
    bound = {s.name: int(np.floor(s.bound + 1e-9)) for s in state.stages if np.isfinite(s.bound)}
    if "one_attack" in bound and "base_contact" in bound:
        bound["one_attack"] = min(bound["one_attack"], n - bound["base_contact"])
    if state.assignment is None:
        status = Status.INFEASIBLE if state.status == "INFEASIBLE" else Status.UNKNOWN
        return None, status, bound
    placed = dict(state.assignment)
    if placed[first] not in lead_set:
        used = list(placed.values())
        p0 = next(p for p in used if p in lead_set)
        placed = assign_models(c, used, pm.classes, {first: p0}, range_in)
    ends = {
        mid: (float(c.x[p]), float(c.y[p]), c.contact[p], float(c.reach[mid][p]))
        for mid, p in placed.items()
    }
    return ends, STATUS.get(state.status, Status.FEASIBLE), bound


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
