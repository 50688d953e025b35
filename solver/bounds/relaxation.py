"""The conservative cell relaxation of a charge (DESIGN.md, "Proving that no legal placement
exists"): each model's centre lies in a cell, and each rule is kept only where it holds for
every point of the cells involved, so every legal placement on the continuous board is a
solution. Infeasible means no legal placement exists; its optimum bounds base contact and
engagement from above. Each rule group is switched on by one literal, so CP-SAT's sufficient
assumptions name the groups that clash."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np
import shapely

from chargeopt.geometry.distance_matrix import pairs_within, points_near
from chargeopt.geometry.identity_cache import cached_by_identity
from chargeopt.solver.bounds import cells as cl
from chargeopt.solver.bounds.cells import EPS_IN, Cells
from chargeopt.solver.bounds.relaxation_zones import Zones
from chargeopt.solver.core import clock
from chargeopt.solver.core.lazy_ortools import cp_model

START_SIDE_IN = 1.0
"""Squares start this big away from the targets ..."""
NEAR_SIDE_IN = 0.5
"""... and this big within `NEAR_IN` of a target's engagement zone."""
NEAR_IN = 1.5
START_ARC_IN = 0.1
START_BAND_ARC_IN = 0.15
"""Contact sectors, and sectors of the engagement band, start with these arc lengths ..."""
BAND_LAYERS = 3
"""... and the band in this many rings."""
MIN_SIDE_IN = 0.1
"""Squares are never split below this side (the relaxation's stated minimum cell size)."""
MIN_ARC_IN = 0.025
"""Contact sectors are never split below this arc length."""


BUILD_S_PER_CELL = 4e-4
"""What building the relaxation is charged on the solver's clock per cell: about what it takes
on the reference machine (0.3 ms a cell for curated-v1 k4's 1,636 cells, 0.57 ms over 229
rounds of 250 to 1,200 cells of a tight gap)."""


class RelaxationTimeout(Exception):
    """Building the relaxation ran past its deadline; it proves nothing then."""


def _in_time(deadline: float | None) -> None:
    """Stop building past the deadline (on the solver's clock) or the wall's safety net."""
    if deadline is not None and (clock.now() > deadline or clock.overrun("relaxation")):
        raise RelaxationTimeout


def max_hops(n: int, k: int) -> int:
    """Most coherency steps between two models of a connected unit of n in which each has k
    neighbours: breadth-first layers L0..Ld from one model have |L0| = 1, every layer non-empty,
    and every three consecutive layers (each model's own, the one before and after) hold at
    least k + 1 models, so d is at most the largest depth whose least total is within n."""
    if n <= 1:
        return 0
    best = 0
    for d in range(1, n):
        if _least_models(d, k) <= n:
            best = d
    return best


def _least_models(d: int, k: int) -> int:
    """Fewest models in layers 0..d meeting the conditions of `max_hops` (dynamic program
    over the sizes of the last two layers)."""
    top = k + 1
    states = {(0, 1): 1}  # (size before, size now) -> least total so far
    for _ in range(d):
        nxt: dict[tuple[int, int], int] = {}
        for (a, b), tot in states.items():
            for c in range(1, top + 1):
                if a + b + c < top:
                    continue
                key = (b, c)
                if tot + c < nxt.get(key, 1 << 30):
                    nxt[key] = tot + c
        states = nxt
    return min(tot for (a, b), tot in states.items() if a + b >= top)


