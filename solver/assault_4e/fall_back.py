"""`solve_fall_back(scenario, options) -> Result`: the 40k-assault-4e fall back (seed 001).

With a roll: the legal full fall back that gets the unit furthest toward its own table edge
(the whole unit moved straight, `fall_back_search`; else a bent move, `fall_back_bent`; else
the straight move at the exact limits), or the Trapped! verdict with the proof over every
route the reading allows (`fall_back_trapped`). Without a roll: the verdict for every roll of
the dice (2D6, or 3D6 for a fast unit) and the exact chance of being Trapped!."""

from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np
import shapely

from chargeopt.models import Placement, Result, ResultAction, Scenario, Status, UnsupportedRuleError
from chargeopt.solver.assault_4e.fall_back_bent import search_bent
from chargeopt.solver.assault_4e.fall_back_field import FallBackField
from chargeopt.solver.assault_4e.fall_back_outcome import bent_result, trapped_result
from chargeopt.solver.assault_4e.fall_back_proof import coherent
from chargeopt.solver.assault_4e.fall_back_reach import furthest_in
from chargeopt.solver.assault_4e.fall_back_search import CLOSE_ENOUGH_IN, Probe, Search, search
from chargeopt.solver.assault_4e.fall_back_trapped import START_RANGES, TrappedProver
from chargeopt.solver.core.dice import sum_counts
from chargeopt.solver.core.tolerances import JSON_DECIMALS, JSON_ERROR_IN, MARGIN_IN
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
    if found.best is not None:
        return _result(scenario, field, roll, found.best)
    return _not_straight(scenario, field, roll, found)


def _not_straight(scenario: Scenario, field: FallBackField, roll: int, found: Search) -> Result:
    """No straight move keeps the margins: a bent move, else the proof of Trapped!, else the
    straight move at the exact limits (legal as measured), else unknown."""
    prover = TrappedProver(field, float(roll))
    verdict = prover.prove(_least_move(field, roll), most_ranges=START_RANGES)
    if not verdict.trapped:
        for length in _lengths(field, roll):
            bent = search_bent(field, length)
            if bent is not None:
                return bent_result(scenario, field, roll, bent)
        verdict = prover.prove(_least_move(field, roll))
    if verdict.trapped:
        return trapped_result(scenario, field, roll, verdict, found)
    written = FallBackField(scenario, margin_in=JSON_ERROR_IN)
    exact = search(written, float(roll))
    if exact.best is not None:
        return _measured(scenario, field, roll, exact.best)
    for length in _lengths(field, roll):
        bent = search_bent(written, length)
        if bent is not None:
            result = bent_result(scenario, field, roll, bent)
            note = "Legal as measured, inside the margin kept; bent around what blocks it"
            return result.model_copy(update={"stats": {**result.stats, "note": note}})
    return Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=ResultAction.of(scenario.action, roll),
        status=Status.UNKNOWN,
        stats={
            "bound_scope": "bent routes",
            "trapped": None,
            "ranges_proven": len(verdict.proven),
            "ranges_open": len(verdict.open),
            "sectors_open": len(verdict.open),
        },
    )


def _measured(scenario: Scenario, field: FallBackField, roll: int, best: Probe) -> Result:
    """A straight move legal at the exact limits only: answered, with how much it spares."""
    result = _result(scenario, field, roll, best)
    worst = field.worst(best.theta, best.length_in)
    spare = -worst.depth_in
    note = f'Legal as measured, {spare:.3f}" inside the limits (less than the margin kept)'
    rounded = _rounded_depth(field, result.placements)
    if rounded > 1e-9:
        note += f'; its 0.01" rounding is not ({rounded:.3f}" too close)'
    stats = {**result.stats, "legal_as_measured_in": round(spare, 4), "note": note}
    return result.model_copy(update={"status": Status.FEASIBLE, "stats": stats})


def _rounded_depth(field: FallBackField, placements: tuple[Placement, ...]) -> float:
    """How far the move with every end rounded to 0.01" runs deeper than its start into what
    blocks it (positive: the rounding breaks a limit)."""
    if not len(field.blockers):
        return -math.inf
    starts = field.centres
    ends = np.array([(round(p.x, 2), round(p.y, 2)) for p in placements])
    lines = shapely.linestrings(np.stack([starts, ends], axis=1))
    depth = (
        field.radii[:, None]
        + field.grows[None, :]
        - shapely.distance(lines[:, None], field.cores[None, :])
    )
    return float(np.max(depth - field.allowed))


def _lengths(field: FallBackField, roll: int) -> list[float]:
    """The moves a bent route is tried at: the roll, or half of it with difficult terrain."""
    return [float(roll)] if field.difficult is None else [roll / 2]


def _least_move(field: FallBackField, roll: int) -> float:
    """The shortest full move any route could be asked for (half the roll where difficult
    terrain may halve it): every route falling short of it traps the unit."""
    return roll / 2 if field.difficult is not None else float(roll)


def _result(scenario: Scenario, field: FallBackField, roll: int, best: Probe) -> Result:
    """The whole unit moved straight: optimal when it gets as far toward the edge as any
    route could (the roll, or the edge)."""
    bound = min(float(roll), field.edge_stop_gap_in)
    if best.progress_in + CLOSE_ENOUGH_IN < bound:
        bound = min(bound, furthest_in(field, float(roll)))
    status = Status.OPTIMAL if bound <= best.progress_in + CLOSE_ENOUGH_IN else Status.FEASIBLE
    stats: dict[str, object] = {"bound_scope": "bent routes", **_heading_stats(field, best)}
    stats["trapped"] = False
    return Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=ResultAction.of(scenario.action, roll),
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


def _roll_verdict(
    field: FallBackField, exact: FallBackField, prover: TrappedProver, roll: int
) -> bool | None:
    """Trapped! on this roll (True), not (False), or neither found nor proven (None): a
    straight move, a quick proof, a bent move, a straight move at the exact limits, the full
    proof, in that order."""
    if search(field, float(roll), first_legal=True).best is not None:
        return False
    move = _least_move(field, roll)
    if prover.prove(move, most_ranges=START_RANGES).trapped:
        return True
    if any(search_bent(field, n) is not None for n in _lengths(field, roll)):
        return False
    if search(exact, float(roll), first_legal=True).best is not None:
        return False
    if prover.prove(move).trapped:
        return True
    return False if any(search_bent(exact, n) for n in _lengths(field, roll)) else None


def _chance(scenario: Scenario, field: FallBackField) -> Result:
    """Every roll's verdict and the exact chance of Trapped! (bounds where a roll is open)."""
    dice = fall_back_dice(scenario)
    counts = sum_counts(dice)
    total = 6**dice
    rows = []
    trapped = unsure = 0
    prover = TrappedProver(field, float(6 * dice))
    exact = FallBackField(scenario, margin_in=JSON_ERROR_IN)
    for roll, count in sorted(counts.items()):
        verdict = _roll_verdict(field, exact, prover, roll)
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
