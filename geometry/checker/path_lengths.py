"""Shortest legal path lengths for the checker, from geometry.paths, with one addition: an
end position that overlaps a base or a wall only within the base-contact tolerance (which the
rules count as touching, while the path finder allows only 1e-6"; for positions measured to a
precision, the tolerance widened as the checker widens it) is measured through a
settled point just outside it: the length is the path to that point plus the straight step to
the end, the length of a real path that enters only what the tolerance allows (at most twice
the tolerance above the shortest one)."""

from __future__ import annotations

import math
from itertools import combinations

import shapely
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from chargeopt.geometry.footprints import Footprint
from chargeopt.geometry.move_state import MoveState
from chargeopt.geometry.paths import legal_move_length, obstacle_map
from chargeopt.models import RoundBase, TerrainKind

SETTLE_ROUNDS = 4
SETTLE_GAP_IN = 2e-7
SAME_LEVEL_IN = 0.01
MOST_CLIMBED = 3
"""Most tall areas one judged path climbs (each costs more than 4": a charge climbs at most 2)."""
ENTRY_LENGTH_IN = 1e-6


def path_length(move: MoveState, model_id: str, end: Footprint, avoid: tuple[str, ...]) -> float:
    """Shortest legal path plus the counted climb (geometry.paths' legal_move_length, which
    shares one obstacle map among unit mates); math.inf if there is none. 40k-11e: a model
    taking to the skies goes straight (`flown_length`), and a path that climbs over dense
    areas counts their heights up and down (`climbing_length`), whichever is shorter."""
    if move.scenario.action.take_to_the_skies and model_id in move.ids:
        return flown_length(move, model_id, end)

    def length(x: float, y: float) -> float:
        return legal_move_length(
            move.scenario, move.battlefield, model_id, x, y, end.z, avoid_engagement_of=avoid
        )

    flat = length(end.x, end.y)
    if math.isinf(flat):
        x, y, step = settled_end(move, end)
        if step > 0:
            flat = length(x, y) + step
    if move.rules.terrain_categories and model_id in move.ids:
        flat = min(flat, climbing_length(move, model_id, end, avoid))
    return flat


def flown_length(move: MoveState, model_id: str, end: Footprint) -> float:
    """Taking to the skies (21.03): through models and terrain, no vertical distance: the
    straight line, unless it crosses an impassable area (then the path around it)."""
    start = move.start[model_id]
    line = LineString([(start.x, start.y), (end.x, end.y)])
    reach = start.base.inradius_in
    walls = [p.shape for p in move.battlefield.of_kind(TerrainKind.IMPASSABLE)]
    if not any(shapely.distance(shape, line) < reach for shape in walls):
        return math.hypot(end.x - start.x, end.y - start.y)
    return legal_move_length(move.scenario, move.battlefield, model_id, end.x, end.y, 0.0)


def tall_dense_areas(move: MoveState) -> list[tuple[str, BaseGeometry, float]]:
    """(id, footprint, height) of the dense areas the acting unit may not cross on the ground
    (13.06: taller than 2" for a model that is not INFANTRY, BEASTS, SWARM or MOBILE)."""
    rules = move.rules
    if rules.moves_through_dense(move.unit.keyword_set):
        return []
    return [
        (p.id, p.shape, float(p.terrain.height_in or 0.0))
        for p in move.battlefield.of_kind(TerrainKind.DENSE)
        if (p.terrain.height_in or 0.0) > rules.dense_low_height_in
    ]


def climbing_length(
    move: MoveState, model_id: str, end: Footprint, avoid: tuple[str, ...]
) -> float:
    """The least cost of the paths that may pass over sets of tall dense areas (each set's
    shortest path with those areas left out of the obstacles), each costed along the path
    itself: its length plus, for every entry of the base onto a tall area (the centre coming
    within the base's clearance of it), the area's height up and down. A real path's cost."""
    tall = tall_dense_areas(move)
    budget = float(move.roll)
    start = move.start[model_id]
    here = Point(start.x, start.y)
    near = [a for a in tall if shapely.distance(a[1], here) + 2 * a[2] <= budget]
    best = math.inf
    for k in range(1, min(len(near), MOST_CLIMBED) + 1):
        for combo in combinations(near, k):
            if sum(2 * a[2] for a in combo) > budget:
                continue
            omap = obstacle_map(
                move.scenario,
                move.battlefield,
                model_id,
                avoid_engagement_of=avoid,
                climbed=[a[0] for a in combo],
            )
            path = omap.path_field(omap.mover.start).path_to(end.x, end.y)
            if len(path) < 2:
                continue
            line = LineString(path)
            cost = line.length
            for _, shape, height in tall:
                cost += 2 * height * _entries(line, shape, omap.mover.clearance_in)
            best = min(best, cost)
    return best


def _entries(line: LineString, area: BaseGeometry, clearance_in: float) -> int:
    """How many times the path's base comes onto the area: the pieces of positive length of
    the path inside the area grown by the clearance."""
    zone = area.buffer(clearance_in, quad_segs=64)
    inside = shapely.line_merge(shapely.intersection(line, zone))
    return sum(1 for part in shapely.get_parts(inside) if part.length > ENTRY_LENGTH_IN)


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
