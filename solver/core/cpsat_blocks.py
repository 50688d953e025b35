"""CP-SAT building blocks shared by every move kind: one position per model, no overlap by
cliques, coherency with k neighbours, connectivity by lazy cuts, and ordered objectives."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import networkx as nx
import numpy as np
from ortools.sat.python import cp_model

from chargeopt.geometry.distance_matrix import points_near
from chargeopt.solver.core.candidates import Candidates, overlap_allowed
from chargeopt.solver.core.matching import FORBIDDEN, least_cost_pairs

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
MOVE_SCALE = 1000
"""Movement lengths enter CP-SAT as integer thousandths of an inch (the one scale constant)."""


@dataclass
class PlacementModel:
    """A CP-SAT model over candidates: y[p] (p occupied) for every candidate, and x[m][p]
    (model m at p) only where the models of p's base differ in whether they can reach p.
    Where every model of a base reaches p, which model stands there is decided afterwards by a
    min-cost assignment: this removes the models' symmetry exactly (Hall's condition holds
    because the remaining models can take any of the remaining positions)."""

    model: cp_model.CpModel
    x: dict[str, dict[int, cp_model.IntVar]]
    y: dict[int, cp_model.IntVar]
    classes: dict[int, list[str]] = field(default_factory=dict)  # base index -> model ids


def assignment(
    c: Candidates,
    roll: float,
    models_by_base: dict[int, list[str]],
    *,
    every_model: bool = True,
    allowed: np.ndarray | None = None,
    symmetric: bool = True,
) -> PlacementModel | None:
    """Every model (or, with every_model=False, any number of them) on one candidate it can
    reach within `roll`, at most one model per candidate; `allowed` masks the candidates.
    With symmetric=False every model gets its own x[m][p] everywhere (the ablation without
    symmetry classes). None if some model has nowhere to go."""
    m = cp_model.CpModel()
    x: dict[str, dict[int, cp_model.IntVar]] = {}
    y: dict[int, cp_model.IntVar] = {}
    for mids in models_by_base.values():
        ok = {
            mid: (c.reach[mid] <= roll - 1e-6) & (True if allowed is None else allowed)
            for mid in mids
        }
        if every_model and any(not v.any() for v in ok.values()):
            return None
        everyone = np.logical_and.reduce(list(ok.values())) & symmetric
        someone = np.logical_or.reduce(list(ok.values()))
        for p in np.flatnonzero(someone):
            y[int(p)] = m.NewBoolVar(f"y[{p}]")
        for mid in mids:
            partial = np.flatnonzero(ok[mid] & ~everyone)
            x[mid] = {int(p): m.NewBoolVar(f"x[{mid},{p}]") for p in partial}
            m.AddAtMostOne(x[mid].values())
        for p in np.flatnonzero(someone & ~everyone):
            m.Add(sum(x[mid][int(p)] for mid in mids if int(p) in x[mid]) == y[int(p)])
        placed = cp_model.LinearExpr.Sum([y[int(p)] for p in np.flatnonzero(someone)])
        m.Add(placed == len(mids)) if every_model else m.Add(placed <= len(mids))
    return PlacementModel(m, x, y, dict(models_by_base))


def assign_models(
    c: Candidates,
    used: list[int],
    classes: dict[int, list[str]],
    fixed: dict[str, int],
    roll: float,
    *,
    partial: bool = False,
) -> dict[str, int]:
    """Which model stands on each used candidate: models already fixed by x keep their
    positions; the rest take the remaining positions of their base by least total movement,
    never one they cannot reach within `roll` (with `partial`, fewer positions than models:
    the cheapest models take them)."""
    out = dict(fixed)
    for b, mids in classes.items():
        free_models = [mid for mid in mids if mid not in fixed]
        taken = set(fixed.values())
        free_pos = [p for p in used if int(c.base_of[p]) == b and p not in taken]
        if not free_models:
            continue
        cost = np.array([[c.reach[mid][p] for p in free_pos] for mid in free_models])
        cost = np.where(np.isfinite(cost) & (cost <= roll - 1e-6), cost, FORBIDDEN)
        if not free_pos:
            continue
        for r, k in least_cost_pairs(cost):
            if cost[r, k] < FORBIDDEN or not partial:
                out[free_models[r]] = free_pos[k]
    return out


def add_no_overlap(
    pm: PlacementModel, c: Candidates, anchor_step: float | None = None, maximal: bool = False
) -> int:
    """Forbid overlapping bases: AtMostOne over cliques of candidates inside a disk of radius
    just under the smallest base radius (less half the overlap the candidates allow) around
    lattice anchors, pairs for what is left; with
    `maximal`, over maximal cliques that hold every conflicting pair instead (a much tighter
    LP relaxation, see `overlap_cliques`). Returns the number of constraints posted."""
    live = np.array(sorted(pm.y), dtype=int)
    if maximal:
        cliques = overlap_cliques(c, live)
        for clique in cliques:
            pm.model.AddAtMostOne(pm.y[int(p)] for p in clique)
        return len(cliques)
    if len(live) < 2 or len(c.conflicts) == 0:
        return 0
    conflicts = c.conflicts[np.isin(c.conflicts[:, 0], live) & np.isin(c.conflicts[:, 1], live)]
    if len(conflicts) == 0:
        return 0
    n = len(c)
    r_min = min(b.inradius_in for b in c.base_keys)
    rho = r_min - c.overlap_allowed_in / 2 - 1e-3
    step = anchor_step or rho * 0.6
    posted = 0
    covered = []
    for z in np.unique(c.z[live]):
        level = live[np.abs(c.z[live] - z) < 0.01]
        if len(level) < 2:
            continue
        pts = np.column_stack((c.x[level], c.y[level]))
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        gx = np.arange(lo[0], hi[0] + step, step)
        gy = np.arange(lo[1], hi[1] + step, step)
        anchors = np.array(np.meshgrid(gx, gy)).reshape(2, -1).T
        seen: set[tuple[int, ...]] = set()
        for members in points_near(anchors, pts[:, 0], pts[:, 1], rho):
            if len(members) < 2:
                continue
            key = tuple(sorted(int(level[k]) for k in members))
            if key in seen:
                continue
            seen.add(key)
            pm.model.AddAtMostOne(pm.y[p] for p in key)
            posted += 1
            arr = np.array(key)
            iu, ju = np.triu_indices(len(arr), 1)
            covered.append(arr[iu] * n + arr[ju])
    posted += _ring_arcs(pm, c, live, covered)
    cov = np.unique(np.concatenate(covered)) if covered else np.empty(0, int)
    codes = conflicts.min(axis=1) * n + conflicts.max(axis=1)
    for code in codes[~np.isin(codes, cov)]:
        i, j = divmod(int(code), n)
        pm.model.AddBoolOr([pm.y[i].Not(), pm.y[j].Not()])
        posted += 1
    return posted


def overlap_cliques(c: Candidates, live: np.ndarray) -> list[np.ndarray]:
    """Maximal cliques of the conflict graph on the `live` candidates that cover its every
    edge: from each conflicting pair no clique holds yet, grown greedily (common neighbours
    nearest the pair's midpoint first). Every two members overlap, so at most one is used,
    whatever the bases' sizes and shapes. Maximal cliques, rather than those inside a small
    disk or along a contact ring, are what make the LP relaxation tight where bases crowd
    into the pockets between others (measured on scaling-v1: the engagement packing at the
    proven base contact count went from an LP bound of 17 to 15, the optimum, on
    c30-open-s1, and from 36 to 7 units of deterministic time over the 20- and 30-model
    layouts, all eight proven instead of five)."""
    n = len(live)
    if n < 2 or len(c.conflicts) == 0:
        return []
    index = np.full(len(c), -1)
    index[live] = np.arange(n)
    pairs = index[c.conflicts]
    pairs = pairs[(pairs >= 0).all(axis=1)]
    return [live[members] for members in clique_cover(pairs, n, c.x[live], c.y[live])]


COVER_CHUNK = 4096
"""Edges looked up at once for cover before the one-by-one walk (which still checks each,
since a clique grown in the chunk may cover the next): the same cliques, in the same order."""


def clique_cover(pairs: np.ndarray, n: int, x: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
    """Maximal cliques covering every edge of the graph on n points (x, y) whose edges are
    `pairs`: from each edge no clique holds yet, grown greedily (`_grow_clique`)."""
    adjacent = np.zeros((n, n), bool)
    adjacent[pairs[:, 0], pairs[:, 1]] = adjacent[pairs[:, 1], pairs[:, 0]] = True
    covered = np.zeros((n, n), bool)
    cliques = []
    for start in range(0, len(pairs), COVER_CHUNK):
        chunk = pairs[start : start + COVER_CHUNK]
        for a, b in chunk[~covered[chunk[:, 0], chunk[:, 1]]]:
            if covered[a, b]:
                continue
            members = _grow_clique(adjacent, x, y, int(a), int(b))
            covered[np.ix_(members, members)] = True
            cliques.append(members)
    return cliques


def _grow_clique(adjacent: np.ndarray, x: np.ndarray, y: np.ndarray, a: int, b: int) -> np.ndarray:
    """The pair (a, b) grown to a maximal clique: each common neighbour in turn, nearest the
    pair's midpoint first, joins if it is adjacent to every member so far."""
    pool = np.flatnonzero(adjacent[a] & adjacent[b])
    gap = np.hypot(x[pool] - (x[a] + x[b]) / 2, y[pool] - (y[a] + y[b]) / 2)
    pool = pool[np.argsort(gap, kind="stable")]
    members = [a, b]
    open_ = np.ones(len(pool), bool)
    for k, p in enumerate(pool):
        if open_[k]:
            members.append(int(p))
            open_ &= adjacent[p, pool]
    return np.array(members)


def _ring_arcs(
    pm: PlacementModel, c: Candidates, live: np.ndarray, covered: list[np.ndarray]
) -> int:
    """AtMostOne over each maximal arc of a ring whose points pairwise overlap: the cliques
    that make the LP bound on models around a base tight (floor(2 pi / arc)). Every new
    point is tested against the whole arc: where blocked spots leave a gap in the ring,
    wrapping around would otherwise join points on opposite sides of the gap."""
    n = len(c)
    posted = 0
    on_ring = live[c.ring[live] >= 0]
    for ring in np.unique(c.ring[on_ring]):
        members = on_ring[c.ring[on_ring] == ring]
        members = members[np.argsort(c.angle[members])]
        for arc in _maximal_arcs(c, members):
            pm.model.AddAtMostOne(pm.y[int(p)] for p in arc)
            posted += 1
            iu, ju = np.triu_indices(len(arc), 1)
            a, b = np.minimum(arc[iu], arc[ju]), np.maximum(arc[iu], arc[ju])
            covered.append(a * n + b)
    return posted


def _maximal_arcs(c: Candidates, members: np.ndarray) -> list[np.ndarray]:
    """The maximal runs of consecutive ring points (in angle order, wrapping around) whose
    bases pairwise overlap (deeper than the candidates allow, `overlap_allowed`), each found
    once. A run that is a clique stays one without its
    first point, so the end of the run from point i+1 is never before that from point i."""
    k = len(members)
    if k < 2:
        return []
    radii = np.array([c.base_keys[b].inradius_in for b in c.base_of[members]])
    gaps = np.hypot(c.x[members][:, None] - c.x[members], c.y[members][:, None] - c.y[members])
    ii, jj = (a.ravel() for a in np.meshgrid(members, members, indexing="ij"))
    allowed = overlap_allowed(c, ii, jj).reshape(k, k)
    overlap = gaps - radii[:, None] - radii[None, :] < -allowed
    arcs, last_end, end = [], -1, 0
    for i in range(k):
        end = max(end, i)
        while end + 1 < i + k and overlap[np.arange(i, end + 1) % k, (end + 1) % k].all():
            end += 1
        if end == i or end <= last_end:
            continue
        last_end = end
        arcs.append(members[np.arange(i, end + 1) % k])
    return arcs


def neighbours(c: Candidates, live: Sequence[int]) -> dict[int, list[int]]:
    """Coherency neighbours of each live candidate among the live candidates."""
    mask = np.zeros(len(c), bool)
    mask[np.asarray(live, dtype=int)] = True
    lists = c.coherent_lists
    return {int(p): [int(q) for q in lists[p] if mask[q]] for p in live}


def add_coherency(pm: PlacementModel, adjacency: dict[int, list[int]], k: int) -> None:
    """Every occupied candidate has at least k occupied coherency neighbours."""
    if k <= 0:
        return
    for p, near in adjacency.items():
        if len(near) < k:
            pm.model.Add(pm.y[p] == 0)
        else:
            pm.model.Add(cp_model.LinearExpr.Sum([pm.y[q] for q in near]) >= k).OnlyEnforceIf(
                pm.y[p]
            )


def bfs_layers(adjacency: dict[int, list[int]], sources: Sequence[int]) -> dict[int, int]:
    """Hops from the nearest source to every node reachable in the coherency graph."""
    dist = {int(s): 0 for s in sources}
    frontier = list(dist)
    while frontier:
        nxt = []
        for p in frontier:
            for q in adjacency[p]:
                if q not in dist:
                    dist[q] = dist[p] + 1
                    nxt.append(q)
        frontier = nxt
    return dist


def add_layer_separators(
    pm: PlacementModel,
    adjacency: dict[int, list[int]],
    sources: Sequence[int],
    sinks: Sequence[int],
    condition: list[cp_model.IntVar] | None = None,
) -> int:
    """A connected unit with a position in `sources` and one in `sinks` holds a position in
    every BFS layer between them (each layer separates the two sets). Posted for every layer,
    under `condition` (all true) if given. Returns the number of constraints, or -1 when no
    path joins the sets at all (then the condition is forbidden)."""
    dist = bfs_layers(adjacency, sources)
    reach = [dist[b] for b in sinks if b in dist]
    enforce = condition or []
    if not reach:
        pm.model.AddBoolOr([v.Not() for v in enforce]) if enforce else pm.model.AddBoolOr([])
        return -1
    hops = min(reach)
    layers: dict[int, list[int]] = {}
    for p, d in dist.items():
        if 0 < d < hops:
            layers.setdefault(d, []).append(p)
    for t in range(1, hops):
        clause = [pm.y[p] for p in layers[t]] + [v.Not() for v in enforce]
        pm.model.AddBoolOr(clause)
    return max(0, hops - 1)


def add_gapless_layers(
    pm: PlacementModel,
    adjacency: dict[int, list[int]],
    sources: Sequence[int],
    sources_used: bool = False,
) -> int:
    """Connectivity as a family of separators: layer the coherency graph by hops from
    `sources`; if a connected unit holds a position nearer than layer t and one beyond it,
    it holds one in layer t. So the used positions' layers form a gapless interval, and a
    position no path joins to the sources stays empty while a source is used. With
    `sources_used` (some source is used in every solution) only the far side is needed.
    Encoded with one literal per layer and side, implied along chains. Returns the number
    of separator clauses."""
    dist = bfs_layers(adjacency, sources)
    if not dist:
        return 0
    depth = max(dist.values())
    layers: list[list[int]] = [[] for _ in range(depth + 1)]
    for p, d in dist.items():
        layers[d].append(p)
    model = pm.model
    beyond = [model.NewBoolVar(f"beyond{t}") for t in range(depth + 1)]
    for t in range(depth):
        model.AddImplication(beyond[t + 1], beyond[t])
        for p in layers[t + 1]:
            model.AddImplication(pm.y[p], beyond[t])
    model.Add(beyond[depth] == 0)
    outside = [p for p in pm.y if p not in dist]
    if sources_used:
        near = [model.NewConstant(1)] * (depth + 2)
        for p in outside:
            model.Add(pm.y[p] == 0)
    else:
        near = [model.NewConstant(0)]
        for t in range(1, depth + 2):
            near.append(model.NewBoolVar(f"near{t}"))
            model.AddImplication(near[t - 1], near[t])
            for p in layers[t - 1]:
                model.AddImplication(pm.y[p], near[t])
        for p in outside:
            model.AddImplication(near[depth + 1], pm.y[p].Not())
    posted = 0
    for t in range(1, depth):
        model.AddBoolOr([*(pm.y[p] for p in layers[t]), near[t].Not(), beyond[t].Not()])
        posted += 1
    return posted


def add_connectivity_cuts(
    pm: PlacementModel, groups: list[set[int]], adjacency: dict[int, list[int]]
) -> int:
    """Cut off a split answer: the used positions' hop layers from each group but the
    largest must be gapless (see `add_gapless_layers`); the split answer has a gap."""
    posted = 0
    for group in sorted(groups, key=len)[:-1]:
        posted += max(1, add_gapless_layers(pm, adjacency, sorted(group)))
    return posted


def components(used: Sequence[int], adjacency: dict[int, list[int]]) -> list[set[int]]:
    """Connected groups of the occupied candidates under coherency."""
    g = nx.Graph()
    g.add_nodes_from(used)
    used_set = set(used)
    g.add_edges_from((p, q) for p in used for q in adjacency[p] if q in used_set)
    return [set(comp) for comp in nx.connected_components(g)]


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

    def run(
        self, seconds: float, floor: float | None = None, steady: float | None = None
    ) -> tuple[str, list[int], cp_model.CpSolver]:
        """Solve until the answer is one connected group. With `floor` (the value of a known
        connected placement), stop with status 'BOUNDED' once the solver proves nothing
        better than `floor` exists: its model relaxes connectivity, so the bound is valid.
        With `steady`, the budget is that much of CP-SAT's deterministic time on one worker,
        so that where the search stops does not depend on the machine or its load (`seconds`
        stays a hard cap)."""
        deadline = time.perf_counter() + seconds
        while True:
            solver = cp_model.CpSolver()
            solver.parameters.max_time_in_seconds = max(0.01, deadline - time.perf_counter())
            solver.parameters.num_workers = self.workers if steady is None else 1
            if steady is not None:
                solver.parameters.max_deterministic_time = max(0.01, steady)
            solver.parameters.random_seed = self.seed
            solver.parameters.cp_model_presolve = self.presolve
            status = solver.StatusName(solver.Solve(self.pm.model))
            if steady is not None:
                steady -= solver.ResponseProto().deterministic_time
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
            if time.perf_counter() >= deadline:
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
) -> SolveState:
    """Optimise objectives in order, fixing each optimum before the next; keep the unit one
    connected group by lazy cuts. Every CP-SAT status is mapped explicitly. An `incumbent`
    (a placement already known to satisfy every constraint, with its objective values) settles
    each stage whose ceiling it meets without calling the solver; `improve` turns each stage's
    answer into a better incumbent for the stages after it (a local search)."""
    deadline = time.perf_counter() + time_limit_s
    runner = _Runner(pm, adjacency, need_connected, seed, workers, presolve)
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
        remaining = deadline - time.perf_counter()
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
    t_end = time.perf_counter() + budget
    if obj.maximise and obj.ceiling is not None and (floor is None or floor < obj.ceiling):
        at_ceiling = pm.model.NewBoolVar(f"{obj.name}>=ceiling")
        pm.model.Add(obj.expr >= obj.ceiling).OnlyEnforceIf(at_ceiling)
        pm.model.ClearObjective()
        pm.model.AddAssumptions([at_ceiling])
        status, used, solver = runner.run(min(CEILING_SECONDS, max(0.05, budget * 0.2)))
        pm.model.ClearAssumptions()
        if used:
            return "OPTIMAL", used, solver, float(obj.ceiling), float(obj.ceiling)
    if obj.maximise:
        pm.model.Maximize(obj.expr)
    else:
        pm.model.Minimize(obj.expr)
    steady = TIE_BREAK_DETERMINISTIC if obj.tie_break else None
    status, used, solver = runner.run(max(0.05, t_end - time.perf_counter()), floor, steady)
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
