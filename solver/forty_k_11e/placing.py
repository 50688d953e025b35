"""One 11th-edition charge at one roll against one set of targets, over candidate positions:
the most models within 1" of a target, then the most engaged, then the least movement, with
every target engaged, no other unit engaged (the candidates keep out of its range), no
overlap and coherency (2" chain in one group, 9" span). Splits and span breaks are cut
lazily; each stage is proven over the candidates or its bound is kept."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import shapely
from ortools.sat.python import cp_model

from chargeopt.geometry import Battlefield, Footprint, edge_distance
from chargeopt.geometry.distance_matrix import edge_distances
from chargeopt.geometry.terrain_11e import movement_blockers, no_end_zones
from chargeopt.models import RoundBase, Scenario
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core import clock
from chargeopt.solver.core.coherency_constraints import (
    add_layer_separators,
    components,
    neighbours,
)
from chargeopt.solver.core.cpsat_blocks import MOVE_SCALE, add_no_overlap, assignment
from chargeopt.solver.core.greedy import _OneMove, greedy_assignment
from chargeopt.solver.core.ordered_solve import Objective, solve_ordered
from chargeopt.solver.core.tolerances import MARGIN_IN, PAIR_MARGIN_IN, ROLL_MARGIN_IN
from chargeopt.solver.forty_k_11e.heuristic import _gaps_from, greedy_11e, legal
from chargeopt.solver.forty_k_11e.least_movement_11e import MoveRules, shortest
from chargeopt.solver.options import SolveOptions

DUTY_GAPS_IN = (0.5, 0.95, 1.95)
"""Edge distances from each target model at which extra candidate rings lie: inside 1" and
inside the 2" engagement range, where the duties are met."""
DUTY_ANGLES = 36
CONTACT_STEP_DEG = 10.0
"""The contact rings' step: base contact is no duty in the 11th, the duty rings stand in."""
SPAN_DIRECTIONS = 4
"""Directions along which the 9" span is also posted as a linear relaxation (a necessary
condition: two bases farther apart along any direction are farther apart)."""
MAX_CUT_ROUNDS = 60
COMPONENT_CUTS = 4
"""Groups of within-1" (and of engaged) spots that get a rim cut each, largest first."""
CPSAT_PARAMETERS = {"cp_model_probing_level": 0}
"""With presolve on: probing spent ten times its deterministic time on the wall on a 5-model,
two-target model (1,473 candidates; m11-two-targets: 11.5 s of wall for 1.0 of its work)
before searching; without it the same stage is proven in under a second."""


@dataclass
class Placing:
    """The answer at one roll: CP-SAT's verdict per stage, the model -> candidate map and the
    proven ceilings (`bound`: within_1 and engaged, where proven over the candidates)."""

    status: str
    placed: dict[str, int] | None
    within_1: int = 0
    engaged: int = 0
    bound: dict[str, int] = field(default_factory=dict)
    cuts: int = 0


def candidates_11e(
    scenario: Scenario,
    battlefield: Battlefield,
    roll: int,
    options: SolveOptions,
    least: int | None = None,
    more: dict[int, np.ndarray] | None = None,
    only: bool = False,
) -> cand.Candidates:
    """The charge's candidates (shared with the 10th: rings, lattice, reach along legal paths,
    ends closer, clear of non-targets), with rings where the duties are met, the sliver spots
    of `roll` (a smaller roll, a minimum roll's probe, uses the same candidates, those its
    reach allows), and none through a wall or an enclosed block, nor on a dense area the unit
    cannot cross (it may climb over one, or fly over it, but not end there). `more`: extra
    spots per base index; with `only`, those alone (`refined`)."""

    def rings(base: object, facing: float, targets: list[Footprint]) -> np.ndarray:
        bi = bases.index(base)
        if only:
            return more[bi] if more and bi in more else np.empty((0, 5))
        rows = [_sliver_spots(scenario, base, targets, roll)]
        if more and bi in more:
            rows.append(more[bi])
        angles = 2 * np.pi * np.arange(DUTY_ANGLES) / DUTY_ANGLES
        for t in targets:
            if t.z > 1e-6:
                continue
            for gap in DUTY_GAPS_IN:
                r = t.radius_in + base.circumradius_in + gap
                xs, ys = t.x + r * np.cos(angles), t.y + r * np.sin(angles)
                n = len(xs)
                rows.append(np.column_stack((xs, ys, np.zeros(n), np.full(n, -1.0), angles)))
        return np.vstack(rows) if rows else np.empty((0, 5))

    unit = scenario.acting_unit
    bases = list(dict.fromkeys(unit.base_of(m) for m in unit.models))
    coarse = replace(options, contact_step_deg=max(options.contact_step_deg, CONTACT_STEP_DEG))
    c = cand.generate(scenario, battlefield, roll, coarse, extra=rings, only_extra=only)
    zones = [z.shape for z in no_end_zones(scenario.rules, battlefield)]
    keywords = scenario.acting_unit.keyword_set
    zones += [shape for _, shape in movement_blockers(scenario.rules, keywords, battlefield)]
    if zones and len(c):
        bad = np.zeros(len(c), bool)
        for bi, base in enumerate(c.base_keys):
            idx = np.flatnonzero(c.base_of == bi)
            shapes = [
                Footprint(base, float(c.x[i]), float(c.y[i]), 0.0, float(c.facing[i])).polygon
                for i in idx
            ]
            for zone in zones:
                grown = zone.buffer(MARGIN_IN)
                bad[idx] |= shapely.intersects(np.array(shapes, dtype=object), grown)
        for lengths in c.reach.values():
            lengths[bad] = np.inf
    return c


