"""Which cells a charging model can reach: within the roll in a straight line, then along legal
paths, measured by lower bounds (paths around obstacles eroded by the model's clearance), so
that every test only loosens and a ceiling built on it stays sound."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from chargeopt.geometry import Battlefield
from chargeopt.geometry.obstacles import MoverProfile, Obstacle, blocks_path
from chargeopt.geometry.paths import ObstacleMap
from chargeopt.models import Scenario, TerrainKind
from chargeopt.solver.bounds import cells as cl
from chargeopt.solver.bounds.relaxation_zones import QUAD_SEGS, Zones, inner_radius

ROLL_SLACK_IN = 1e-6
"""The checker's own slack on the roll (`geometry.checker.move`)."""

NEAREST_CHUNK = 64
"""Cells measured at a time when looking for a model's nearest reachable cell."""

Reach = Callable[[np.ndarray], np.ndarray]


def within_straight_reach(
    scenario: Scenario, z: Zones, roll: float, cells: cl.Cells, base_of: np.ndarray
) -> np.ndarray:
    """Models (rows) by cells (columns): whether the model's base kind may stand in the cell
    and its nearest point is within the roll in a straight line (no climb: the ring packing
    runs only where every model stands on one level)."""
    models = scenario.acting_unit.models
    near = np.zeros((len(models), len(cells)), bool)
    kinds = np.array([z.model_base[m.id] for m in models])
    starts = np.array([(m.x, m.y) for m in models]).reshape(-1, 2)
    limit = roll + ROLL_SLACK_IN + cl.EPS_IN
    for b in np.unique(kinds):
        rows, mine = np.flatnonzero(kinds == b), np.flatnonzero(base_of == b)
        within = cl.within_of_points(cl.subset(cells, mine), starts[rows], limit)
        near[np.ix_(rows, mine)] = within.T
    return near


def reachable(
    scenario: Scenario,
    battlefield: Battlefield,
    z: Zones,
    roll: float,
    cells: cl.Cells,
    near: np.ndarray,
    *,
    nearest_only: bool = False,
) -> np.ndarray:
    """`near` (from `within_straight_reach`) narrowed to the cells within the roll by the
    lower bounds on the legal path. With
    `nearest_only`, each model's row keeps just one reachable cell, found by measuring the
    cells nearest its start first: enough to tell who reaches at all."""
    unit = scenario.acting_unit
    radius = cell_radius(cells)
    reach = path_lower_bounds(scenario, battlefield, z, float(radius.max(initial=0.0)))
    allowed = np.zeros_like(near)
    centres = cells.centres
    limit = roll + ROLL_SLACK_IN + cl.EPS_IN
    for i, m in enumerate(unit.models):
        mine = np.flatnonzero(near[i])
        if not nearest_only:
            allowed[i, mine] = reach[m.id](centres[mine]) <= limit
            continue
        mine = mine[np.argsort(np.hypot(*(centres[mine] - (m.x, m.y)).T), kind="stable")]
        for start in range(0, len(mine), NEAREST_CHUNK):
            part = mine[start : start + NEAREST_CHUNK]
            ok = np.flatnonzero(reach[m.id](centres[part]) <= limit)
            if len(ok):
                allowed[i, part[ok[0]]] = True
                break
    return allowed


def path_lower_bounds(
    scenario: Scenario, battlefield: Battlefield, z: Zones, delta: float
) -> dict[str, Reach]:
    """Per charging model, a function from points p to a lower bound on the legal path
    length to any point q within `delta` of p. Paths are found around obstacles drawn inside
    the true ones (radii less the contact tolerance) and then shrunk by delta: a legal path
    to q, extended by the step from q to p, stays clear of them, so it is at least as long as
    their shortest path to p, less delta. Where p lies inside one of them, or the model's
    start does, the straight line less delta is the bound."""
    unit = scenario.acting_unit
    out: dict[str, Reach] = {}
    maps: dict[int, ObstacleMap | None] = {}
    for m in unit.models:
        b = z.model_base[m.id]
        if b not in maps:
            maps[b] = _eroded_map(
                scenario, battlefield, z.inner[b] - z.tolerance_in - cl.EPS_IN - delta
            )
        omap = maps[b]
        start = (m.x, m.y)
        if omap is None or not omap.legal_ends(np.array([m.x]), np.array([m.y]))[0]:
            out[m.id] = _straight(start, delta)
            continue
        out[m.id] = _along_paths(omap.for_mover(MoverProfile(m.id, 0.0, start, 0.0)), start, delta)
    return out


def _straight(start: tuple[float, float], delta: float) -> Reach:
    def lengths(points: np.ndarray) -> np.ndarray:
        return np.hypot(points[:, 0] - start[0], points[:, 1] - start[1]) - delta

    return lengths


def _along_paths(omap: ObstacleMap, start: tuple[float, float], delta: float) -> Reach:
    def lengths(points: np.ndarray) -> np.ndarray:
        out = np.hypot(points[:, 0] - start[0], points[:, 1] - start[1])
        legal = omap.legal_ends(points[:, 0], points[:, 1])
        if legal.any():
            found = omap.path_field(start).lengths_to(points[legal, 0], points[legal, 1])
            out[legal] = np.maximum(out[legal], found)
        return out - delta

    return lengths


def _eroded_map(
    scenario: Scenario, battlefield: Battlefield, clearance_in: float
) -> ObstacleMap | None:
    """Obstacles inside what blocks a charging model of clearance `clearance_in` (already
    less the tolerance and the erosion): other units' bases that block its path, impassable
    terrain, walls unless it moves through ruins, and non-targets' engagement range."""
    if clearance_in <= 0:
        return None
    unit, rules = scenario.acting_unit, scenario.rules
    r = clearance_in
    shapes: list[tuple[str, BaseGeometry]] = []
    ruins_block = not rules.moves_through_ruins(unit.keyword_set)
    for piece in battlefield.pieces:
        if piece.kind == TerrainKind.IMPASSABLE or (piece.kind == TerrainKind.WALL and ruins_block):
            shapes.append((piece.id, piece.shape.buffer(r, quad_segs=QUAD_SEGS)))
    targets = set(scenario.action.targets)
    non_targets = {u.id for u in scenario.enemies_of(unit) if u.id not in targets}
    for other in scenario.units:
        grow = 0.0
        if other.id in non_targets:
            grow = rules.engagement_range_in
        elif not blocks_path(rules, unit, other):
            continue
        for model in other.models:
            reach = inner_radius(other.base_of(model)) + r + grow
            shapes.append((model.id, Point(model.x, model.y).buffer(reach, quad_segs=QUAD_SEGS)))
    obstacles = [Obstacle(i, s, 0.0, s) for i, s in shapes]
    anyone = MoverProfile("", r, (math.nan, math.nan), 0.0)
    return ObstacleMap(anyone, battlefield.width, battlefield.height, obstacles)


def cell_radius(cells: cl.Cells) -> np.ndarray:
    """Farthest corner of each cell from its centre (the cells are convex)."""
    d = cells.corners - cells.centres[:, None, :]
    return np.sqrt((d**2).sum(axis=-1)).max(axis=1)
