"""Shortest legal path lengths for the checker, from geometry.paths, with one addition: an
end position that overlaps a base or a wall only within the base-contact tolerance (which the
rules count as touching, while the path finder allows only 1e-6"; for positions measured to a
precision, the tolerance widened as the checker widens it) is measured through a
settled point just outside it: the length is the path to that point plus the straight step to
the end, the length of a real path that enters only what the tolerance allows (at most twice
the tolerance above the shortest one)."""

from __future__ import annotations

import math

import shapely
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from chargeopt.geometry.footprints import Footprint
from chargeopt.geometry.move_state import MoveState
from chargeopt.geometry.paths import legal_move_length
from chargeopt.models import RoundBase, TerrainKind

SETTLE_ROUNDS = 4
SETTLE_GAP_IN = 2e-7
SAME_LEVEL_IN = 0.01


def path_length(move: MoveState, model_id: str, end: Footprint, avoid: tuple[str, ...]) -> float:
    """Shortest legal path plus the counted climb (geometry.paths' legal_move_length, which
    shares one obstacle map among unit mates); math.inf if there is none."""

    def length(x: float, y: float) -> float:
        return legal_move_length(
            move.scenario, move.battlefield, model_id, x, y, end.z, avoid_engagement_of=avoid
        )

    flat = length(end.x, end.y)
    if math.isinf(flat):
        x, y, step = settled_end(move, end)
        if step > 0:
            return length(x, y) + step
    return flat


def settled_end(move: MoveState, end: Footprint) -> tuple[float, float, float]:
    """For a round base: the nearest point clear of every other model's base at its height
    and every impassable area and wall that it overlaps only within the contact tolerance,
    and the distance to it (0 if there is none, or for other bases)."""
    if not isinstance(end.base, RoundBase):
        return end.x, end.y, 0.0
    r = end.base.radius_in
    tolerance = move.contact_tolerance_in()
    cores = [
        _core(move.start[i]) for i in move.others if abs(move.start[i].z - end.z) < SAME_LEVEL_IN
    ]
    cores += [
        (p.shape, 0.0) for p in move.battlefield.of_kind(TerrainKind.IMPASSABLE, TerrainKind.WALL)
    ]
    x, y = end.x, end.y
    for _ in range(SETTLE_ROUNDS):
        centre = Point(x, y)
        worst = None
        for core, grow in cores:
            gap = float(shapely.distance(core, centre)) - grow
            depth = r - gap
            if (
                0 < depth <= tolerance + SETTLE_GAP_IN
                and gap + grow > 0
                and (worst is None or depth > worst[0])
            ):
                worst = (depth, core, grow)
        if worst is None:
            break
        _, core, grow = worst
        near = shapely.get_coordinates(shapely.shortest_line(core, centre))[0]
        span = math.hypot(x - near[0], y - near[1])
        reach = grow + r + SETTLE_GAP_IN
        x, y = near[0] + (x - near[0]) / span * reach, near[1] + (y - near[1]) / span * reach
    return x, y, math.hypot(x - end.x, y - end.y)


def _core(fp: Footprint) -> tuple[BaseGeometry, float]:
    """A base as a shape and how far it reaches beyond it (a circle: its centre and radius)."""
    if fp.is_round:
        return Point(fp.x, fp.y), fp.radius_in
    return fp.polygon, 0.0
