"""Move lengths in the 40k-assault-4e charge measured round the unit mates standing at a step
(seed 001: "models may not move through friendly or enemy models"): a length measured without
them stands where its path provably misses them; a straight move one mate blocks is taken
round it in closed form (`geometry/standing.py`, `detours`); the rest on the paths' graph with
the mates that matter added."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from chargeopt.geometry import Footprint
from chargeopt.geometry.standing import Standing, detours
from chargeopt.models import TerrainKind

if TYPE_CHECKING:
    from chargeopt.solver.assault_4e.sequence import Charge, Spots


def around_mates(
    charge: Charge,
    model_id: str,
    standing: Standing,
    sp: Spots,
    which: np.ndarray,
    *,
    thorough: bool = True,
) -> Spots:
    """`sp` with the move lengths of the spots `which` measured along paths that go around
    the `standing` bases (inf where none is in reach). A length stands where its path
    provably misses every standing base (`_misses`); a straight move one base blocks is
    taken round it (`_round_one`); the others are measured again around the bases their
    paths may touch, adding bases until every new path misses the rest, or (not `thorough`:
    the cheap pass, where any spot of the category will do) left out (inf)."""
    idx = np.flatnonzero(which & np.isfinite(sp.moved))
    start = charge.start(model_id)
    clearance = start.base.inradius_in
    near = {
        k: fp
        for k, fp in standing.items()
        if math.hypot(fp.x - start.x, fp.y - start.y)
        <= charge.range_in + (fp.radius_in + clearance) * GROWN_LOOSE + 0.01
    }
    if not near or not len(idx):
        return sp
    px, py = sp.x[idx], sp.y[idx]
    length = sp.moved[idx].copy()
    straight = length <= np.hypot(px - start.x, py - start.y) + 1e-9
    missed = _misses_each(start, list(near.values()), clearance, px, py, length, straight)
    hits = {k: ~m for k, m in zip(near, missed, strict=True)}
    todo = np.logical_or.reduce(list(hits.values()))
    if not charge.battlefield.of_kind(TerrainKind.DIFFICULT):
        todo &= ~_round_one(charge, model_id, near, hits, straight & todo, px, py, length)
    if not thorough:
        length[todo] = np.inf
        todo[:] = False
    blocking = {k for k, h in hits.items() if (h & todo).any()}
    while todo.any():
        around = {k: near[k] for k in sorted(blocking)}
        length[todo] = charge.lengths(model_id, px[todo], py[todo], standing=around)
        again = np.zeros(len(idx), bool)
        for k, fp in near.items():
            if k in blocking:
                continue
            flat = np.zeros(int(todo.sum()), bool)
            hit = ~_misses(start, fp, clearance, px[todo], py[todo], length[todo], flat)
            if hit.any():
                blocking.add(k)
                again[np.flatnonzero(todo)[hit]] = True
        todo = again
    moved = sp.moved.copy()
    moved[idx] = length
    return type(sp)(sp.x, sp.y, moved, sp.touches)


def _round_one(
    charge: Charge,
    model_id: str,
    near: dict[str, Footprint],
    hits: dict[str, np.ndarray],
    which: np.ndarray,
    px: np.ndarray,
    py: np.ndarray,
    length: np.ndarray,
) -> np.ndarray:
    """Measures (in `length`, in place) the straight moves `which` that one standing base
    alone blocks, round that base (`standing.detours`); returns which were settled."""
    count = np.sum([h for h in hits.values()], axis=0)
    settled = np.zeros(len(px), bool)
    start = charge.start(model_id)
    clearance = start.base.inradius_in
    omap = charge.path_map(model_id)
    limit = charge.range_in - charge.margins.roll_in
    for k, fp in near.items():
        sel = np.flatnonzero(which & hits[k] & (count == 1))
        if not len(sel):
            continue
        others = [
            (o.x, o.y, (o.radius_in + clearance) * GROWN_LOOSE) for j, o in near.items() if j != k
        ]
        got = detours(omap, (fp.x, fp.y), fp.radius_in + clearance, px[sel], py[sel], others)
        fine = np.isfinite(got)
        length[sel[fine]] = np.where(got[fine] <= limit, got[fine], np.inf)
        settled[sel[fine]] = True
    return settled


def _misses(
    start: Footprint,
    fp: Footprint,
    clearance: float,
    px: np.ndarray,
    py: np.ndarray,
    length: np.ndarray,
    straight: np.ndarray,
) -> np.ndarray:
    """Whether a path of `length` from `start` to each (px, py) surely misses the base `fp`
    (grown by the mover's clearance): it is shorter than any path through the grown disc, or
    it is `straight` (the segment) and the segment keeps clear of it. inf lengths miss."""
    g = (fp.radius_in + clearance) * GROWN_LOOSE
    via = math.hypot(fp.x - start.x, fp.y - start.y) + np.hypot(px - fp.x, py - fp.y) - 2 * g
    safe = (length < via - 1e-9) | ~np.isfinite(length)
    return safe | (straight & (_to_segment(fp.x, fp.y, start.x, start.y, px, py) >= g))


def _misses_each(
    start: Footprint,
    fps: list[Footprint],
    clearance: float,
    px: np.ndarray,
    py: np.ndarray,
    length: np.ndarray,
    straight: np.ndarray,
) -> np.ndarray:
    """`_misses` for each base of `fps` at once: one row per base."""
    g = np.array([[(fp.radius_in + clearance) * GROWN_LOOSE] for fp in fps])
    to = np.array([[math.hypot(fp.x - start.x, fp.y - start.y)] for fp in fps])
    qx, qy = np.array([[fp.x] for fp in fps]), np.array([[fp.y] for fp in fps])
    via = to + np.hypot(px - qx, py - qy) - 2 * g
    safe = (length < via - 1e-9) | ~np.isfinite(length)
    return safe | (straight & (_to_segment(qx, qy, start.x, start.y, px, py) >= g))


GROWN_LOOSE = 1.01
"""A standing base's grown circle is drawn as a polygon around it (up to 0.12% wider): the
tests of which paths it may touch take it this much wider."""
def _to_segment(
    qx: float | np.ndarray,
    qy: float | np.ndarray,
    ax: float,
    ay: float,
    bx: np.ndarray,
    by: np.ndarray,
) -> np.ndarray:
    """Distance from (qx, qy) to each segment (ax, ay)-(bx, by)."""
    dx, dy = bx - ax, by - ay
    n2 = dx * dx + dy * dy
    t = np.where(n2 > 0, ((qx - ax) * dx + (qy - ay) * dy) / np.where(n2 > 0, n2, 1.0), 0.0)
    t = np.clip(t, 0.0, 1.0)
    return np.hypot(ax + t * dx - qx, ay + t * dy - qy)


