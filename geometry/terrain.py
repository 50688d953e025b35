"""Terrain as exact shapes: walls and barricades as thick polylines with mitred corners,
floors as polygons at a height, impassable and difficult areas, and the board."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import shapely
from shapely.geometry import LinearRing, LineString, Polygon, box
from shapely.geometry.base import BaseGeometry

from chargeopt.models import Scenario, Terrain, TerrainKind

MITRE_LIMIT = 10.0


def terrain_shape(piece: Terrain) -> BaseGeometry:
    """The footprint of a terrain piece (walls and barricades: polyline grown by half its
    thickness with flat ends and mitred corners)."""
    if piece.kind in (TerrainKind.WALL, TerrainKind.BARRICADE):
        assert piece.thickness is not None
        line = LinearRing(piece.path[:-1]) if piece.is_closed else LineString(piece.path)
        return line.buffer(
            piece.thickness / 2, cap_style="flat", join_style="mitre", mitre_limit=MITRE_LIMIT
        )
    ring = piece.path[:-1] if piece.is_closed else piece.path
    polygon = Polygon(ring)
    return polygon if polygon.is_valid else shapely.make_valid(polygon)


@dataclass(frozen=True)
class TerrainPiece:
    """A terrain piece with its shape, prepared for repeated queries."""

    terrain: Terrain
    shape: BaseGeometry = field(compare=False)

    @property
    def id(self) -> str:
        return self.terrain.id

    @property
    def kind(self) -> TerrainKind:
        return self.terrain.kind

    @property
    def height(self) -> float:
        return self.terrain.height or 0.0


@dataclass(frozen=True)
class Battlefield:
    """The board and every terrain piece as shapes, built once per scenario."""

    width: float
    height: float
    pieces: tuple[TerrainPiece, ...]

    @classmethod
    def from_scenario(cls, scenario: Scenario) -> Battlefield:
        pieces = []
        for t in scenario.terrain:
            shape = terrain_shape(t)
            shapely.prepare(shape)
            pieces.append(TerrainPiece(t, shape))
        return cls(scenario.board.width, scenario.board.height, tuple(pieces))

    @cached_property
    def board(self) -> Polygon:
        return box(0.0, 0.0, self.width, self.height)

    def of_kind(self, *kinds: TerrainKind) -> tuple[TerrainPiece, ...]:
        return tuple(p for p in self.pieces if p.kind in kinds)

    @property
    def walls(self) -> tuple[TerrainPiece, ...]:
        return self.of_kind(TerrainKind.WALL)

    @property
    def floors(self) -> tuple[TerrainPiece, ...]:
        return self.of_kind(TerrainKind.FLOOR)

    @property
    def impassable(self) -> tuple[TerrainPiece, ...]:
        return self.of_kind(TerrainKind.IMPASSABLE)

    @property
    def barricades(self) -> tuple[TerrainPiece, ...]:
        return self.of_kind(TerrainKind.BARRICADE)

    def surface_heights(self) -> tuple[float, ...]:
        """Every height a model may stand at: the ground and each floor."""
        return tuple(sorted({0.0, *(f.height for f in self.floors)}))
