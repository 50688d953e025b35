"""The 40k charge (9th and 10th edition): the most models in base contact, then in engagement,
then the least movement, subject to coherency, engagement of every target and of no other unit."""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np
from ortools.sat.python import cp_model

from chargeopt.geometry import Battlefield, Footprint, edge_distance
from chargeopt.geometry.checker import check_placement
from chargeopt.models import Placement, Result, ResultAction, RoundBase, Scenario, Status
from chargeopt.solver.bounds.certify import certify
from chargeopt.solver.bounds.contact_bound import (
    contact_capacity_ceiling,
    roll_lower_bound,
    straight_line_ceilings,
)
from chargeopt.solver.bounds.proofs import charge_impossibility
from chargeopt.solver.bounds.relaxation_zones import zones
from chargeopt.solver.bounds.ring_packing import contact_ceiling
from chargeopt.solver.bounds.split_bound import split_contact_ceiling
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core.cpsat_blocks import (
    MOVE_SCALE,
    Objective,
    SolveState,
    StageOutcome,
    add_coherency,
    add_layer_separators,
    add_no_overlap,
    assign_models,
    assignment,
    neighbours,
    solve_ordered,
)
from chargeopt.solver.core.dice import chance_at_least, chance_with_reroll
from chargeopt.solver.core.greedy import (
    best_completion,
    complete,
    greedy_assignment,
    greedy_packing,
    improve_count,
    satisfies_all,
    shorten_moves,
)
from chargeopt.solver.core.polish import Pose, polish, poses_of
from chargeopt.solver.forty_k.contact_witness import contact_spots
from chargeopt.solver.forty_k.engaged_repair import applies_to as repair_applies
from chargeopt.solver.forty_k.engaged_repair import repair_engaged
from chargeopt.solver.forty_k.engagement_spots import engagement_spots
from chargeopt.solver.forty_k.refine import REFINE_MIN_S, finer, keep_refined, may_refine
from chargeopt.solver.options import SolveOptions

PACKING_TIE_BREAK_DETERMINISTIC = 0.06
CONTACT_PACKING_DETERMINISTIC = 1.2
ENGAGED_PACKING_DETERMINISTIC = 0.18
"""Caps of the packing relaxations in CP-SAT's deterministic time (about 0.6 s of it per second
on the 2-core reference machine), so that where they stop, and so the answer, does not depend
on the machine's load; stopped early, their proven bound is still valid."""
SETTLED_ENGAGED_PACKING_DETERMINISTIC = 2.0
"""The cap of the engagement packing that keeps the proven contacts: it replaces the ordered
solve's engagement stage, so it may work longer. It branches on the LP (`LP_SEARCH`): over
the eight 20- and 30-model layouts of scaling-v1 that took its proofs from 7.0 to 2.9 units
of deterministic time (at most 0.55 each, against 1.82), while c40-walls-s1 went from 0.83 to
1.88 and two 40-model layouts stop at the cap either way. The other packings keep CP-SAT's
default search: with LP search the 20-model pile in took 4.3 s instead of 0.45 s."""
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
REPAIR_MIN_S = 0.5
"""No continuous repair starts with less time left than this."""
REPAIR_SHARE = 0.4
"""The continuous repair stops after this share of the time limit (4 s of the benchmarks' 10,
8 s of the CLI's 20): one model at a time takes up to 0.6 s where it adds one on scaling-v1,
and each repacking of the front (`engaged_repair._repack`) about a second."""


def _classes(c: cand.Candidates, scenario: Scenario) -> dict[int, list[str]]:
    unit = scenario.acting_unit
    classes: dict[int, list[str]] = {}
    for m in unit.models:
        classes.setdefault(c.base_keys.index(unit.base_of(m)), []).append(m.id)
    return classes


