"""Paths around the bases standing at one moment of a sequence of single-model moves (seed 001:
"models may not move through friendly or enemy models"): a unit's own models block each other's
paths, the ones already moved where they ended and the others where they start.

`with_standing` adds those bases to a mover's obstacle map (grown by its clearance, drawn as
`obstacles.py` draws every base); `crossed` names the standing bases a path passes through;
`detours` measures the common case fast: a straight move that one standing base blocks,
taken round it."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache

import numpy as np
import shapely
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from chargeopt.geometry.footprints import Footprint
from chargeopt.geometry.obstacles import ARC_QUAD_SEGS, Obstacle, Point2, grown_obstacle
from chargeopt.geometry.paths import ObstacleMap

Standing = Mapping[str, Footprint]
"""Bases that block a move, by model id."""
_MAPS: dict[tuple[object, ...], tuple[ObstacleMap, ObstacleMap]] = {}
_MAX_MAPS = 256


def standing_obstacle(model_id: str, fp: Footprint, clearance_in: float) -> Obstacle:
    """A standing base grown by a mover's clearance, drawn as `obstacles.py` draws every base:
    a round base as its centre grown by both radii, any other as its outline grown by the
    clearance."""
    if fp.is_round:
        return grown_obstacle(model_id, Point(fp.x, fp.y), fp.radius_in + clearance_in)
    return grown_obstacle(model_id, fp.polygon, clearance_in)


def with_standing(
    omap: ObstacleMap, standing: Standing, *, reach_in: float | None = None
) -> ObstacleMap:
    """`omap` with the `standing` bases added (the same mover; cached per map and bases, so
    the visibility graph is built once per moment). With `reach_in`, only for paths of at
    most that from the mover's start: obstacles wholly beyond it are left out (a path that
    short never meets them)."""
    if not standing:
        return omap
    start = omap.mover.start
    key = (
        id(omap.geometry),
        omap.mover.clearance_in,
        tuple(sorted((k, fp.x, fp.y, fp.facing) for k, fp in standing.items())),
        None if reach_in is None else (start, reach_in),
    )
    hit = _MAPS.get(key)
    if hit is None or hit[0].geometry is not omap.geometry:
        if len(_MAPS) >= _MAX_MAPS:
            _MAPS.pop(next(iter(_MAPS)))
        r = omap.mover.clearance_in
        extra = [_standing_obstacle(k, fp, r) for k, fp in standing.items()]
        kept = [*omap.obstacles, *extra]
        if reach_in is not None:
            disc = _reach_disc(start, reach_in)
            kept = [o for o in kept if o.shape.intersects(disc)]
        _, _, x1, y1 = omap.bounds
        near = None if reach_in is None else (start, reach_in + 0.01)
        hit = (omap, ObstacleMap(omap.mover, x1 + r, y1 + r, kept, nodes_within=near))
        _MAPS[key] = hit
    return hit[1].for_mover(omap.mover)


@lru_cache(maxsize=4096)
def _standing_obstacle(model_id: str, fp: Footprint, clearance_in: float) -> Obstacle:
    """`standing_obstacle`, drawn once per base, place and clearance."""
    return standing_obstacle(model_id, fp, clearance_in)


@lru_cache(maxsize=256)
def _reach_disc(start: Point2, reach_in: float) -> BaseGeometry:
    """The disc a path of at most `reach_in` from `start` stays in (a little wider)."""
    disc = Point(start).buffer(reach_in + 0.01, quad_segs=32)
    shapely.prepare(disc)
    return disc


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


ARC_STEPS = 32
"""Chords of the polyline a detour takes round a standing base (`detours`): at most pi/32
each, drawn outside the circle, so the polyline is at most 0.12% longer than the arc."""


def detours(
    omap: ObstacleMap,
    centre: Point2,
    grow_in: float,
    xs: np.ndarray,
    ys: np.ndarray,
    others: Sequence[tuple[float, float, float]] = (),
) -> np.ndarray:
    """Lengths of paths from the mover's start to each (x, y) round one standing base (its
    centre and the radius it is grown to) on the shorter side: a tangent, chords just
    outside the circle that holds the base's drawn polygon, a tangent. Such a path is legal
    and no shorter than the shortest path round the drawn base; where the straight segment
    is the shortest path without the base, it is shortest but for the drawing (under 0.01").
    nan where the start or the end is inside that circle, or the path meets an obstacle of
    `omap` or comes within r of another disc (x, y, r) of `others`. Each path and its test
    against `omap` are kept per map, start, base and end: a charge asks again and again."""
    xs, ys = np.asarray(xs, float), np.asarray(ys, float)
    out = np.full(xs.shape, np.nan)
    if not xs.size:
        return out
    key = (id(omap.geometry), omap.mover.start, tuple(centre), grow_in)
    hit = _DETOURS.get(key)
    if hit is None or hit[0].geometry is not omap.geometry:
        if len(_DETOURS) >= _MAX_DETOURS:
            _DETOURS.pop(next(iter(_DETOURS)))
        hit = (omap, {})
        _DETOURS[key] = hit
    known = hit[1]
    ends = list(zip(xs.ravel().tolist(), ys.ravel().tolist(), strict=True))
    new = [k for k, e in enumerate(ends) if e not in known]
    if new:
        got = _detours_alone(omap, centre, grow_in, xs.ravel()[new], ys.ravel()[new])
        for k, row in zip(new, got, strict=True):
            known[ends[k]] = row
    rows = [known[e] for e in ends]
    length = np.array([r[0] for r in rows])
    live = np.flatnonzero(np.isfinite(length))
    if len(live) and others:
        box = np.array([rows[k][1] for k in live])
        for ox, oy, r in others:
            gap = np.hypot(
                np.maximum(box[:, 0] - ox, 0) + np.maximum(ox - box[:, 2], 0),
                np.maximum(box[:, 1] - oy, 0) + np.maximum(oy - box[:, 3], 0),
            )
            near = live[(gap < r + 1e-9) & np.isfinite(length[live])]
            if not len(near):
                continue
            paths = np.stack([rows[k][2] for k in near])
            a, b = paths[:, :-1].reshape(-1, 2), paths[:, 1:].reshape(-1, 2)
            dist = _to_segments(ox, oy, a, b).reshape(len(near), -1)
            length[near[(dist < r).any(axis=1)]] = np.nan
    out.ravel()[:] = length
    return out


_DETOURS: dict[tuple[object, ...], tuple[ObstacleMap, dict[Point2, tuple[float, ...]]]] = {}
_MAX_DETOURS = 256


def _detours_alone(
    omap: ObstacleMap, centre: Point2, grow_in: float, xs: np.ndarray, ys: np.ndarray
) -> list[tuple[float, tuple[float, float, float, float], np.ndarray | None]]:
    """Per end, as `detours` without `others`: the length (nan where none), the bounding box
    of the path (x0, y0, x1, y1) and the path's points."""
    n_all = len(xs)
    out: list[tuple[float, tuple[float, float, float, float], np.ndarray | None]] = [
        (math.nan, (0.0, 0.0, 0.0, 0.0), None)
    ] * n_all
    sx, sy = omap.mover.start
    qx, qy = centre
    g = grow_in / math.cos(math.pi / (4 * ARC_QUAD_SEGS))
    ds = math.hypot(sx - qx, sy - qy)
    dp = np.hypot(xs - qx, ys - qy)
    idx = np.flatnonzero((dp > g) & (ds > g))
    if not len(idx):
        return out
    px, py = xs[idx], ys[idx]
    a_s = math.atan2(sy - qy, sx - qx)
    turn = np.angle(np.exp(1j * (np.arctan2(py - qy, px - qx) - a_s)))
    side = np.where(turn >= 0, 1.0, -1.0)
    alpha_s = math.acos(g / ds)
    alpha_p = np.arccos(g / dp[idx])
    arc = np.maximum(np.abs(turn) - alpha_s - alpha_p, 0.0)
    step = arc / ARC_STEPS
    rho = g / np.cos(step / 2)
    t = a_s + side[:, None] * (alpha_s + step[:, None] * np.arange(ARC_STEPS + 1))
    ring = np.stack([qx + rho[:, None] * np.cos(t), qy + rho[:, None] * np.sin(t)], axis=2)
    straight = arc <= 0
    ring[straight] = np.array([sx, sy])
    n = len(idx)
    path = np.concatenate(
        [np.tile([[sx, sy]], (n, 1))[:, None], ring, np.column_stack([px, py])[:, None]], axis=1
    )
    a, b = path[:, :-1].reshape(-1, 2), path[:, 1:].reshape(-1, 2)
    legs = path.shape[1] - 1
    ends = np.zeros(legs, bool)
    ends[[0, -1]] = True
    test = np.tile(ends, n)
    clear = np.ones(len(a), bool)
    clear[test] = omap.visible(a[test, 0], a[test, 1], b[test, 0], b[test, 1])
    fine = clear.reshape(n, legs).all(axis=1)
    start_angle = a_s + side * alpha_s
    for centre_angle, lo, hi in _blocked_arcs(omap, (qx, qy), g):
        t0 = np.angle(np.exp(1j * (start_angle - centre_angle)))
        t1 = t0 + side * arc
        low, high = np.minimum(t0, t1), np.maximum(t0, t1)
        fine &= straight | (high < lo) | (low > hi)
    length = np.hypot(*(b - a).T).reshape(n, legs).sum(axis=1)
    lo_xy, hi_xy = path.min(axis=1), path.max(axis=1)
    for k in np.flatnonzero(fine):
        box = (*lo_xy[k].tolist(), *hi_xy[k].tolist())
        out[int(idx[k])] = (float(length[k]), box, path[k])
    return out


_ARCS: dict[tuple[object, ...], tuple[ObstacleMap, list[tuple[float, float, float]]]] = {}


def _blocked_arcs(
    omap: ObstacleMap, centre: Point2, radius_in: float
) -> list[tuple[float, float, float]]:
    """Directions from `centre` in which the map's obstacles come within the ring a detour's
    chords may use (`radius_in` to 0.2% beyond it), as (centre angle, low, high) with low and
    high relative to the centre angle: a chord between angles outside every span is clear
    (an obstacle piece lies within the angles of its own boundary's points)."""
    key = (id(omap.geometry), centre, radius_in)
    hit = _ARCS.get(key)
    if hit is not None and hit[0].geometry is omap.geometry:
        return hit[1]
    qx, qy = centre
    ring = (
        Point(qx, qy)
        .buffer(radius_in * 1.002 + 1e-6, quad_segs=64)
        .difference(Point(qx, qy).buffer(radius_in * 0.999, quad_segs=64))
    )
    near = omap.geometry.buffer(-1e-7, join_style="mitre").intersection(ring)
    spans = []
    for part in shapely.get_parts(near):
        xy = shapely.get_coordinates(part)
        if not len(xy):
            continue
        angles = np.arctan2(xy[:, 1] - qy, xy[:, 0] - qx)
        mid = math.atan2(float(np.sin(angles).mean()), float(np.cos(angles).mean()))
        rel = np.angle(np.exp(1j * (angles - mid)))
        spans.append((mid, float(rel.min()) - 1e-6, float(rel.max()) + 1e-6))
    if len(_ARCS) >= _MAX_MAPS:
        _ARCS.pop(next(iter(_ARCS)))
    _ARCS[key] = (omap, spans)
    return spans


def _to_segments(qx: float, qy: float, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The distance from (qx, qy) to each segment a[i]-b[i]."""
    d = b - a
    n2 = np.where((d * d).sum(axis=1) > 0, (d * d).sum(axis=1), 1.0)
    t = np.clip(((qx - a[:, 0]) * d[:, 0] + (qy - a[:, 1]) * d[:, 1]) / n2, 0.0, 1.0)
    return np.hypot(a[:, 0] + t * d[:, 0] - qx, a[:, 1] + t * d[:, 1] - qy)
