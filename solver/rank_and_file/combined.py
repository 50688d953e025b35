"""Combined charges: several blocks charge one target. All Charge Ranges are rolled first; the
chargers are placed to make the most charges succeed, never unaligned (a charger that cannot
align fails), and then the most models of all units in contact (target's models counted once).

One CP-SAT model places every charger at once, on a grid of a millionth of an inch: per
charger an integer slide along its Target Facing whose domain is its legal slides keeping a
reachable contact point, an optional interval of its width (AddNoOverlap per facing), and
half-reified Booleans for each target model and each of its front-rank models in contact (a
count is a step function of the slide; its conditions are linear in it). Two chargers on
facings meeting at a corner clash exactly when both hang past that corner. The objective:
most charges, then most models of both sides in contact (target models once), then the least
sideways shift from straight ahead (a tie-break that never costs a model). The order of moves
is then found among the permutations: each charger's path must miss the places of those
already moved, and its place must miss the starts of those still to move.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field

from chargeopt.geometry.rank_and_file.contact import contact_counts
from chargeopt.geometry.rank_and_file.declaration import declared_sight
from chargeopt.geometry.rank_and_file.frame import FACINGS, BlockPose, Segment
from chargeopt.geometry.rank_and_file.obstacles import overlaps, table_obstacles
from chargeopt.geometry.rank_and_file.slides import (
    FacingBases,
    blocked_slides,
    facing_bases,
    flush_pose,
    free_slides,
)
from chargeopt.models import Block, RankAndFileScenario, Result, Status
from chargeopt.solver.core import clock
from chargeopt.solver.core.lazy_ortools import cp_model
from chargeopt.solver.options import SolveOptions
from chargeopt.solver.rank_and_file.align import EPS, intersect, kept_slides, legal_slides
from chargeopt.solver.rank_and_file.approach import Approach, Reach, reach, swept_area
from chargeopt.solver.rank_and_file.attempt import align_step, path_steps
from chargeopt.solver.rank_and_file.blocked_path import blocked_path
from chargeopt.solver.rank_and_file.opening import open_ruling, short_range_reason
from chargeopt.solver.rank_and_file.result_doc import charge_result
from chargeopt.solver.rank_and_file.ruling import Ruling
from chargeopt.solver.rank_and_file.t9a_failed_move import place_failed_move

SCALE = 1_000_000
"""Slides in millionths of an inch for CP-SAT's integers."""
TOUCH = round(0.0049 * SCALE)
"""Bases this close count as touching (the checker's base contact tolerance is 0.005")."""
TIE_BREAK_S = 0.1


@dataclass
class Plan:
    """One charger's options: its facing, contact set, legal slides keeping a contact point,
    and the reason when it has none."""

    ruling: Ruling
    block: Block
    facing: Segment | None = None
    found: Reach | None = None
    bases: FacingBases | None = None
    allowed: list[tuple[float, float]] | None = None
    reason: str = ""
    touched: list[str] = field(default_factory=list)
    """The target's models its placed block touches (as the checker counts them)."""


def _plan(
    scenario: RankAndFileScenario, uid: str, roll: int | None, facing_name: str | None = None
) -> Plan:
    """One charger's options against its Target Facing (or, under Blocked Path, against
    `facing_name`)."""
    ruling = open_ruling(scenario, uid, roll)
    ruling.line_of_sight = declared_sight(scenario, uid)
    block, target = scenario.unit_by_id[uid], scenario.target
    plan = Plan(ruling, block)
    if ruling.outcome == "fails":
        plan.reason = short_range_reason(ruling, target.id)
        return plan
    tpose = BlockPose.of(target)
    assert ruling.arc is not None
    if facing_name is not None and facing_name != ruling.arc:
        ruling.blocked_path, ruling.target_facing = True, facing_name
    facing = tpose.facing_segment(facing_name or ruling.arc)
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
    plan.bases = facing_bases(target, tpose, facing, block, scenario.rules.fight_over_gaps)
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


NEXT_FACING = {"front": "left", "left": "rear", "rear": "right", "right": "front"}
"""Each facing's end corner is the start corner of this one (facings run left to right as
seen from outside)."""