def packing_ceiling(
    c: cand.Candidates,
    scenario: Scenario,
    roll: int,
    options: SolveOptions,
    kind: str,
    least_movement: bool = False,
    least_contacts: int = 0,
) -> tuple[int | None, dict[str, int]]:
    """Most models that can stand at once on spots of `kind` ("contact" or "engaged"), each on
    a spot it reaches, no two bases overlapping, at least `least_contacts` of them in base
    contact, every other rule ignored: a relaxation whose optimum bounds from above how many
    models of any legal placement with that many contacts stand on such spots. Also returns
    the relaxation's placement of those models (a start for the completion heuristic).
    Memoised on the candidates per roll."""
    key = ("packing", kind, roll, least_movement, least_contacts)
    better = ("packing", kind, roll, True, least_contacts)
    if key not in c.memo and better in c.memo:
        return c.memo[better]
    if key not in c.memo:
        c.memo[key] = _packing(c, scenario, roll, options, kind, least_movement, least_contacts)
    return c.memo[key]


def _packing(c, scenario, roll, options, kind, least_movement, least_contacts=0):
    flags = c.contact if kind == "contact" else c.engaged
    spots = np.array([bool(f) for f in flags])
    pm = assignment(
        c,
        roll,
        _classes(c, scenario),
        every_model=False,
        allowed=spots,
        symmetric=options.symmetry_classes,
    )
    if pm is None or not pm.y:
        return 0, {}
    add_no_overlap(pm, c, maximal=bool(least_contacts))
    count = sum(pm.y.values())
    pm.model.Maximize(count)
    if least_contacts:
        pm.model.Add(sum(v for p, v in pm.y.items() if c.contact[p]) >= least_contacts)
    cap = CONTACT_PACKING_DETERMINISTIC if kind == "contact" else ENGAGED_PACKING_DETERMINISTIC
    cap = SETTLED_ENGAGED_PACKING_DETERMINISTIC if least_contacts else cap
    solver = _packing_solver(options, cap, lp_search=bool(least_contacts))
    status = solver.StatusName(solver.Solve(pm.model))
    if status not in ("OPTIMAL", "FEASIBLE"):
        return None, {}
    ceiling = int(np.floor(solver.BestObjectiveBound() + 1e-9))
    if status == "OPTIMAL" and least_movement:
        nearest = np.min(np.vstack(list(c.reach.values())), axis=0)
        pm.model.Add(count == ceiling)
        pm.model.Minimize(
            sum(int(np.ceil(min(nearest[p], 1e3) * MOVE_SCALE)) * v for p, v in pm.y.items())
        )
        second = _packing_solver(options, PACKING_TIE_BREAK_DETERMINISTIC)
        if second.StatusName(second.Solve(pm.model)) in ("OPTIMAL", "FEASIBLE"):
            solver = second
    used = [p for p, v in pm.y.items() if solver.Value(v)]
    fixed = {mid: p for mid, xs in pm.x.items() for p, v in xs.items() if solver.Value(v)}
    placed = assign_models(c, used, pm.classes, fixed, roll, partial=True)
    return ceiling, placed


def _packing_solver(
    options: SolveOptions, steady: float, lp_search: bool = False
) -> cp_model.CpSolver:
    """Packing models are small: one worker without presolve, probing or SAT inprocessing
    answers fastest (measured: probing off took the contact packing of 12 benchmark layouts
    from 0.005-1.98 s to 0.006-1.55 s; inprocessing off then halved the deterministic time of
    the 44 contact and engagement packings of the pile-in, scaling and curated suites, 10.3 s
    to 4.7 s, and proved three contact packings that ran out of their cap). `steady` caps it
    in deterministic time; a quarter of the time limit stays a hard cap. `lp_search` branches
    on the LP (see `SETTLED_ENGAGED_PACKING_DETERMINISTIC`)."""
    solver = cp_model.CpSolver()
    solver.parameters.max_deterministic_time = steady
    solver.parameters.max_time_in_seconds = options.time_limit_s / 4
    solver.parameters.num_workers = 1
    solver.parameters.cp_model_presolve = False
    solver.parameters.cp_model_probing_level = 0
    solver.parameters.use_sat_inprocessing = False
    solver.parameters.random_seed = options.seed
    if lp_search:
        solver.parameters.search_branching = cp_model.LP_SEARCH
    return solver


