"""How far a shape can translate along a direction before it touches another: the first
contact of two polygons in translation is a vertex of one meeting an edge of the other, so
casting rays from every vertex both ways gives the exact distance and the touching point."""

from __future__ import annotations

from itertools import pairwise

from shapely.geometry import Polygon

from chargeopt.geometry.rank_and_file.frame import Vec

Ring = list[Vec]


def rings_of(shape: Polygon) -> list[Ring]:
    """The closed rings (outline and holes) of a polygon or of several."""
    polys = list(shape.geoms) if hasattr(shape, "geoms") else [shape]
    out = []
    for poly in polys:
        if isinstance(poly, Polygon) and not poly.is_empty:
            out.append(list(poly.exterior.coords))
            out += [list(i.coords) for i in poly.interiors]
    return out


def _ray_hit(origin: Vec, d: Vec, a: Vec, b: Vec) -> float | None:
    """Distance t >= 0 along unit ray origin + t d to segment ab, or None."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    den = d[0] * ey - d[1] * ex
    if abs(den) < 1e-15:
        return None
    ox, oy = a[0] - origin[0], a[1] - origin[1]
    t = (ox * ey - oy * ex) / den
    s = (ox * d[1] - oy * d[0]) / den
    if t < -1e-9 or s < -1e-12 or s > 1 + 1e-12:
        return None
    return max(t, 0.0)


def travel_until_touch(
    moving: Polygon | list[Ring], direction: Vec, fixed: Polygon | list[Ring]
) -> tuple[float, Vec] | None:
    """(distance, touching point) when `moving`, translated along the unit `direction`, first
    touches `fixed`; None if it never does. Either shape may be given as its rings."""
    best: tuple[float, Vec] | None = None
    back = (-direction[0], -direction[1])
    moving_rings = moving if isinstance(moving, list) else rings_of(moving)
    fixed_rings = fixed if isinstance(fixed, list) else rings_of(fixed)
    for rings_from, rings_to, d, sign in (
        (moving_rings, fixed_rings, direction, 1),
        (fixed_rings, moving_rings, back, -1),
    ):
        for ring in rings_from:
            for v in ring[:-1]:
                for edge in rings_to:
                    for a, b in pairwise(edge):
                        t = _ray_hit(v, d, a, b)
                        if t is None or (best is not None and t >= best[0]):
                            continue
                        point = v if sign < 0 else (v[0] + t * d[0], v[1] + t * d[1])
                        best = (t, point)
    return best