SLIVER_EPSILON_IN = 1e-4
"""How far inside the margins a sliver spot stands (more than the written grid's rounding)."""
SLIVER_GAPS_IN = (1.0 - MARGIN_IN - SLIVER_EPSILON_IN, 2.0 - MARGIN_IN - SLIVER_EPSILON_IN)
"""Where a model's reach only just meets a target's 1" or 2" band: spots on the band's edge,
just inside the candidates' margin."""
SLIVER_TARGETS = 3
"""Sliver spots are drawn toward each model's nearest target models only."""
SLIVER_BAND_IN = 1.0
"""A model gets sliver spots for a band only when the band's edge is this close to the end of
its reach (a sliver the lattice and rings can miss); one with room to spare does not."""


def _sliver_spots(
    scenario: Scenario, base: object, targets: list[Footprint], roll: int
) -> np.ndarray:
    """For each model on `base` and each of its nearest target models: the farthest spot
    straight toward it, the nearest straight toward it inside its 1" and 2" bands (the least
    movement that meets each duty), and where the circle of the roll around the model's start
    meets the target's 1" and 2" bands (the corners of the sliver a barely reaching model can
    use)."""
    unit = scenario.acting_unit
    rows = []
    reach = roll - ROLL_MARGIN_IN - SLIVER_EPSILON_IN
    for m in unit.models:
        if unit.base_of(m) != base:
            continue
        nearest = sorted(targets, key=lambda t: np.hypot(t.x - m.x, t.y - m.y))
        for t in nearest[:SLIVER_TARGETS]:
            dx, dy = t.x - m.x, t.y - m.y
            d = float(np.hypot(dx, dy))
            if d < 1e-9:
                continue
            r_sum = t.radius_in + base.circumradius_in
            step = min(reach, d - r_sum - 0.01)
            if step > 0 and d - r_sum - SLIVER_GAPS_IN[-1] > reach - SLIVER_BAND_IN:
                rows.append((m.x + dx / d * step, m.y + dy / d * step))
            for gap in SLIVER_GAPS_IN:
                along = d - r_sum - gap
                if 0 < along <= reach:
                    rows.append((m.x + dx / d * along, m.y + dy / d * along))
                r2 = r_sum + gap
                if d > reach + r2 or d < abs(reach - r2) or d - r2 < reach - SLIVER_BAND_IN:
                    continue
                a = (reach**2 - r2**2 + d**2) / (2 * d)
                h = float(np.sqrt(max(0.0, reach**2 - a**2)))
                px, py = m.x + dx / d * a, m.y + dy / d * a
                rows.append((px - dy / d * h, py + dx / d * h))
                rows.append((px + dy / d * h, py - dx / d * h))
    if not rows:
        return np.empty((0, 5))
    xy = np.array(rows)
    n = len(xy)
    return np.column_stack((xy, np.zeros(n), np.full(n, -1.0), np.zeros(n)))