def start_cells(z: Zones, roll: float, width: float, height: float) -> Cells:
    """Squares over every spot some model may reach (straight line), finer near the targets,
    and contact sectors around every target model."""
    xs = np.array([p[0] for p in z.starts.values()])
    ys = np.array([p[1] for p in z.starts.values()])
    x0, y0 = max(0.0, xs.min() - roll), max(0.0, ys.min() - roll)
    x1, y1 = min(width, xs.max() + roll), min(height, ys.max() + roll)
    grid = cl.squares(x0, y0, max(x1, x0 + 1e-6), max(y1, y0 + 1e-6), START_SIDE_IN)
    near_zone = shapely.union_all(list(z.engage.values())).buffer(NEAR_IN)
    near = np.flatnonzero(shapely.intersects(grid.polygons, near_zone))
    grid = cl.split(grid, near, ring_centres(z))
    grid = cl.subset(grid, _reachable_by_any(z, grid, roll))
    parts = [grid]
    for g, ring in enumerate(z.rings):
        arc = START_ARC_IN if ring.contact else START_BAND_ARC_IN
        count = max(8, int(np.ceil(2 * np.pi * ring.rho1 / arc)))
        layers = 1 if ring.contact else BAND_LAYERS
        edges = np.linspace(ring.rho0, ring.rho1, layers + 1)
        for lo, hi in itertools.pairwise(edges):
            parts.append(cl.sectors((ring.x, ring.y), lo, hi, count, g))
    out = cl.concat(parts)
    return cl.subset(out, _reachable_by_any(z, out, roll))


def starting_size(z: Zones, roll: float, width: float, height: float) -> int:
    """How many cell choices the relaxation over its starting cells has (one per cell for a
    base's interchangeable models, one per model and cell otherwise): what its solve time
    grows with, known in milliseconds before anything is built."""
    cells = start_cells(z, roll, width, height)
    ok = _allowed(z, cells, cells.polygons, roll)
    return sum(
        int(everyone.sum()) + sum(int((mask & ~everyone).sum()) for mask in masks)
        for _, _, masks, everyone in _choices(z, ok)
    )


def _choices(z: Zones, ok: dict[str, np.ndarray]):
    """Per base: its models, their allowed cells, and the cells every one of them may use
    (one shared count variable there; a choice per model elsewhere)."""
    for b in range(len(z.bases)):
        mids = [mid for mid, bb in z.model_base.items() if bb == b]
        masks = [ok[mid] for mid in mids]
        yield b, mids, masks, np.logical_and.reduce(masks)


def ring_centres(z: Zones) -> np.ndarray:
    return np.array([(r.x, r.y) for r in z.rings]).reshape(-1, 2)


def _reachable_by_any(z: Zones, cells: Cells, roll: float) -> np.ndarray:
    return _near_starts(z, cells, roll).any(axis=1)


def _near_starts(z: Zones, cells: Cells, roll: float) -> np.ndarray:
    """Cells (rows) by models in `z.starts` order (columns): some point within the roll of the
    model's start."""
    return cl.within_of_points(cells, np.array(list(z.starts.values())), roll + EPS_IN)


@dataclass
class Relaxed:
    """A built relaxation: its model, the literal of each rule group, and the expressions
    needed to read an answer."""

    model: cp_model.CpModel
    groups: dict[str, cp_model.IntVar]
    count: dict[int, cp_model.LinearExprT]  # cell -> models in it
    contact: cp_model.LinearExprT
    engaged: cp_model.LinearExprT
    facts: dict[str, object] = field(default_factory=dict)


