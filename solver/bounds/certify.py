"""Certify a charge's answer on the continuous board with the straight-line ceilings, the
ring-packing ceilings, the split-unit ceiling and the cell relaxation: the proven upper bound
of each objective term (`optimal` only when it meets the objective), a proof with a second
solver's confirmation where no placement exists, and a proof for the minimum roll."""

from __future__ import annotations

import time

from chargeopt.geometry import Battlefield
from chargeopt.models import Result, RoundBase, Scenario, Status
from chargeopt.solver.bounds.cells import EPS_IN
from chargeopt.solver.bounds.contact_bound import (
    beyond_straight_reach,
    engagement_reach_in,
    farthest_target,
    roll_lower_bound,
    straight_line_ceilings,
)
from chargeopt.solver.bounds.pair_ceiling import PairCeiling, pair_ceiling
from chargeopt.solver.bounds.relaxation import MIN_ARC_IN, MIN_SIDE_IN, starting_size
from chargeopt.solver.bounds.relaxation_solve import Verdict, bound, prove
from chargeopt.solver.bounds.relaxation_words import explain
from chargeopt.solver.bounds.relaxation_zones import zones
from chargeopt.solver.bounds.ring_packing import finer_contact_ceiling, ring_packing_ceilings
from chargeopt.solver.bounds.split_bound import split_contact_ceiling
from chargeopt.solver.core import clock
from chargeopt.solver.options import SolveOptions

MIN_ROLL_S = 1.5
"""The proof for the roll below the minimum always gets at least this long."""
BOUND_SHARE, BOUND_MIN_S = 0.25, 2.0
"""Beside a legal placement, the bound gets at most this share of the time limit (at least
`BOUND_MIN_S`): a bound that does not close quickly rarely closes later (measured on the
benchmark suites), and a placement should not wait on it."""
STRAIGHT_SLACK_IN = 1e-5
"""A straight-line proof must clear the checker's own slack on the roll and the range."""
BOUND_MAX_CHOICES = 8000
"""Beside a legal placement, the relaxation is not run when its starting cells offer more
choices than this (`starting_size`): on the benchmark suites every such relaxation (the 20- to
40-model hordes and curated-v1 k3, 9,800 to 71,000 choices) took 2 s or more to solve once
and never proved less than the straight-line ceilings do, while those below (k2, k4, k8:
1,400 to 4,800) settled their first solve in 0.1 to 1.3 s (k4's proves its optimum)."""
MIN_ROLL_SHARE = 0.1
"""The proof for the roll below the minimum gets at most this share of the time limit (at
least `MIN_ROLL_S`): a roll whose reach just touches engagement range cannot be disproved by a
loosened relaxation however long it refines."""


