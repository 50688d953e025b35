"""Cells of the conservative relaxation: convex quadrilaterals that each contain every centre
position they stand for. Squares tile the board; sectors tile the thin ring of centres where a
base touches a target model. Every distance test pads by `EPS_IN` so that it only loosens."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely

EPS_IN = 1e-3
"""Every test of the relaxation is padded by this much, in the direction that loosens it."""
SETTLED_IN = 1e-9
"""How far from a limit the centres' distance must be to settle a pair without the corners
(so that rounding never decides)."""
SQUARE = 0
SECTOR = 1


@dataclass(frozen=True)
class Cells:
    """n cells: `corners` (n, 4, 2) of a convex superset of each cell, `kind` (SQUARE or
    SECTOR), `ring` (the sector's ring index, -1 for squares) and `shape` (x0, y0, side, 0, 0)
    for squares or (rho0, rho1, theta0, theta1, 0) around the ring's centre for sectors."""

    corners: np.ndarray
    kind: np.ndarray
    ring: np.ndarray
    shape: np.ndarray

    def __len__(self) -> int:
        return len(self.kind)

    @property
    def size_in(self) -> np.ndarray:
        """The longest extent a split would halve: the side of a square, for a sector the
        longer of its arc length and radial depth."""
        sq = self.shape[:, 2]
        arc = self.shape[:, 1] * (self.shape[:, 3] - self.shape[:, 2])
        depth = self.shape[:, 1] - self.shape[:, 0]
        return np.where(self.kind == SQUARE, sq, np.maximum(arc, depth))

    @property
    def polygons(self) -> np.ndarray:
        return shapely.polygons(self.corners)

    @property
    def centres(self) -> np.ndarray:
        return self.corners.mean(axis=1)

    @property
    def diameter_in(self) -> np.ndarray:
        """Largest distance between two points of each cell (between corners: it is convex)."""
        d = self.corners[:, :, None, :] - self.corners[:, None, :, :]
        return np.sqrt((d**2).sum(axis=-1)).max(axis=(1, 2))


def squares(x0: float, y0: float, x1: float, y1: float, side: float) -> Cells:
    """Squares of `side` covering the box [x0, x1] x [y0, y1]."""
    xs = x0 + side * np.arange(max(1, int(np.ceil((x1 - x0) / side - 1e-9))))
    ys = y0 + side * np.arange(max(1, int(np.ceil((y1 - y0) / side - 1e-9))))
    gx, gy = (a.ravel() for a in np.meshgrid(xs, ys))
    return _squares(gx, gy, np.full(len(gx), side))


def points(x: np.ndarray, y: np.ndarray) -> Cells:
    """Cells of no extent at the points (x, y): a packing over them is a placement."""
    return _squares(x, y, np.zeros(len(x)))


def _squares(x: np.ndarray, y: np.ndarray, side: np.ndarray) -> Cells:
    corners = np.stack(
        [np.column_stack(p) for p in ((x, y), (x + side, y), (x + side, y + side), (x, y + side))],
        axis=1,
    )
    shape = np.column_stack((x, y, side, np.zeros(len(x)), np.zeros(len(x))))
    return Cells(corners, np.full(len(x), SQUARE), np.full(len(x), -1), shape)


def sectors(centre: tuple[float, float], rho0: float, rho1: float, count: int, ring: int) -> Cells:
    """`count` equal sectors of the annulus rho0 <= r <= rho1 around `centre`."""
    th = np.linspace(0.0, 2 * np.pi, count + 1)
    return _sectors(centre, np.full(count, rho0), np.full(count, rho1), th[:-1], th[1:], ring)


def _sectors(centre, rho0, rho1, th0, th1, ring: int | np.ndarray) -> Cells:
    """Each sector's superset: the wedge cut by its inner chord and its outer tangent."""
    cx, cy = centre if not isinstance(centre, np.ndarray) else (centre[:, 0], centre[:, 1])
    outer = rho1 / np.cos((th1 - th0) / 2)
    pts = [(rho0, th0), (outer, th0), (outer, th1), (rho0, th1)]
    corners = np.stack(
        [np.column_stack((cx + r * np.cos(t), cy + r * np.sin(t))) for r, t in pts], axis=1
    )
    n = len(rho0)
    shape = np.column_stack((rho0, rho1, th0, th1, np.zeros(n)))
    return Cells(corners, np.full(n, SECTOR), np.broadcast_to(ring, (n,)).copy(), shape)


def concat(parts: list[Cells]) -> Cells:
    parts = [p for p in parts if len(p)]
    if not parts:
        return Cells(np.empty((0, 4, 2)), np.empty(0, int), np.empty(0, int), np.empty((0, 5)))
    return Cells(
        np.concatenate([p.corners for p in parts]),
        np.concatenate([p.kind for p in parts]),
        np.concatenate([p.ring for p in parts]),
        np.concatenate([p.shape for p in parts]),
    )


def subset(cells: Cells, keep: np.ndarray) -> Cells:
    return Cells(cells.corners[keep], cells.kind[keep], cells.ring[keep], cells.shape[keep])


def split(cells: Cells, which: np.ndarray, ring_centres: np.ndarray) -> Cells:
    """Replace the cells `which` by their halves (sectors, along their longer extent) or
    quarters (squares); the others stay as they are."""
    mask = np.zeros(len(cells), bool)
    mask[which] = True
    keep = subset(cells, ~mask)
    sq = mask & (cells.kind == SQUARE)
    x, y, s = (cells.shape[sq, k] for k in range(3))
    h = s / 2
    quarters = _squares(
        np.concatenate([x, x + h, x, x + h]),
        np.concatenate([y, y, y + h, y + h]),
        np.concatenate([h, h, h, h]),
    )
    se = mask & (cells.kind == SECTOR)
    r0, r1, t0, t1 = (cells.shape[se, k] for k in range(4))
    ring = cells.ring[se]
    by_arc = r1 * (t1 - t0) >= r1 - r0
    tm, rm = (t0 + t1) / 2, (r0 + r1) / 2
    halves = [
        (r0, r1, t0, np.where(by_arc, tm, t1)),
        (np.where(by_arc, r0, rm), r1, np.where(by_arc, tm, t0), t1),
    ]
    parts = [keep, quarters]
    for a0, a1, b0, b1 in halves:
        parts.append(_sectors(ring_centres[ring], a0, a1, b0, b1, ring))
    return concat(parts)


def max_distance(cells: Cells, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Largest distance between a point of cell i and a point of cell j (corner to corner)."""
    d = cells.corners[i][:, :, None, :] - cells.corners[j][:, None, :, :]
    return np.sqrt((d**2).sum(axis=-1)).max(axis=(1, 2))


def closer_than(cells: Cells, i: np.ndarray, j: np.ndarray, limit: np.ndarray) -> np.ndarray:
    """Whether every point of cell i is closer than `limit` to every point of cell j, as
    `max_distance(cells, i, j) < limit`: the centres' distance settles most pairs (the largest
    distance is at least it, and at most it plus both cells' spreads), corners only the rest."""
    centres = cells.centres
    spread = np.sqrt(((cells.corners - centres[:, None, :]) ** 2).sum(axis=-1)).max(axis=1)
    gap = np.hypot(*(centres[i] - centres[j]).T)
    out = gap + spread[i] + spread[j] < limit - SETTLED_IN
    unsure = np.flatnonzero(~out & (gap <= limit + SETTLED_IN))
    out[unsure] = max_distance(cells, i[unsure], j[unsure]) < limit[unsure]
    return out


def min_distance(polys_i: np.ndarray, polys_j: np.ndarray) -> np.ndarray:
    """Smallest distance between the polygons (0 where they meet)."""
    return shapely.distance(polys_i, polys_j)


def point_max_distance(cells: Cells, x: float, y: float) -> np.ndarray:
    """Largest distance from (x, y) to a point of each cell."""
    return np.hypot(cells.corners[:, :, 0] - x, cells.corners[:, :, 1] - y).max(axis=1)


def point_min_distance(cells: Cells, x: float, y: float) -> np.ndarray:
    """Smallest distance from (x, y) to each cell (0 inside it)."""
    return shapely.distance(cells.polygons, shapely.points(x, y))


def within_of_points(cells: Cells, points: np.ndarray, limit: float) -> np.ndarray:
    """Cells (rows) by points (columns): whether the cell's nearest point is within `limit` of
    the point. A cell holds its centre and lies within its farthest corner's distance of it, so
    the centre's distance settles most pairs and shapely measures only those between, in one
    call (the same verdicts, far fewer measurements)."""
    centres = cells.centres
    d = np.hypot(centres[:, None, 0] - points[None, :, 0], centres[:, None, 1] - points[None, :, 1])
    spread = np.sqrt(((cells.corners - centres[:, None, :]) ** 2).sum(axis=-1)).max(axis=1)
    out = d <= limit - SETTLED_IN
    ci, pj = np.nonzero(~out & (d - spread[:, None] <= limit + SETTLED_IN))
    if len(ci):
        used, row = np.unique(ci, return_inverse=True)
        polys = shapely.polygons(cells.corners[used])[row.ravel()]
        out[ci, pj] = shapely.distance(polys, shapely.points(points[pj])) <= limit
    return out


def square_capacity(side: np.ndarray, spacing: float) -> np.ndarray:
    """At least as many as the points pairwise at least `spacing` apart inside a square of
    `side`: split it into (floor(side * sqrt 2 / spacing) + 1)^2 sub-squares, each of diagonal
    under `spacing`, so each holds at most one point."""
    return ((np.floor(side * np.sqrt(2) / spacing) + 1) ** 2).astype(int)