def within_one(c: cand.Candidates, scenario: Scenario) -> np.ndarray:
    """Per candidate: whether it ends within 1" of a target model (kept `MARGIN_IN` inside)."""
    around = cand.surroundings(scenario)
    out = np.zeros(len(c), bool)
    limit = (scenario.rules.within_one_in or 1.0) - MARGIN_IN
    for bi, base in enumerate(c.base_keys):
        idx = np.flatnonzero(c.base_of == bi)
        if not len(idx) or not around.targets:
            continue
        d = edge_distances(base, c.x[idx], c.y[idx], c.facing[idx], around.targets)
        dz = np.abs(c.z[idx, None] - np.array([t.z for t in around.targets])[None, :])
        out[idx] = ((d <= limit) & (dz <= scenario.rules.engagement_vertical_in)).any(axis=1)
    return out


def place(
    c: cand.Candidates,
    scenario: Scenario,
    roll: int,
    options: SolveOptions,
    seconds: float,
    ceilings: dict[str, int] | None = None,
    feasibility: bool = False,
) -> Placing:
    """The best placement over the candidates at `roll`, stage by stage (`solve_ordered`),
    within `seconds`; an answer that breaks the 9" span is cut off and the stages run again
    on a fresh model. `ceilings` (proven elsewhere) are tried first as feasibility questions.
    With `feasibility`, any legal placement will do (a minimum roll's probe)."""
    end = clock.now() + seconds
    near = within_one(c, scenario)
    span = scenario.rules.coherency_unit_span_in
    far_pairs: list[tuple[int, int]] = []
    top = _candidate_ceilings(c, scenario, roll, near)
    for name, value in (ceilings or {}).items():
        top[name] = min(top[name], value)
    incumbent = greedy_11e(c, scenario, roll, near, options.seed)
    if incumbent is not None and feasibility:
        placed, counts = incumbent
        return Placing("FEASIBLE", placed, int(counts["within_1"]), int(counts["engaged"]))
    if feasibility:
        top = {"within_1": 0}
    if incumbent is not None and all(incumbent[1][k] >= top[k] for k in top):
        placed, counts = incumbent
        placed = shortest(charge_rules(c, scenario, roll, near), placed)
        return Placing(
            "OPTIMAL", placed, int(counts["within_1"]), int(counts["engaged"]), dict(top)
        )
    hint = incumbent[0] if incumbent is not None else greedy_assignment(c, scenario, roll)
    answer = Placing("UNKNOWN", None)
    for _ in range(MAX_CUT_ROUNDS):
        built = _build(c, scenario, roll, far_pairs, span)
        if built is None:
            return Placing("INFEASIBLE", None, cuts=len(far_pairs))
        pm, adjacency = built
        ones = cp_model.LinearExpr.Sum([v for p, v in pm.y.items() if near[p]])
        engaged = cp_model.LinearExpr.Sum([v for p, v in pm.y.items() if c.engaged[p]])
        nearest = np.min(np.vstack(list(c.reach.values())), axis=0)
        moved = cp_model.LinearExpr.Sum(
            [int(np.ceil(min(nearest[p], 1e3) * MOVE_SCALE)) * v for p, v in pm.y.items()]
        )
        objectives = [
            Objective("within_1", ones, True, top.get("within_1")),
            Objective("engaged", engaged, True, top.get("engaged")),
            Objective("movement", moved, False, tie_break=True),
        ][: 1 if feasibility else 3]
        state = solve_ordered(
            pm,
            c,
            objectives,
            adjacency,
            roll=roll,
            time_limit_s=max(0.05, end - clock.now()),
            seed=options.seed,
            workers=min(2, options.workers),
            presolve=True,
            parameters=CPSAT_PARAMETERS,
            settle_below_ceiling=True,
            hint=list(hint.values()) if hint else None,
            need_connected=len(scenario.acting_unit.models) > 1,
            incumbent=incumbent if not far_pairs else None,
        )
        answer.cuts += state.cuts
        if state.assignment is None:
            answer.status = "INFEASIBLE" if state.status == "INFEASIBLE" else "UNKNOWN"
            answer.placed = None
            return answer
        broken = _far_used(c, list(state.assignment.values()), span)
        if broken:
            far_pairs += broken
            answer.cuts += len(broken)
            if clock.now() >= end:
                return Placing("UNKNOWN", None, cuts=answer.cuts)
            continue
        answer.placed = state.assignment
        if legal(c, scenario, roll, state.assignment):
            answer.placed = shortest(charge_rules(c, scenario, roll, near), state.assignment)
        answer.status = "OPTIMAL" if state.status == "OPTIMAL" else "FEASIBLE"
        for stage in state.stages:
            if stage.name in ("within_1", "engaged") and np.isfinite(stage.bound):
                answer.bound[stage.name] = int(np.floor(stage.bound + 1e-9))
        answer.within_1 = _count(answer.placed, near)
        answer.engaged = _count(answer.placed, _engaged_mask(c))
        return answer
    return answer


