"""The methods a benchmark compares on the same layouts, each a function of (scenario, roll,
time limit, seed) returning a Result that the runner re-checks itself:

- chargeopt: the normal charge solve (CP-SAT), without the roll table;
- greedy: the greedy baseline at the roll (40k-assault-4e: `assault_baseline.py`);
- random-greedy: 40k-assault-4e charges by a randomised greedy with restarts
  (`assault_random_greedy.py`), 40k-11e charges by another (`random_11e.py`);
- baseline-11e: the 40k-11e charge (and heroic intervention) as the public engines make it,
  snap to the nearest free spot 0/0.25/0.5/0.9" from a target, then a within-1" repair
  (`baseline_11e.py`);
- highs: the charge's first objective stage (most models in base contact, every rule) on the
  same candidates, solved by HiGHS with the same connectivity cut loop as the charge solver;
- no-hint, presolve, no-symmetry: chargeopt with one technique switched off (or presolve on);
- repair: chargeopt with the continuous repair of engagement switched on."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import replace

from chargeopt.models import (
    ActionKind,
    RankAndFileScenario,
    Result,
    ResultAction,
    Scenario,
    Status,
    UnsupportedRuleError,
)
from chargeopt.solver.api import solve
from chargeopt.solver.bench.assault_baseline import solve_literal_charge
from chargeopt.solver.bench.assault_random_greedy import solve_random_greedy
from chargeopt.solver.bench.baseline import solve_greedy
from chargeopt.solver.bench.baseline_11e import solve_baseline_11e
from chargeopt.solver.bench.baseline_close_11e import solve_baseline_close_11e
from chargeopt.solver.bench.block_baseline import solve_straight_in
from chargeopt.solver.bench.random_11e import solve_random_11e
from chargeopt.solver.core.coherency_constraints import add_connectivity_cuts, components
from chargeopt.solver.core.cpsat_blocks import assign_models
from chargeopt.solver.core.highs import solve_with_highs
from chargeopt.solver.forty_k.charge_roll import contact_model
from chargeopt.solver.forty_k.placements import placements_of
from chargeopt.solver.options import SolveOptions

Method = Callable[[Scenario, int | None, float, int], Result]
"""(scenario, roll or None for a move without one, time limit, seed) -> result."""


BENCH_SOLVER_WORKERS = 2
"""CP-SAT workers of a benchmark solve unless `--solver-workers` says otherwise: the
reference machine's cores, fixed so that a report's answers do not depend on the machine."""
SOLVER_WORKERS: ContextVar[int] = ContextVar("bench_solver_workers", default=BENCH_SOLVER_WORKERS)
"""The CP-SAT workers of the task under way (the runner sets it from the task)."""


def _options(time_limit_s: float, seed: int, roll: int, **changes: object) -> SolveOptions:
    """The options every method shares: the layout's roll, no roll table, no self-check (the
    runner checks every answer itself), the task's CP-SAT workers."""
    base = SolveOptions(
        time_limit_s=time_limit_s,
        seed=seed,
        roll=roll,
        roll_table=False,
        check=False,
        workers=SOLVER_WORKERS.get(),
    )
    return replace(base, **changes)


def chargeopt(scenario: Scenario, roll: int, time_limit_s: float, seed: int) -> Result:
    return solve(scenario, options=_options(time_limit_s, seed, roll))


def no_hint(scenario: Scenario, roll: int, time_limit_s: float, seed: int) -> Result:
    return solve(scenario, options=_options(time_limit_s, seed, roll, use_hint=False))


def presolve(scenario: Scenario, roll: int, time_limit_s: float, seed: int) -> Result:
    return solve(scenario, options=_options(time_limit_s, seed, roll, presolve=True))


def no_symmetry(scenario: Scenario, roll: int, time_limit_s: float, seed: int) -> Result:
    return solve(scenario, options=_options(time_limit_s, seed, roll, symmetry_classes=False))


def repair(scenario: Scenario, roll: int, time_limit_s: float, seed: int) -> Result:
    return solve(scenario, options=_options(time_limit_s, seed, roll, repair=True))


def _forty_k_only(scenario: Scenario | RankAndFileScenario, method: str) -> None:
    if isinstance(scenario, RankAndFileScenario):
        raise UnsupportedRuleError(f"the {method} method solves 40k moves, not rank-and-file")


def straight_in(scenario: Scenario, roll: int, time_limit_s: float, seed: int) -> Result:
    """The rank-and-file baseline: straight ahead, close the door (community tools)."""
    if not isinstance(scenario, RankAndFileScenario):
        raise UnsupportedRuleError("the straight-in method places rank-and-file blocks only")
    return solve_straight_in(scenario, _options(time_limit_s, seed, roll))