def certify(
    result: Result,
    scenario: Scenario,
    battlefield: Battlefield,
    options: SolveOptions,
    deadline: float,
    prior: Result | None = None,
) -> Result:
    """The result with its bound, status, proof and minimum roll certified by the relaxation
    (the placements are never changed), within `deadline` (what is left of the time limit;
    only a proof's second opinion may run briefly past it). `prior` is an answer to the same
    scenario already certified (the first answer of a refined solve): where it asks the same
    question, its certificate is taken instead of searched again (`_same_bound_question`)."""
    started, wall_started = clock.now(), time.perf_counter()
    seconds = max(0.0, deadline - started)
    z = zones(scenario, battlefield)
    board = (battlefield.width, battlefield.height)
    dice_max = 6 * scenario.rules.charge_dice
    run = {"workers": options.workers, "seed": options.seed}
    stats = dict(result.stats)
    stats["relaxation"] = {
        "min_side_in": MIN_SIDE_IN,
        "min_arc_in": MIN_ARC_IN,
        "epsilon_in": EPS_IN,
    }
    update: dict[str, object] = {"stats": stats}
    roll = result.action.roll if result.action is not None else None
    moved = result.status in (Status.OPTIMAL, Status.FEASIBLE) and bool(result.objective)
    min_roll_share = 0.15 if result.min_roll is not None else 0.0
    if moved and prior is not None and _same_bound_question(prior, result):
        stats["candidate_bound"] = dict(result.bound)
        stats.update({k: prior.stats[k] for k in BOUND_STATS if k in prior.stats})
        stats["relaxation"] = dict(prior.stats.get("relaxation") or stats["relaxation"])
        stats["certificate_from"] = REUSED
        update["bound"] = dict(prior.bound)
        update["status"] = prior.status
    elif moved:
        found = {t: int(result.objective[t]) for t in ("base_contact", "engaged")}
        at = roll if roll is not None else dice_max
        proven = straight_line_ceilings(scenario, at)
        stats["straight_line_bound"] = dict(proven)
        beyond = {"straight_line": list(beyond_straight_reach(scenario, at))}
        stats["beyond_engagement_reach"] = beyond
        stats["candidate_bound"] = dict(result.bound)
        closed = all(proven[t] <= found[t] for t in found)
        cap = started + max(BOUND_MIN_S, BOUND_SHARE * options.time_limit_s)
        end = min(deadline - min_roll_share * seconds, cap)
        if not closed:
            packed = ring_packing_ceilings(
                scenario,
                battlefield,
                z,
                at,
                end,
                options.seed,
                found_contact=found["base_contact"],
                ceilings={t: proven[t] for t in found if proven[t] > found[t]},
                contact_known=_packed_contact(result),
            )
            if packed is not None:
                stats["ring_packing_bound"] = packed.bounds
                proven = _tighter(proven, packed.bounds, found, stats, "ring-packing")
                if packed.beyond_reach is not None:
                    beyond["legal_paths"] = list(packed.beyond_reach)
                closed = all(proven[t] <= found[t] for t in found)
        split = None if closed else split_contact_ceiling(scenario)
        if split is not None:
            stats["split_unit_bound"] = {"base_contact": split.base_contact, "reason": split.reason}
            packed = {"base_contact": split.base_contact}
            proven = _tighter(proven, packed, found, stats, "split-unit")
            closed = all(proven[t] <= found[t] for t in found)
        pairs = None if closed else pair_ceiling(scenario, battlefield, at, options.seed)
        if pairs is not None:
            stats["pair_bound"] = _pair_facts(pairs)
            ids = [m.id for m in scenario.acting_unit.models]
            beyond["regions"] = [m for m in ids if m not in pairs.capable]
            proven = _tighter(proven, {"engaged": pairs.engaged}, found, stats, "pair")
            every_test = {"engaged": _reach_every_test(ids, beyond)}
            proven = _tighter(proven, every_test, found, stats, "reach")
            closed = all(proven[t] <= found[t] for t in found)
        finer = None
        if not closed and proven["base_contact"] > found["base_contact"]:
            gap = (proven["base_contact"], found["base_contact"])
            finer = finer_contact_ceiling(scenario, battlefield, z, at, end, options.seed, *gap)
        if finer is not None and finer < proven["base_contact"]:
            packed_bounds = dict(stats.get("ring_packing_bound") or {})
            stats["ring_packing_bound"] = {**packed_bounds, "base_contact": finer}
            proven = _tighter(proven, {"base_contact": finer}, found, stats, "ring-packing")
            closed = all(proven[t] <= found[t] for t in found)
        size = 0 if closed else starting_size(z, at, *board)
        if closed:
            stats["relaxation"]["verdict"] = (
                "not run: the straight-line, ring-packing, split-unit and pair bounds meet the "
                "objective"
            )
        elif size > BOUND_MAX_CHOICES:
            stats["relaxation"]["starting_choices"] = size
            stats["relaxation"]["verdict"] = (
                f"not run: {size} cell choices, more than the {BOUND_MAX_CHOICES} that settle in "
                "time; the straight-line and ring-packing ceilings are the bound"
            )
        else:
            v = bound(z, at, board, found, end, **run)
            stats["relaxation"].update(_facts(v))
            relaxed = {"base_contact": v.contact_bound, "engaged": v.engaged_bound}
            proven = {
                t: min(b, relaxed[t]) if relaxed[t] is not None else b for t, b in proven.items()
            }
            closed = all(proven[t] <= found[t] for t in found)
            if v.notes.get("timeout"):
                stats["relaxation"]["timeout"] = True
            if v.status == "infeasible":
                stats["relaxation_contradiction"] = "relaxation infeasible beside a legal placement"
                closed = False
        update["bound"] = proven
        stats["bound_scope"] = "continuous" if closed else "candidates"
        update["status"] = Status.OPTIMAL if closed else Status.FEASIBLE
    elif result.status == Status.UNKNOWN:
        at = roll if roll is not None and result.min_roll is not None else max(dice_max, roll or 0)
        asked = [at] + ([roll] if roll is not None and roll < at else [])
        end = deadline - min_roll_share * seconds
        for k, at in enumerate(asked):
            now = clock.now()
            v = prove(z, at, board, now + (end - now) / (len(asked) - k), **run)
            stats["relaxation"].update(_facts(v))
            _record_proof(v, stats)
            if v.status == "infeasible":
                update["status"] = Status.INFEASIBLE
                update["proof"] = explain(v, z, scenario, at)
                stats["bound_scope"] = "continuous"
                stats["proof_roll"] = at
                break
    elif result.status == Status.INFEASIBLE:
        stats["proof_confirmed_by"] = ["shapely"]
        stats["bound_scope"] = "continuous"
    straight = _straight_line_min_roll_proof(scenario, result.min_roll)
    if prior is not None and _same_min_roll_question(prior, result):
        stats.update({k: prior.stats[k] for k in MIN_ROLL_STATS if k in prior.stats})
    elif straight is not None:
        stats["min_roll_proven"] = True
        stats["min_roll_proof"] = straight
        stats["min_roll_proof_confirmed_by"] = ["straight line"]
    elif result.min_roll is not None and result.min_roll - 1 >= scenario.rules.charge_dice:
        below = result.min_roll - 1
        now = clock.now()
        end = min(deadline, now + MIN_ROLL_SHARE * options.time_limit_s)
        v = prove(z, below, board, max(end, now + MIN_ROLL_S), **run)
        stats["min_roll_proven"] = v.status == "infeasible"
        if v.status == "infeasible":
            stats["min_roll_proof"] = explain(v, z, scenario, below)
            stats["min_roll_proof_confirmed_by"] = list(v.confirmed_by)
        elif v.disagreement:
            stats["min_roll_proof_disagreement"] = v.disagreement
    elif result.min_roll is not None:
        stats["min_roll_proven"] = True
    spent = time.perf_counter() - wall_started
    stats["relaxation"]["seconds"] = round(spent, 3)
    stats["seconds"] = round(float(stats.get("seconds", 0.0)) + spent, 3)
    return result.model_copy(update=update)


