"""Witnesses for the 10th edition's "if it can" rules of close-combat moves.

A checker cannot search every placement, so it calls "it could have" only with a witness: one
model of the acting unit moved alone to a spot where
- its base touches an enemy model (a contact spot) or is within engagement range of one;
- its shortest legal path is within the move limit (the path measure of the charge checker,
  which never understates a round base's path) and it ends strictly closer (edge to edge) to
  the enemy model that was closest to it at the start;
- it stands legally (on the board, on a surface it may stand on, out of walls, impassable
  areas and barricades) and overlaps no base, with its unit mates where they ended;
- its whole unit, with this one model moved, is in coherency.
Spots are tried on rings around each enemy model in reach (every 0.05" of the ring) at a gap
of 0.0025" (contact), half the engagement range and the engagement range less 0.01". Only
round bases are moved: the paths of ovals and hulls are lower bounds, so a witness for them
could be false. A witness that needs several models to move is not found, so the checker can
miss a violation but never reports one without a legal way to avoid it."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import shapely

from chargeopt.geometry.checker.close_state import CLOSER_IN, CloseMove
from chargeopt.geometry.checker.coherency import coherency_violations
from chargeopt.geometry.distance_matrix import edge_distances
from chargeopt.geometry.footprints import Footprint
from chargeopt.geometry.move_state import MoveState
from chargeopt.geometry.obstacles import climb_in
from chargeopt.geometry.pairs import SAME_HEIGHT_IN
from chargeopt.geometry.paths import obstacle_map
from chargeopt.geometry.pose import Surfaces, terrain_intrusions
from chargeopt.models import Placement, RoundBase

SPACING_IN = 0.05
CONTACT_GAP_IN = 0.0025
ER_MARGIN_IN = 0.01
HEIGHT_IN = 1e-6
MOST_TRIALS = 200


@dataclass(frozen=True)
class Spot:
    """Where a model could have ended: its centre, the enemy model it reaches, and the length
    of its shortest legal path there."""

    model: str
    x: float
    y: float
    z: float
    enemy: str
    length_in: float


def contact_spot(close: CloseMove, i: int) -> Spot | None:
    """A spot where acting model i touches an enemy model (None if none is found)."""
    return _first_legal(close, i, _rings(close, i, (CONTACT_GAP_IN,), reach=0.0))


def engagement_spot(close: CloseMove) -> Spot | None:
    """A spot where one model of the acting unit is within engagement range of an enemy model
    (None if none is found); contact spots first, then the rest of the band."""
    er = close.move.rules.engagement_range_in
    gaps = (CONTACT_GAP_IN, er / 2, er - ER_MARGIN_IN)
    for i in range(len(close.move.ids)):
        if close.start_contact[i].any():
            continue
        spot = _first_legal(close, i, _rings(close, i, gaps, reach=er))
        if spot is not None:
            return spot
    return None


def _rings(
    close: CloseMove, i: int, gaps: tuple[float, ...], reach: float
) -> Iterable[tuple[np.ndarray, np.ndarray, float, int]]:
    """(xs, ys, z, enemy index) rings of centres around each enemy model within the limit
    plus `reach` of model i's start, at each gap, at the enemy's height (and, off contact, at
    the model's own height)."""
    start = close.move.start[close.move.ids[i]]
    if not isinstance(start.base, RoundBase):
        return
    r = start.base.radius_in
    vertical = close.move.rules.engagement_vertical_in
    for j, enemy in enumerate(close.enemies.footprints):
        if close.start_gaps[i, j] > close.limit_in + reach:
            continue
        for gap in gaps:
            xs, ys = _ring(enemy, r + gap)
            heights = {enemy.z}
            if gap > CONTACT_GAP_IN and abs(start.z - enemy.z) <= vertical:
                heights.add(start.z)
            for z in sorted(heights):
                yield xs, ys, z, j


def _ring(enemy: Footprint, grow_in: float) -> tuple[np.ndarray, np.ndarray]:
    """Centres at `grow_in` from the enemy base's edge, about SPACING_IN apart."""
    if enemy.is_round:
        radius = enemy.radius_in + grow_in
        count = max(24, math.ceil(2 * math.pi * radius / SPACING_IN))
        t = np.linspace(0.0, 2 * math.pi, count, endpoint=False)
        return enemy.x + radius * np.cos(t), enemy.y + radius * np.sin(t)
    ring = shapely.segmentize(enemy.polygon.buffer(grow_in, quad_segs=16).exterior, SPACING_IN)
    coords = shapely.get_coordinates(ring)[:-1]
    return coords[:, 0], coords[:, 1]


def _first_legal(
    close: CloseMove, i: int, rings: Iterable[tuple[np.ndarray, np.ndarray, float, int]]
) -> Spot | None:
    """The shortest-path spot on the rings that passes every test in the module docstring."""
    move = close.move
    model_id = move.ids[i]
    start = move.start[model_id]
    rows = [(x, y, z, j) for xs, ys, z, j in rings for x, y in zip(xs, ys, strict=True)]
    if not rows:
        return None
    table = np.array(rows, dtype=float)
    xs, ys, zs, js = table[:, 0], table[:, 1], table[:, 2], table[:, 3].astype(int)
    keep = _cheap_tests(close, i, xs, ys, zs)
    xs, ys, zs, js = xs[keep], ys[keep], zs[keep], js[keep]
    omap = obstacle_map(move.scenario, move.battlefield, model_id)
    field = omap.path_field(omap.mover.start)
    lengths = field.lengths_to(xs, ys) + np.array(
        [climb_in(move.rules, start.z, z) for z in zs], dtype=float
    )
    surfaces = Surfaces(move.battlefield)
    tolerance = move.rules.base_contact_tolerance_in
    climbs = move.rules.may_end_on_upper_floor(move.unit.keyword_set)
    trials = 0
    for k in np.argsort(lengths, kind="stable"):
        if lengths[k] > close.limit_in or trials >= MOST_TRIALS:
            break
        fp = Footprint(start.base, float(xs[k]), float(ys[k]), float(zs[k]), start.facing)
        if terrain_intrusions(fp, move.battlefield, tolerance) or surfaces.problem(fp, tolerance):
            continue
        if fp.z > HEIGHT_IN and not climbs:
            continue
        trials += 1
        if _coherent_with(move, model_id, fp):
            return Spot(model_id, fp.x, fp.y, fp.z, close.enemy_ids[js[k]], float(lengths[k]))
    return None


def _cheap_tests(
    close: CloseMove, i: int, xs: np.ndarray, ys: np.ndarray, zs: np.ndarray
) -> np.ndarray:
    """On the board, within the limit in a straight line, closer to the closest enemy model,
    and overlapping no other base at the same height."""
    move = close.move
    model_id = move.ids[i]
    start = move.start[model_id]
    r = start.base.circumradius_in
    field = move.battlefield
    keep = (xs >= r) & (xs <= field.width - r) & (ys >= r) & (ys <= field.height - r)
    keep &= np.hypot(xs - start.x, ys - start.y) <= close.limit_in
    nearest = close.closest(i)
    facings = np.full(len(xs), start.facing)
    if len(nearest):
        targets = [close.enemies.footprints[j] for j in nearest]
        gaps = edge_distances(start.base, xs, ys, facings, targets)
        keep &= np.any(gaps < close.start_gaps[i, nearest] - CLOSER_IN, axis=1)
    else:
        keep[:] = False
    others = [move.end[m] for m in move.ids if m != model_id]
    others += [move.start[m] for m in move.others]
    if others and keep.any():
        gaps = edge_distances(start.base, xs, ys, facings, others)
        level = np.abs(zs[:, None] - np.array([o.z for o in others])[None, :]) < SAME_HEIGHT_IN
        keep &= ~np.any((gaps <= 0.0) & level, axis=1)
    return keep


def _coherent_with(move: MoveState, model_id: str, fp: Footprint) -> bool:
    """Whether the unit is in coherency with `model_id` at `fp` and the rest where they ended."""
    trial = dict(move.placements)
    trial[model_id] = Placement(model=model_id, x=fp.x, y=fp.y, z=fp.z, facing=fp.facing)
    moved = MoveState(move.scenario, move.battlefield, move.roll, trial, move.precision_in)
    return not any(True for _ in coherency_violations(moved))