def _domain(allowed: list[tuple[float, float]]) -> cp_model.Domain:
    """Allowed slides in millionths, rounded inward (a single point to its nearest)."""
    spans: list[list[int]] = []
    for lo, hi in allowed:
        a, b = math.ceil(lo * SCALE - 1e-6), math.floor(hi * SCALE + 1e-6)
        if a > b:
            a = b = round((lo + hi) / 2 * SCALE)
        spans.append([a, b])
    merged: list[list[int]] = []
    for a, b in sorted(spans):  # overlapping spans (one per contact point) merged
        if merged and a <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return cp_model.Domain.from_intervals(merged)


def _model(plans: list[Plan], target: Block, most: int | None, in_line: bool):
    model = cp_model.CpModel()
    positions, present = [], []
    by_facing: dict[str, list] = {}
    covers: dict[str, list] = {}
    charger_terms, shifts = [], []
    hang: dict[tuple[int, str], cp_model.IntVar] = {}
    for i, plan in enumerate(plans):
        assert plan.bases is not None and plan.allowed is not None and plan.facing is not None
        s = model.new_bool_var(f"s{i}")
        pos = model.new_int_var_from_domain(_domain(plan.allowed), f"p{i}")
        width = math.ceil(plan.block.width_in * SCALE)
        length = round(plan.facing.length_in * SCALE)
        interval = model.new_optional_fixed_size_interval_var(pos, width + 1, s, f"iv{i}")
        by_facing.setdefault(plan.facing.name, []).append(interval)
        for m, (lo, hi) in plan.bases.target:
            cov = model.new_bool_var(f"c{i}_{m}")
            model.add_implication(cov, s)
            model.add(pos <= round(hi * SCALE) + TOUCH).only_enforce_if(cov)
            model.add(pos + width >= round(lo * SCALE) - TOUCH).only_enforce_if(cov)
            covers.setdefault(m, []).append(cov)
        w = round(plan.block.base.width_in * SCALE)
        spans = _charger_spans(plan.bases)
        for k in range(plan.block.files):
            touch = model.new_bool_var(f"t{i}_{k}")
            model.add_implication(touch, s)
            ways = []
            for n, (lo, hi) in enumerate(spans):
                way = model.new_bool_var(f"t{i}_{k}_{n}")
                model.add(pos + k * w <= round(hi * SCALE) + TOUCH).only_enforce_if(way)
                model.add(pos + (k + 1) * w >= round(lo * SCALE) - TOUCH).only_enforce_if(way)
                ways.append(way)
            model.add(touch <= sum(ways))
            charger_terms.append(touch)
        start, end = model.new_bool_var(f"hs{i}"), model.new_bool_var(f"he{i}")
        model.add(pos >= 0).only_enforce_if(~start)
        model.add(pos + width <= length).only_enforce_if(~end)
        hang[i, "start"], hang[i, "end"] = start, end
        shift = model.new_int_var(0, 10**9, f"d{i}")
        model.add_abs_equality(shift, pos - round(_natural(plan) * SCALE))
        shifts.append(shift)
        positions.append(pos)
        present.append(s)
    for intervals in by_facing.values():
        model.add_no_overlap(intervals)
    if in_line:  # chargers keep their left-to-right order on a shared facing (paths uncrossed)
        for (i, a), (j, b) in itertools.permutations(enumerate(plans), 2):
            if a.facing.name == b.facing.name and _natural(a) < _natural(b):  # type: ignore[union-attr]
                width = math.ceil(a.block.width_in * SCALE)
                model.add(positions[i] + width <= positions[j]).only_enforce_if(
                    [present[i], present[j]]
                )
    for i, a in enumerate(plans):
        for j, b in enumerate(plans):
            if b.facing.name == NEXT_FACING[a.facing.name]:  # type: ignore[union-attr]
                model.add(hang[i, "end"] + hang[j, "start"] + present[i] + present[j] <= 3)
    ys = []
    for m, xs in covers.items():
        y = model.new_bool_var(f"y_{m}")
        model.add(y <= sum(xs))
        ys.append(y)
    if most is not None:
        model.add(sum(present) <= most)
    big = target.model_count + sum(p.block.files for p in plans) + 1
    return model, positions, present, big * sum(present) + sum(ys) + sum(charger_terms), shifts


def _charger_spans(bases: FacingBases) -> list[tuple[float, float]]:
    """Where along the facing a charger model counts in contact: the whole facing, or with
    Fighting Over Gaps the target models' spans (merged where they meet)."""
    if not bases.over_gaps:
        return [(0.0, bases.length_in)]
    merged: list[tuple[float, float]] = []
    for lo, hi in sorted(span for _, span in bases.target):
        if merged and lo <= merged[-1][1] + 1e-9:
            merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
        else:
            merged.append((lo, hi))
    return merged


