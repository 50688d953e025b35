"""The configuration space of a base: where its centre may end.

Exact for round bases up to the polygon arcs, which are drawn around the true circles so the
region never includes a spot that is not free. Ovals and hulls are grown by their
circumradius, which is conservative: a spot in the region is free whatever the facing.
"""

from __future__ import annotations

import math

import shapely
from shapely.geometry import Point, box
from shapely.geometry.base import BaseGeometry

from chargeopt.geometry.terrain import Battlefield
from chargeopt.models import Scenario, TerrainKind

QUAD_SEGS = 32
_OUTER = 1 / math.cos(math.pi / (4 * QUAD_SEGS))


def free_space(
    scenario: Scenario, battlefield: Battlefield, model_id: str, *, z: float = 0.0
) -> BaseGeometry:
    """Where the centre of `model_id`'s base may end at height z: within the board shrunk by
    the base, clear of walls, impassable areas and barricades, clear of every other model's
    base standing at that height (the moving unit's own models excluded), and, above the
    ground, on a floor at that height that holds the whole base."""
    unit, model = scenario.model_index[model_id]
    radius = unit.base_of(model).circumradius_in
    region: BaseGeometry = box(
        radius, radius, battlefield.width - radius, battlefield.height - radius
    )
    if z > 0:
        floors = [f.shape.buffer(-radius) for f in battlefield.floors if abs(f.height - z) < 1e-9]
        region = region & shapely.union_all(floors) if floors else Point().buffer(0)
    blocked = [
        piece.shape.buffer(radius * _OUTER, quad_segs=QUAD_SEGS)
        for piece in battlefield.of_kind(
            TerrainKind.WALL, TerrainKind.IMPASSABLE, TerrainKind.BARRICADE
        )
        if z < (piece.terrain.height or math.inf) or piece.kind != TerrainKind.WALL
    ]
    for other_unit in scenario.units:
        if other_unit.id == unit.id:
            continue
        for other in other_unit.models:
            if abs(other.z - z) < 0.01:
                reach = other_unit.base_of(other).circumradius_in + radius
                blocked.append(Point(other.x, other.y).buffer(reach * _OUTER, quad_segs=QUAD_SEGS))
    return region - shapely.union_all(blocked) if blocked else region
