"""The 40k-assault-4e consolidation: up to 3" along a legal path (walls and models block, the
unit's own included, where they stand at each model's move),
coherency kept; models not in base contact move into contact with any enemy unit they can
reach (new units included), the others stay."""

from __future__ import annotations

import numpy as np

from chargeopt.geometry import Battlefield
from chargeopt.geometry.paths import obstacle_map
from chargeopt.geometry.standing import Standing, with_standing
from chargeopt.models import Result, Scenario
from chargeopt.solver.assault_4e.close_in import close_in, in_contact_with
from chargeopt.solver.core.exact_limits import Margins, exactly_if_better
from chargeopt.solver.options import SolveOptions


def solve_assault_consolidate(scenario: Scenario, options: SolveOptions) -> Result:
    """The consolidation: each model not in base contact to its shortest contact within 3",
    in coherency, along a path round its unit mates where they stand at its move; a model
    that cannot stays where it is. Where the printed margins leave it short of its ceilings,
    it is tried at exact limits too (`exact_limits.py`)."""
    return exactly_if_better(lambda margins: _consolidate(scenario, margins))


def _consolidate(scenario: Scenario, margins: Margins) -> Result:
    battlefield = Battlefield.from_scenario(scenario)
    unit = scenario.acting_unit
    foes = list(scenario.enemies_of(unit))
    movers = [m.id for m in unit.models if not in_contact_with(scenario, m.id, foes)]
    limit = scenario.rules.consolidate_in

    def lengths(mid: str, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        omap = obstacle_map(scenario, battlefield, mid)
        return omap.path_field(omap.mover.start, within_in=limit).lengths_to(xs, ys)

    def around(mid: str, standing: Standing, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        omap = with_standing(obstacle_map(scenario, battlefield, mid), standing, reach_in=limit)
        return omap.path_field(omap.mover.start, within_in=limit).lengths_to(xs, ys)

    reach = {m.id: limit for m in unit.models}
    return close_in(
        scenario,
        battlefield,
        foes,
        movers,
        lengths,
        limit,
        {},
        reach_in=reach,
        around=around,
        margins=margins,
    )