def greedy(scenario: Scenario, roll: int, time_limit_s: float, seed: int) -> Result:
    """The greedy baseline; under 40k-assault-4e the seed's charge read model by model."""
    _forty_k_only(scenario, "greedy")
    if scenario.rules.assault_range_in is not None and scenario.action.kind == ActionKind.CHARGE:
        return solve_literal_charge(scenario, _options(time_limit_s, seed, roll))
    return solve_greedy(scenario, _options(time_limit_s, seed, roll), roll=roll)


def random_greedy(scenario: Scenario, roll: int, time_limit_s: float, seed: int) -> Result:
    """40k-assault-4e charges: the seed's charge by random orders and spots, restarted, the
    best kept (`assault_random_greedy.py`); 40k-11e charges and heroic interventions: random
    targets, orders and spots, restarted, the best legal kept (`random_11e.py`)."""
    _forty_k_only(scenario, "random-greedy")
    if scenario.rules.charge_targets_after_roll:
        return solve_random_11e(scenario, roll, seed=seed, time_limit_s=time_limit_s)
    if scenario.rules.assault_range_in is None or scenario.action.kind != ActionKind.CHARGE:
        raise UnsupportedRuleError(
            "the random-greedy method solves 40k-assault-4e and 40k-11e charges only"
        )
    return solve_random_greedy(scenario, seed=seed, time_limit_s=time_limit_s)


def baseline_11e(scenario: Scenario, roll: int, time_limit_s: float, seed: int) -> Result:
    """40k-11e moves as the public engines make them: charges and heroic interventions
    snapped to their targets, pile ins and consolidations by their auto pile-in."""
    _forty_k_only(scenario, "baseline-11e")
    if scenario.action.kind in (ActionKind.PILE_IN, ActionKind.CONSOLIDATE):
        if not scenario.rules.charge_targets_after_roll:
            raise UnsupportedRuleError("the baseline-11e method moves under 40k-11e only")
        return solve_baseline_close_11e(scenario)
    return solve_baseline_11e(scenario, roll)


def highs(scenario: Scenario, roll: int, time_limit_s: float, seed: int) -> Result:
    """Most models in base contact by HiGHS on the charge model at `roll`; a disconnected
    answer adds the charge solver's connectivity cuts and solves again. `optimal` means
    HiGHS proved the first stage's optimum; `infeasible` means on these candidates."""
    _forty_k_only(scenario, "highs")
    if scenario.rules.assault_range_in is not None:
        raise UnsupportedRuleError("the highs method solves 9th/10th-edition charges only")
    if scenario.action.kind != ActionKind.CHARGE:
        raise UnsupportedRuleError(f"the highs method only charges, not '{scenario.action.kind}'")
    t0 = time.perf_counter()
    deadline = t0 + time_limit_s
    c, pm, adjacency, contact = contact_model(scenario, roll, _options(time_limit_s, seed, roll))
    stats: dict[str, object] = {"method": "highs", "candidates": len(c), "connectivity_cuts": 0}
    status, placed, bound = Status.INFEASIBLE, None, None
    if pm is not None:
        pm.model.Maximize(contact)
        need_connected = len(scenario.acting_unit.models) > 1
        status = Status.UNKNOWN
        while (left := deadline - time.perf_counter()) > 0.01:
            answer = solve_with_highs(pm.model, left)
            if answer.status == "INFEASIBLE":
                status = Status.INFEASIBLE
                break
            if answer.status not in ("OPTIMAL", "FEASIBLE"):
                break
            used = [p for p, v in pm.y.items() if answer.value(v)]
            groups = components(used, adjacency) if need_connected else []
            if len(groups) > 1:
                stats["connectivity_cuts"] += add_connectivity_cuts(pm, groups, adjacency)
                continue
            fixed = {m: p for m, xs in pm.x.items() for p, v in xs.items() if answer.value(v)}
            placed = assign_models(c, used, pm.classes, fixed, roll)
            bound = answer.bound
            status = Status.OPTIMAL if answer.status == "OPTIMAL" else Status.FEASIBLE
            break
    placements = placements_of(scenario, c, placed) if placed else ()
    stats["seconds"] = round(time.perf_counter() - t0, 3)
    objective = (
        {
            "base_contact": sum(1 for p in placements if p.contact),
            "engaged": sum(1 for p in placements if p.engaged),
        }
        if placed
        else {}
    )
    return Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=ResultAction.of(scenario.action, roll),
        status=status,
        objective=objective,
        bound={} if bound is None else {"base_contact": int(bound + 1e-9)},
        placements=placements,
        stats=stats,
    )


METHODS: dict[str, Method] = {
    "chargeopt": chargeopt,
    "greedy": greedy,
    "random-greedy": random_greedy,
    "highs": highs,
    "no-hint": no_hint,
    "presolve": presolve,
    "no-symmetry": no_symmetry,
    "repair": repair,
    "straight-in": straight_in,
    "baseline-11e": baseline_11e,
}
"""Every method by the name the command line and the report use."""
