"""Vectorised edge-to-edge distances between many base poses and a few fixed footprints."""

from __future__ import annotations

import numpy as np
import shapely

from chargeopt.geometry.footprints import BaseShape, Footprint
from chargeopt.models import RoundBase


def poses_polygons(
    base: BaseShape, xs: np.ndarray, ys: np.ndarray, facings: np.ndarray
) -> np.ndarray:
    """Footprint polygons of one base at many poses (only needed for non-round bases)."""
    return np.array(
        [
            Footprint(base, float(x), float(y), 0.0, float(f)).polygon
            for x, y, f in zip(xs, ys, facings, strict=True)
        ],
        dtype=object,
    )


def edge_distances(
    base: BaseShape,
    xs: np.ndarray,
    ys: np.ndarray,
    facings: np.ndarray,
    others: list[Footprint],
    polygons: np.ndarray | None = None,
) -> np.ndarray:
    """Matrix (len(xs), len(others)) of horizontal edge distances, 0 where bases touch or
    overlap. Round-to-round pairs use the closed form; anything else uses shapely."""
    out = np.empty((len(xs), len(others)))
    if not others or len(xs) == 0:
        return out
    for j, other in enumerate(others):
        if isinstance(base, RoundBase) and other.is_round:
            d = np.hypot(xs - other.x, ys - other.y) - base.radius_in - other.radius_in
            out[:, j] = np.maximum(d, 0.0)
        else:
            if polygons is None:
                polygons = poses_polygons(base, xs, ys, facings)
            out[:, j] = shapely.distance(polygons, other.polygon)
    return out


def signed_round_gaps(
    xs: np.ndarray, ys: np.ndarray, radius_in: float, others: list[Footprint]
) -> np.ndarray:
    """Like edge_distances for a round base against round others, but negative when the bases
    overlap (the overlap depth), which the 'no overlap' filters need."""
    out = np.empty((len(xs), len(others)))
    for j, other in enumerate(others):
        out[:, j] = np.hypot(xs - other.x, ys - other.y) - radius_in - other.radius_in
    return out


def pairs_within(xs: np.ndarray, ys: np.ndarray, distance: float) -> np.ndarray:
    """Index pairs (i, j), i < j, of points at most `distance` apart (an STR-tree query)."""
    points = shapely.points(xs, ys)
    left, right = shapely.STRtree(points).query(points, predicate="dwithin", distance=distance)
    keep = left < right
    return np.column_stack((left[keep], right[keep])).astype(int)


def points_near(
    anchors: np.ndarray, xs: np.ndarray, ys: np.ndarray, radius: float
) -> list[np.ndarray]:
    """For each anchor (rows of x, y), the indices of the points within `radius` of it."""
    points = shapely.points(xs, ys)
    which, found = shapely.STRtree(points).query(
        shapely.points(anchors[:, 0], anchors[:, 1]), predicate="dwithin", distance=radius
    )
    order = np.argsort(which, kind="stable")
    which, found = which[order], found[order]
    cuts = np.searchsorted(which, np.arange(len(anchors) + 1))
    return [np.sort(found[cuts[a] : cuts[a + 1]]) for a in range(len(anchors))]
