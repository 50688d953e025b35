"""Paths around the bases standing at one moment of a sequence of single-model moves (seed 001:
"models may not move through friendly or enemy models"): a unit's own models block each other's
paths, the ones already moved where they ended and the others where they start.

`with_standing` adds those bases to a mover's obstacle map (grown by its clearance, drawn as
`obstacles.py` draws every base); `crossed` names the standing bases a path passes through."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import shapely
from shapely.geometry import LineString, Point

from chargeopt.geometry.footprints import Footprint
from chargeopt.geometry.obstacles import Obstacle, Point2, grown_obstacle
from chargeopt.geometry.paths import ObstacleMap

Standing = Mapping[str, Footprint]
"""Bases that block a move, by model id."""
_MAPS: dict[tuple[object, ...], tuple[ObstacleMap, ObstacleMap]] = {}
_MAX_MAPS = 256


def standing_obstacle(model_id: str, fp: Footprint, clearance_in: float) -> Obstacle:
    """A standing base grown by a mover's clearance: a round base as its centre grown by both
    radii, any other as its exact outline grown by the clearance."""
    if fp.is_round:
        return grown_obstacle(model_id, Point(fp.x, fp.y), fp.radius_in + clearance_in)
    return grown_obstacle(model_id, fp.polygon, clearance_in)


def with_standing(omap: ObstacleMap, standing: Standing) -> ObstacleMap:
    """`omap` with the `standing` bases added (the same mover; cached per map and bases, so
    the visibility graph is built once per moment)."""
    if not standing:
        return omap
    key = (
        id(omap.geometry),
        omap.mover.clearance_in,
        tuple(sorted((k, fp.x, fp.y, fp.facing) for k, fp in standing.items())),
    )
    hit = _MAPS.get(key)
    if hit is None or hit[0].geometry is not omap.geometry:
        if len(_MAPS) >= _MAX_MAPS:
            _MAPS.pop(next(iter(_MAPS)))
        r = omap.mover.clearance_in
        extra = [standing_obstacle(k, fp, r) for k, fp in standing.items()]
        _, _, x1, y1 = omap.bounds
        hit = (omap, ObstacleMap(omap.mover, x1 + r, y1 + r, [*omap.obstacles, *extra]))
        _MAPS[key] = hit
    return hit[1].for_mover(omap.mover)


def crossed(path: Sequence[Point2], standing: Standing, clearance_in: float) -> tuple[str, ...]:
    """The standing bases a path's centre line comes closer to than the mover's clearance
    (by more than 0.0001"): the bases the moving base passes through."""
    if len(path) < 2:
        return ()
    line = LineString(path)
    out = []
    for k, fp in standing.items():
        core = Point(fp.x, fp.y) if fp.is_round else fp.polygon
        grow = fp.radius_in + clearance_in if fp.is_round else clearance_in
        if shapely.distance(core, line) < grow - 1e-4:
            out.append(k)
    return tuple(out)
