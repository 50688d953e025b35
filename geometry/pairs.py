"""Distances between many bases at once: edge distances, overlap depths, height gaps and the
engagement test, as matrices. Round pairs use closed forms with numpy; only pairs with a
non-round base that are close enough to matter go through shapely."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely

from chargeopt.geometry.footprints import Footprint, overlap_depth
from chargeopt.geometry.terrain import Battlefield
from chargeopt.models import RuleSet

SAME_HEIGHT_IN = 0.01
RANGE_SLACK_IN = 1e-6


@dataclass(frozen=True)
class Bases:
    """A row of footprints as arrays: centres, heights, circumradii and which are round."""

    footprints: tuple[Footprint, ...]
    xy: np.ndarray
    z: np.ndarray
    radius: np.ndarray
    is_round: np.ndarray

    @classmethod
    def of(cls, footprints: Sequence[Footprint]) -> Bases:
        fps = tuple(footprints)
        return cls(
            fps,
            np.array([(f.x, f.y) for f in fps], dtype=float).reshape(-1, 2),
            np.array([f.z for f in fps], dtype=float),
            np.array([f.radius_in for f in fps], dtype=float),
            np.array([f.is_round for f in fps], dtype=bool),
        )

    def __len__(self) -> int:
        return len(self.footprints)


def centre_distances(a: Bases, b: Bases) -> np.ndarray:
    diff = a.xy[:, None, :] - b.xy[None, :, :]
    return np.hypot(diff[..., 0], diff[..., 1])


def height_gaps(a: Bases, b: Bases) -> np.ndarray:
    return np.abs(a.z[:, None] - b.z[None, :])


def edge_distances(a: Bases, b: Bases, exact_within: float = math.inf) -> np.ndarray:
    """Edge-to-edge horizontal distances. Exact (to the footprint polygons for ovals and hulls)
    wherever the true value is at most `exact_within`; elsewhere a lower bound above it."""
    centre = centre_distances(a, b)
    out = np.maximum(0.0, centre - a.radius[:, None] - b.radius[None, :])
    odd = ~(a.is_round[:, None] & b.is_round[None, :]) & (out <= exact_within)
    for i, j in zip(*np.nonzero(odd), strict=True):
        out[i, j] = _mixed_distance(a.footprints[i], b.footprints[j])
    return out


def _mixed_distance(a: Footprint, b: Footprint) -> float:
    """A circle's distance is its centre's distance minus its radius (exact, no polygon)."""
    if a.is_round:
        return max(0.0, float(shapely.distance(shapely.Point(a.x, a.y), b.polygon)) - a.radius_in)
    if b.is_round:
        return _mixed_distance(b, a)
    return float(shapely.distance(a.polygon, b.polygon))


def overlap_depths(a: Bases, b: Bases) -> np.ndarray:
    """How deep each pair of bases overlaps horizontally (0 where they do not)."""
    centre = centre_distances(a, b)
    out = np.maximum(0.0, a.radius[:, None] + b.radius[None, :] - centre)
    odd = ~(a.is_round[:, None] & b.is_round[None, :]) & (out > 0)
    for i, j in zip(*np.nonzero(odd), strict=True):
        out[i, j] = overlap_depth(a.footprints[i], b.footprints[j])
    return out


def close_pairs(bases: Bases, within_in: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Index pairs (i < j, in row order) whose circumscribed circles come within `within_in`
    of each other: a superset of the pairs at most that far apart edge to edge, found with a
    spatial index (STRtree) so n bases cost about n log n, not an n x n matrix."""
    if len(bases) < 2:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty
    reach = bases.radius + within_in / 2
    x, y = bases.xy[:, 0], bases.xy[:, 1]
    boxes = shapely.box(x - reach, y - reach, x + reach, y + reach)
    first, second = shapely.STRtree(boxes).query(boxes, predicate="intersects")
    keep = first < second
    first, second = first[keep], second[keep]
    order = np.lexsort((second, first))
    return first[order], second[order]


def pair_overlap_depths(bases: Bases, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """`overlap_depths` for the listed pairs only (closed form for two round bases)."""
    gap = np.hypot(*(bases.xy[first] - bases.xy[second]).T).reshape(-1)
    out = np.maximum(0.0, bases.radius[first] + bases.radius[second] - gap)
    odd = ~(bases.is_round[first] & bases.is_round[second]) & (out > 0)
    for k in np.nonzero(odd)[0]:
        out[k] = overlap_depth(bases.footprints[first[k]], bases.footprints[second[k]])
    return out


def depth_words(depth_in: float) -> str:
    """How deep an overlap is, in words precise enough to show a thousandth of an inch."""
    return f'{depth_in:.2f}"' if depth_in >= 0.01 else f'{depth_in:.4f}"'


def barricade_crossings(
    a: Bases, b: Bases, battlefield: Battlefield, pairs: np.ndarray
) -> np.ndarray:
    """For the pairs marked in `pairs`: whether the segment between the two centres crosses a
    barricade (those models are on opposite sides of it)."""
    out = np.zeros(pairs.shape, dtype=bool)
    barricades = battlefield.barricades
    if not barricades or not pairs.any():
        return out
    wall = shapely.union_all([p.shape for p in barricades])
    shapely.prepare(wall)
    ii, jj = np.nonzero(pairs)
    segments = shapely.linestrings(np.stack((a.xy[ii], b.xy[jj]), axis=1))
    out[ii, jj] = shapely.intersects(wall, segments)
    return out


@dataclass(frozen=True)
class Engagement:
    """Which pairs are within engagement range, with the distances and the range that applied."""

    engaged: np.ndarray
    distance: np.ndarray
    range_in: np.ndarray


def engagement(
    a: Bases, b: Bases, rules: RuleSet, battlefield: Battlefield, margin_in: float = 0.0
) -> Engagement:
    """Engagement range: edge distance within the range (the barricade range across a
    barricade) and vertical separation within the vertical limit. `margin_in` is kept inside
    the horizontal range (the solver's margin; the checker reads it exactly)."""
    reach = max(rules.engagement_range_in, rules.barricade_engagement_range_in)
    distance = edge_distances(a, b, exact_within=reach + RANGE_SLACK_IN)
    level = height_gaps(a, b) <= rules.engagement_vertical_in + RANGE_SLACK_IN
    range_in = np.full(distance.shape, rules.engagement_range_in)
    across = barricade_crossings(a, b, battlefield, level)
    range_in[across] = rules.barricade_engagement_range_in
    engaged = level & (distance <= range_in - margin_in + RANGE_SLACK_IN)
    return Engagement(engaged, distance, range_in)
