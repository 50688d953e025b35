"""Climbing over dense terrain (40k-11e, 13.06): a model that may not cross a dense area taller
than 2" on the ground may climb over it, adding the area's height up and its height down to
the move (it climbs where its base touches the area, within the 1/2" the rules allow). Over a
set S of such areas the shortest move is the shortest path with S left out of the obstacles
plus the climbs of S: each area is read as one block of its height, climbed once (exact where
the path crosses each area of S once, as it does a convex area: only convex areas are
climbed here). The checker counts the climbs along the path itself (`checker/path_lengths.py`)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from itertools import combinations

import numpy as np
import shapely
from shapely.geometry import Point

from chargeopt.geometry.paths import TOUCH_TOLERANCE_IN, obstacle_map
from chargeopt.geometry.terrain import Battlefield
from chargeopt.geometry.terrain_11e import Climb, climbs, takes_to_the_skies
from chargeopt.models import Scenario

MOST_CLIMB_SETS = 16
"""Most sets of areas tried per model (nearest first): more only misses longer climbs."""


def climb_sets(found: Sequence[Climb], start: tuple[float, float], budget_in: float):
    """The non-empty sets of convex areas whose climbs, plus the straight way to each of them,
    fit in `budget_in`; the cheapest first, at most `MOST_CLIMB_SETS`."""
    here = Point(start)
    near = [
        c
        for c in found
        if _convex(c) and float(shapely.distance(here, c.shape)) + c.cost_in <= budget_in
    ]
    sets = [
        combo
        for k in range(1, len(near) + 1)
        for combo in combinations(near, k)
        if sum(c.cost_in for c in combo) <= budget_in
    ]
    sets.sort(key=lambda combo: sum(c.cost_in for c in combo))
    return sets[:MOST_CLIMB_SETS]


def _convex(climb: Climb) -> bool:
    """Whether the area is convex: a shortest path crosses it once, so one climb is its cost
    (a non-convex area is left to go around: a placement missed at worst, never an illegal
    one; the checker costs any path, whatever the area's shape)."""
    hull = climb.shape.convex_hull
    return climb.shape.area >= hull.area * (1 - 1e-9)


def climbing_lengths(
    scenario: Scenario,
    battlefield: Battlefield,
    model_id: str,
    xs: np.ndarray,
    ys: np.ndarray,
    within_in: float,
    avoid_engagement_of: Iterable[str] = (),
) -> np.ndarray:
    """Per end centre: the shortest move that climbs over at least one area, if one fits in
    `within_in` (else a length above it, or inf). Never an end on such an area (its base would
    stand through the block on the ground, or on top of it, where this move does not end)."""
    xs, ys = np.asarray(xs, float), np.asarray(ys, float)
    out = np.full(xs.shape, np.inf)
    rules = scenario.rules
    unit, model = scenario.model_index[model_id]
    if not rules.terrain_categories or takes_to_the_skies(scenario, unit.id) or not len(xs):
        return out
    found = climbs(rules, unit.keyword_set, battlefield)
    avoid = tuple(avoid_engagement_of)
    clearance = math.inf
    for combo in climb_sets(found, (model.x, model.y), within_in):
        cost = sum(c.cost_in for c in combo)
        omap = obstacle_map(
            scenario,
            battlefield,
            model_id,
            avoid_engagement_of=avoid,
            climbed=[c.terrain_id for c in combo],
        )
        clearance = omap.mover.clearance_in
        field_ = omap.path_field(omap.mover.start, within_in=within_in - cost)
        out = np.minimum(out, field_.lengths_to(xs, ys) + cost)
    if math.isfinite(clearance):
        points = shapely.points(xs, ys)
        for climb in found:
            inside = shapely.distance(climb.shape, points) < clearance - TOUCH_TOLERANCE_IN
            out[inside] = np.inf
    return out
