"""Combined charges: several blocks charge one target. All Charge Ranges are rolled first; the
chargers are placed to make the most charges succeed, never unaligned (a charger that cannot
align fails), and then the most models of all units in contact (target's models counted once).

One CP-SAT model chooses every charger's slide at once: per charger a Boolean per candidate
slide, an integer position and an optional interval on its facing; chargers on one facing
share an AddNoOverlap. Candidates are each charger's own breakpoints and interval ends, closed
under "touching a neighbour" (plus or minus the other chargers' widths, as many times as there
are other chargers): an optimal packing can always slide, chain by chain, until one member sits
on one of its breakpoints, so the candidates hold an optimum of the continuous board.
The order of moves is then found among the permutations: each charger's path must miss the
places of those already moved, and its place must miss the starts of those still to move.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

import numpy as np
import shapely
from ortools.sat.python import cp_model

from chargeopt.geometry.rank_and_file.frame import BlockPose, Segment
from chargeopt.geometry.rank_and_file.obstacles import overlaps, table_obstacles
from chargeopt.geometry.rank_and_file.slides import FacingBases, facing_bases, flush_pose
from chargeopt.models import Block, RankAndFileScenario, Result, Status
from chargeopt.solver.options import SolveOptions
from chargeopt.solver.rank_and_file.align import (
    EPS,
    candidates_in,
    intersect,
    kept_slides,
    legal_slides,
)
from chargeopt.solver.rank_and_file.approach import Reach, reach, swept_area
from chargeopt.solver.rank_and_file.attempt import align_step, path_steps
from chargeopt.solver.rank_and_file.opening import open_ruling, short_range_reason
from chargeopt.solver.rank_and_file.result_doc import charge_result
from chargeopt.solver.rank_and_file.ruling import Ruling

SCALE = 1_000_000
"""Slides in millionths of an inch for CP-SAT's integers."""
MAX_CANDIDATES = 600
MAX_ROUNDS = 20
MAX_SHIFT = 10_000
"""Tie-break among equally good packings: the least sideways shift (in 0.01") from where each
charger would meet the facing straight ahead, so paths rarely cross; never trades a model."""


@dataclass
class Plan:
    """One charger's options: its facing, contact set, legal slides keeping a contact point,
    the candidates among them, and the reason when it has none."""

    ruling: Ruling
    block: Block
    facing: Segment | None = None
    found: Reach | None = None
    bases: FacingBases | None = None
    allowed: list[tuple[float, float]] | None = None
    candidates: list[float] | None = None
    reason: str = ""


def _plan(scenario: RankAndFileScenario, uid: str, roll: int | None) -> Plan:
    ruling = open_ruling(scenario, uid, roll)
    block, target = scenario.unit_by_id[uid], scenario.target
    plan = Plan(ruling, block)
    if ruling.outcome == "fails":
        plan.reason = short_range_reason(ruling, target.id)
        return plan
    tpose = BlockPose.of(target)
    assert ruling.arc is not None
    facing = tpose.facing_segment(ruling.arc)
    around = table_obstacles(scenario, {uid, target.id})
    fixed = [o for o in around if o.name not in scenario.action.chargers]
    plan.facing = facing
    plan.found = reach(ruling.start, tpose, facing, around)
    contacts = plan.found.contact_set()
    if not contacts:
        plan.reason = (
            f"no Snaking Forward Move brings {uid}'s front against {target.id}'s {facing.name}"
        )
        return plan
    plan.bases = facing_bases(target, tpose, facing, block)
    legal, names = legal_slides(block, facing, fixed)
    plan.allowed = intersect(legal, kept_slides(block, contacts))
    if not plan.allowed:
        plan.reason = (
            f"no fully aligned placement of {uid} keeps a reachable contact point (blocked by "
            f"{', '.join(names) or 'the table'}); a combined charge is never unaligned"
        )
    return plan


def _natural(plan: Plan) -> float:
    """The slide at which the charger's front-left corner meets the facing straight ahead."""
    assert plan.facing is not None
    return plan.facing.along(plan.ruling.start.corners["front-left"])