def _build(c: cand.Candidates, scenario: Scenario, roll: int, symmetric: bool = True):
    pm = assignment(c, roll, _classes(c, scenario), symmetric=symmetric)
    if pm is None:
        return None, {}
    rules = scenario.rules
    live = sorted(pm.y)
    adjacency = neighbours(c, live)
    add_no_overlap(pm, c)
    add_coherency(pm, adjacency, rules.coherency_neighbours(len(scenario.acting_unit.models)))
    engaging = {tid: [p for p in live if tid in c.engaged[p]] for tid in scenario.action.targets}
    for spots in engaging.values():
        if not spots:
            return None, {}
        pm.model.AddBoolOr([pm.y[p] for p in spots])
    tids = list(engaging)
    for i, first in enumerate(tids):
        for second in tids[i + 1 :]:
            if add_layer_separators(pm, adjacency, engaging[first], engaging[second]) < 0:
                return None, {}
    return pm, adjacency


def _objectives(pm, c: cand.Candidates):
    """Base contact, engagement, and a movement proxy per position (the least any model of
    its base needs to get there); the exact assignment of models then minimises movement."""
    contact = sum(v for p, v in pm.y.items() if c.contact[p])
    engaged = sum(v for p, v in pm.y.items() if c.engaged[p])
    nearest = np.min(np.vstack(list(c.reach.values())), axis=0)
    movement = sum(int(np.ceil(min(nearest[p], 1e3) * MOVE_SCALE)) * v for p, v in pm.y.items())
    return contact, engaged, movement


def contact_model(scenario: Scenario, roll: int, options: SolveOptions):
    """The charge's first objective stage at `roll`, for another solver (benchmarks): the
    candidates, the CP-SAT model with every rule but connectivity (callers add it by cuts,
    `cpsat_blocks.add_connectivity_cuts`), its coherency adjacency and the base-contact
    expression to maximise. The model is None when the charge is infeasible on its face."""
    c = cand.generate(scenario, Battlefield.from_scenario(scenario), roll, options)
    pm, adjacency = _build(c, scenario, roll, options.symmetry_classes)
    return c, pm, adjacency, None if pm is None else _objectives(pm, c)[0]


def placements_of(
    scenario: Scenario, c: cand.Candidates, placed: dict[str, int]
) -> tuple[Placement, ...]:
    """The placements of a discrete answer (model -> candidate) as they stand, unpolished."""
    return _placements(scenario, Battlefield.from_scenario(scenario), poses_of(c, placed))


