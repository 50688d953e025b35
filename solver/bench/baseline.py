"""The benchmarks' baseline: the charge a player (or a game engine) makes without a solver.
Nearest model first, each into base contact if it can, else into engagement, else toward the
targets, always next to a model already placed. It proves nothing, so it is never `optimal`."""

from __future__ import annotations

import time
from dataclasses import replace

from chargeopt.geometry import Battlefield
from chargeopt.models import (
    ActionKind,
    ChargeoptError,
    Result,
    ResultAction,
    Scenario,
    Status,
    UnsupportedRuleError,
)
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core.greedy import greedy_assignment, satisfies_all
from chargeopt.solver.core.polish import poses_of
from chargeopt.solver.forty_k.placements import placements_at, stay_put
from chargeopt.solver.options import SolveOptions
from chargeopt.solver.verify import verified


def solve_greedy(
    scenario: Scenario, options: SolveOptions | None = None, *, roll: int | None = None
) -> Result:
    """The greedy charge at one roll (the argument, else options.roll, else the scenario's):
    `feasible` with its placements if it meets every unit rule, else `unknown` with the models
    where they started and the reason in stats."""
    t0 = time.perf_counter()
    opts = options or SolveOptions()
    roll = next((r for r in (roll, opts.roll, scenario.action.roll) if r is not None), None)
    if scenario.action.kind != ActionKind.CHARGE:
        raise UnsupportedRuleError(
            f"the greedy baseline only charges, not '{scenario.action.kind}'"
        )
    if roll is None:
        raise ChargeoptError(
            "the greedy baseline needs a charge roll: pass roll= or set action.roll"
        )
    opts = replace(opts, roll=roll)
    battlefield = Battlefield.from_scenario(scenario)
    c = cand.generate(scenario, battlefield, roll, opts)
    k = scenario.rules.coherency_neighbours(len(scenario.acting_unit.models))
    placed = greedy_assignment(c, scenario, roll)
    if placed is None:
        reason = "some model found no free spot within its roll next to the models placed"
    elif not satisfies_all(c, scenario, placed, k):
        reason = "the placement breaks coherency or leaves a target unengaged"
    else:
        reason = None
    placements = (
        stay_put(scenario) if reason else placements_at(scenario, battlefield, poses_of(c, placed))
    )
    objective = (
        {}
        if reason
        else {
            "base_contact": sum(1 for p in placements if p.contact),
            "engaged": sum(1 for p in placements if p.engaged),
            "movement_in": round(sum(p.moved or 0.0 for p in placements), 3),
        }
    )
    stats: dict[str, object] = {
        "method": "greedy",
        "seconds": round(time.perf_counter() - t0, 3),
        "candidates": len(c),
    }
    if reason:
        stats["reason"] = reason
    result = Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=ResultAction.of(scenario.action, roll),
        status=Status.UNKNOWN if reason else Status.FEASIBLE,
        objective=objective,
        bound={},
        placements=placements,
        stats=stats,
    )
    return verified(scenario, result) if opts.check else result