BOUND_STATS = (
    "straight_line_bound",
    "beyond_engagement_reach",
    "ring_packing_bound",
    "split_unit_bound",
    "pair_bound",
    "ring_packing_contradiction",
    "split_unit_contradiction",
    "pair_contradiction",
    "reach_contradiction",
    "relaxation_contradiction",
    "bound_scope",
)
"""What the bound's search leaves in the stats besides `relaxation` (taken from a prior
certificate with the bound)."""
MIN_ROLL_STATS = (
    "min_roll_proven",
    "min_roll_proof",
    "min_roll_proof_confirmed_by",
    "min_roll_proof_disagreement",
)
REUSED = "first answer (same roll and counts: its ceilings hold, and a second search finds no more)"
"""`stats.certificate_from` where a refined answer takes the first answer's certificate."""


def _same_bound_question(prior: Result, result: Result) -> bool:
    """Whether `result` asks of the bound exactly what `prior`'s certificate answered: both
    move the unit at the same roll with the same base contact and engaged counts (the
    ceilings on engagement are conditioned on the base contacts found). On the random
    10-model charges left `feasible`, the second search took 2 s and proved the same."""
    terms = ("base_contact", "engaged")
    return (
        prior.status in (Status.OPTIMAL, Status.FEASIBLE)
        and bool(prior.objective)
        and prior.action is not None
        and result.action is not None
        and prior.action.roll == result.action.roll
        and all(int(prior.objective[t]) == int(result.objective[t]) for t in terms)
    )