def _keep_clear(plan: Plan, shapes: list) -> None:
    """Remove from a plan's allowed slides those that overlap any of `shapes`."""
    assert plan.facing is not None and plan.allowed is not None
    blocked = [span for shape in shapes for span in blocked_slides(plan.block, plan.facing, shape)]
    if blocked:
        plan.allowed = [iv for lo, hi in plan.allowed for iv in free_slides(lo, hi, blocked)]
        if not plan.allowed:
            plan.reason = f"{plan.ruling.unit} finds no room: the chargers that cannot charge stay"


def _lexicographic(
    model: cp_model.CpModel, score: object, shifts: list, time_limit_s: float
) -> tuple[cp_model.CpSolver, int]:
    """Most charges and models in contact (proven; its value is returned), then, with that
    fixed, the least shift (for at most TIE_BREAK_S: a tie-break, not a rule)."""
    solver = cp_model.CpSolver()
    solver.parameters.linearization_level = 2  # one worker finds optima pinned to domain ends
    model.maximize(score)
    clock.run(solver, model, time_limit_s, where="combined charge")
    best = round(solver.objective_value)
    model.add(score >= best)  # type: ignore[operator]
    model.minimize(sum(shifts))
    clock.run(solver, model, TIE_BREAK_S, where="combined charge")
    return solver, best


def _order(
    scenario: RankAndFileScenario, plans: list[Plan], chosen: dict[int, float]
) -> tuple[list[int], dict[int, object]] | None:
    """A move order (and each charger's approach) in which every path misses the chargers
    already placed and every place misses the chargers not yet moved (or never moving)."""
    ends = {i: flush_pose(plans[i].block, plans[i].facing, v).polygon for i, v in chosen.items()}  # type: ignore[arg-type]
    starts = {i: plans[i].ruling.start.polygon for i in chosen}
    staying = [
        BlockPose.of(scenario.unit_by_id[uid]).polygon
        for uid in scenario.action.chargers
        if uid not in {plans[i].ruling.unit for i in chosen}
    ]
    if any(overlaps(end, still) for end in ends.values() for still in staying):
        return None
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
    for approach in sorted(plan.found.approaches, key=Approach.simplicity):
        lo, hi = approach.contact
        if hi < slide - EPS or lo > slide + width + EPS:
            continue
        area = swept_area(plan.ruling.start, approach)
        if not any(overlaps(area, shape) for shape in placed):
            return approach
    return None


@dataclass
class Arrangement:
    """The chargers placed for one choice of facings: who charges where, in what order."""

    plans: list[Plan]
    able: list[Plan]
    order: list[int]
    chosen: dict[int, float]
    witnesses: dict[int, object]
    cut: bool
    score: tuple[int, int]
    """(charges, the proven objective: charges outweigh models) of the arrangement."""


def _arrange(
    scenario: RankAndFileScenario, plans: list[Plan], options: SolveOptions
) -> Arrangement:
    """The best placement of these plans (the CP-SAT model, then a move order)."""
    target = scenario.target
    able = [p for p in plans if not p.reason]
    while True:  # the chargers that cannot charge stay where they are: obstacles to the rest
        for p in able:
            _keep_clear(p, [q.ruling.start.polygon for q in plans if q.reason])
        if all(not p.reason for p in able):
            break
        able = [p for p in able if not p.reason]
    for p in plans:
        if p.reason and p.ruling.outcome == "charges":
            p.ruling.outcome = "impossible"
    order: list[int] = []
    chosen: dict[int, float] = {}
    witnesses: dict[int, object] = {}
    cut = False
    ceiling: int | None = None
    best = 0
    if able:
        tries = [(most, in_line) for most in range(len(able), 0, -1) for in_line in (False, True)]
        for most, in_line in tries:
            model, positions, present, score, shifts = _model(able, target, most, in_line)
            solver, best = _lexicographic(model, score, shifts, options.time_limit_s)
            ceiling = best if ceiling is None else ceiling
            chosen = {
                i: solver.value(positions[i]) / SCALE
                for i in range(len(able))
                if solver.value(present[i])
            }
            found = _order(scenario, able, chosen)
            if found is not None:
                order, witnesses = found
                cut = best < ceiling
                break
            cut = True
        else:
            chosen, best = {}, 0
    return Arrangement(plans, able, order, chosen, witnesses, cut, (len(chosen), best))


