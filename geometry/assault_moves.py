"""40k-assault-4e move lengths: the assault move with difficult terrain read as the seed says
(a model moving into, out of or through it may move at most the highest of 2D6), and the
reinforcement move, which terrain and models do not block.

A base enters difficult terrain when it overlaps the area; a path that never does is measured
against the assault range, one that does against min(range, `difficult_roll`), and without a
difficult roll such a path is not allowed. Paths are the shared shortest legal paths
(`paths.py`): grown obstacles, so a gap narrower than the base is closed."""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from chargeopt.geometry.obstacles import climbs_in, grown_obstacle
from chargeopt.geometry.paths import ObstacleMap, obstacle_map
from chargeopt.geometry.standing import Standing, with_standing
from chargeopt.geometry.terrain import Battlefield
from chargeopt.models import Scenario, TerrainKind


def assault_lengths(
    scenario: Scenario,
    battlefield: Battlefield,
    model_id: str,
    xs: np.ndarray,
    ys: np.ndarray,
    zs: np.ndarray | float,
    *,
    range_in: float,
    difficult_roll: int | None,
    avoid_units: Iterable[str] = (),
    margin_in: float = 0.0,
    standing: Standing | None = None,
) -> np.ndarray:
    """The length of the move model `model_id` makes to each end (x, y, z): its shortest path
    that avoids the engagement range of `avoid_units` and stays out of difficult terrain when
    that is within `range_in`, else its shortest path through difficult terrain when that is
    within min(`range_in`, `difficult_roll`); inf where neither is. Each limit is kept
    `margin_in` inside. `standing`: bases that block the path besides the map's (the moving
    unit's own models at this moment of the charge, `standing.py`)."""
    xs, ys = np.asarray(xs, float), np.asarray(ys, float)
    avoid = tuple(avoid_units)
    plain = obstacle_map(scenario, battlefield, model_id, avoid_engagement_of=avoid)
    through = with_standing(plain, standing or {}, reach_in=range_in)
    climb = climbs_in(scenario.rules, through.mover.start_z, np.broadcast_to(zs, xs.shape))
    field = through.path_field(through.mover.start, within_in=range_in)
    out = np.full(xs.shape, np.inf)
    near = np.hypot(xs - through.mover.start[0], ys - through.mover.start[1]) <= range_in + 1e-9
    if not near.any():
        return out
    flat = np.full(xs.shape, np.inf)
    flat[near] = field.lengths_to(xs[near], ys[near])
    length = flat + climb
    difficult = battlefield.of_kind(TerrainKind.DIFFICULT)
    if not difficult:
        return np.where(length <= range_in - margin_in, length, np.inf)
    key = (id(scenario), id(battlefield), through.mover.clearance_in, through.mover.start_z, avoid)
    if key not in _DRY:
        if len(_DRY) > 64:
            _DRY.clear()
        _DRY[key] = (scenario, battlefield, _avoiding(plain, difficult))
    dry = with_standing(_DRY[key][2].for_mover(through.mover), standing or {}, reach_in=range_in)
    dry_flat = np.full(xs.shape, np.inf)
    dry_flat[near] = dry.path_field(dry.mover.start, within_in=range_in).lengths_to(
        xs[near], ys[near]
    )
    dry_length = dry_flat + climb
    slowed = min(range_in, difficult_roll) if difficult_roll is not None else -math.inf
    return np.where(
        dry_length <= range_in - margin_in,
        dry_length,
        np.where(length <= slowed - margin_in, length, np.inf),
    )


_DRY: dict[tuple[object, ...], tuple[Scenario, Battlefield, ObstacleMap]] = {}
"""Maps that keep out of difficult terrain, per scenario, clearance, height and avoided units
(the scenario and battlefield are kept alive beside their ids)."""


def _avoiding(base_map: ObstacleMap, difficult: Iterable[object]) -> ObstacleMap:
    """The same obstacles plus every difficult area grown by the mover's clearance."""
    r = base_map.mover.clearance_in
    extra = [grown_obstacle(p.id, p.shape, r) for p in difficult]
    _, _, x1, y1 = base_map.bounds
    return ObstacleMap(base_map.mover, x1 + r, y1 + r, [*base_map.obstacles, *extra])


def free_lengths(start: tuple[float, float], xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Straight-line move lengths: the reinforcement and consolidation moves, which terrain and
    models do not block (their ends still may not overlap anything)."""
    return np.hypot(np.asarray(xs, float) - start[0], np.asarray(ys, float) - start[1])
