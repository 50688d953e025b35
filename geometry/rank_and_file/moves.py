"""Forward moves and wheels of a block, the area each sweeps, and how far a wheel counts.

A wheel pivots the block about a front corner: a wheel to the right (facing grows, clockwise on
the table since y points down) pivots about the front-right corner; every model counts as
moving as far as the outer front corner travels: the arc (default) or the chord.
The swept area of a wheel is exact up to the arc's polygon, drawn outside the true arc: the
start, the end, and the sector of radius the pivot's far diagonal between the two diagonals.
"""

from __future__ import annotations

import math

from shapely.geometry import LineString, Polygon
from shapely.ops import unary_union

from chargeopt.geometry.rank_and_file.frame import BlockPose, heading_of, unit_vector

ARC_STEP_DEG = 2.0
"""The sector's outline is drawn with corners this far apart, outside the true arc."""


def forward(pose: BlockPose, distance_in: float) -> BlockPose:
    f = pose.forward
    return pose.moved(pose.x + distance_in * f[0], pose.y + distance_in * f[1], pose.facing)


def forward_sweep(pose: BlockPose, distance_in: float) -> Polygon:
    """The area a straight forward move covers (start, end and everything between)."""
    return unary_union([pose.polygon, forward(pose, distance_in).polygon]).convex_hull


def pivot_of(angle_deg: float) -> str:
    """The front corner a wheel of `angle_deg` turns about (positive: to the right)."""
    return "front-right" if angle_deg > 0 else "front-left"


def wheel(pose: BlockPose, angle_deg: float) -> BlockPose:
    """The block after wheeling `angle_deg` about the front corner on the inside."""
    if angle_deg == 0:
        return pose
    px, py = pose.corners[pivot_of(angle_deg)]
    facing = pose.facing + angle_deg
    f = unit_vector(facing)
    r = (-f[1], f[0])
    if angle_deg > 0:  # the pivot stays the front-right corner: front-left is W to its left
        return pose.moved(px - pose.width_in * r[0], py - pose.width_in * r[1], facing)
    return pose.moved(px, py, facing)


def wheel_travel(width_in: float, angle_deg: float, metric: str = "arc") -> float:
    """How far the outer front corner travels in a wheel: arc length or straight chord."""
    a = math.radians(abs(angle_deg))
    return width_in * a if metric == "arc" else 2 * width_in * math.sin(a / 2)


def wheel_sweep(pose: BlockPose, angle_deg: float) -> Polygon:
    """The area a wheel covers: start, end and the sector of the far corner's circle."""
    end = wheel(pose, angle_deg)
    if angle_deg == 0:
        return pose.polygon
    pivot = pose.corners[pivot_of(angle_deg)]
    far = pose.corners["rear-left" if angle_deg > 0 else "rear-right"]
    radius = math.dist(pivot, far)
    start_deg = heading_of((far[0] - pivot[0], far[1] - pivot[1]))
    steps = max(1, math.ceil(abs(angle_deg) / ARC_STEP_DEG))
    step = angle_deg / steps
    outer = radius / math.cos(math.radians(abs(step) / 2))
    ring = [pivot, _on_circle(pivot, radius, start_deg)]
    ring += [_on_circle(pivot, outer, start_deg + (i + 0.5) * step) for i in range(steps)]
    ring.append(_on_circle(pivot, radius, start_deg + angle_deg))
    return unary_union([pose.polygon, end.polygon, Polygon(ring).buffer(0)])


def _on_circle(centre: tuple[float, float], radius: float, deg: float) -> tuple[float, float]:
    u = unit_vector(deg)
    return (centre[0] + radius * u[0], centre[1] + radius * u[1])


def first_hit_ahead(
    pose: BlockPose, obstacles: dict[str, Polygon], reach_in: float = 1000.0
) -> tuple[str, float] | None:
    """The first obstacle a straight forward move would hit, and after how far; None if none
    lies in the block's forward path within `reach_in`."""
    lane = forward_sweep(pose, reach_in)
    best: tuple[str, float] | None = None
    for name, shape in obstacles.items():
        if not lane.intersects(shape):
            continue
        gap = _gap_ahead(pose, shape)
        if gap is not None and (best is None or gap < best[1]):
            best = (name, gap)
    return best


def _gap_ahead(pose: BlockPose, shape: Polygon) -> float | None:
    """How far the front can move before touching `shape`: the least `ahead` of the shape's
    part inside the block's lane (its width between the two flank lines)."""
    w = pose.width_in
    lane = Polygon(
        [pose.at(0, -pose.depth_in), pose.at(w, -pose.depth_in), pose.at(w, 1e4), pose.at(0, 1e4)]
    )
    part = lane.intersection(shape)
    if part.is_empty:
        return None
    points = _points(part)
    return max(0.0, min(pose.local(p)[1] for p in points))


def _points(geom: object) -> list[tuple[float, float]]:
    if hasattr(geom, "geoms"):
        return [p for g in geom.geoms for p in _points(g)]
    if isinstance(geom, Polygon):
        return list(geom.exterior.coords)
    if isinstance(geom, LineString):
        return list(geom.coords)
    return list(getattr(geom, "coords", []))


def rotate_about(pose: BlockPose, centre: tuple[float, float], angle_deg: float) -> BlockPose:
    """The block turned `angle_deg` (positive: clockwise on the table) about `centre`."""
    c, s = unit_vector(angle_deg)
    dx, dy = pose.x - centre[0], pose.y - centre[1]
    return pose.moved(
        centre[0] + c * dx - s * dy, centre[1] + s * dx + c * dy, pose.facing + angle_deg
    )