def _facing_choices(scenario: RankAndFileScenario, uid: str, roll: int | None) -> list[Plan]:
    """The plans a charger may take: against its Target Facing; and when that fails and the
    target is the first obstacle straight ahead (Blocked Path), against each other facing."""
    plan = _plan(scenario, uid, roll)
    if not plan.reason or plan.ruling.outcome == "fails":
        return [plan]
    tpose = BlockPose.of(scenario.target)
    around = table_obstacles(scenario, {uid, scenario.target.id})
    if not blocked_path(scenario, plan.ruling.start, scenario.target.id, around, tpose):
        return [plan]
    others = [_plan(scenario, uid, roll, f) for f in FACINGS if f != plan.ruling.arc]
    return [plan] + [p for p in others if not p.reason]


def solve_combined_charge(scenario: RankAndFileScenario, options: SolveOptions) -> Result:
    """Place every charger of a combined charge: each choice of facings Blocked Path allows
    is arranged, and the one with the most charges, then models in contact, is kept."""
    started = time.perf_counter()
    rolls = {
        uid: options.roll if options.roll is not None else scenario.action.roll_of(uid)
        for uid in scenario.action.chargers
    }
    choices = [_facing_choices(scenario, uid, rolls[uid]) for uid in scenario.action.chargers]
    best: Arrangement | None = None
    for n, combo in enumerate(itertools.product(*choices)):
        plans = list(combo)
        if n:  # a fresh copy: arranging trims a plan's slides
            plans = [
                _plan(scenario, p.ruling.unit, rolls[p.ruling.unit], p.ruling.target_facing)
                if p.ruling.blocked_path
                else _plan(scenario, p.ruling.unit, rolls[p.ruling.unit])
                for p in plans
            ]
        found = _arrange(scenario, plans, options)
        if best is None or found.score > best.score:
            best = found
    assert best is not None
    plans, able, order, chosen = best.plans, best.able, best.order, best.chosen
    _write_rulings(able, chosen, best.witnesses, order, scenario)
    for p in plans:
        if p.ruling.outcome != "charges":
            p.ruling.reason = p.reason
            if p.ruling.blocked_path:
                p.ruling.blocked_path, p.ruling.target_facing = False, p.ruling.arc
    placed = [p for p in able if p.ruling.outcome == "charges"]
    _failed_moves(scenario, plans)
    status = (Status.FEASIBLE if best.cut else Status.OPTIMAL) if placed else Status.INFEASIBLE
    proof = (
        None if placed else "; ".join(p.reason or f"{p.ruling.unit} finds no room" for p in plans)
    )
    rulings = [p.ruling for p in plans]
    t_ids = {m for p in placed for m in p.touched}
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
        candidates=len(able),
        objective=objective,
    )
    return result.model_copy(
        update={"stats": {**result.stats, "order": [able[i].ruling.unit for i in order]}}
    )


def _failed_moves(scenario: RankAndFileScenario, plans: list[Plan]) -> None:
    """Every charger that does not charge makes its Failed Charge Move after the charges
    (moving them last never costs a charge), one by one in the order named."""
    poses = {p.ruling.unit: p.ruling.end for p in plans if p.ruling.end is not None}
    tpose = BlockPose.of(scenario.target)
    for p in plans:
        if p.ruling.outcome == "charges":
            continue
        p.reason = (p.reason or "") + place_failed_move(scenario, p.ruling, tpose, poses)
        p.ruling.reason = p.reason
        poses[p.ruling.unit] = p.ruling.end  # type: ignore[assignment]


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
        tpose = BlockPose.of(scenario.target)
        t_ids, c_ids = contact_counts(
            scenario.target, tpose, plan.block, end, scenario.rules.fight_over_gaps
        )
        t, c = len(t_ids), len(c_ids)
        plan.touched = t_ids
        r = plan.ruling
        r.end, r.aligned, r.angle_deg, r.slide_in = end, True, 0.0, slide
        r.target_models, r.charger_models = t, c
        r.initial_contact = plan.facing.point_at(point)
        r.path = [
            *path_steps(witness, plan.block.width_in, metric),
            align_step(witness.arrival, end),
        ]  # type: ignore[arg-type]
        r.order = order.index(i) + 1
