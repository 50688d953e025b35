"""CP-SAT building blocks shared by every move kind: one position per model (by base class,
so equal models are interchangeable) and no overlap by cliques of conflicting spots. Coherency
and connectivity are in `coherency_constraints`, the ordered objectives in `ordered_solve`."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from chargeopt.geometry.distance_matrix import points_near
from chargeopt.solver.core.candidates import Candidates
from chargeopt.solver.core.exact_limits import margin
from chargeopt.solver.core.lazy_ortools import cp_model
from chargeopt.solver.core.matching import FORBIDDEN, least_cost_pairs
from chargeopt.solver.core.tolerances import ROLL_MARGIN_IN

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
    within_roll = roll - margin(ROLL_MARGIN_IN)
    for mids in models_by_base.values():
        ok = {
            mid: (c.reach[mid] <= within_roll) & (True if allowed is None else allowed)
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
        within_roll = roll - margin(ROLL_MARGIN_IN)
        cost = np.where(np.isfinite(cost) & (cost <= within_roll), cost, FORBIDDEN)
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
    just under the smallest base radius around
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
    rho = r_min - 1e-3
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
    bases pairwise overlap, each found
    once. A run that is a clique stays one without its
    first point, so the end of the run from point i+1 is never before that from point i."""
    k = len(members)
    if k < 2:
        return []
    radii = np.array([c.base_keys[b].inradius_in for b in c.base_of[members]])
    gaps = np.hypot(c.x[members][:, None] - c.x[members], c.y[members][:, None] - c.y[members])
    overlap = gaps - radii[:, None] - radii[None, :] < 0.0
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