def build(
    z: Zones,
    cells: Cells,
    roll: float,
    *,
    only: set[str] | None = None,
    without=frozenset(),
    deadline: float | None = None,
) -> Relaxed:
    """The relaxation over `cells` with `roll`: one cell per model, every rule group under
    its own literal (all literals true is the relaxation proper). Groups outside `only` (if
    given) or in `without` are left out, which only loosens it further. Raises
    RelaxationTimeout once past `deadline` (large units make large models). Building is
    charged to the solver's clock by its cells (`BUILD_S_PER_CELL`) once built."""
    m = cp_model.CpModel()
    groups: dict[str, cp_model.IntVar] = {}

    def lit(name: str) -> cp_model.IntVar | None:
        if (only is not None and name not in only) or name in without:
            return None
        if name not in groups:
            groups[name] = m.NewBoolVar(name)
        return groups[name]

    _in_time(deadline)
    polys = cells.polygons
    shapely.prepare(polys)
    ok = _allowed(z, cells, polys, roll, deadline)
    _in_time(deadline)
    per_cell: dict[int, list[cp_model.LinearExprT]] = {}
    per_base_cell: dict[tuple[int, int], list[cp_model.LinearExprT]] = {}
    for b, mids, masks, everyone in _choices(z, ok):
        placed = []
        for c in np.flatnonzero(everyone):
            v = m.NewIntVar(0, len(mids), f"s[{b},{c}]")
            placed.append(v)
            per_base_cell.setdefault((b, int(c)), []).append(v)
        for mid, mask in zip(mids, masks, strict=True):
            own = [m.NewBoolVar(f"x[{mid},{c}]") for c in np.flatnonzero(mask & ~everyone)]
            for c, v in zip(np.flatnonzero(mask & ~everyone), own, strict=True):
                per_base_cell.setdefault((b, int(c)), []).append(v)
            m.AddAtMostOne(own)
            placed += own
        m.Add(sum(placed) == len(mids))
    for (_, c), vs in per_base_cell.items():
        per_cell.setdefault(c, []).extend(vs)
    count = {c: cp_model.LinearExpr.Sum(vs) for c, vs in per_cell.items()}
    used = sorted(count)
    n = len(z.model_base)
    occ = {}
    for c in used:
        occ[c] = m.NewBoolVar(f"occ[{c}]")
        m.Add(count[c] <= n * occ[c])
        m.Add(count[c] >= occ[c])
    _in_time(deadline)
    _forbid(m, z, cells, polys, per_base_cell, lit)
    _in_time(deadline)
    engaging = _engagement(m, z, cells, polys, occ, lit)
    _in_time(deadline)
    if lit("overlap") is not None:
        _overlap(m, z, cells, count, lit("overlap"), deadline)
    _in_time(deadline)
    if z.k > 0 and lit("coherency") is not None:
        _coherency(m, z, cells, count, occ, lit("coherency"), deadline)
    _in_time(deadline)
    _span(m, z, polys, engaging, lit, deadline)
    _in_time(deadline)
    sector = [c for c in used if cells.kind[c] == cl.SECTOR]
    contact = cp_model.LinearExpr.Sum([count[c] for c in sector if z.rings[cells.ring[c]].contact])
    engaged = cp_model.LinearExpr.Sum([count[c] for c in sector])
    clock.spend(len(cells) * BUILD_S_PER_CELL)
    return Relaxed(m, groups, count, contact, engaged, {"cells": len(cells), "used": len(used)})


def _allowed(
    z: Zones, cells: Cells, polys: np.ndarray, roll: float, deadline: float | None = None
) -> dict[str, np.ndarray]:
    """Per model, the cells it may end in: some point within the roll of its start (straight
    line), of its own base's rings if a sector, and some point from which it could be closer
    to a target than at its start (contact sectors are exempt: a model in contact may end
    anywhere). Base contact needs the same height as the target model, so a contact sector
    also needs the climb to that height (its path is at least the straight line plus it)."""
    out = {}
    ring_base = np.array([r.base for r in z.rings])
    ring_contact = np.array([r.contact for r in z.rings])
    sector = cells.kind == cl.SECTOR
    touching = np.zeros(len(cells), bool)
    touching[sector] = ring_contact[cells.ring[sector]]
    to_target = {
        tid: np.min(
            [
                shapely.distance(polys, shapely.points(tx, ty)) - t_out
                for _, tx, ty, t_out in models
            ],
            axis=0,
        )
        for tid, models in z.targets.items()
    }
    column = {mid: k for k, mid in enumerate(z.starts)}
    reach = _near_starts(z, cells, roll)
    for mid, b in z.model_base.items():
        _in_time(deadline)
        sx, sy = z.starts[mid]
        near = reach[:, column[mid]]
        own_ring = ~sector
        own_ring[sector] = ring_base[cells.ring[sector]] == b
        closer = np.zeros(len(cells), bool)
        for tid, gap in to_target.items():
            closer |= gap - z.outer[b] < z.start_gap[(mid, tid)] + EPS_IN
        climbing = np.zeros(len(cells), bool)
        rings = cells.ring[sector & touching]
        need = np.array([z.climb[(mid, int(g))] for g in rings])
        if len(rings):
            gap = shapely.distance(polys[sector & touching], shapely.points(sx, sy))
            climbing[np.flatnonzero(sector & touching)] = gap + need > roll + EPS_IN
        out[mid] = near & own_ring & (touching | closer) & ~climbing
    return out


