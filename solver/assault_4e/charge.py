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
from chargeopt.solver.assault_4e.order import End, greedy_from, judged, replay_order
from chargeopt.solver.assault_4e.sequence import NO_SPOT, Charge, first_model
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core.coherency_constraints import add_coherency, neighbours
from chargeopt.solver.core.cpsat_blocks import add_no_overlap, assign_models, assignment
from chargeopt.solver.core.ordered_solve import Objective, solve_ordered
from chargeopt.solver.core.polish import Pose
from chargeopt.solver.core.tolerances import APART_IN, ROLL_MARGIN_IN
from chargeopt.solver.options import SolveOptions

STATUS = {"OPTIMAL": Status.OPTIMAL, "FEASIBLE": Status.FEASIBLE}


def solve_assault_charge(scenario: Scenario, options: SolveOptions) -> Result:
    """The charge under 40k-assault-4e: its placements, the order of moves and who fights."""
    t0 = time.perf_counter()
    battlefield = Battlefield.from_scenario(scenario)
    c = charge_candidates(scenario, battlefield, options)
    charge = Charge.of(scenario, battlefield, c)
    first, foe = first_model(charge)
    stats: dict[str, object] = {"candidates": len(c), "first_model": first, "first_target": foe}
    starts = _clear_of_starts(charge, c, first)
    lead = [
        p for p in np.flatnonzero(np.isfinite(c.reach[first])) if foe in c.contact[p] and starts[p]
    ]
    if not lead:
        stats["seconds"] = round(time.perf_counter() - t0, 3)
        return _first_fails(charge, first, foe, stats)
    ends, status, bound = _optimum(scenario, c, charge, first, lead, options)
    if ends is None:
        stats["seconds"] = round(time.perf_counter() - t0, 3)
        return no_answer(scenario, status, _unreached(scenario, c), stats)
    replay = replay_order(charge, ends, first)
    wrong = None if replay is None else replay.first_wrong_step
    if replay is None or wrong is not None:
        keep = [first] if replay is None else replay.order[:wrong]
        queue = [m.id for m in charge.unit.models if m.id not in keep]
        ends, order, done = greedy_from(charge, ends, keep, queue)
        stats["repaired_from_step"] = len(keep) + 1
        if not done:
            stats["seconds"] = round(time.perf_counter() - t0, 3)
            return no_answer(scenario, Status.UNKNOWN, None, stats)
        status = Status.FEASIBLE
        best = judged(charge, ends, order)
    else:
        order, best = replay.order, replay.best
    stats["best_category_by_step"] = best
    stats["bound_over"] = "candidates"
    stats["seconds"] = round(time.perf_counter() - t0, 3)
    poses = {
        mid: Pose(x, y, 0.0, charge.start(mid).facing, moved)
        for mid, (x, y, _, moved) in ends.items()
    }
    return answer(
        scenario, battlefield, poses, status=status, order=order, bound=bound, stats=stats
    )


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
    for uid, spots in units_touched.items():
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
        Objective("one_attack", cp_model.LinearExpr.Sum(support), True),
    ]
    state = solve_ordered(
        pm,
        c,
        objectives,
        adjacency,
        roll=range_in,
        time_limit_s=options.time_limit_s * 0.8,
        seed=options.seed,
        workers=options.workers,
        need_connected=n > 1,
    )
    bound = {s.name: int(np.floor(s.bound + 1e-9)) for s in state.stages if np.isfinite(s.bound)}
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
