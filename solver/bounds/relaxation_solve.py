"""Solving the cell relaxation: refine the cells a relaxed answer uses until the relaxation
is infeasible (a proof), or its bound meets the grid's objective, or the cells reach their
minimum size or the time runs out. Every infeasible verdict is re-solved by CP-SAT on the
clashing groups alone and by HiGHS; any disagreement makes the verdict `unknown`."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from chargeopt.solver.bounds import cells as cl
from chargeopt.solver.bounds.relaxation import (
    MIN_ARC_IN,
    MIN_SIDE_IN,
    RelaxationTimeout,
    Relaxed,
    build,
    ring_centres,
    start_cells,
)
from chargeopt.solver.bounds.relaxation_zones import Zones
from chargeopt.solver.core import clock
from chargeopt.solver.core.lazy_ortools import cp_model

CONFIRM_SECONDS = 10.0
CONFIRM_MIN_SECONDS = 2.0
"""Each second opinion on an infeasible verdict gets at most, and at least, this long."""
HIGHS_NODES_PER_S = 5_000
"""HiGHS's limit is its branch-and-bound nodes, this many per second of the clock it is
given (it proved a 60-variable parity knapsack infeasible at about 7,000 nodes a wall second
on the reference machine; the cores it confirms are settled at the root, 0 nodes): a count,
so its verdict does not depend on the machine's load. The wall clock only stops it at the
safety net."""
HIGHS_WALL_S = 3600.0
"""HiGHS's wall limit outside a solve (no safety net open): an hour, never reached."""
ASSUMPTION_SECONDS = 1.0
DROP_SECONDS = 2.0
"""Time for CP-SAT's sufficient assumptions, then for each try at leaving a group out."""
MAXIMISE_SECONDS = 2.0
"""Time for each bound-proving maximisation of the relaxation."""
CORE_ORDER = ("bases:", "board", "terrain:", "overlap", "non-target:", "coherency", "span:")
"""Groups are tried for removal in this order (the last ones make the clearest proofs)."""


@dataclass
class Verdict:
    """What the relaxation proved at one roll. `status`: "infeasible" (with the clashing rule
    groups in `core`), "feasible" or "unknown" (out of time, or the solvers disagree)."""

    status: str
    core: tuple[str, ...] = ()
    contact_bound: int | None = None
    engaged_bound: int | None = None
    confirmed_by: tuple[str, ...] = ()
    disagreement: str | None = None
    cells: int = 0
    rounds: int = 0
    smallest_cell_in: float | None = None
    notes: dict[str, object] = field(default_factory=dict)


def _run(model: cp_model.CpModel, seconds: float, workers: int, seed: int):
    """(status name, solver) of `model` solved with `seconds` of the clock on at most two
    workers."""
    solver = cp_model.CpSolver()
    status = clock.run(
        solver, model, max(0.05, seconds), workers=min(2, workers), seed=seed, where="relaxation"
    )
    return solver.StatusName(status), solver


def _splittable(cells: cl.Cells, used: list[int]) -> np.ndarray:
    used_arr = np.array(used, dtype=int)
    if not len(used_arr):
        return used_arr
    size = cells.size_in[used_arr]
    floor = np.where(cells.kind[used_arr] == cl.SQUARE, MIN_SIDE_IN, MIN_ARC_IN)
    return used_arr[size / 2 >= floor - 1e-9]


def _used(r: Relaxed, solver: cp_model.CpSolver) -> list[int]:
    return [c for c, expr in r.count.items() if solver.Value(expr) > 0]


def prove(
    z: Zones,
    roll: float,
    board: tuple[float, float],
    deadline: float,
    *,
    workers: int = 1,
    seed: int = 0,
) -> Verdict:
    """Is there no legal placement at `roll`? Refines until the relaxation is infeasible,
    no used cell can be split, or the deadline."""
    try:
        return _prove(z, roll, board, deadline, workers, seed)
    except RelaxationTimeout:
        return Verdict("unknown", notes={"timeout": True})


def _prove(z, roll, board, deadline, workers, seed) -> Verdict:
    cells = start_cells(z, roll, *board)
    rounds = 0
    while True:
        rounds += 1
        base = {"cells": len(cells), "rounds": rounds, "smallest_cell_in": _smallest(cells)}
        status, r, solver = _ask(z, cells, roll, None, deadline, workers, seed)
        if status == "INFEASIBLE":
            core = _core(r, deadline, workers, seed)
            return _confirm(z, cells, roll, core, seed, deadline, **base)
        if status not in ("OPTIMAL", "FEASIBLE"):
            return Verdict("unknown", **base)
        split = _splittable(cells, _used(r, solver))
        if not len(split) or clock.now() >= deadline:
            return Verdict("feasible", **base)
        cells = cl.split(cells, split, ring_centres(z))


