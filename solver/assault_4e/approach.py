"""The reinforcement move of a model that cannot reach base contact: the legal spot within its
straight move nearest (edge to edge) to the enemy models it is locked with, the unit kept in
coherency (seed 001: "as close as they can ... without moving out of unit coherency").

The nearest spot of a region bounded by circles, lines and polygons lies on its boundary, so
the spots searched are the boundaries themselves, `STEP_IN` apart and `INSIDE_IN` on the legal
side: the reach circle, each mate's coherency circle, each base's keep-off outline, the
terrain's outlines and the board's edges."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import shapely

from chargeopt.geometry import Battlefield, Footprint
from chargeopt.geometry.distance_matrix import edge_distances
from chargeopt.geometry.paths import obstacle_map
from chargeopt.models import RoundBase, Scenario
from chargeopt.solver.core.coherency_constraints import linked_groups
from chargeopt.solver.core.tolerances import APART_IN, JSON_DECIMALS, MARGIN_IN, PAIR_KEPT_IN

STEP_IN = 0.005
"""Spacing of the spots along each boundary."""
INSIDE_IN = 0.003
"""How far inside each limit the spots are drawn, so that rounding keeps them legal."""
CLOSER_IN = 0.002
"""A model moves only if it gets closer by more than this."""
Lengths = Callable[[np.ndarray, np.ndarray], np.ndarray]


def closest_spot(
    scenario: Scenario,
    battlefield: Battlefield,
    mid: str,
    start: tuple[float, float],
    pos: dict[str, Footprint],
    others: list[Footprint],
    foes: list[Footprint],
    lengths: Lengths,
    limit_in: float,
    coherent: bool,
) -> tuple[float, float, float, float] | None:
    """(x, y, move length, gap to the nearest foe) of the nearest legal spot to `foes` that is
    closer than where `mid` stands by more than `CLOSER_IN` (the shorter move on a tie), or
    None. With `coherent`, the whole unit stays in coherency."""
    fp = pos[mid]
    if not isinstance(fp.base, RoundBase) or not foes:
        return None
    r = fp.base.radius_in
    reach = limit_in - MARGIN_IN - INSIDE_IN
    mates = [p for m, p in pos.items() if m != mid]
    link = scenario.rules.coherency_range_in - PAIR_KEPT_IN

    def near(base: Footprint, off_in: float) -> bool:
        """Whether a spot within reach can come within `off_in` of `base`."""
        return np.hypot(base.x - start[0], base.y - start[1]) <= reach + base.radius_in + r + off_in

    blockers = [b for b in [*others, *mates] if near(b, APART_IN + INSIDE_IN)]
    parts = [_circle(start, reach)]
    if coherent:
        parts += [_outline(m, r + link - INSIDE_IN) for m in mates if near(m, link)]
    parts += [_outline(b, r + APART_IN + INSIDE_IN) for b in blockers]
    parts += _terrain_and_edges(scenario, battlefield, mid, start, reach)
    pts = np.vstack(parts)
    pts = pts[np.hypot(pts[:, 0] - start[0], pts[:, 1] - start[1]) <= reach]
    xs, ys = np.round(pts[:, 0], JSON_DECIMALS), np.round(pts[:, 1], JSON_DECIMALS)
    ok = lengths(xs, ys) <= limit_in - MARGIN_IN
    facing = np.full(len(xs), fp.facing)
    if blockers and ok.any():
        ok[ok] = (edge_distances(fp.base, xs[ok], ys[ok], facing[ok], blockers) >= APART_IN).all(1)
    if ok.any():
        ok[ok] = open_ground(scenario, battlefield, mid, xs[ok], ys[ok])
    if coherent and mates and ok.any():
        to_mates = edge_distances(fp.base, xs[ok], ys[ok], facing[ok], mates) <= link
        ok[ok] = keeps_coherency(scenario, mates, to_mates, link)
    idx = np.flatnonzero(ok)
    if not len(idx):
        return None
    gap = edge_distances(fp.base, xs[idx], ys[idx], facing[idx], foes).min(axis=1)
    length = lengths(xs[idx], ys[idx])
    k = np.lexsort((length, gap))[0]
    if gap[k] >= _gaps_to(fp, foes).min() - CLOSER_IN:
        return None
    return float(xs[idx[k]]), float(ys[idx[k]]), float(length[k]), float(gap[k])


def keeps_coherency(
    scenario: Scenario, mates: list[Footprint], to_mates: np.ndarray, link_in: float
) -> np.ndarray:
    """Per spot (rows of `to_mates`: its links to each mate): whether the unit, the mover
    there, has every model linked to enough others and is one group."""
    need = scenario.rules.coherency_neighbours(len(mates) + 1)
    between = np.vstack([_gaps_to(m, mates) for m in mates]) <= link_in
    np.fill_diagonal(between, False)
    counts = between.sum(axis=1)
    if (counts < need - 1).any():
        return np.zeros(len(to_mates), bool)
    ok = (to_mates.sum(axis=1) >= need) & to_mates[:, counts < need].all(axis=1)
    for group in linked_groups(between):
        ok &= to_mates[:, sorted(group)].any(axis=1)
    return ok


def open_ground(
    scenario: Scenario, battlefield: Battlefield, mid: str, xs: np.ndarray, ys: np.ndarray
) -> np.ndarray:
    """Ends on the board and clear of terrain obstacles (walls, impassable) by `MARGIN_IN`."""
    omap = obstacle_map(scenario, battlefield, mid)
    r = omap.mover.clearance_in + MARGIN_IN
    ok = (xs >= r) & (xs <= battlefield.width - r) & (ys >= r) & (ys <= battlefield.height - r)
    for o in _terrain(omap, battlefield):
        ok &= shapely.distance(o.core, shapely.points(xs, ys)) >= o.grow_in + MARGIN_IN
    return ok


def _terrain(omap, battlefield: Battlefield) -> list:
    pieces = {p.id for p in battlefield.pieces}
    return [o for o in omap.obstacles if o.id in pieces]


def _terrain_and_edges(
    scenario: Scenario,
    battlefield: Battlefield,
    mid: str,
    start: tuple[float, float],
    reach: float,
) -> list[np.ndarray]:
    """Spots along the terrain's keep-off outlines and the board's edges near the move."""
    omap = obstacle_map(scenario, battlefield, mid)
    disc = shapely.Point(start).buffer(reach + 1.0)
    out = []
    for o in _terrain(omap, battlefield):
        ring = o.core.buffer(o.grow_in + MARGIN_IN + INSIDE_IN).boundary
        if ring.intersects(disc):
            out.append(shapely.get_coordinates(shapely.segmentize(ring, STEP_IN)))
    r = omap.mover.clearance_in + MARGIN_IN + INSIDE_IN
    w, h = battlefield.width, battlefield.height
    edges = shapely.LinearRing([(r, r), (w - r, r), (w - r, h - r), (r, h - r)])
    out.append(shapely.get_coordinates(shapely.segmentize(edges.intersection(disc), STEP_IN)))
    return out


def _circle(centre: tuple[float, float], radius: float) -> np.ndarray:
    n = max(8, int(np.ceil(2 * np.pi * radius / STEP_IN)))
    a = np.linspace(0.0, 2 * np.pi, n, endpoint=False)
    return np.column_stack([centre[0] + radius * np.cos(a), centre[1] + radius * np.sin(a)])


def _outline(fp: Footprint, offset: float) -> np.ndarray:
    """Spots `offset` off a base's edge."""
    if fp.is_round:
        return _circle((fp.x, fp.y), fp.radius_in + offset)
    ring = fp.polygon.buffer(offset).exterior
    return shapely.get_coordinates(shapely.segmentize(ring, STEP_IN))


def _gaps_to(fp: Footprint, others: list[Footprint]) -> np.ndarray:
    xy = np.array([fp.x]), np.array([fp.y])
    return edge_distances(fp.base, *xy, np.array([fp.facing]), others)[0]
