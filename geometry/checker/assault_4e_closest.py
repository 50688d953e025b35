"""40k-assault-4e reinforcement: a model that ends out of base contact must be as close to the
enemy as it can get (seed 001: "as close as they can ... without moving out of unit
coherency"). A witness is a spot of a polar grid around the model's start (every
`WITNESS_STEP_IN` out to the move, every `WITNESS_STEP_DEG`) legal with `WITNESS_MARGIN_IN` to
spare on every limit, the unit in coherency with it, and closer to the enemy than the end by
more than that margin."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely

from chargeopt.geometry.footprints import Footprint
from chargeopt.geometry.move_state import MoveState
from chargeopt.geometry.pairs import Bases, edge_distances
from chargeopt.geometry.paths import obstacle_map
from chargeopt.models import RoundBase

WITNESS_STEP_DEG = 6.0
WITNESS_STEP_IN = 0.25
WITNESS_MARGIN_IN = 0.02


def gaps(a: Sequence[Footprint], b: Sequence[Footprint]) -> np.ndarray:
    """Edge distances, rows `a`, columns `b`."""
    if not a or not b:
        return np.empty((len(a), len(b)))
    return edge_distances(Bases.of(list(a)), Bases.of(list(b)))


def at(fp: Footprint, x: float, y: float) -> Footprint:
    """`fp` moved to (x, y)."""
    return Footprint(fp.base, x, y, fp.z, fp.facing)


def on_open_ground(move: MoveState, mid: str, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Ends clear of the board edge, walls and impassable terrain (by the margin)."""
    omap = obstacle_map(move.scenario, move.battlefield, mid)
    r = move.start[mid].radius_in + WITNESS_MARGIN_IN
    bf = move.battlefield
    ok = (xs >= r) & (xs <= bf.width - r) & (ys >= r) & (ys <= bf.height - r)
    terrain = [o for o in omap.obstacles if o.id in {p.id for p in bf.pieces}]
    for o in terrain:
        ok &= shapely.distance(o.core, shapely.points(xs, ys)) >= o.grow_in + WITNESS_MARGIN_IN
    return ok


def closer_witness(
    move: MoveState, mid: str, foes: list[Footprint], limit: float
) -> tuple[float, float, float, float] | None:
    """(x, y, its gap, the end's gap) to the nearest of `foes`: a legal spot within the move,
    in coherency, closer than where `mid` ended by more than the margin; None if none."""
    start, end = move.start[mid], move.end[mid]
    if not isinstance(start.base, RoundBase) or not foes:
        return None
    margin = WITNESS_MARGIN_IN
    radii = np.arange(WITNESS_STEP_IN, limit - margin + 1e-9, WITNESS_STEP_IN)
    angles = np.radians(np.arange(0.0, 360.0, WITNESS_STEP_DEG))
    rr, aa = np.meshgrid(radii, angles)
    xs, ys = (start.x + rr * np.cos(aa)).ravel(), (start.y + rr * np.sin(aa)).ravel()
    spots = [at(start, x, y) for x, y in zip(xs, ys, strict=True)]
    now = float(gaps([end], foes).min())
    gap = gaps(spots, foes).min(axis=1)
    ok = (gap < now - margin) & on_open_ground(move, mid, xs, ys)
    mates = [m for m in move.ids if m != mid]
    keep_off = [move.start[m] for m in move.others] + [move.end[m] for m in mates]
    if keep_off:
        ok &= (gaps(spots, keep_off) >= margin).all(axis=1)
    for k in np.flatnonzero(ok)[np.argsort(gap[ok], kind="stable")]:
        if in_coherency(move, mid, [spots[k]])[0]:
            return float(xs[k]), float(ys[k]), float(gap[k]), now
    return None


def in_coherency(move: MoveState, mid: str, spots: list[Footprint]) -> np.ndarray:
    """Per spot: whether the unit, `mid` there and its mates where they end, has every model
    within coherency (less the margin) of enough others and is one group."""
    ends = [move.end[m] for m in move.ids if m != mid]
    link = move.rules.coherency_range_in - WITNESS_MARGIN_IN
    between = gaps(ends, ends) <= link
    need = move.rules.coherency_neighbours(len(move.ids))
    to_mates = gaps(spots, ends) <= link
    return np.array([_one_group(between, row, need) for row in to_mates], bool)


def _one_group(between: np.ndarray, to_new: np.ndarray, need: int) -> bool:
    """Whether the mates (links `between`) and one more model (links `to_new`) are each linked
    to `need` others and form one group."""
    n = len(to_new)
    if n == 0:
        return True
    links = np.zeros((n + 1, n + 1), bool)
    links[:n, :n] = between
    links[n, :n] = links[:n, n] = to_new
    np.fill_diagonal(links, False)
    if (links.sum(axis=1) < need).any():
        return False
    seen, todo = {n}, [n]
    while todo:
        for j in np.flatnonzero(links[todo.pop()]):
            if int(j) not in seen:
                seen.add(int(j))
                todo.append(int(j))
    return len(seen) == n + 1