def _ask(
    z: Zones,
    cells: cl.Cells,
    roll: float,
    extra,
    deadline: float,
    workers: int,
    seed: int,
    quick: bool = True,
):
    """Solve the relaxation with every group on, plus `extra(r, model)` constraints: first
    without coherency (quick to build, and often already infeasible) if `quick`, then
    whole."""
    stages = [frozenset({"coherency"}), frozenset()] if z.k > 0 and quick else [frozenset()]
    for i, without in enumerate(stages):
        r = build(z, cells, roll, without=without, deadline=deadline)
        model = r.model.clone()
        if extra is not None:
            extra(r, model)
        status, solver = _solve_fixed(model, r, deadline, workers, seed)
        if status == "INFEASIBLE" or status not in ("OPTIMAL", "FEASIBLE"):
            return status, r, solver
        if i == len(stages) - 1:
            return status, r, solver
    raise AssertionError("unreachable")


def _solve_with(
    r: Relaxed, on: set[str], deadline: float, workers: int, seed: int, seconds: float = 1e9
) -> tuple[str, cp_model.CpSolver]:
    """Solve with exactly the groups `on` switched on."""
    end = min(deadline, clock.now() + seconds)
    return _solve_fixed(r.model.clone(), r, end, workers, seed, on)


def _core(r: Relaxed, deadline: float, workers: int, seed: int) -> tuple[str, ...]:
    """The rule groups that clash: CP-SAT's sufficient assumptions first (briefly: assumptions
    switch presolve off, which is slow on these models), then each group dropped in turn
    while the rest stay infeasible, so no group of the answer can be left out."""
    names = {lit.Index(): name for name, lit in r.groups.items()}
    model = r.model.clone()
    model.AddAssumptions(list(r.groups.values()))
    status, solver = _run(model, min(ASSUMPTION_SECONDS, deadline - clock.now()), workers, seed)
    core = set(r.groups)
    if status == "INFEASIBLE":
        found = {names[i] for i in solver.SufficientAssumptionsForInfeasibility() if i in names}
        core = found or core
    order = sorted(
        core,
        key=lambda g: next(
            (i for i, p in enumerate(CORE_ORDER) if g.startswith(p)), len(CORE_ORDER)
        ),
    )
    for name in order:
        if clock.now() >= deadline:
            break
        status, _ = _solve_with(r, core - {name}, deadline, workers, seed, DROP_SECONDS)
        if status == "INFEASIBLE":
            core -= {name}
    return tuple(sorted(core))


def bound(
    z: Zones,
    roll: float,
    board: tuple[float, float],
    found: dict[str, int],
    deadline: float,
    *,
    workers: int = 1,
    seed: int = 0,
) -> Verdict:
    """Upper bounds on base contact, then on engagement among placements with at least the
    found base contact. Each is first asked as a question (can the relaxation beat what was
    `found`?), refining the cells a 'yes' uses; when no cell can be split or the time is out,
    the relaxation's best bound is what it proves."""
    n = len(z.model_base)
    proven: dict[str, int] = {"base_contact": n, "engaged": n}
    reached = _Reached(start_cells(z, roll, *board))
    try:
        _bound_terms(z, roll, reached, found, deadline, workers, seed, proven)
        notes: dict[str, object] = {}
    except RelaxationTimeout:
        notes = {"timeout": True}
    return Verdict(
        "feasible",
        contact_bound=proven["base_contact"],
        engaged_bound=proven["engaged"],
        cells=len(reached.cells),
        rounds=reached.rounds,
        smallest_cell_in=_smallest(reached.cells),
        notes=notes,
    )


@dataclass
class _Reached:
    """How far the refinement got: its cells and rounds, kept when the time runs out."""

    cells: cl.Cells
    rounds: int = 0


def _bound_terms(z, roll, reached: _Reached, found, deadline, workers, seed, proven) -> None:
    """Fill `proven` term by term (a timeout leaves the trivial bound n in what is left)."""
    cells = reached.cells
    n = len(z.model_base)
    for term in ("base_contact", "engaged"):
        if found[term] >= n:
            proven[term] = n
            continue

        def better(r: Relaxed, model: cp_model.CpModel, term: str = term) -> None:
            if term == "engaged":
                model.Add(r.contact >= found["base_contact"])
            model.Add(_expr(r, term) >= found[term] + 1)

        quick = build(z, cells, roll, without=frozenset({"coherency"}), deadline=deadline)
        best = _maximise(quick, term, found, n, deadline, workers, seed, None)
        while best > found[term]:
            reached.rounds += 1
            end = deadline
            status, r, solver = _ask(z, cells, roll, better, end, workers, seed, quick=False)
            if status == "INFEASIBLE":
                best = found[term]
                break
            if status not in ("OPTIMAL", "FEASIBLE"):
                break
            if clock.now() < deadline:
                best = min(best, _maximise(r, term, found, n, deadline, workers, seed, solver))
            split = _splittable(cells, _used(r, solver))
            if best <= found[term] or not len(split) or clock.now() >= end:
                break
            cells = reached.cells = cl.split(cells, split, ring_centres(z))
        proven[term] = best


