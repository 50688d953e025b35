"""How long a path a falling back model could make, bounded from above (40k-assault-4e, seed
001; the reading in models/RULES.md): a path that never moves away from the own edge and
turns one way only, its headings (from straight back) within [lo, hi].

Square cells of side h in the model's frame (u toward the edge, v across). The headings are
split into pieces of width w; a path that turns one way runs through them in order. Within
piece m, a leg t has |t| <= t . g_m with g_m the piece's mid heading over cos(w / 2), so
K = length - (x - p) . g_m never grows along the piece: the scan carries the largest K over
cells (monotone in u and in v one way, the quadrant holding the piece); a cell is **blocked**
when its centre stands deeper than h / sqrt(2) inside what the base may not enter (so the cell
is wholly inside). Moving to the next piece adds the most (g_m - g_m+1) . (x - p) gains over
a cell. The length at a point of a cell is at most K + max (x - p) . g_m: a bound over every
such path, mates ignored."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from chargeopt.solver.assault_4e.fall_back_field import FallBackField

CELL_IN = 0.05
EDGE_TOUCH_IN = 0.00501
"""A base this close to its own edge has reached it (the checker's contact tolerance)."""
BOARD = "the board's edge"
JUDGED_IN = 1e-5
"""More than the checker's numerical slack on every limit: a path may stand that deep."""
NONE = -1e3
"""K where no path reaches."""
SEGMENT = 1e4


@dataclass(frozen=True)
class Reach:
    """One model, headings within a range: the longest path it could make (from above), the
    shortest it would need to touch its own edge (from below; inf if it cannot), and what
    stands next to the cells it reaches."""

    longest_in: float
    edge_in: float
    stopped_by: tuple[str, ...]


class ModelCells:
    """One model's cells out to `reach_in`: which are blocked, and by what."""

    def __init__(
        self, field: FallBackField, model: int, reach_in: float, cell_in: float = CELL_IN
    ) -> None:
        self.field = field
        self.model = model
        self.h = h = cell_in
        self.nu = math.ceil(reach_in / h) + 2
        self.nv = 2 * self.nu + 1
        self.v0 = self.nu
        u = h * np.arange(self.nu)
        v = h * (np.arange(self.nv) - self.v0)
        self.u, self.v = np.meshgrid(u, v, indexing="ij")
        side = field.heading(math.pi / 2)
        centres = (
            field.centres[model][None, :]
            + self.u.reshape(-1, 1) * field.toward[None, :]
            + self.v.reshape(-1, 1) * side[None, :]
        )
        depth, which = _depth(field, model, centres)
        self.blocked = (depth > h / math.sqrt(2) + JUDGED_IN).reshape(self.u.shape)
        self.blocked[0, self.v0] = False
        self.which = which.reshape(self.u.shape)
        self.labels = (*tuple(b.label for b in field.blockers), BOARD)

    def reach(self, lo: float, hi: float) -> Reach:
        """The bound over paths with headings in [lo, hi] turning one way: the tighter of the
        quarter-turn chain and the single cone (both hold for every such path)."""
        pieces = _pieces(lo, hi)
        up = self._chain(pieces)[:3]
        down = self._chain(pieces[::-1])[:3]
        chain = Reach(
            max(up[0], down[0]), min(up[1], down[1]), tuple(sorted(set(up[2]) | set(down[2])))
        )
        cone = self.cone(lo, hi)
        best = min(chain, cone, key=lambda r: r.longest_in)
        return Reach(best.longest_in, max(chain.edge_in, cone.edge_in), best.stopped_by)

    def furthest_in(self, length_in: float) -> float:
        """The furthest toward the edge any cell this model reaches within `length_in`."""
        h = self.h
        pieces = _pieces(-math.pi / 2, math.pi / 2)
        ever = self._chain(pieces)[3] | self._chain(pieces[::-1])[3]
        near = np.hypot(self.u, self.v) <= length_in + h
        return float((self.u + h / 2)[ever & near].max())

    def cone(self, lo: float, hi: float) -> Reach:
        """The bound over every path with headings in [lo, hi] (width under a half turn): in
        the cone's own coordinates q - p = a e_lo + b e_hi a path is monotone in a and b and
        no longer than a + b; parallelogram cells of side h scanned as in `_scan`."""
        field, h = self.field, self.h
        e_lo, e_hi = field.heading(lo), field.heading(hi)
        n = self.nu
        i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
        keep = (i + j) * h * math.cos((hi - lo) / 2) <= n * h
        centres = field.centres[self.model] + h * (
            (i.ravel() + 0.5)[:, None] * e_lo + (j.ravel() + 0.5)[:, None] * e_hi
        )
        depth, which = _depth(field, self.model, centres)
        reach_room = h / 2 * max(np.hypot(*(e_lo + e_hi)), np.hypot(*(e_lo - e_hi)))
        blocked = (depth.reshape(n, n) > reach_room + JUDGED_IN) | ~keep
        blocked[0, 0] = False
        k = np.full((n, n), NONE)
        k[0, 0] = 0.0
        live = _scan(k, blocked, ascending_v=True) > NONE / 2
        longest = float(((i + j + 2) * h)[live].max())
        gap = float(field.edge_gaps[self.model])
        ahead = h * ((i + 1) * float(e_lo @ field.toward) + (j + 1) * float(e_hi @ field.toward))
        near = live & (ahead >= gap - EDGE_TOUCH_IN - 1e-9)
        edge = max(gap - EDGE_TOUCH_IN, 0.0) if near.any() else math.inf
        front = blocked & keep & _grow(live)
        labels = which.reshape(n, n)[front]
        stopped = tuple(sorted({self.labels[k] for k in np.unique(labels)}))
        return Reach(longest, edge, stopped)

    def _chain(self, pieces: list[tuple[float, float]]) -> tuple:
        h = self.h
        k = np.full(self.u.shape, NONE)
        longest = 0.0
        g_prev: np.ndarray | None = None
        ever = np.zeros(self.u.shape, bool)
        for a, b in pieces:
            mid, _half = (a + b) / 2, (b - a) / 2
            g = np.array([1.0, 1.0 if mid >= 0 else -1.0])
            if g_prev is not None:
                d = g_prev - g
                gain = self.u * d[0] + self.v * d[1] + h / 2 * (abs(d[0]) + abs(d[1]))
                k = np.where(k > NONE / 2, k + gain, NONE)
            k[0, self.v0] = max(k[0, self.v0], 0.0)
            k = _scan(k, self.blocked, ascending_v=mid >= 0)
            live = k > NONE / 2
            ever |= live
            phi = self.u * g[0] + self.v * g[1] + h / 2 * (abs(g[0]) + abs(g[1]))
            longest = max(longest, float((k + phi)[live].max()))
            g_prev = g
        gap = float(self.field.edge_gaps[self.model])
        near = ever & (self.u + h / 2 >= gap - EDGE_TOUCH_IN - 1e-9)
        edge = max(gap - EDGE_TOUCH_IN, 0.0) if near.any() else math.inf
        front = self.blocked & (_grow(ever))
        stopped = tuple(sorted({self.labels[i] for i in np.unique(self.which[front])}))
        return longest, edge, stopped, ever


def furthest_in(field: FallBackField, length_in: float) -> float:
    """How far toward its own edge the unit's least advanced model could get along any route
    of `length_in` (from above; mates ignored): the least, over models, of the furthest cell
    any path reaches within that distance."""
    out = math.inf
    for i in range(len(field.model_ids)):
        cells = ModelCells(field, i, length_in)
        out = min(out, cells.furthest_in(length_in))
    return out


def _pieces(lo: float, hi: float) -> list[tuple[float, float]]:
    """[lo, hi] split at straight back (0): each piece within one quarter of the frame."""
    return [(lo, 0.0), (0.0, hi)] if lo < 0.0 < hi else [(lo, hi)]


def _scan(k: np.ndarray, blocked: np.ndarray, *, ascending_v: bool) -> np.ndarray:
    """The largest K carried from cell to cell stepping +u, or +-v (by `ascending_v`)."""
    out = np.where(blocked, NONE, k)
    if not ascending_v:
        out, blocked = out[:, ::-1], blocked[:, ::-1]
    segments = np.cumsum(blocked, axis=1) * SEGMENT
    for i in range(out.shape[0]):
        row = out[i] if i == 0 else np.maximum(out[i], np.where(blocked[i], NONE, out[i - 1]))
        row = np.where(blocked[i], NONE, row)
        run = np.maximum.accumulate(row + segments[i]) - segments[i]
        out[i] = np.where(blocked[i], NONE, np.maximum(run, NONE))
    return out if ascending_v else out[:, ::-1]


def _grow(a: np.ndarray) -> np.ndarray:
    out = a.copy()
    out[1:] |= a[:-1]
    out[:-1] |= a[1:]
    out[:, 1:] |= a[:, :-1]
    out[:, :-1] |= a[:, 1:]
    return out


def _depth(field: FallBackField, i: int, xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How deep the base centred at each point stands inside what it may not enter, beyond how
    deep it starts, and which blocker (the board last)."""
    r = field.radii[i]
    x, y = xy[:, 0], xy[:, 1]
    sides = np.stack([r - x, r - y, x + r - field.width, y + r - field.height], axis=1)
    depth = np.max(sides - field.board_allowed[i][None, :], axis=1)
    which = np.full(len(x), len(field.blockers))
    for j, b in enumerate(field.blockers):
        dist = distance_to(b.core, x, y)
        inside = r + field.grows[j] - field.allowed[i, j] - dist
        deeper = inside > depth
        which = np.where(deeper, j, which)
        depth = np.where(deeper, inside, depth)
    return depth, which


def distance_to(core: BaseGeometry, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Distance from each point to a core (a point, or the segments of lines and polygon
    rings, zero inside an area), without building a geometry per point."""
    if core.geom_type == "Point":
        return np.hypot(x - core.x, y - core.y)
    lines = core.boundary if core.geom_type in ("Polygon", "MultiPolygon") else core
    best = np.full(len(x), np.inf)
    for part in getattr(lines, "geoms", [lines]):
        pts = np.asarray(part.coords)
        for (ax, ay), (bx, by) in itertools.pairwise(pts):
            dx, dy = bx - ax, by - ay
            size = dx * dx + dy * dy
            t = np.clip(((x - ax) * dx + (y - ay) * dy) / size, 0.0, 1.0) if size else 0.0
            best = np.minimum(best, np.hypot(x - ax - t * dx, y - ay - t * dy))
    if core.geom_type in ("Polygon", "MultiPolygon"):
        best = np.where(shapely.contains_xy(core, x, y), 0.0, best)
    return best