def _forbid(m, z: Zones, cells: Cells, polys, per_base_cell, lit) -> None:
    """A cell wholly off the board holds none of its base; a cell wholly inside one group's
    zone (terrain, other bases, engagement range of a non-target) holds none while that group
    is on; a cell covered only by several zones together, none while all of them are on."""
    for b in range(len(z.bases)):
        idx = np.array([c for (bb, c) in per_base_cell if bb == b], dtype=int)
        if not len(idx):
            continue
        off = ~shapely.intersects(polys[idx], z.board_ok[b])
        zones = z.forbidden[b]
        inside = {g: shapely.covered_by(polys[idx], zone) for g, zone in zones.items()}
        touch = {g: shapely.intersects(polys[idx], zone) for g, zone in zones.items()}
        every = shapely.union_all(list(zones.values())) if zones else None
        together = (
            shapely.covered_by(polys[idx], every) if every is not None else np.zeros(len(idx), bool)
        )
        for row, c in enumerate(idx):
            terms = per_base_cell[(b, int(c))]
            if off[row]:
                _off(m, terms, [lit("board")])
                continue
            alone = [g for g in zones if inside[g][row]]
            for g in alone:
                _off(m, terms, [lit(g)])
            if not alone and together[row]:
                _off(m, terms, [lit(g) for g in zones if touch[g][row]])


def _off(m, terms, lits) -> None:
    """No model in these terms while every literal holds (never, if a group is left out)."""
    if all(v is not None for v in lits):
        m.Add(sum(terms) == 0).OnlyEnforceIf(lits)


def _engagement(m, z: Zones, cells: Cells, polys, occ, lit) -> dict[str, dict[int, object]]:
    """Per target, e[c]: cell c holds a model within engagement range of it. Every engaged
    model is counted in a sector (of a ring of some target model it touches or is in range
    of), so only sectors that reach the target's engagement zone may, and not where the part
    of the sector in range lies wholly in forbidden zones; some cell does, while the target's
    group is on."""
    out: dict[str, dict[int, cp_model.IntVar]] = {}
    used = np.array(sorted(occ), dtype=int)
    small = int(np.argmin(z.inner))
    bad = dict(z.forbidden[small])
    bad["board"] = z.board_ok[small].buffer(1e3).difference(z.board_ok[small])
    sector = used[cells.kind[used] == cl.SECTOR]
    for tid, zone in z.engage.items():
        hits = sector[shapely.intersects(polys[sector], zone)] if len(sector) else sector
        e = {int(c): m.NewBoolVar(f"e[{tid},{c}]") for c in hits}
        for c, v in e.items():
            m.AddImplication(v, occ[c])
        if len(hits):
            parts = shapely.intersection(polys[hits], zone)
            for rows, groups in _covering(parts, bad):
                lits = [lit(g) for g in groups]
                if any(v is None for v in lits):
                    continue
                for row in rows:
                    m.AddBoolOr([e[int(hits[row])].Not()] + [v.Not() for v in lits])
        if lit(f"engage:{tid}") is not None:
            m.AddBoolOr(list(e.values())).OnlyEnforceIf(lit(f"engage:{tid}"))
        out[tid] = e
    return out


def _covering(parts: np.ndarray, bad: dict[str, object]) -> list[tuple[np.ndarray, list[str]]]:
    """Which of the geometries `parts` lie wholly inside bad zones: (rows, groups) for the
    rows inside each zone alone, and for each row covered only by several zones together,
    (that row, every zone it touches)."""
    out: list[tuple[np.ndarray, list[str]]] = []
    if not bad or not len(parts):
        return out
    inside = {g: shapely.covered_by(parts, zone) for g, zone in bad.items()}
    touch = {g: shapely.intersects(parts, zone) for g, zone in bad.items()}
    every = shapely.union_all(list(bad.values()))
    together = shapely.covered_by(parts, every)
    for g in bad:
        out.append((np.flatnonzero(inside[g]), [g]))
    alone = np.logical_or.reduce(list(inside.values()))
    for row in np.flatnonzero(together & ~alone):
        out.append((np.array([row]), [g for g in bad if touch[g][row]]))
    return out