REFINE_ROUNDS = 2
"""Rounds of fine spots around an answer (a count, not seconds)."""
REFINE_DEGREES = np.arange(-10.0, 10.5, 1.0)
"""Around each model's nearest target model: the angles (from the model's spot) of the fine
spots, at the spot's own gap, at base contact and at the 1" and 2" bands' edges."""


def refined(
    c: cand.Candidates,
    placed: dict[str, int],
    scenario: Scenario,
    battlefield: Battlefield,
    reach_in: float,
    options: SolveOptions,
    roll: int,
) -> tuple[cand.Candidates, dict[str, int]]:
    """The answer's movement shortened over the same candidates plus fine spots around it (the
    duty rings step 10 degrees, a corner beside terrain may lie between): each model keeps
    its counts and every rule; the candidates and placement are kept unless this moves less."""
    for _ in range(REFINE_ROUNDS):
        more = _fine_spots(c, placed, scenario)
        finer = candidates_11e(scenario, battlefield, int(reach_in), options, more=more, only=True)
        at = {_pose_key(finer, q): q for q in range(len(finer))}
        mapped = {m: at.get(_pose_key(c, p)) for m, p in placed.items()}
        if any(q is None for q in mapped.values()):
            return c, placed
        near, was = within_one(finer, scenario), within_one(c, scenario)
        engaged_now, engaged_was = _engaged_mask(finer), _engaged_mask(c)
        same = all(
            near[mapped[m]] == was[p] and engaged_now[mapped[m]] == engaged_was[p]
            for m, p in placed.items()
        )
        if not same or not legal(finer, scenario, roll, mapped):
            return c, placed
        better = shortest(charge_rules(finer, scenario, roll, near), mapped)
        moved = sum(float(finer.reach[m][q]) for m, q in better.items())
        if moved >= sum(float(c.reach[m][p]) for m, p in placed.items()) - 0.01:
            return c, placed
        c, placed = finer, better
    return c, placed


def _pose_key(c: cand.Candidates, p: int) -> tuple:
    return (
        int(c.base_of[p]),
        round(float(c.x[p]), 6),
        round(float(c.y[p]), 6),
        round(float(c.z[p]), 6),
        round(float(c.facing[p]), 6),
    )


def _fine_spots(
    c: cand.Candidates, placed: dict[str, int], scenario: Scenario
) -> dict[int, np.ndarray]:
    """Per base index: each placed model's spot, and around its nearest target model spots
    every degree within `REFINE_DEGREES` of the model's angle, at its gap, at contact and at
    the bands; on the written grid already (its four corners are then one spot)."""
    targets = [t for t in cand.surroundings(scenario).targets if t.z <= 1e-6]
    out: dict[int, list[np.ndarray]] = {}
    if not targets:
        return {}
    for p in placed.values():
        bi = int(c.base_of[p])
        base = c.base_keys[bi]
        t = min(targets, key=lambda f: np.hypot(f.x - c.x[p], f.y - c.y[p]))
        r_sum = t.radius_in + base.circumradius_in
        now = float(np.hypot(c.x[p] - t.x, c.y[p] - t.y))
        angle = float(np.arctan2(c.y[p] - t.y, c.x[p] - t.x))
        angles = angle + np.radians(REFINE_DEGREES)
        for r in (
            now,
            r_sum + MARGIN_IN + SLIVER_EPSILON_IN,
            r_sum + SLIVER_GAPS_IN[0],
            r_sum + SLIVER_GAPS_IN[1],
        ):
            n = len(angles)
            xs, ys = t.x + r * np.cos(angles), t.y + r * np.sin(angles)
            out.setdefault(bi, []).append(
                np.column_stack((xs, ys, np.zeros(n), np.full(n, -1.0), angles))
            )
        here = [c.x[p], c.y[p], c.z[p], -1.0, float(c.angle[p])]
        out.setdefault(bi, []).append(np.array([here]))
    return {
        bi: np.unique(cand.on_written_grid(np.vstack(rows)), axis=0) for bi, rows in out.items()
    }


