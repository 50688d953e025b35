"""Extra candidate spots for models that can reach a target's engagement band but not its base:
where the roll only just reaches the band, the spots a model can use are a sliver at the edge
of its reach, which the candidates' lattice and rings can miss altogether. The corners of the
sliver (`engagement_regions`, drawn inside the true region) are the spots such a model can take
farthest from its neighbours, which is what lets two of them in at once. A primal step: the
solve and the checker still decide what is legal."""

from __future__ import annotations

import math
from collections.abc import Collection

import numpy as np
import shapely

from chargeopt.models import RoundBase, Scenario

from .candidates import CONTACT_GAP_IN
from .engagement_regions import MARGIN_IN, engagement_regions

CORNER_SPACING_IN = 0.02
"""A region's outline is thinned to corners at least about this far from the chords between
them (Douglas-Peucker): its true corners stay, the points along its arcs mostly go."""


def engagement_spots(
    scenario: Scenario, roll: float, models: Collection[str]
) -> dict[object, np.ndarray]:
    """Per base of the acting unit, centres (k, 2): the corners of the engagement region of
    each of `models` that cannot touch any round target model in a straight line with `roll`.
    Walls and paths are left to the candidates' own filters and path lengths."""
    unit = scenario.acting_unit
    targets = [
        (t.x, t.y, u.base_of(t).radius_in)
        for tid in scenario.action.targets
        for u in [scenario.unit_by_id[tid]]
        for t in u.models
        if isinstance(u.base_of(t), RoundBase)
    ]
    out: dict[object, list[np.ndarray]] = {}
    for mid, region in engagement_regions(scenario, roll, outer=False).items():
        if mid not in models:
            continue
        m = next(x for x in unit.models if x.id == mid)
        touch = roll - MARGIN_IN + region.radius_in + CONTACT_GAP_IN
        if any(math.hypot(x - m.x, y - m.y) <= touch + R for x, y, R in targets):
            continue
        corners = shapely.get_coordinates(region.area.simplify(CORNER_SPACING_IN))
        out.setdefault(unit.base_of(m), []).append(np.unique(corners, axis=0))
    return {b: np.vstack(parts) for b, parts in out.items()}