def _solve_at(
    c,
    scenario,
    roll,
    options,
    *,
    full: bool,
    deadline: float,
    previous: dict[str, int] | None = None,
    feasibility: bool = False,
) -> SolveState:
    """The best placement at one roll (base contact only unless `full`; with `feasibility`,
    any legal placement). A previous roll's placement stays legal at a larger roll, so it is
    the first incumbent considered."""
    if any(not (c.reach[m.id] <= roll - 1e-6).any() for m in scenario.acting_unit.models):
        return SolveState(None, [], "INFEASIBLE")
    n = len(scenario.acting_unit.models)
    k = scenario.rules.coherency_neighbours(n)
    starts = [previous] if previous else []
    if options.use_hint:
        starts += [complete(c, scenario, roll, {}, k), greedy_assignment(c, scenario, roll)]
        packed = greedy_packing(c, scenario, roll)
        starts.append(best_completion(c, scenario, roll, packed, k))
    incumbent = _best_legal(c, scenario, starts, k)
    quick = n if feasibility else contact_capacity_ceiling(c, scenario, roll)
    split = None if feasibility else split_contact_ceiling(scenario)
    if split is not None:
        quick = min(quick, split.base_contact)
    if feasibility:
        ceiling = 0
    elif incumbent is not None and incumbent[1]["base_contact"] >= quick:
        ceiling = quick
    else:
        ceiling, packed = packing_ceiling(
            c, scenario, roll, options, "contact", least_movement=full
        )
        ceiling = quick if ceiling is None else min(ceiling, quick)
        if options.use_hint:
            starts.append(best_completion(c, scenario, roll, packed, k))
            incumbent = _best_legal(c, scenario, starts, k)
    if incumbent is not None and not feasibility and incumbent[1]["base_contact"] < (ceiling or 0):
        better = improve_count(c, scenario, incumbent[0], roll, k, c.contact)
        incumbent = _best_legal(c, scenario, [better], k) or incumbent
    hint = next((list(s.values()) for s in starts if s), None)
    if incumbent is not None:
        hint = list(incumbent[0].values())
    engaged_ceiling, engaged_s = n, 0.0
    if full and (incumbent is None or incumbent[1]["engaged"] < n):
        t_engaged = time.perf_counter()
        engaged_ceiling = straight_line_ceilings(scenario, roll)["engaged"]
        if incumbent is None or incumbent[1]["engaged"] < engaged_ceiling:
            contacts = ceiling if _meets(incumbent, ceiling) else 0
            engaged_ceiling, incumbent = _engaged_ceiling(
                c, scenario, roll, options, k, contacts, engaged_ceiling, incumbent
            )
        engaged_s = time.perf_counter() - t_engaged
    if _meets(incumbent, ceiling):
        settled = [StageOutcome("base_contact", ceiling, ceiling, "OPTIMAL", 0.0)]
        if not full:
            return SolveState(incumbent[0], settled, "OPTIMAL")
        if incumbent[1]["engaged"] >= engaged_ceiling:
            t0 = time.perf_counter()
            placed = shorten_moves(c, scenario, incumbent[0], roll, k)
            moved = sum(c.reach[mid][p] for mid, p in placed.items())
            settled += [
                StageOutcome("engaged", engaged_ceiling, engaged_ceiling, "OPTIMAL", engaged_s),
                StageOutcome(
                    "movement", moved * MOVE_SCALE, 0.0, "LOCAL_SEARCH", time.perf_counter() - t0
                ),
            ]
            return SolveState(placed, settled, "OPTIMAL")
    pm, adjacency = _build(c, scenario, roll, options.symmetry_classes)
    if pm is None:
        return SolveState(None, [], "INFEASIBLE")
    contact, engaged, movement = _objectives(pm, c)
    if not feasibility and ceiling is not None:
        pm.model.Add(contact <= ceiling)
    objectives = [Objective("base_contact", contact, True, ceiling)]
    if full:
        pm.model.Add(engaged <= engaged_ceiling)
        objectives += [
            Objective("engaged", engaged, True, engaged_ceiling),
            Objective("movement", movement, False, tie_break=True),
        ]

    def improve(placed: dict[str, int]) -> tuple[dict[str, int], dict[str, float]]:
        better = improve_count(c, scenario, placed, roll, k, c.engaged)
        return _best_legal(c, scenario, [better], k) or _best_legal(c, scenario, [placed], k)

    state = solve_ordered(
        pm,
        c,
        objectives,
        adjacency,
        roll=roll,
        time_limit_s=max(0.05, deadline - time.perf_counter()),
        seed=options.seed,
        workers=options.workers,
        presolve=options.presolve,
        hint=hint,
        need_connected=n > 1,
        incumbent=incumbent,
        improve=improve if full else None,
    )
    if full and state.assignment is not None:
        state.assignment = shorten_moves(c, scenario, state.assignment, roll, k)
    return state


