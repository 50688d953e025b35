"""Extra candidate spots for models that can reach a target's engagement band but not its base:
where the roll only just reaches the band, the spots a model can use are a sliver at the edge
of its reach, which the candidates' lattice and rings can miss altogether. The corners of the
sliver (`engagement_regions`, drawn inside the true region) are the spots such a model can take
farthest from its neighbours, which is what lets two of them in at once. A primal step: the
solve and the checker still decide what is legal."""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
import shapely

from chargeopt.models import Scenario
from chargeopt.solver.bounds.contact_bound import straight_touch
from chargeopt.solver.bounds.engagement_regions import engagement_regions

CORNER_SPACING_IN = 0.02
"""A region's outline is thinned to corners at least about this far from the chords between
them (Douglas-Peucker): its true corners stay, the points along its arcs mostly go."""


def engagement_spots(
    scenario: Scenario, roll: float, models: Collection[str]
) -> dict[object, np.ndarray]:
    """Per base of the acting unit, centres (k, 2): the corners of the engagement region of
    each of `models` that cannot touch a target model in a straight line with `roll`. Walls
    and paths are left to the candidates' own filters and path lengths."""
    touch = straight_touch(scenario, roll)
    unit = scenario.acting_unit
    out: dict[object, list[np.ndarray]] = {}
    sliver = [mid for mid in models if not touch[mid]]
    for mid, region in engagement_regions(scenario, roll, outer=False, models=sliver).items():
        corners = shapely.get_coordinates(region.area.simplify(CORNER_SPACING_IN))
        out.setdefault(unit.base_of(scenario.model_index[mid][1]), []).append(
            np.unique(corners, axis=0)
        )
    return {b: np.vstack(parts) for b, parts in out.items()}
