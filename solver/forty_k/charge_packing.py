"""The packing relaxations of a charge over the candidates: the most models that can stand at once
on contact (or engagement) spots they reach, bases apart, every other rule ignored; an upper
bound per stage and a start for the completion heuristic."""

from __future__ import annotations

import numpy as np

from chargeopt.models import Scenario
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core import clock
from chargeopt.solver.core.cpsat_blocks import MOVE_SCALE, add_no_overlap, assign_models, assignment
from chargeopt.solver.core.lazy_ortools import cp_model
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


def base_classes(c: cand.Candidates, scenario: Scenario) -> dict[int, list[str]]:
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
    dtime: float | None = None,
) -> tuple[int | None, dict[str, int]]:
    """Most models that can stand at once on spots of `kind` ("contact" or "engaged"), each on
    a spot it reaches, no two bases overlapping, at least `least_contacts` of them in base
    contact, every other rule ignored: a relaxation whose optimum bounds from above how many
    models of any legal placement with that many contacts stand on such spots. Also returns
    the relaxation's placement of those models (a start for the completion heuristic).
    Memoised on the candidates per roll. `dtime`, below the kind's cap, is a smaller budget
    (a row of the roll table); an answer found with the full cap serves it too."""
    key = ("packing", kind, roll, least_movement, least_contacts)
    better = ("packing", kind, roll, True, least_contacts)
    for known in (key, better):
        if known in c.memo:
            return c.memo[known]
    cap = _cap(kind, least_contacts)
    if dtime is not None and dtime < cap:
        key = (*key, dtime)
        if key not in c.memo:
            c.memo[key] = _packing(c, scenario, roll, options, kind, False, least_contacts, dtime)
        return c.memo[key]
    c.memo[key] = _packing(c, scenario, roll, options, kind, least_movement, least_contacts, cap)
    return c.memo[key]


def _cap(kind: str, least_contacts: int) -> float:
    if least_contacts:
        return SETTLED_ENGAGED_PACKING_DETERMINISTIC
    return CONTACT_PACKING_DETERMINISTIC if kind == "contact" else ENGAGED_PACKING_DETERMINISTIC


def _packing(c, scenario, roll, options, kind, least_movement, least_contacts, cap):
    flags = c.contact if kind == "contact" else c.engaged
    spots = np.array([bool(f) for f in flags], dtype=bool)
    pm = assignment(
        c,
        roll,
        base_classes(c, scenario),
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
    solver = _packing_solver(options, lp_search=bool(least_contacts))
    status = solver.StatusName(_run(solver, pm.model, options, cap))
    if status not in ("OPTIMAL", "FEASIBLE"):
        return None, {}
    ceiling = int(np.floor(solver.BestObjectiveBound() + 1e-9))
    if status == "OPTIMAL" and least_movement:
        nearest = np.min(np.vstack(list(c.reach.values())), axis=0)
        pm.model.Add(count == ceiling)
        pm.model.Minimize(
            sum(int(np.ceil(min(nearest[p], 1e3) * MOVE_SCALE)) * v for p, v in pm.y.items())
        )
        second = _packing_solver(options)
        tie_break = _run(second, pm.model, options, PACKING_TIE_BREAK_DETERMINISTIC)
        if second.StatusName(tie_break) in ("OPTIMAL", "FEASIBLE"):
            solver = second
    used = [p for p, v in pm.y.items() if solver.Value(v)]
    fixed = {mid: p for mid, xs in pm.x.items() for p, v in xs.items() if solver.Value(v)}
    placed = assign_models(c, used, pm.classes, fixed, roll, partial=True)
    return ceiling, placed


def _run(solver: cp_model.CpSolver, model: cp_model.CpModel, options: SolveOptions, steady: float):
    """Solve with `steady` units of deterministic time at most (a quarter of the time limit
    caps it too), on one worker."""
    return clock.run(solver, model, options.time_limit_s / 4, seed=options.seed, dtime=steady)


def _packing_solver(options: SolveOptions, lp_search: bool = False) -> cp_model.CpSolver:
    """Packing models are small: one worker without presolve, probing or SAT inprocessing
    answers fastest (measured: probing off took the contact packing of 12 benchmark layouts
    from 0.005-1.98 s to 0.006-1.55 s; inprocessing off then halved the deterministic time of
    the 44 contact and engagement packings of the pile-in, scaling and curated suites, 10.3 s
    to 4.7 s, and proved three contact packings that ran out of their cap). `steady` caps it
    in deterministic time (`_run`). `lp_search` branches
    on the LP (see `SETTLED_ENGAGED_PACKING_DETERMINISTIC`)."""
    solver = cp_model.CpSolver()
    solver.parameters.cp_model_presolve = False
    solver.parameters.cp_model_probing_level = 0
    solver.parameters.use_sat_inprocessing = False
    if lp_search:
        solver.parameters.search_branching = cp_model.LP_SEARCH
    return solver