def _meets(incumbent, ceiling: int | None) -> bool:
    """Whether the incumbent's base contacts reach the proven contact ceiling (then that
    ceiling is the first stage's optimum)."""
    return incumbent is not None and ceiling is not None and incumbent[1]["base_contact"] >= ceiling


def _engaged_ceiling(c, scenario, roll, options, k, contacts: int, ceiling: int, incumbent):
    """The engagement ceiling (the packing relaxation's, if lower than `ceiling`) and the
    incumbent, bettered by completing the packing's placement. With `contacts`, the proven
    optimum of the first stage, the packing keeps that many models in contact, as every
    answer of the engagement stage does: the engaged models must then fit in the pockets
    between those in contact, which tightens the ceiling, and the packing's placement
    completes into an answer that meets it (measured on the 20- and 30-model layouts of
    scaling-v1: all eight settled so, without the ordered solve's engagement stage)."""
    packed_value, packed = packing_ceiling(
        c, scenario, roll, options, "engaged", least_contacts=contacts
    )
    ceiling = min(ceiling, packed_value or len(scenario.acting_unit.models))
    if contacts and packed and options.use_hint:
        completed = complete(c, scenario, roll, packed, k)
        incumbent = _best_legal(c, scenario, [incumbent and incumbent[0], completed], k)
    return ceiling, incumbent


def _best_legal(c, scenario, starts, k):
    """The placement among `starts` that meets every rule with the most base contacts (then
    engaged models), with those counts; None if none is legal."""
    best = None
    for start in starts:
        if not start or not satisfies_all(c, scenario, start, k):
            continue
        values = {
            "base_contact": sum(1 for p in start.values() if c.contact[p]),
            "engaged": sum(1 for p in start.values() if c.engaged[p]),
        }
        key = (values["base_contact"], values["engaged"])
        if best is None or key > (best[1]["base_contact"], best[1]["engaged"]):
            best = (start, values)
    return best


def _sweep(c, scenario, options, rolls: range, deadline: float, previous=None):
    """Best base contact at each roll in `rolls` (each roll gets an equal share of the time
    left). Once a proven count meets the ceiling of the largest roll, every larger roll has
    that count too. Returns the table entries and whether every roll got an answer."""
    entries: list[dict[str, object]] = []
    settled = True
    top = packing_ceiling(c, scenario, rolls[-1], options, "contact")[0] if len(rolls) else None
    for i, roll in enumerate(rolls):
        if entries and entries[-1]["proven"] and entries[-1]["base_contact"] == top:
            entries.append({"roll": roll, "base_contact": top, "proven": True})
            continue
        share = (deadline - time.perf_counter()) / (len(rolls) - i)
        if share <= 0.01:
            settled = False
            break
        state = _solve_at(
            c,
            scenario,
            roll,
            options,
            full=False,
            deadline=time.perf_counter() + share,
            previous=previous,
        )
        if state.assignment is None:
            settled &= state.status == "INFEASIBLE"
            continue
        previous = state.assignment
        entries.append(
            {
                "roll": roll,
                "base_contact": int(state.stages[0].value),
                "proven": state.status == "OPTIMAL",
            }
        )
    return entries, settled


def _first_feasible(c, scenario, options, rolls: range, deadline: float):
    """The smallest roll in `rolls` with a legal placement on the candidates (heuristics
    first; CP-SAT is asked only for some legal placement), that placement, and whether every
    smaller roll was settled (found infeasible rather than out of time)."""
    settled = True
    for i, roll in enumerate(rolls):
        share = (deadline - time.perf_counter()) / (len(rolls) - i)
        if share <= 0.01:
            return None, None, False
        state = _solve_at(
            c,
            scenario,
            roll,
            options,
            full=False,
            feasibility=True,
            deadline=time.perf_counter() + share,
        )
        if state.assignment is not None:
            return roll, state.assignment, settled
        settled &= state.status == "INFEASIBLE"
    return None, None, settled


