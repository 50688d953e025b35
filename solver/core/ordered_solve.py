"""Ordered (lexicographic) objectives with CP-SAT: each stage maximises or minimises its term, is
proven or cut short by its budget, and fixes its value for the next; connectivity cuts are added
where an answer splits, and heuristic incumbents and ceilings settle stages without search."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from chargeopt.solver.core import clock
from chargeopt.solver.core.candidates import Candidates
from chargeopt.solver.core.coherency_constraints import add_connectivity_cuts, components
from chargeopt.solver.core.cpsat_blocks import PlacementModel, assign_models
from chargeopt.solver.core.lazy_ortools import cp_model

TIE_BREAK_DETERMINISTIC = 0.5
"""Budget of the least-movement tie break, in CP-SAT's deterministic time on one worker (it
orders equal answers only, so it is cut short; by work done, not by the clock, so the same
input gives the same answer on any machine)."""

REPEATABLE_WORKERS = 1
"""CP-SAT workers for the moves whose stages CP-SAT must prove (pile in, consolidation, heroic
intervention, the WTC walls rule). One worker follows the same search path however loaded the
machine is, so a proven stage always hands the same placement to the next one; with two,
whichever worker finished first decided it, and the tie break differed between runs
(pile-in-v1 p10-wall-10e; the WTC seed's examples 1B and 2: 28.50" to 30.02" and 40.93" to
42.57" moved in all). It was no slower there (p10-wall-10e's can-fight proof: 0.97 to 1.16 s
against 1.25 s with two; example 2: 3.3 s against 3.2 s)."""

CEILING_SECONDS = 1.0
"""How long the solver may try to reach a proven ceiling before optimising instead."""
DESCENT_STEPS = 3
"""With `settle_below_ceiling`: how many values under a refuted ceiling are asked as
feasibility questions in turn before optimising instead."""


@dataclass(frozen=True)
class Objective:
    """One ordered objective. `ceiling`, for a maximised term, is a value proven elsewhere
    that no placement exceeds: it is tried first as a feasibility question, which CP-SAT
    answers far faster than an optimisation. A `tie_break` term is time-capped and never
    lowers the status of the terms before it."""

    name: str
    expr: cp_model.LinearExprT
    maximise: bool
    ceiling: int | None = None
    tie_break: bool = False


@dataclass
class StageOutcome:
    """One lexicographic stage: its value, proven bound, and CP-SAT status name."""

    name: str
    value: float
    bound: float
    status: str
    seconds: float


@dataclass
class SolveState:
    """What a run of ordered stages produced."""

    assignment: dict[str, int] | None
    stages: list[StageOutcome]
    status: str  # OPTIMAL / FEASIBLE / INFEASIBLE / UNKNOWN of the primary terms
    cuts: int = 0


@dataclass
class _Runner:
    """Solves the model repeatedly, adding connectivity cuts until the unit is one group."""

    pm: PlacementModel
    adjacency: dict[int, list[int]]
    need_connected: bool
    seed: int
    workers: int
    presolve: bool
    cuts: int = 0
    parameters: Mapping[str, object] | None = None
    settle_below_ceiling: bool = False

    def run(
        self, seconds: float, floor: float | None = None, steady: float | None = None
    ) -> tuple[str, list[int], cp_model.CpSolver]:
        """Solve until the answer is one connected group. With `floor` (the value of a known
        connected placement), stop with status 'BOUNDED' once the solver proves nothing
        better than `floor` exists: its model relaxes connectivity, so the bound is valid.
        With `steady`, the budget is also at most that much of CP-SAT's deterministic time, on
        one worker."""
        deadline = clock.now() + seconds
        while True:
            solver = cp_model.CpSolver()
            solver.parameters.cp_model_presolve = self.presolve
            for name, value in (self.parameters or {}).items():
                setattr(solver.parameters, name, value)
            code = clock.run(
                solver,
                self.pm.model,
                max(0.01, deadline - clock.now()),
                workers=self.workers if steady is None else 1,
                seed=self.seed,
                dtime=None if steady is None else max(0.01, steady),
            )
            status = solver.StatusName(code)
            if steady is not None:
                steady -= solver.deterministic_time
            if status not in ("OPTIMAL", "FEASIBLE"):
                return status, [], solver
            if floor is not None and solver.BestObjectiveBound() <= floor + 1e-9:
                return "BOUNDED", [], solver
            used = [p for p, v in self.pm.y.items() if solver.Value(v)]
            groups = components(used, self.adjacency) if self.need_connected else []
            if len(groups) <= 1:
                return status, used, solver
            self.cuts += add_connectivity_cuts(self.pm, groups, self.adjacency)
            _apply_hint(self.pm, used)
            if clock.now() >= deadline:
                return "UNKNOWN", [], solver


def solve_ordered(
    pm: PlacementModel,
    c: Candidates,
    objectives: list[Objective],
    adjacency: dict[int, list[int]],
    *,
    roll: float,
    time_limit_s: float,
    seed: int,
    workers: int,
    presolve: bool = False,
    hint: list[int] | None = None,
    need_connected: bool = True,
    incumbent: tuple[dict[str, int], dict[str, float]] | None = None,
    improve: Callable[[dict[str, int]], tuple[dict[str, int], dict[str, float]]] | None = None,
    parameters: Mapping[str, object] | None = None,
    settle_below_ceiling: bool = False,
) -> SolveState:
    """Optimise objectives in order, fixing each optimum before the next; keep the unit one
    connected group by lazy cuts. Every CP-SAT status is mapped explicitly. An `incumbent`
    (a placement already known to satisfy every constraint, with its objective values) settles
    each stage whose ceiling it meets without calling the solver; `improve` turns each stage's
    answer into a better incumbent for the stages after it (a local search). `parameters` are
    further CP-SAT parameters of every call (the caller's tuning, e.g. probing off). With
    `settle_below_ceiling`, a refuted ceiling is lowered by one and asked again (a few times):
    a feasibility question is far cheaper than an optimisation proving the same value, and a
    stage whose lowered ceiling meets the incumbent is settled by it."""
    deadline = clock.now() + time_limit_s
    runner = _Runner(
        pm,
        adjacency,
        need_connected,
        seed,
        workers,
        presolve,
        parameters=parameters,
        settle_below_ceiling=settle_below_ceiling,
    )
    best: dict[str, int] | None = incumbent[0] if incumbent is not None else None
    stages: list[StageOutcome] = []
    overall = "OPTIMAL"
    if hint:
        _apply_hint(pm, hint)
    for obj in objectives:
        t0 = time.perf_counter()
        if (
            incumbent is not None
            and obj.ceiling is not None
            and incumbent[1][obj.name] >= obj.ceiling
        ):
            best = incumbent[0]
            stages.append(
                StageOutcome(obj.name, float(obj.ceiling), float(obj.ceiling), "OPTIMAL", 0.0)
            )
            pm.model.Add(obj.expr == obj.ceiling)
            continue
        remaining = deadline - clock.now()
        if remaining <= 0.01:
            return SolveState(
                best,
                stages,
                overall if best and obj.tie_break else ("FEASIBLE" if best else "UNKNOWN"),
                runner.cuts,
            )
        budget = remaining
        floor = incumbent[1].get(obj.name) if incumbent is not None and obj.maximise else None
        status, used, solver, value, bound = _stage(pm, runner, obj, budget, floor)
        if status == "BOUNDED":
            assert incumbent is not None and floor is not None
            best = incumbent[0]
            stages.append(StageOutcome(obj.name, floor, floor, "OPTIMAL", time.perf_counter() - t0))
            pm.model.Add(obj.expr == int(floor))
            _apply_hint(pm, list(best.values()))
            continue
        if status == "INFEASIBLE":
            if best is None:
                return SolveState(None, stages, "INFEASIBLE", runner.cuts)
            raise RuntimeError(f"stage {obj.name} infeasible after a feasible stage")
        if not used:
            if obj.tie_break and best is not None:
                break
            if best is not None and incumbent is not None and obj.name in incumbent[1]:
                ceiling = obj.ceiling if obj.ceiling is not None else float("nan")
                stages.append(
                    StageOutcome(
                        obj.name,
                        incumbent[1][obj.name],
                        ceiling,
                        "FEASIBLE",
                        time.perf_counter() - t0,
                    )
                )
            return SolveState(best, stages, "FEASIBLE" if best else "UNKNOWN", runner.cuts)
        fixed = {mid: p for mid, xs in pm.x.items() for p, v in xs.items() if solver.Value(v)}
        best = assign_models(c, used, pm.classes, fixed, roll)
        known = _incumbent_value(incumbent, obj, stages)
        if known is not None and value < known:
            best, value, used = incumbent[0], float(known), list(incumbent[0].values())
            status = "OPTIMAL" if value >= bound else status
        stages.append(StageOutcome(obj.name, value, bound, status, time.perf_counter() - t0))
        if status != "OPTIMAL" and not obj.tie_break:
            return SolveState(best, stages, "FEASIBLE", runner.cuts)
        pm.model.Add(obj.expr == int(value))
        if improve is not None and not obj.tie_break:
            incumbent = improve(best)
            best = incumbent[0]
            used = list(best.values())
        _apply_hint(pm, used)
    return SolveState(best, stages, overall, runner.cuts)


def _incumbent_value(
    incumbent: tuple[dict[str, int], dict[str, float]] | None,
    obj: Objective,
    stages: list[StageOutcome],
) -> float | None:
    """The incumbent's value of a maximised term, if the incumbent keeps every term already
    fixed (then it is a legal answer of this stage too, which a time-limited solve may miss)."""
    if incumbent is None or not obj.maximise or obj.name not in incumbent[1]:
        return None
    values = incumbent[1]
    if any(values.get(s.name, s.value) != s.value for s in stages):
        return None
    return float(values[obj.name])


def _stage(pm: PlacementModel, runner: _Runner, obj: Objective, budget: float, floor: float | None):
    """Solve one stage: the ceiling as a feasibility question first (briefly), else optimise."""
    t_end = clock.now() + budget
    if obj.maximise and obj.ceiling is not None and (floor is None or floor < obj.ceiling):
        target = obj.ceiling
        while True:
            at_ceiling = pm.model.NewBoolVar(f"{obj.name}>={target}")
            pm.model.Add(obj.expr >= target).OnlyEnforceIf(at_ceiling)
            pm.model.ClearObjective()
            pm.model.AddAssumptions([at_ceiling])
            status, used, solver = runner.run(min(CEILING_SECONDS, max(0.05, budget * 0.2)))
            pm.model.ClearAssumptions()
            if used:
                return "OPTIMAL", used, solver, float(target), float(target)
            if not runner.settle_below_ceiling or status != "INFEASIBLE":
                break
            target -= 1
            pm.model.Add(obj.expr <= target)
            if floor is not None and floor >= target:
                return "BOUNDED", [], solver, floor, floor
            if obj.ceiling - target > DESCENT_STEPS or clock.now() >= t_end:
                break
    if obj.maximise:
        pm.model.Maximize(obj.expr)
    else:
        pm.model.Minimize(obj.expr)
    steady = TIE_BREAK_DETERMINISTIC if obj.tie_break else None
    status, used, solver = runner.run(max(0.05, t_end - clock.now()), floor, steady)
    if not used:
        return status, [], solver, 0.0, 0.0
    value = float(solver.Value(obj.expr))
    bound = float(solver.BestObjectiveBound())
    if obj.maximise and obj.ceiling is not None:
        bound = min(bound, float(obj.ceiling))
        if value >= bound:
            status = "OPTIMAL"
    return status, used, solver, value, bound


def _apply_hint(pm: PlacementModel, used: list[int]) -> None:
    pm.model.ClearHints()
    occupied = set(used)
    for p, v in pm.y.items():
        pm.model.AddHint(v, 1 if p in occupied else 0)