def _close(plans: list[Plan]) -> None:
    """Add to each charger's candidates the slides touching a neighbour on the same facing."""
    for plan in plans:
        assert plan.allowed is not None and plan.bases is not None
        plan.candidates = candidates_in(plan.allowed, plan.bases)
    for _ in range(len(plans) - 1):
        for plan in plans:
            extra = set(plan.candidates or [])
            for other in plans:
                if other is plan or other.ruling.arc != plan.ruling.arc:
                    continue
                for v in other.candidates or []:
                    extra |= {v + other.block.width_in, v - plan.block.width_in}
            inside = [
                v for v in extra if any(lo - EPS <= v <= hi + EPS for lo, hi in plan.allowed or [])
            ]
            plan.candidates = sorted(inside)[:MAX_CANDIDATES]


def _model(plans: list[Plan], target: Block, forbidden: list[list[tuple[int, int]]]):
    model = cp_model.CpModel()
    picks: list[list[cp_model.IntVar]] = []
    present = []
    by_facing: dict[str, list] = {}
    covers: dict[str, list] = {}
    charger_terms = []
    shifts = []
    for i, plan in enumerate(plans):
        cands = plan.candidates or []
        assert plan.bases is not None
        xs = [model.new_bool_var(f"x{i}_{k}") for k in range(len(cands))]
        s = model.new_bool_var(f"s{i}")
        model.add(sum(xs) == s)
        values = sorted({round(v * SCALE) for v in cands}) or [0]
        pos = model.new_int_var_from_domain(cp_model.Domain.from_values(values), f"p{i}")
        for x, v in zip(xs, cands, strict=True):
            model.add(pos == round(v * SCALE)).only_enforce_if(x)
            t_ids = plan.bases.target_ids(v)
            for m in t_ids:
                covers.setdefault(m, []).append(x)
            charger_terms.append(plan.bases.counts(v)[1] * x)
            shifts.append(min(MAX_SHIFT, round(abs(v - _natural(plan)) * 100)) * x)
        width = int(plan.block.width_in * SCALE) - 1
        interval = model.new_optional_fixed_size_interval_var(pos, width, s, f"iv{i}")
        by_facing.setdefault(str(plan.ruling.arc), []).append(interval)
        picks.append(xs)
        present.append(s)
    for intervals in by_facing.values():
        model.add_no_overlap(intervals)
    for (i, a), (j, b) in itertools.combinations(enumerate(plans), 2):
        if a.ruling.arc != b.ruling.arc:
            for k, m in _clashes(a, b):
                model.add(picks[i][k] + picks[j][m] <= 1)
    ys = []
    for m, xs in covers.items():
        y = model.new_bool_var(f"y_{m}")
        model.add(y <= sum(xs))
        ys.append(y)
    for cut in forbidden:
        model.add(sum(picks[i][k] for i, k in cut) <= len(cut) - 1)
    big = target.model_count + sum(p.block.files for p in plans) + 1
    models_in_contact = big * sum(present) + sum(ys) + sum(charger_terms)
    model.maximize((MAX_SHIFT * len(plans) + 1) * models_in_contact - sum(shifts))
    return model, picks, present


def _clashes(a: Plan, b: Plan) -> list[tuple[int, int]]:
    """Pairs of candidates of two chargers on different facings whose blocks would overlap
    (near the corner between the facings)."""
    shapes_a = [flush_pose(a.block, a.facing, v).polygon for v in a.candidates or []]  # type: ignore[arg-type]
    shapes_b = np.array([flush_pose(b.block, b.facing, v).polygon for v in b.candidates or []])  # type: ignore[arg-type]
    out = []
    for k, shape in enumerate(shapes_a):
        touching = np.nonzero(shapely.intersects(shape, shapes_b))[0]
        if len(touching):
            areas = shapely.area(shapely.intersection(shape, shapes_b[touching]))
            out += [(k, int(m)) for m, area in zip(touching, areas, strict=True) if area > 1e-9]
    return out


def _order(
    scenario: RankAndFileScenario, plans: list[Plan], chosen: dict[int, float]
) -> tuple[list[int], dict[int, object]] | None:
    """A move order (and each charger's approach) in which every path misses the chargers
    already placed and every place misses the chargers not yet moved."""
    ends = {i: flush_pose(plans[i].block, plans[i].facing, v).polygon for i, v in chosen.items()}  # type: ignore[arg-type]
    starts = {i: plans[i].ruling.start.polygon for i in chosen}
    for order in itertools.permutations(sorted(chosen)):
        witnesses: dict[int, object] = {}
        for pos, i in enumerate(order):
            if any(overlaps(ends[i], starts[j]) for j in order[pos + 1 :]):
                break
            witness = _witness(plans[i], chosen[i], [ends[j] for j in order[:pos]])
            if witness is None:
                break
            witnesses[i] = witness
        else:
            return list(order), witnesses
    return None