def solve_charge(scenario: Scenario, options: SolveOptions, prior: Result | None = None) -> Result:
    """Solve a charge at the given roll (or at the minimum roll that succeeds), then fill in
    the minimum roll, its chances and the base contact each larger roll buys, and certify it.
    A small unit's answer that is not proven best is solved again on finer candidates
    (`refine`), whose certificate starts from the first one (`prior`)."""
    t0 = time.perf_counter()
    result, battlefield = _grid_answer(scenario, options, t0)
    end = t0 + options.time_limit_s
    first = certify(result, scenario, battlefield, options, end, prior)
    left = end - time.perf_counter()
    if not may_refine(scenario, options) or first.status != Status.FEASIBLE or left < REFINE_MIN_S:
        return _repaired(first, scenario, battlefield, options, t0)
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
    return _repaired(kept.model_copy(update={"stats": stats}), scenario, battlefield, options, t0)


def _repaired(
    result: Result,
    scenario: Scenario,
    battlefield: Battlefield,
    options: SolveOptions,
    t0: float,
) -> Result:
    """The answer with models added within engagement range by the continuous repair
    (`engaged_repair`, at most REPAIR_SHARE of the time limit) where it is not proven best on
    engagement and time is left; its status becomes `optimal` where the repaired counts meet
    the bound."""
    found, top = result.objective.get("engaged"), result.bound.get("engaged")
    end = t0 + options.time_limit_s
    if (
        not options.repair
        or result.status != Status.FEASIBLE
        or "repair" in result.stats
        or found is None
        or top is None
        or found >= top
        or end - time.perf_counter() < REPAIR_MIN_S
        or not repair_applies(scenario, battlefield)
    ):
        return result
    started = time.perf_counter()
    roll = result.action.roll
    contacts = int(result.objective["base_contact"])
    poses = {
        p.model: Pose(p.x, p.y, p.z, p.facing or 0.0, p.moved or 0.0) for p in result.placements
    }

    def legal(placements: tuple[Placement, ...], engaged_at_least: int) -> bool:
        return (
            sum(1 for p in placements if p.contact) >= contacts
            and sum(1 for p in placements if p.engaged) >= engaged_at_least
            and not check_placement(scenario, placements, roll=roll, battlefield=battlefield)
        )

    repair = repair_engaged(
        scenario,
        battlefield,
        poses,
        {p.model for p in result.placements if p.engaged},
        {p.model: p.contact[0] for p in result.placements if p.contact},
        roll,
        int(top),
        min(end, started + REPAIR_SHARE * options.time_limit_s),
        lambda trial, at_least: legal(_placements(scenario, battlefield, trial), at_least),
    )
    stats = dict(result.stats)
    stats["repair"] = {
        "added": list(repair.added) if repair else [],
        "seconds": round(time.perf_counter() - started, 3),
    }
    stats["seconds"] = round(time.perf_counter() - t0, 3)
    if repair is None:
        return result.model_copy(update={"stats": stats})
    placements = _placements(scenario, battlefield, repair.poses)
    shorter = _placements(scenario, battlefield, polish(scenario, battlefield, repair.poses, roll))
    if legal(shorter, sum(1 for p in placements if p.engaged)):
        placements = shorter
    objective = _objective_of(placements)
    closed = all(objective[t] >= result.bound[t] for t in ("base_contact", "engaged"))
    stats["repair"]["engaged"] = {"candidates": int(found), "repaired": objective["engaged"]}
    now_engaged = {p.model for p in placements if p.engaged}
    stats["repair"]["left"] = [
        p.model for p in result.placements if p.engaged and p.model not in now_engaged
    ]
    stats["seconds"] = round(time.perf_counter() - t0, 3)
    if closed:
        stats["bound_scope"] = "continuous"
    return result.model_copy(
        update={
            "placements": placements,
            "objective": objective,
            "status": Status.OPTIMAL if closed else Status.FEASIBLE,
            "stats": stats,
        }
    )