def _expr(r: Relaxed, term: str):
    return r.contact if term == "base_contact" else r.engaged


def _solve_fixed(model, r: Relaxed, deadline: float, workers: int, seed: int, on=None):
    """Solve `model` (a copy of r's) with the groups `on` (all by default) switched on and
    the others off."""
    on = set(r.groups) if on is None else on
    for name, lit in r.groups.items():
        model.Add(model.GetBoolVarFromProtoIndex(lit.Index()) == int(name in on))
    return _run(model, deadline - clock.now(), workers, seed)


def _maximise(r: Relaxed, term: str, found, n: int, deadline, workers, seed, hint) -> int:
    """The relaxation's proven bound on the term (n if it proves nothing in time), started
    from the relaxed answer `hint` (a solver holding one) if given."""
    model = r.model.clone()
    if term == "engaged":
        model.Add(r.contact >= found["base_contact"])
    model.Maximize(_expr(r, term))
    if hint is not None:
        for i in range(len(model.Proto().variables)):
            model.AddHint(
                model.GetIntVarFromProtoIndex(i), hint.Value(r.model.GetIntVarFromProtoIndex(i))
            )
    end = min(deadline, clock.now() + MAXIMISE_SECONDS)
    status, solver = _solve_fixed(model, r, end, workers, seed)
    if status not in ("OPTIMAL", "FEASIBLE"):
        return n
    return min(n, math.floor(solver.BestObjectiveBound() + 1e-6))


def _smallest(cells: cl.Cells) -> float | None:
    sq = cells.kind == cl.SQUARE
    return float(cells.shape[sq, 2].min()) if sq.any() else None


def _confirm(
    z: Zones,
    grid: cl.Cells,
    roll: float,
    core: tuple[str, ...],
    seed: int,
    deadline: float,
    **base,
) -> Verdict:
    """Rebuild the relaxation with only the core's groups and solve it with CP-SAT and with
    HiGHS: both must find it infeasible for the verdict to stand. Each gets what is left of
    the time, but at least CONFIRM_MIN_SECONDS: a proof is worth a short overrun. HiGHS
    counts it in nodes (`_highs_opinion`)."""
    seconds = min(CONFIRM_SECONDS, max(CONFIRM_MIN_SECONDS, deadline - clock.now()))
    r = build(z, grid, roll, only=set(core))
    model = r.model.clone()
    model.AddAssumptions(list(r.groups.values()))
    opinions: dict[str, str] = {}
    status, _ = _solve_with(r, set(core), clock.now() + seconds, 2, seed + 1)
    opinions["cp-sat"] = status
    opinions["highs"] = _highs_opinion(model, seconds)
    agree = tuple(name for name, status in opinions.items() if status == "INFEASIBLE")
    if len(agree) == len(opinions):
        return Verdict("infeasible", core=core, confirmed_by=agree, **base)
    told = ", ".join(f"{name}: {status}" for name, status in opinions.items())
    return Verdict("unknown", core=core, confirmed_by=agree, disagreement=told, **base)


def _highs_opinion(model: cp_model.CpModel, seconds: float) -> str:
    """HiGHS's status on `model` within `seconds` of the clock, counted in nodes; stopped by
    the wall-clock safety net instead, it marks the clock."""
    from chargeopt.solver.core.highs import solve_with_highs

    work = clock.current()
    wall_s = work.wall_left()
    wall_s = HIGHS_WALL_S if not math.isfinite(wall_s) else max(0.001, wall_s)
    nodes = round(seconds * HIGHS_NODES_PER_S)
    try:
        answer = solve_with_highs(model, wall_s, max_nodes=nodes)
    except Exception as err:  # a converter refusal is reported, never taken as agreement
        return f"error: {err}"
    if answer.status == "UNKNOWN":
        work.overrun("HiGHS's second opinion")
    return answer.status


def ceiling(z: Zones, roll: float, board: tuple[float, float], seconds: float) -> int | None:
    """The relaxation's bound on base contact over its starting cells, without refinement
    (None if CP-SAT proves nothing within `seconds`)."""
    r = build(z, start_cells(z, roll, *board), roll)
    model = r.model.clone()
    model.Maximize(r.contact)
    status, solver = _solve_fixed(model, r, clock.now() + seconds, 2, 0)
    if status not in ("OPTIMAL", "FEASIBLE"):
        return None
    return math.floor(solver.BestObjectiveBound() + 1e-6)
