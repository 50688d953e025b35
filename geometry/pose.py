"""Where one base may stand: on the board, out of walls, impassable areas and barricades, and
flat on the ground or wholly on a floor. Shared by the start-layout check and the checker."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from chargeopt.geometry.footprints import Footprint, _min_width
from chargeopt.geometry.terrain import Battlefield, TerrainPiece
from chargeopt.models import OvalBase, RoundBase, TerrainKind

HEIGHT_TOLERANCE_IN = 1e-6
BOARD_TOLERANCE_IN = 1e-6
BLOCKING_KINDS = (TerrainKind.WALL, TerrainKind.IMPASSABLE, TerrainKind.BARRICADE)
KIND_WORDS = {
    TerrainKind.WALL: "wall",
    TerrainKind.IMPASSABLE: "impassable area",
    TerrainKind.BARRICADE: "barricade",
    TerrainKind.FLOOR: "floor",
    TerrainKind.DIFFICULT: "difficult area",
}


def footprint_bounds(fp: Footprint) -> tuple[float, float, float, float]:
    """(min x, min y, max x, max y) of the true base: closed forms for circles and ellipses."""
    if isinstance(fp.base, RoundBase):
        r = fp.base.radius_in
        return fp.x - r, fp.y - r, fp.x + r, fp.y + r
    if isinstance(fp.base, OvalBase):
        a, b = fp.base.semi_axes_in
        c, s = math.cos(math.radians(fp.facing)), math.sin(math.radians(fp.facing))
        hx, hy = math.hypot(a * c, b * s), math.hypot(a * s, b * c)
        return fp.x - hx, fp.y - hy, fp.x + hx, fp.y + hy
    return fp.polygon.bounds


def board_overhang(fp: Footprint, width: float, height: float) -> list[tuple[str, float]]:
    """Each board edge the base sticks out past, with how far (empty when wholly on the board)."""
    x0, y0, x1, y1 = footprint_bounds(fp)
    past = [("left", -x0), ("top", -y0), ("right", x1 - width), ("bottom", y1 - height)]
    return [(edge, amount) for edge, amount in past if amount > BOARD_TOLERANCE_IN]


def describe_overhang(past: list[tuple[str, float]]) -> str:
    """'0.13" past the left edge and 0.20" past the top edge'."""
    return " and ".join(f'{amount:.2f}" past the {edge} edge' for edge, amount in past)


def blocks_at(piece: TerrainPiece, z: float) -> bool:
    """Whether a piece occupies the height a model stands at (a piece without a height
    reaches up forever; a model on a floor above a wall's top is not inside it)."""
    top = piece.terrain.height
    return top is None or z < top - HEIGHT_TOLERANCE_IN


def terrain_depth(fp: Footprint, shape: BaseGeometry) -> float:
    """How deep a base reaches into a terrain shape (0 if it does not). Circles: exact, from the
    centre's distance to the shape; other bases: the smallest width of the intersection."""
    if isinstance(fp.base, RoundBase):
        centre = Point(fp.x, fp.y)
        outside = shapely.distance(centre, shape)
        if outside > 0:
            return max(0.0, fp.base.radius_in - outside)
        return fp.base.radius_in + shapely.distance(centre, shape.boundary)
    inter = shapely.intersection(fp.polygon, shape)
    if inter.is_empty or inter.area == 0:
        return 0.0
    return _min_width(inter)


def terrain_intrusions(
    fp: Footprint, battlefield: Battlefield, tolerance_in: float
) -> list[tuple[TerrainPiece, float]]:
    """Walls, impassable areas and barricades the base stands in, deeper than the tolerance."""
    found = []
    for piece in battlefield.of_kind(*BLOCKING_KINDS):
        if not blocks_at(piece, fp.z):
            continue
        depth = terrain_depth(fp, piece.shape)
        if depth > tolerance_in:
            found.append((piece, depth))
    return found


@dataclass(frozen=True)
class SurfaceProblem:
    """A base not flat on a surface: no floor at its height (overhang None), or overhanging
    the floors at that height by `overhang_in`."""

    floor_ids: tuple[str, ...]
    overhang_in: float | None


class Surfaces:
    """The floors grouped by height; floors of one height hold a base together."""

    def __init__(self, battlefield: Battlefield) -> None:
        groups: dict[float, list[TerrainPiece]] = {}
        for floor in battlefield.floors:
            groups.setdefault(floor.height, []).append(floor)
        self._levels = {
            h: (tuple(f.id for f in fs), shapely.union_all([f.shape for f in fs]))
            for h, fs in groups.items()
        }

    def level_at(self, z: float) -> tuple[tuple[str, ...], BaseGeometry] | None:
        for h, level in self._levels.items():
            if abs(h - z) <= HEIGHT_TOLERANCE_IN:
                return level
        return None

    def problem(self, fp: Footprint, tolerance_in: float) -> SurfaceProblem | None:
        """Why the base is not standing on the ground or wholly on a floor (None if it is)."""
        if abs(fp.z) <= HEIGHT_TOLERANCE_IN:
            return None
        level = self.level_at(fp.z)
        if level is None:
            return SurfaceProblem((), None)
        ids, shape = level
        overhang = floor_overhang(fp, shape)
        return SurfaceProblem(ids, overhang) if overhang > tolerance_in else None


def floor_overhang(fp: Footprint, floor: BaseGeometry) -> float:
    """How far a base reaches past the edge of a floor. Circles: radius minus the centre's
    distance to the edge (exact for a straight edge); other bases: the farthest vertex."""
    if isinstance(fp.base, RoundBase):
        centre = Point(fp.x, fp.y)
        r = fp.base.radius_in
        if shapely.contains(floor, centre):
            return max(0.0, r - shapely.distance(centre, floor.boundary))
        return r + shapely.distance(centre, floor)
    corners = shapely.points(np.asarray(fp.polygon.exterior.coords))
    return float(np.max(shapely.distance(corners, floor)))