def _witness(plan: Plan, slide: float, placed: list) -> object | None:
    """An approach of `plan` whose initial contact lies under its front at `slide` and whose
    path misses every shape in `placed`."""
    assert plan.found is not None
    width = plan.block.width_in
    for approach in sorted(plan.found.approaches, key=lambda a: (a.steps, abs(a.wheel_deg))):
        lo, hi = approach.contact
        if hi < slide - EPS or lo > slide + width + EPS:
            continue
        area = swept_area(plan.ruling.start, approach)
        if not any(overlaps(area, shape) for shape in placed):
            return approach
    return None


def solve_combined_charge(scenario: RankAndFileScenario, options: SolveOptions) -> Result:
    """Place every charger of a combined charge."""
    started = time.perf_counter()
    target = scenario.target
    plans = [
        _plan(
            scenario,
            uid,
            options.roll if options.roll is not None else scenario.action.roll_of(uid),
        )
        for uid in scenario.action.chargers
    ]
    able = [p for p in plans if not p.reason]
    for p in plans:
        if p.reason and p.ruling.outcome == "charges":
            p.ruling.outcome = "impossible"
    order: list[int] = []
    chosen: dict[int, float] = {}
    witnesses: dict[int, object] = {}
    if able:
        _close(able)
        forbidden: list[list[tuple[int, int]]] = []
        for _ in range(MAX_ROUNDS):
            model, picks, _ = _model(able, target, forbidden)
            solver = cp_model.CpSolver()
            solver.parameters.num_workers = 1
            solver.parameters.max_time_in_seconds = options.time_limit_s
            solver.solve(model)
            chosen = {
                i: (able[i].candidates or [])[k]
                for i, xs in enumerate(picks)
                for k, x in enumerate(xs)
                if solver.value(x)
            }
            found = _order(scenario, able, chosen)
            if found is not None:
                order, witnesses = found
                break
            forbidden.append([(i, (able[i].candidates or []).index(v)) for i, v in chosen.items()])
        else:
            chosen = {}
    _write_rulings(able, chosen, witnesses, order, scenario)
    placed = [p for p in able if p.ruling.outcome == "charges"]
    status = Status.OPTIMAL if placed else Status.INFEASIBLE
    proof = (
        None if placed else "; ".join(p.reason or f"{p.ruling.unit} finds no room" for p in plans)
    )
    rulings = [p.ruling for p in plans]
    t_ids = set()
    for p in placed:
        assert p.bases is not None and p.ruling.slide_in is not None
        t_ids |= set(p.bases.target_ids(p.ruling.slide_in))
    objective = {
        "charges": len(placed),
        "target_models_in_contact": len(t_ids),
        "models_in_contact": sum(p.ruling.charger_models or 0 for p in placed),
    }
    result = charge_result(
        scenario,
        rulings,
        status,
        proof,
        started,
        None,
        candidates=sum(len(p.candidates or []) for p in able),
        objective=objective,
    )
    return result.model_copy(
        update={"stats": {**result.stats, "order": [able[i].ruling.unit for i in order]}}
    )


def _write_rulings(
    able: list[Plan],
    chosen: dict[int, float],
    witnesses: dict[int, object],
    order: list[int],
    scenario: RankAndFileScenario,
) -> None:
    metric = scenario.rules.wheel_metric
    for i, plan in enumerate(able):
        if i not in chosen:
            plan.ruling.outcome = "impossible"
            plan.reason = (
                plan.reason
                or f"{plan.ruling.unit} finds no room on the facing once the others charged"
            )
            continue
        assert plan.facing is not None and plan.bases is not None
        slide = chosen[i]
        end = flush_pose(plan.block, plan.facing, slide)
        witness = witnesses[i]
        lo, hi = witness.contact  # type: ignore[attr-defined]
        point = (max(lo, slide) + min(hi, slide + plan.block.width_in)) / 2
        t, c = plan.bases.counts(slide)
        r = plan.ruling
        r.end, r.aligned, r.angle_deg, r.slide_in = end, True, 0.0, slide
        r.target_models, r.charger_models = t, c
        r.initial_contact = plan.facing.point_at(point)
        r.path = [
            *path_steps(witness, plan.block.width_in, metric),
            align_step(witness.arrival, end),
        ]  # type: ignore[arg-type]
        r.order = order.index(i) + 1