def _grid_answer(
    scenario: Scenario, options: SolveOptions, t0: float
) -> tuple[Result, Battlefield]:
    """The best answer over the candidates, not yet certified, and the battlefield."""
    deadline = t0 + options.time_limit_s * GRID_SHARE
    battlefield = Battlefield.from_scenario(scenario)
    rules = scenario.rules
    dice_max = 6 * rules.charge_dice
    given = options.roll if options.roll is not None else scenario.action.roll
    reach_in = given if given is not None and not options.roll_table else dice_max
    c_reach = max(reach_in, given or 0)
    c = cand.generate(scenario, battlefield, c_reach, options)
    lower = max(rules.charge_dice, roll_lower_bound(scenario))

    def remaining(share: float) -> float:
        return time.perf_counter() + (deadline - time.perf_counter()) * share

    table_share = 0.3 if options.roll_table else 0.0
    more: dict[str, object] = {}
    if given is not None:
        c, more = _with_spots(c, c_reach, scenario, battlefield, given, options, deadline)
        final = _solve_at(
            c, scenario, given, options, full=True, deadline=remaining(1.0 - table_share - 0.1)
        )
        found = final.assignment is not None
        last = given if found else dice_max
        if not found and reach_in < dice_max:
            c_reach = dice_max
            c = cand.generate(scenario, battlefield, c_reach, options)
        min_roll, first, settled = _first_feasible(
            c, scenario, options, range(lower, last + 1), remaining(0.5 if table_share else 1.0)
        )
        if min_roll is None and found:
            min_roll, first, settled = given, final.assignment, False
        roll = given
    else:
        min_roll, first, settled = _first_feasible(
            c, scenario, options, range(lower, dice_max + 1), remaining(0.4)
        )
        roll = min_roll
        if roll is not None:
            wider, more = _with_spots(c, c_reach, scenario, battlefield, roll, options, deadline)
            first = _same_poses(c, wider, first) if first else first
            c = wider
        final = (
            _solve_at(
                c,
                scenario,
                roll,
                options,
                full=True,
                deadline=remaining(1.0 - table_share),
                previous=first,
            )
            if roll is not None
            else SolveState(None, [], "INFEASIBLE")
        )
    table: list[dict[str, object]] = []
    if options.roll_table and min_roll is not None:
        table, _ = _sweep(c, scenario, options, range(min_roll, dice_max + 1), deadline, first)
    proof_roll = max(dice_max, roll or 0) if min_roll is None else (roll or dice_max)
    status, proof = _status(final, scenario, battlefield, proof_roll)
    if final.assignment:
        final_roll = roll if roll is not None else dice_max
        spots = assign_models(
            c, list(final.assignment.values()), _classes(c, scenario), {}, final_roll
        )
        poses = polish(scenario, battlefield, poses_of(c, spots), final_roll)
        placements = _placements(scenario, battlefield, poses)
    else:
        placements = _stay(scenario)
    objective, bound = _objective_and_bound(final, placements)
    result = Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=ResultAction.of(scenario.action, roll),
        status=status,
        min_roll=min_roll,
        success_probability=_prob(chance_at_least, min_roll, rules.charge_dice),
        success_probability_reroll=_prob(chance_with_reroll, min_roll, rules.charge_dice),
        rolls=tuple(table),
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
            "min_roll_basis": (
                f"rolls below {lower} cannot bring any model within engagement range of every "
                f"target (straight-line edge distance); "
                + (
                    f"rolls {lower} to {min_roll - 1} found no placement on the candidates"
                    if min_roll is not None and min_roll > lower
                    else "none between"
                )
                + ("" if settled else "; some rolls ran out of time, so a smaller roll may work")
            ),
            **more,
        },
    )
    return result, battlefield


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
    sparse = [
        m.id
        for m in scenario.acting_unit.models
        if np.count_nonzero(engaged & (c.reach[m.id] <= roll - 1e-6)) < SPARSE_ENGAGED
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
    layout of scaling-v1 0.2 s."""
    top = straight_line_ceilings(scenario, roll)["base_contact"]
    split = split_contact_ceiling(scenario)
    cap = min(top, split.base_contact) if split is not None else top
    if cap >= len(scenario.acting_unit.models):
        return None, {}
    held, _ = packing_ceiling(c, scenario, roll, options, "contact", least_movement=True)
    if held is None or held >= cap:
        return None, {}
    z = zones(scenario, battlefield)
    ceiling = contact_ceiling(scenario, battlefield, z, roll, deadline, options.seed, top)
    stats: dict[str, object] = {}
    if ceiling is not None:
        stats["ring_packing_bound"] = {"base_contact": ceiling}
    spots = contact_spots(scenario, battlefield, z, roll, held, ceiling, deadline, options.seed)
    if spots is None:
        return None, stats
    stats["contact_spots"] = {
        "spots": int(sum(len(xy) for xy in spots.values())),
        "candidate_ceiling": held,
    }
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


def _status(state: SolveState, scenario: Scenario, battlefield: Battlefield, roll: int):
    if state.assignment is not None:
        return (Status.OPTIMAL if state.status == "OPTIMAL" else Status.FEASIBLE), None
    reason = charge_impossibility(scenario, battlefield, roll)
    if reason is not None:
        return Status.INFEASIBLE, reason
    return Status.UNKNOWN, None


def _placements(
    scenario: Scenario, battlefield: Battlefield, poses: dict[str, Pose]
) -> tuple[Placement, ...]:
    """One placement per model, with the target models it touches and the target units it
    engages, measured at its final pose."""
    out = []
    rules = scenario.rules
    around = cand.surroundings(scenario)
    for m in scenario.acting_unit.models:
        pose = poses[m.id]
        base = scenario.acting_unit.base_of(m)
        end = Footprint(base, pose.x, pose.y, pose.z, pose.facing)
        limits = cand.engagement_limits(
            np.array([pose.x]), np.array([pose.y]), around.targets, battlefield, rules
        )[0]
        touching, engaged = [], set()
        for (uid, tid), t, limit in zip(around.target_ids, around.targets, limits, strict=True):
            gap = edge_distance(end, t)
            if gap <= rules.base_contact_tolerance_in and abs(t.z - pose.z) < 0.01:
                touching.append(tid)
            if gap <= limit and abs(t.z - pose.z) <= rules.engagement_vertical_in:
                engaged.add(uid)
        out.append(
            Placement(
                model=m.id,
                x=round(pose.x, 6),
                y=round(pose.y, 6),
                z=round(pose.z, 6),
                facing=None if isinstance(base, RoundBase) else round(pose.facing, 6),
                moved=round(pose.moved, 4),
                contact=tuple(touching),
                engaged=tuple(sorted(engaged)),
            )
        )
    return tuple(out)


def _stay(scenario: Scenario) -> tuple[Placement, ...]:
    return tuple(
        Placement(model=m.id, x=m.x, y=m.y, z=m.z, moved=0.0) for m in scenario.acting_unit.models
    )


def _objective_and_bound(
    state: SolveState, placements
) -> tuple[dict[str, float], dict[str, float]]:
    if state.assignment is None:
        return {}, {}
    objective = _objective_of(placements)
    bound = {}
    for s in state.stages:
        if s.name != "movement" and np.isfinite(s.bound):
            bound[s.name] = int(np.floor(s.bound + 1e-9))
    return objective, bound


def _objective_of(placements: tuple[Placement, ...]) -> dict[str, float]:
    """Models in base contact, models engaged and the inches moved in all."""
    return {
        "base_contact": sum(1 for p in placements if p.contact),
        "engaged": sum(1 for p in placements if p.engaged),
        "movement_in": round(sum(p.moved or 0.0 for p in placements), 3),
    }