def _same_min_roll_question(prior: Result, result: Result) -> bool:
    """Whether `prior`'s proof for the roll below the minimum answers `result`'s too."""
    return (
        prior.min_roll is not None
        and prior.min_roll == result.min_roll
        and "min_roll_proven" in prior.stats
    )


def _reach_every_test(ids: list[str], beyond: dict[str, list[str]]) -> int:
    """The models that pass every reach test (straight line, legal paths, exact regions): a
    model that fails one cannot end engaged, and each test lets through some that another
    rules out (scaling-v1 c40-walls-s1: 18 in a straight line, 17 along legal paths, 16 by
    both)."""
    ruled_out = set().union(*beyond.values())
    return sum(1 for m in ids if m not in ruled_out)


def _pair_facts(pairs: PairCeiling) -> dict[str, object]:
    """The pair ceiling as the result keeps it: the bound, and each clashing pair with the
    farthest its regions are apart and what its bases need (inches, centre to centre)."""
    return {
        "engaged": pairs.engaged,
        "clashes": [
            [c.first, c.second, round(c.farthest_in, 4), round(c.needed_in, 4)]
            for c in pairs.clashes
        ],
    }


def _packed_contact(result: Result) -> int | None:
    """The contact ring packing the solve already ran at this roll (`forty_k.charge._contact_spots`,
    with the same straight-line ceiling)."""
    packed = result.stats.get("ring_packing_bound")
    return packed.get("base_contact") if isinstance(packed, dict) else None


def _straight_line_min_roll_proof(scenario: Scenario, min_roll: int | None) -> str | None:
    """Why one less than the minimum roll fails, when a straight line already shows it: some
    target is farther from every charging model than that roll plus engagement range. Round
    charging bases only (a turning oval or hull can reach past its footprint)."""
    unit = scenario.acting_unit
    dice = scenario.rules.charge_dice
    if min_roll is None or min_roll - 1 < dice or min_roll > roll_lower_bound(scenario):
        return None
    if not all(isinstance(unit.base_of(m), RoundBase) for m in unit.models):
        return None
    below = min_roll - 1
    tid, gap = farthest_target(scenario)
    er = engagement_reach_in(scenario)
    if gap <= below + er + STRAIGHT_SLACK_IN:
        return None
    digits = next((d for d in range(2, 7) if round(gap, d) > below + er), 6)
    return (
        f"No legal placement of {unit.id} exists with a roll of {below}: {tid} is "
        f'{gap:.{digits}f}" '
        f'away edge to edge in a straight line, more than the roll allows ({below:.2f}" plus '
        f'{er:g}" engagement range).'
    )


def _tighter(
    proven: dict[str, int],
    packed: dict[str, int | None],
    found: dict[str, int],
    stats: dict[str, object],
    name: str,
) -> dict[str, int]:
    """The smaller of each term's bounds; a `name` bound below a legal placement's count would
    contradict it, so it is recorded (`stats.<name>_contradiction`) and not used."""
    out = dict(proven)
    for term, value in packed.items():
        if value is None:
            continue
        if value < found[term]:
            stats[f"{name.replace('-', '_')}_contradiction"] = (
                f"{term}: {name} bound {value} < found {found[term]}"
            )
            continue
        out[term] = min(out[term], value)
    return out


def _record_proof(v: Verdict, stats: dict[str, object]) -> None:
    if v.status == "infeasible":
        stats["proof_confirmed_by"] = list(v.confirmed_by)
        stats["proof_groups"] = list(v.core)
    if v.disagreement:
        stats["proof_disagreement"] = v.disagreement
        stats["proof_groups"] = list(v.core)


def _facts(v: Verdict) -> dict[str, object]:
    return {
        "verdict": v.status,
        "cells": v.cells,
        "rounds": v.rounds,
        "smallest_cell_in": v.smallest_cell_in,
    }
