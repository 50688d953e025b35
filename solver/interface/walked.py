"""The path each model walked, for drawing: the result's own `path` where it carries one (a
40k-assault-4e fall back), else the shortest legal path around terrain and bases from
`geometry.paths` (the path whose length `moved` and the checker measure), so a move bent
around a wall is drawn bent, never as a straight line through it."""

from __future__ import annotations

import math
from collections.abc import Iterable
from itertools import pairwise

from chargeopt.models import ActionKind, Placement, Scenario

Point = tuple[float, float]
STRAIGHT_SLACK_IN = 0.01
"""A path no longer than the straight line by this much is drawn straight."""


def walked_paths(scenario: Scenario, placements: Iterable[Placement]) -> dict[str, list[Point]]:
    """Each moved model's path from its start to its end, as [x, y] points; a model whose path
    is the straight line (or that has none: an end no legal path reaches) is left out."""
    from chargeopt.geometry.paths import obstacle_map
    from chargeopt.geometry.terrain import Battlefield

    starts = scenario.model_index
    field: Battlefield | None = None
    out: dict[str, list[Point]] = {}
    for p in placements:
        if p.model not in starts:
            continue
        _, m = starts[p.model]
        straight = math.hypot(p.x - m.x, p.y - m.y)
        if p.path:
            path = [(float(x), float(y)) for x, y in p.path]
        else:
            field = field or Battlefield.from_scenario(scenario)
            path = []
            for avoid in _avoided(scenario):
                omap = obstacle_map(scenario, field, p.model, avoid_engagement_of=avoid)
                path = omap.path_field((m.x, m.y)).path_to(p.x, p.y)
                if path:
                    break
        length = sum(math.dist(a, b) for a, b in pairwise(path))
        if len(path) > 2 and length > straight + STRAIGHT_SLACK_IN:
            out[p.model] = [(round(x, 4), round(y, 4)) for x, y in path]
    return out


def _avoided(scenario: Scenario) -> list[tuple[str, ...]]:
    """The engagement ranges a path keeps out of, tried in turn: a charge's non-target enemy
    units (then none, for an end within their range), any other move's none."""
    if scenario.action.kind != ActionKind.CHARGE:
        return [()]
    acting = scenario.acting_unit
    chosen = set(scenario.action.targets)
    avoid = tuple(u.id for u in scenario.enemies_of(acting) if u.id not in chosen)
    return [avoid, ()] if avoid else [()]
