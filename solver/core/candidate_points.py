"""Where to try a base: contact rings and the engagement band around each target, the straight-line
contact spot from each start, and hexagonal lattices near the targets and coarser elsewhere.
Rows (x, y, z, ring, angle), before any rule filters them."""

from __future__ import annotations

import math

import numpy as np
import shapely
import shapely.affinity
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from chargeopt.geometry import Footprint
from chargeopt.models import RoundBase, Scenario, Unit
from chargeopt.solver.core.exact_limits import margin
from chargeopt.solver.core.tolerances import CONTACT_GAP_IN, MARGIN_IN
from chargeopt.solver.options import SolveOptions


def _hex_lattice(x0: float, y0: float, x1: float, y1: float, spacing: float) -> np.ndarray:
    rows = np.arange(y0, y1 + 1e-9, spacing * math.sqrt(3) / 2)
    pts = []
    for i, yy in enumerate(rows):
        xs = np.arange(x0 + (spacing / 2 if i % 2 else 0.0), x1 + 1e-9, spacing)
        pts.append(np.column_stack((xs, np.full_like(xs, yy))))
    return np.vstack(pts) if pts else np.empty((0, 2))


def contact_region(target: Footprint, base: object, facing: float) -> BaseGeometry:
    """Where the centre of `base` (at `facing`) stands when it touches or overlaps `target`:
    the Minkowski sum of the target and the reflected mover. Exact for round pairs (a disk);
    polygons otherwise (convex hull of vertex sums when neither is round)."""
    if isinstance(base, RoundBase):
        if target.is_round:
            return Point(target.x, target.y).buffer(target.radius_in + base.radius_in, quad_segs=64)
        return target.polygon.buffer(base.radius_in, quad_segs=32)
    mover = Footprint(base, 0.0, 0.0, 0.0, facing).polygon
    reflected = np.asarray(mover.exterior.coords)[:-1] * -1.0
    if target.is_round:
        shape = Polygon(reflected).buffer(target.radius_in, quad_segs=32)
        return shapely.affinity.translate(shape, target.x, target.y)
    own = np.asarray(target.polygon.exterior.coords)[:-1]
    sums = (own[:, None, :] + reflected[None, :, :]).reshape(-1, 2)
    return shapely.convex_hull(shapely.multipoints(sums))


def _direct(
    targets: list[Footprint], starts: np.ndarray, base: object, facing: float, ring_base: int
) -> np.ndarray:
    """Rows (x, y, z, ring, angle): for each start and target, the contact spot straight on
    the line from the start to the target's centre (the move a player makes first)."""
    out = []
    for ti, t in enumerate(targets):
        edge = contact_region(t, base, facing).buffer(CONTACT_GAP_IN, quad_segs=32).exterior
        for sx, sy in starts:
            far = np.hypot(sx - t.x, sy - t.y)
            if far < 1e-9:
                continue
            ray = LineString(
                [(t.x, t.y), (t.x + (sx - t.x) * 50 / far, t.y + (sy - t.y) * 50 / far)]
            )
            hit = ray.intersection(edge)
            if hit.is_empty:
                continue
            point = min(getattr(hit, "geoms", [hit]), key=lambda g: g.distance(Point(t.x, t.y)))
            angle = np.mod(np.arctan2(point.y - t.y, point.x - t.x), 2 * np.pi)
            out.append((point.x, point.y, t.z, ring_base + ti, angle))
    return np.array(out) if out else np.empty((0, 5))


def rings(
    targets: list[Footprint],
    offsets: list[float],
    step_deg: float,
    base: object,
    facing: float,
    ring_base: int,
) -> np.ndarray:
    """Rows (x, y, z, ring, angle): centres where the mover's base (at `facing`) stands at
    edge distance `offset` from each target, about every `step_deg` around it (closed form
    for round pairs; the boundary of the grown contact region otherwise)."""
    count = round(360.0 / step_deg)
    angles = np.radians(np.arange(count) * step_deg)
    out = []
    for ti, t in enumerate(targets):
        for oi, off in enumerate(offsets):
            ring = ring_base + ti * len(offsets) + oi
            if isinstance(base, RoundBase) and t.is_round:
                rad = t.radius_in + base.radius_in + off
                xs, ys, th = t.x + rad * np.cos(angles), t.y + rad * np.sin(angles), angles
            else:
                edge = contact_region(t, base, facing).buffer(off, quad_segs=32).exterior
                pts = shapely.line_interpolate_point(
                    edge, np.linspace(0, 1, count, endpoint=False), normalized=True
                )
                xs, ys = shapely.get_x(pts), shapely.get_y(pts)
                th = np.mod(np.arctan2(ys - t.y, xs - t.x), 2 * np.pi)
            out.append(np.column_stack((xs, ys, np.full(count, t.z), np.full(count, ring), th)))
    return np.vstack(out) if out else np.empty((0, 5))


def raw_points(
    scenario: Scenario,
    unit: Unit,
    base: object,
    roll_max: float,
    options: SolveOptions,
    targets: list[Footprint],
    surfaces: list[float],
    ring_base: int,
    facing: float = 0.0,
    lattice: bool = True,
) -> np.ndarray:
    """Every pose worth considering for one base at one facing: rows (x, y, z, ring, angle).
    The lattice (spots away from the targets) is laid only when `lattice` is set: a base
    that turns needs its other facings only where it touches or engages."""
    rules = scenario.rules
    er = rules.engagement_range_in
    own_starts = np.array([(m.x, m.y) for m in unit.models if unit.base_of(m) == base])
    contact = np.vstack(
        [
            rings(targets, [CONTACT_GAP_IN], options.contact_step_deg, base, facing, ring_base),
            _direct(targets, own_starts, base, facing, ring_base),
        ]
    )
    band = rings(
        targets,
        [er * 0.5, er - margin(MARGIN_IN) - CONTACT_GAP_IN],
        options.contact_step_deg * 2,
        base,
        facing,
        ring_base + len(targets),
    )
    starts = np.array([(m.x, m.y) for m in unit.models])
    lo = np.maximum(starts.min(axis=0) - roll_max, 0.0)
    hi = np.minimum(starts.max(axis=0) + roll_max, (scenario.board.width, scenario.board.height))
    near_reach = er + rules.coherency_range_in + 2 * base.circumradius_in + 1.0
    tgt = np.array([(t.x, t.y) for t in targets])
    tgt_r = max(t.radius_in for t in targets)
    t_lo = np.maximum(tgt.min(axis=0) - near_reach - tgt_r, lo)
    t_hi = np.minimum(tgt.max(axis=0) + near_reach + tgt_r, hi)
    near = _hex_lattice(*t_lo, *t_hi, options.near_spacing_in)
    far = _hex_lattice(*lo, *hi, options.far_spacing_in)
    if len(far):
        d_near = np.min(
            np.hypot(far[:, None, 0] - tgt[None, :, 0], far[:, None, 1] - tgt[None, :, 1]), axis=1
        )
        far = far[d_near > near_reach + tgt_r]
    flat = np.vstack([near, far, starts])
    d_start = np.min(
        np.hypot(flat[:, None, 0] - starts[None, :, 0], flat[:, None, 1] - starts[None, :, 1]),
        axis=1,
    )
    flat = flat[d_start <= roll_max + 1e-9]
    layered = [
        np.column_stack(
            (flat, np.full(len(flat), z), np.full(len(flat), -1.0), np.zeros(len(flat)))
        )
        for z in surfaces
    ]
    return np.vstack([contact, band, *layered]) if lattice else np.vstack([contact, band])
