"""Base footprints at a pose, and exact edge-to-edge distances between them.

Round bases are circles and use closed forms. Ovals are drawn as polygons inscribed in the
ellipse with `OVAL_SEGMENTS` vertices: every distance measured on them is within
`OVAL_ERROR_IN` per oval of the true ellipse (the polygon lies inside it, so polygon distances
can only overstate a gap by at most that much). Hulls are exact polygons.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely
from shapely.geometry import Point, Polygon

from chargeopt.models import HullBase, OvalBase, RoundBase

OVAL_SEGMENTS = 256
CIRCLE_QUAD_SEGMENTS = 32
OVAL_ERROR_IN = (
    60 / 25.4 / 2 * (1 - math.cos(math.pi / OVAL_SEGMENTS))
)  # 60mm oval; scales with size

BaseShape = RoundBase | OvalBase | HullBase


@dataclass(frozen=True)
class Footprint:
    """Where a base stands: its shape, centre (inches), height of its surface and facing."""

    base: BaseShape
    x: float
    y: float
    z: float = 0.0
    facing: float = 0.0

    @property
    def is_round(self) -> bool:
        return isinstance(self.base, RoundBase)

    @property
    def radius_in(self) -> float:
        """Radius of a round base; the circumradius otherwise."""
        return self.base.circumradius_in

    def coarse_polygon(self, segments: int) -> Polygon:
        """A polygon with `segments` vertices inscribed in the base, inside `polygon`, and at
        most `coarse_error_in(segments)` from the true outline."""
        if isinstance(self.base, RoundBase):
            return Point(self.x, self.y).buffer(self.base.radius_in, quad_segs=segments // 4)
        if isinstance(self.base, OvalBase):
            a, b = self.base.semi_axes_in
            return oval_polygon(a, b, self.x, self.y, self.facing, segments)
        return self.polygon

    def coarse_error_in(self, segments: int) -> float:
        """How far the outline may lie outside `coarse_polygon(segments)`."""
        if isinstance(self.base, HullBase):
            return 0.0
        return self.base.circumradius_in * (1 - math.cos(math.pi / segments))

    @cached_property
    def polygon(self) -> Polygon:
        """The footprint as a shapely polygon (a fine circle, inscribed oval, or the hull)."""
        if isinstance(self.base, RoundBase):
            return Point(self.x, self.y).buffer(self.base.radius_in, quad_segs=CIRCLE_QUAD_SEGMENTS)
        if isinstance(self.base, OvalBase):
            a, b = self.base.semi_axes_in
            return oval_polygon(a, b, self.x, self.y, self.facing)
        return hull_polygon(self.base, self.x, self.y, self.facing)


def oval_polygon(
    a: float, b: float, x: float, y: float, facing_deg: float, segments: int = OVAL_SEGMENTS
) -> Polygon:
    """An ellipse with semi-axes a (along the facing) and b, as an inscribed polygon. Its
    vertices are a subset of the default polygon's whenever `segments` divides OVAL_SEGMENTS,
    so a coarser one lies inside it."""
    t = np.linspace(0.0, 2 * math.pi, segments, endpoint=False)
    c, s = math.cos(math.radians(facing_deg)), math.sin(math.radians(facing_deg))
    ex, ey = a * np.cos(t), b * np.sin(t)
    return Polygon(np.column_stack((x + c * ex - s * ey, y + s * ex + c * ey)))


def hull_polygon(hull: HullBase, x: float, y: float, facing_deg: float) -> Polygon:
    """A hull's points rotated by the facing and moved to (x, y)."""
    c, s = math.cos(math.radians(facing_deg)), math.sin(math.radians(facing_deg))
    return Polygon([(x + c * px - s * py, y + s * px + c * py) for px, py in hull.points])


def edge_distance(a: Footprint, b: Footprint) -> float:
    """Closest horizontal distance between two bases (0 when they touch or overlap)."""
    if a.is_round and b.is_round:
        return max(0.0, math.hypot(a.x - b.x, a.y - b.y) - a.radius_in - b.radius_in)
    return float(shapely.distance(a.polygon, b.polygon))


def overlap_depth(a: Footprint, b: Footprint) -> float:
    """How deep two bases overlap (0 if they do not): for circles the closed form
    r1 + r2 - d; otherwise the smallest width of the intersection (a tight proxy)."""
    if a.is_round and b.is_round:
        return max(0.0, a.radius_in + b.radius_in - math.hypot(a.x - b.x, a.y - b.y))
    inter = shapely.intersection(a.polygon, b.polygon)
    if inter.is_empty or inter.area == 0:
        return 0.0
    return _min_width(inter)


def vertical_separation(a: Footprint, b: Footprint) -> float:
    """Difference of the heights the two models stand at."""
    return abs(a.z - b.z)


def _min_width(geometry: shapely.Geometry) -> float:
    hull = shapely.convex_hull(geometry)
    coords = np.asarray(hull.exterior.coords)[:-1]
    best = math.inf
    for i in range(len(coords)):
        e = coords[(i + 1) % len(coords)] - coords[i]
        n = np.hypot(*e)
        if n == 0:
            continue
        normal = np.array([-e[1], e[0]]) / n
        proj = coords @ normal
        best = min(best, float(proj.max() - proj.min()))
    return best