def _overlap(m, z: Zones, cells: Cells, count, on, deadline: float | None = None) -> None:
    """Bases of the unit may not overlap: a set of cells whose union is narrower than
    `overlap_in` holds one model at most (windows of consecutive ring sectors, disks around
    anchors); a cell holds no more than the bases whose centres fit in it; and no more round
    bases touch a target model than fit around it."""
    used = np.array(sorted(count), dtype=int)
    if not len(used):
        return
    spacing = z.overlap_in
    if spacing <= 0:
        return
    diam = cells.diameter_in[used]
    caps = np.where(diam < spacing, 1, cl.square_capacity(diam, spacing))
    for c, cap in zip(used, caps, strict=True):
        if cap < len(z.model_base):
            m.Add(count[int(c)] <= int(cap)).OnlyEnforceIf(on)
    posted: set[tuple[int, ...]] = set()
    sector = used[cells.kind[used] == cl.SECTOR]
    keys = list(dict.fromkeys((r.base, r.model) for r in z.rings))
    family = np.array([keys.index((r.base, r.model)) for r in z.rings])
    for g in np.unique(cells.ring[sector]):
        kiss = z.rings[g].kiss
        ring = sector[cells.ring[sector] == g]
        if kiss is not None and kiss < len(z.model_base):
            m.Add(sum(count[int(c)] for c in ring) <= kiss).OnlyEnforceIf(on)
    layer = np.round(cells.shape[sector, 0], 4)
    for f in np.unique(family[cells.ring[sector]]):
        mine = family[cells.ring[sector]] == f
        levels = np.unique(layer[mine])
        sets = [sector[mine & (layer == lv)] for lv in levels]
        sets += [sector[mine & np.isin(layer, pair)] for pair in itertools.combinations(levels, 2)]
        for ring in sets:
            _in_time(deadline)
            ring = ring[np.argsort(cells.shape[ring, 2])]
            for window in _windows(cells, tuple(ring.tolist()), spacing):
                if len(window) > 1 and window not in posted:
                    posted.add(window)
                    m.Add(sum(count[c] for c in window) <= 1).OnlyEnforceIf(on)
    rho = spacing / 2 - EPS_IN
    small = used[diam < 2 * rho]
    if rho <= 0 or len(small) < 2:
        return
    centres = cells.centres[small]
    lo, hi = centres.min(axis=0), centres.max(axis=0)
    step = rho * 0.5
    gx, gy = np.arange(lo[0], hi[0] + step, step), np.arange(lo[1], hi[1] + step, step)
    anchors = np.array(np.meshgrid(gx, gy)).reshape(2, -1).T
    near = points_near(anchors, centres[:, 0], centres[:, 1], rho)
    for i, (a, members) in enumerate(zip(anchors, near, strict=True)):
        if len(members) < 2:
            continue
        if i % 256 == 0:
            _in_time(deadline)
        corners = cells.corners[small[members]]
        far = np.hypot(corners[:, :, 0] - a[0], corners[:, :, 1] - a[1]).max(axis=1)
        inside = tuple(int(c) for c in small[members][far < rho])
        if len(inside) > 1 and inside not in posted:
            posted.add(inside)
            m.Add(sum(count[c] for c in inside) <= 1).OnlyEnforceIf(on)


@cached_by_identity(maxsize=256)
def _windows(cells: Cells, sectors: tuple[int, ...], spacing: float) -> list[tuple[int, ...]]:
    """Sets of sectors around one target model (sorted by angle) whose union is narrower
    than `spacing` (largest corner-to-corner distance): from each sector, the following ones
    that keep the set narrow, until one is too far from the first. Remembered: the quick
    relaxation (without coherency) and the whole one of a round are built on the same cells."""
    ring = np.array(sectors, dtype=int)
    k = len(ring)
    ii, jj = np.meshgrid(np.arange(k), np.arange(k), indexing="ij")
    far = cl.max_distance(cells, ring[ii.ravel()], ring[jj.ravel()]).reshape(k, k)
    close = far < spacing
    out = []
    for i in range(k):
        run = [i]
        fits = close[i].copy()
        for step in range(1, k):
            nxt = (i + step) % k
            if not close[i, nxt]:
                break
            if fits[nxt]:
                run.append(nxt)
                fits &= close[nxt]
        out.append(tuple(sorted(int(ring[r]) for r in run)))
    return out