def charge_rules(c: cand.Candidates, scenario: Scenario, roll: int, near: np.ndarray) -> MoveRules:
    """What the charge's least-movement search keeps: each model within 1" stays within 1",
    each engaged stays engaged, and every rule `heuristic.legal` checks (the 9" span too)."""
    unit = scenario.acting_unit
    engaged = _engaged_mask(c)
    count = len(unit.models)
    span = scenario.rules.coherency_unit_span_in
    k = 1 if count > 1 else 0
    classes: dict[int, list[str]] = {}
    for m in unit.models:
        classes.setdefault(c.base_keys.index(unit.base_of(m)), []).append(m.id)

    def fits(placed: dict[str, int], mid: str):
        one = _OneMove(c, scenario, placed, mid, k)
        others = [p for m, p in placed.items() if m != mid]

        def ok(q: int) -> bool:
            if not one(q):
                return False
            if span is None or not others:
                return True
            return bool((_gaps_from(c, q)[others] <= span - PAIR_MARGIN_IN).all())

        return ok

    def key(placed: dict[str, int]) -> tuple[float, ...]:
        return (float(_count(placed, near)), float(_count(placed, engaged)))

    return MoveRules(
        c=c,
        index={m.id: i for i, m in enumerate(unit.models)},
        flags=[[near] * count, [engaged] * count],
        pinned={},
        fits=fits,
        legal=lambda placed: legal(c, scenario, roll, placed),
        key=key,
        classes=classes,
        limit_in=float(roll),
    )


def _candidate_ceilings(
    c: cand.Candidates, scenario: Scenario, roll: int, near: np.ndarray
) -> dict[str, int]:
    """Models that reach some candidate within 1" of a target, and some engaged one: ceilings
    over the candidates (each model stands on one spot)."""
    engaged = _engaged_mask(c)
    out = {"within_1": 0, "engaged": 0}
    for lengths in c.reach.values():
        ok = lengths <= roll - ROLL_MARGIN_IN
        out["within_1"] += bool((ok & near).any())
        out["engaged"] += bool((ok & engaged).any())
    return out


def _build(c: cand.Candidates, scenario: Scenario, roll: int, far_pairs, span):
    """The CP-SAT model: one spot per model (symmetric classes), no overlap, 2" coherency,
    every target engaged (layer separators between two targets' spots), the span's linear
    relaxation and the cut pairs; None when a rule leaves no spot."""
    unit = scenario.acting_unit
    classes: dict[int, list[str]] = {}
    for m in unit.models:
        classes.setdefault(c.base_keys.index(unit.base_of(m)), []).append(m.id)
    pm = assignment(c, roll, classes)
    if pm is None:
        return None
    live = sorted(pm.y)
    add_no_overlap(pm, c)
    adjacency = neighbours(c, live)
    if len(unit.models) > 1:
        _add_coherency_clauses(pm, adjacency)
    engaging = {t: [p for p in live if t in c.engaged[p]] for t in scenario.action.targets}
    for spots in engaging.values():
        if not spots:
            return None
        pm.model.AddBoolOr([pm.y[p] for p in spots])
    near = within_one(c, scenario) if len(unit.models) > 1 else None
    if near is not None:
        _add_component_cuts(pm, adjacency, live, near)
        _add_component_cuts(pm, adjacency, live, _engaged_mask(c))
    tids = list(engaging)
    for i, first in enumerate(tids):
        for second in tids[i + 1 :]:
            if add_layer_separators(pm, adjacency, engaging[first], engaging[second]) < 0:
                return None
    if span is not None and len(unit.models) > 1:
        radius = np.array([b.circumradius_in for b in c.base_keys])[c.base_of]
        _span_relaxation(pm, c, live, radius, span)
        for p, q in far_pairs:
            if p in pm.y and q in pm.y:
                pm.model.AddBoolOr([pm.y[p].Not(), pm.y[q].Not()])
    return pm, adjacency


