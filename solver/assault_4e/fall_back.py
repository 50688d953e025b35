"""`solve_fall_back(scenario, options) -> Result`: the 40k-assault-4e fall back (seed 001).

With a roll: the legal full fall back that gets the unit furthest toward its own table edge
(the whole unit moved straight along one heading, see `fall_back_search`), or the Trapped!
verdict with the proof that no heading within 90 degrees of straight back has one. Without a
roll: the verdict for every roll of the dice (2D6, or 3D6 for a fast unit) and the exact
chance of being Trapped!."""

from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np

from chargeopt.models import Placement, Result, ResultAction, Scenario, Status, UnsupportedRuleError
from chargeopt.solver.assault_4e.fall_back_field import FallBackField
from chargeopt.solver.assault_4e.fall_back_proof import (
    blocked_headings,
    coherent,
    trapped_proof,
)
from chargeopt.solver.assault_4e.fall_back_search import CLOSE_ENOUGH_IN, Probe, Search, search
from chargeopt.solver.core.dice import sum_counts
from chargeopt.solver.core.tolerances import JSON_DECIMALS, MARGIN_IN
from chargeopt.solver.options import SolveOptions


def fall_back_dice(scenario: Scenario) -> int:
    """2D6, or 3D6 for a fast unit."""
    return 3 if scenario.action.fast else 2


def solve_fall_back(scenario: Scenario, options: SolveOptions) -> Result:
    """The fall back for the roll given (options, else the scenario), else the Trapped!
    chance over the dice."""
    started = time.perf_counter()
    result = _solved(scenario, options)
    stats = {**result.stats, "seconds": round(time.perf_counter() - started, 3)}
    return result.model_copy(update={"stats": stats})


def _solved(scenario: Scenario, options: SolveOptions) -> Result:
    field = FallBackField(scenario, margin_in=MARGIN_IN)
    if not coherent(field):
        raise UnsupportedRuleError(
            f'unit {scenario.action.unit!r} starts out of 2" coherency: a fall back that '
            "gathers it back is not solved (only a unit moved as one block)"
        )
    roll = options.roll if options.roll is not None else scenario.action.roll
    if roll is None:
        return _chance(scenario, field)
    dice = fall_back_dice(scenario)
    if not dice <= roll <= 6 * dice:
        raise UnsupportedRuleError(
            f"a fall back roll of {dice}D6 is {dice} to {6 * dice}, not {roll}"
        )
    found = search(field, float(roll))
    return _result(scenario, field, roll, found)


def _result(scenario: Scenario, field: FallBackField, roll: int, found: Search) -> Result:
    action = ResultAction.of(scenario.action, roll)
    stats: dict[str, object] = {
        "bound_scope": "straight moves",
        "probes": found.probes,
        "sectors_ruled_out": len(found.ruled_out),
        "sectors_open": len(found.open),
    }
    common = {"scenario": scenario.name, "ruleset": scenario.ruleset, "action": action}
    if found.best is None:
        if found.open:
            stats["trapped"] = None
            return Result(**common, status=Status.UNKNOWN, stats=stats)
        stats["trapped"] = True
        stats["blocking"] = sorted({i for r in found.ruled_out for i in r.hit.ids})
        stats["blocked_headings"] = blocked_headings(field, found)
        stats["edge"] = str(scenario.action.table_edge)
        if field.difficult is not None:
            stats["halved_to_in"] = roll / 2
        return Result(
            **common,
            status=Status.INFEASIBLE,
            proof=trapped_proof(field, roll, found),
            objective={"trapped": 1},
            stats=stats,
        )
    best = found.best
    bound = found.bound_in(field, float(roll))
    status = Status.OPTIMAL if bound <= best.progress_in + CLOSE_ENOUGH_IN else Status.FEASIBLE
    stats |= _heading_stats(field, best)
    stats["trapped"] = False
    return Result(
        **common,
        status=status,
        placements=_placements(scenario, field, best),
        objective={"progress_in": round(best.progress_in, 3), "distance_in": best.length_in},
        bound={"progress_in": round(bound, 3)},
        stats=stats,
    )


def _heading_stats(field: FallBackField, best: Probe) -> dict[str, object]:
    return {
        "heading_deg": round(field.heading_deg(best.theta), 2),
        "off_straight_deg": round(math.degrees(best.theta), 2),
        "halved": best.halved,
        "reached_edge": bool(field.edge_stop(best.theta) - best.length_in < 0.01),
    }


def _placements(scenario: Scenario, field: FallBackField, best: Probe) -> tuple[Placement, ...]:
    """Every model moved by the same vector, written on the 0.001" grid."""
    step = np.round(best.length_in * field.heading(best.theta), JSON_DECIMALS)
    moved = round(float(np.hypot(*step)), JSON_DECIMALS)
    out = []
    for m in scenario.acting_unit.models:
        x = round(m.x + float(step[0]), JSON_DECIMALS)
        y = round(m.y + float(step[1]), JSON_DECIMALS)
        out.append(Placement(model=m.id, x=x, y=y, z=m.z, moved=moved, path=((m.x, m.y), (x, y))))
    return tuple(out)


def _chance(scenario: Scenario, field: FallBackField) -> Result:
    """Every roll's verdict and the exact chance of Trapped! (bounds where a roll is open)."""
    dice = fall_back_dice(scenario)
    counts = sum_counts(dice)
    total = 6**dice
    rows = []
    trapped = unsure = 0
    for roll, count in sorted(counts.items()):
        found = search(field, float(roll), first_legal=True)
        verdict = False if found.best else (None if found.open else True)
        rows.append({"roll": roll, "trapped": verdict, "proven": verdict is not None})
        trapped += count if verdict else 0
        unsure += count if verdict is None else 0
    chance = Fraction(trapped, total)
    stats: dict[str, object] = {"dice": dice, "bound_scope": "dice"}
    if unsure:
        stats["trapped_chance_at_most"] = str(Fraction(trapped + unsure, total))
    return Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=ResultAction.of(scenario.action, None),
        status=Status.UNKNOWN if unsure else Status.OPTIMAL,
        trapped_chance=str(chance),
        success_probability=round(float(1 - chance), 4) if not unsure else None,
        rolls=tuple(rows),
        stats=stats,
    )