def _coherency(m, z: Zones, cells: Cells, count, occ, on, deadline=None) -> None:
    """Each model needs k unit mates within coherency range: an occupied cell has at least
    k + 1 models (itself included) in the cells whose smallest distance to it allows it."""
    reach = z.coherency_in + 2 * max(z.outer) + EPS_IN
    _in_time(deadline)
    for i, (c, others) in enumerate(_coherent_cells(cells, tuple(sorted(count)), reach)):
        if i % 256 == 0:
            _in_time(deadline)
        total = cp_model.LinearExpr.Sum([count[q] for q in others])
        m.Add(total >= z.k + 1).OnlyEnforceIf([occ[c], on])


def _coherent_cells(cells: Cells, used: tuple[int, ...], reach: float) -> list:
    """Each cell of `used` with itself and the cells of `used` whose smallest distance to it
    is within `reach`."""
    cells_used = np.array(used, dtype=int)
    centres = cells.centres[cells_used]
    slack = cells.diameter_in[cells_used].max() if len(used) else 0.0
    pairs = pairs_within(centres[:, 0], centres[:, 1], reach + 2 * slack)
    if len(pairs):
        polys = cells.polygons
        d = cl.min_distance(polys[cells_used[pairs[:, 0]]], polys[cells_used[pairs[:, 1]]])
        pairs = pairs[d <= reach]
    return _neighbour_lists(cells_used, pairs)


def _neighbour_lists(used: np.ndarray, pairs: np.ndarray) -> list[tuple[int, list[int]]]:
    """Each cell of `used` with itself and its partners under `pairs` (indices into `used`),
    in the order a loop appending both ends of each pair would list them."""
    n = len(used)
    pairs = pairs.reshape(-1, 2)
    owner = np.concatenate([np.arange(n), pairs[:, 0], pairs[:, 1]])
    other = np.concatenate([np.arange(n), pairs[:, 1], pairs[:, 0]])
    rank = np.concatenate(
        [np.full(n, -1), 2 * np.arange(len(pairs)), 2 * np.arange(len(pairs)) + 1]
    )
    order = np.lexsort((rank, owner))
    cells = used[other[order]].tolist()
    cuts = np.searchsorted(owner[order], np.arange(n + 1)).tolist()
    return [
        (int(c), cells[a:b])
        for c, (a, b) in zip(used.tolist(), itertools.pairwise(cuts), strict=True)
    ]


def _span(m, z: Zones, polys, engaging, lit, deadline=None) -> None:
    """A connected unit whose models each have k neighbours is at most `max_hops` coherency
    steps across, each step at most the coherency range plus two outer radii between centres:
    a model engaging one target and one engaging another stand no farther apart than that.
    Distances are measured between the parts of the cells inside each engagement zone."""
    n = len(z.model_base)
    span = max_hops(n, z.k) * (z.coherency_in + 2 * max(z.outer)) + EPS_IN
    tids = list(engaging)
    for i, first in enumerate(tids):
        for second in tids[i + 1 :]:
            on = lit(f"span:{first}-{second}")
            _in_time(deadline)
            a = sorted(engaging[first])
            b = sorted(engaging[second])
            if on is None or not a or not b:
                continue
            pa = shapely.intersection(polys[a], z.engage[first])
            pb = shapely.intersection(polys[b], z.engage[second])
            tree = shapely.STRtree(pb)
            left, right = tree.query(pa, predicate="dwithin", distance=span)
            partners: dict[int, list[int]] = {}
            for li, ri in zip(left, right, strict=True):
                partners.setdefault(a[li], []).append(b[ri])
            for c in a:
                near = [engaging[second][q] for q in partners.get(c, [])]
                m.AddBoolOr(near).OnlyEnforceIf([engaging[first][c], on])
