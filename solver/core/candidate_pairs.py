"""Pair relations between candidates: which two bases would overlap if both were used, and
which stand within coherency range (candidates stand on the written grid, so two that touch
touch as written). Round pairs in closed form; bounds along the centres' line settle most
others, shapely the rest."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import shapely
from shapely.geometry import Point, Polygon

from chargeopt.geometry import Footprint
from chargeopt.geometry.distance_matrix import pairs_within
from chargeopt.models import OvalBase, RoundBase
from chargeopt.solver.core.exact_limits import margin
from chargeopt.solver.core.tolerances import PAIR_KEPT_IN

if TYPE_CHECKING:
    from chargeopt.solver.core.candidates import Candidates


COARSE_SEGMENTS = 32


def _extents(c: Candidates, idx: np.ndarray, ux: np.ndarray, uy: np.ndarray):
    """For candidates `idx` and unit directions u: the support h(u) (how far the base reaches
    along u) and a radial lower bound r(u) (how far along u its outline surely is)."""
    h = np.empty(len(idx))
    r = np.empty(len(idx))
    for b, base in enumerate(c.base_keys):
        sel = c.base_of[idx] == b
        if not sel.any():
            continue
        if isinstance(base, RoundBase):
            h[sel] = r[sel] = base.radius_in
            continue
        phi = np.radians(c.facing[idx[sel]])
        along = ux[sel] * np.cos(phi) + uy[sel] * np.sin(phi)
        across = -ux[sel] * np.sin(phi) + uy[sel] * np.cos(phi)
        if isinstance(base, OvalBase):
            a, bb = base.semi_axes_in
            h[sel] = np.sqrt((a * along) ** 2 + (bb * across) ** 2)
            r[sel] = 1.0 / np.sqrt((along / a) ** 2 + (across / bb) ** 2)
        else:
            pts = np.array(base.points)
            h[sel] = np.max(
                along[:, None] * pts[None, :, 0] + across[:, None] * pts[None, :, 1], axis=1
            )
            r[sel] = Polygon(pts).exterior.distance(Point(0.0, 0.0))
    return h, r


def _measured_gaps(c: Candidates, i: np.ndarray, j: np.ndarray, limit: float) -> np.ndarray:
    """Edge gaps (-1 for overlap) of the pairs (i, j), as the checker's polygons measure them,
    wherever that decides overlap or coherency: coarse inscribed polygons first (inside the
    fine ones, so their intersection is an overlap and their distance an upper bound within
    the error band), the fine polygons only for pairs the band leaves undecided."""
    feet = {
        k: Footprint(
            c.base_keys[c.base_of[k]], float(c.x[k]), float(c.y[k]), 0.0, float(c.facing[k])
        )
        for k in np.unique(np.concatenate([i, j]))
    }
    coarse = {k: f.coarse_polygon(COARSE_SEGMENTS) for k, f in feet.items()}
    band = np.array(
        [
            feet[a].coarse_error_in(COARSE_SEGMENTS) + feet[b].coarse_error_in(COARSE_SEGMENTS)
            for a, b in zip(i, j, strict=True)
        ]
    )
    a = np.array([coarse[k] for k in i], dtype=object)
    b = np.array([coarse[k] for k in j], dtype=object)
    touching = shapely.intersects(a, b)
    gap = np.where(touching, -1.0, shapely.distance(a, b))
    fine = ~touching & ((gap < band) | ((gap > limit) & (gap - band <= limit)))
    if fine.any():
        fa = np.array([feet[k].polygon for k in i[fine]], dtype=object)
        fb = np.array([feet[k].polygon for k in j[fine]], dtype=object)
        gap[fine] = np.where(shapely.intersects(fa, fb), -1.0, shapely.distance(fa, fb))
    return gap


def near_pairs(c: Candidates, distance: float) -> np.ndarray:
    """Index pairs (i < j) of candidates whose centres stand at most `distance` apart. The
    widest query made is kept on the candidates and narrower ones are filtered from it (the
    fight helpers' pairs come from the coherency pairs' query)."""
    wide, pairs = c.memo.get("near_pairs", (-1.0, None))
    if pairs is None or wide < distance:
        pairs = pairs_within(c.x, c.y, distance)
        c.memo["near_pairs"] = (distance, pairs)
        return pairs
    i, j = pairs[:, 0], pairs[:, 1]
    return pairs[np.hypot(c.x[i] - c.x[j], c.y[i] - c.y[j]) <= distance]


def pair_relations(c: Candidates, rules: object) -> tuple[np.ndarray, np.ndarray]:
    """(conflicts, coherent): index pairs i<j whose bases would overlap if both were used, and
    pairs within coherency range of each other (horizontal and
    vertical), `PAIR_KEPT_IN` inside it (candidates are written as they stand, so only the
    summary's two roundings need room). Pairs of round bases use the closed form;
    otherwise bounds along the line between the centres settle most pairs and shapely
    measures only the rest."""
    if len(c) < 2:
        return np.empty((0, 2), int), np.empty((0, 2), int)
    outer = np.array([c.base_keys[b].circumradius_in for b in c.base_of])
    limit = rules.coherency_range_in - margin(PAIR_KEPT_IN)
    pairs = near_pairs(c, limit + 2 * outer.max())
    if len(pairs) == 0:
        return np.empty((0, 2), int), np.empty((0, 2), int)
    i, j = pairs[:, 0], pairs[:, 1]
    d = np.hypot(c.x[i] - c.x[j], c.y[i] - c.y[j])
    round_kind = np.array([isinstance(b, RoundBase) for b in c.base_keys])
    if round_kind.all():
        low = high = d - outer[i] - outer[j]
    else:
        ux = np.where(d > 1e-9, (c.x[j] - c.x[i]) / np.maximum(d, 1e-12), 1.0)
        uy = np.where(d > 1e-9, (c.y[j] - c.y[i]) / np.maximum(d, 1e-12), 0.0)
        hi_, ri_ = _extents(c, i, ux, uy)
        hj_, rj_ = _extents(c, j, -ux, -uy)
        low, high = d - hi_ - hj_, d - ri_ - rj_
        low[d < 1e-9] = high[d < 1e-9] = -1.0
    gap = low.copy()
    unsure = ((low < 0.0) & (high >= 0.0)) | ((low <= limit) & (high > limit))
    if unsure.any():
        gap[unsure] = _measured_gaps(c, i[unsure], j[unsure], limit)
    gap = np.where(high < 0.0, -1.0, gap)
    dz = np.abs(c.z[i] - c.z[j])
    clash = (gap < 0.0) & (dz < 0.01)
    conflicts = pairs[clash]
    near = ~clash & (np.maximum(gap, 0.0) <= limit) & (dz <= rules.coherency_vertical_in)
    return conflicts, pairs[near]