def _add_component_cuts(
    pm, adjacency: dict[int, list[int]], live: list[int], mask: np.ndarray
) -> int:
    """Where the spots of `mask` (within 1", or engaged) fall into several coherency groups:
    for each of the largest `COMPONENT_CUTS` groups K, a unit holding a spot of K and a spot
    beyond K and its rim holds a rim spot (every path out of K crosses its rim, which lies
    outside `mask`). Valid for every connected unit; it settles at once what lazy cuts
    would enumerate split by split (m11-two-targets: 110 spots within 1" of C, 478 of B)."""
    keep = [p for p in live if mask[p]]
    inside = {p: [q for q in adjacency[p] if mask[q]] for p in keep}
    groups = components(keep, inside)
    if len(groups) < 2:
        return 0
    posted = 0
    model = pm.model
    for group in sorted(groups, key=len, reverse=True)[:COMPONENT_CUTS]:
        rim = {q for p in group for q in adjacency[p] if q not in group}
        rest = [p for p in live if p not in group and p not in rim]
        if not rest:
            continue
        held, beyond = model.NewBoolVar("group"), model.NewBoolVar("beyond")
        for p in group:
            model.AddImplication(pm.y[p], held)
        for p in rest:
            model.AddImplication(pm.y[p], beyond)
        model.AddBoolOr([held.Not(), beyond.Not(), *(pm.y[q] for q in sorted(rim))])
        posted += 1
    return posted


def _add_coherency_clauses(pm, adjacency: dict[int, list[int]]) -> None:
    """Every occupied spot has an occupied coherency neighbour, as one clause per spot (not
    or a neighbour): the same rule as `add_coherency` with k = 1, which CP-SAT propagates as
    a clause instead of an enforced sum (322,694 terms on m11-two-targets)."""
    for p, near in adjacency.items():
        if near:
            pm.model.AddBoolOr([pm.y[p].Not(), *(pm.y[q] for q in near)])
        else:
            pm.model.Add(pm.y[p] == 0)


def _engaged_mask(c: cand.Candidates) -> np.ndarray:
    return np.array([bool(e) for e in c.engaged], dtype=bool)


def _count(placed: dict[str, int], mask: np.ndarray) -> int:
    return int(sum(1 for p in placed.values() if mask[p]))


def _span_relaxation(pm, c: cand.Candidates, live: list[int], radius: np.ndarray, span: float):
    """Along each direction: the unit's extent, each base reaching its centre's projection
    plus or minus its circumradius, is at most the span plus the two radii it is measured
    between (a necessary condition of the 9" span, in thousandths of an inch)."""
    model = pm.model
    scale = MOVE_SCALE
    for k in range(SPAN_DIRECTIONS):
        a = np.pi * k / SPAN_DIRECTIONS
        proj = c.x * np.cos(a) + c.y * np.sin(a)
        hi_vals = np.floor((proj - radius) * scale).astype(int)
        lo_vals = np.ceil((proj + radius) * scale).astype(int)
        top = model.NewIntVar(int(hi_vals[live].min()), int(hi_vals[live].max()), f"hi{k}")
        low = model.NewIntVar(int(lo_vals[live].min()), int(lo_vals[live].max()), f"lo{k}")
        for p in live:
            model.Add(top >= int(hi_vals[p])).OnlyEnforceIf(pm.y[p])
            model.Add(low <= int(lo_vals[p])).OnlyEnforceIf(pm.y[p])
        model.Add(top - low <= round(span * scale) + 2)


def _far_used(c: cand.Candidates, used: list[int], span: float | None) -> list[tuple[int, int]]:
    """The pairs of used candidates more than the span apart (kept `PAIR_MARGIN_IN` inside):
    they can never both be held."""
    if span is None:
        return []
    return [
        (p, q)
        for i, p in enumerate(used)
        for q in used[i + 1 :]
        if _gap(c, p, q) > span - PAIR_MARGIN_IN
    ]


def _gap(c: cand.Candidates, p: int, q: int) -> float:
    a, b = c.base_keys[int(c.base_of[p])], c.base_keys[int(c.base_of[q])]
    if isinstance(a, RoundBase) and isinstance(b, RoundBase):
        return float(np.hypot(c.x[p] - c.x[q], c.y[p] - c.y[q])) - a.radius_in - b.radius_in
    fa = Footprint(a, float(c.x[p]), float(c.y[p]), float(c.z[p]), float(c.facing[p]))
    fb = Footprint(b, float(c.x[q]), float(c.y[q]), float(c.z[q]), float(c.facing[q]))
    return edge_distance(fa, fb)
