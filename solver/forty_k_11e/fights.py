"""Who fights after an 11th-edition move (12.04, 03.04): a model attacks the enemy units it
is engaged with (within 2" horizontally, 5" vertically); no mate passes the fight on. Measured
by `chargeopt.geometry.fight` with the answers' margins kept inside the range."""

from __future__ import annotations

from collections.abc import Iterable

from chargeopt.geometry import Battlefield
from chargeopt.geometry.fight import Reading, fight_eligibility
from chargeopt.models import Placement, Scenario
from chargeopt.solver.core.tolerances import KEPT_IN, PAIR_KEPT_IN

SOLVER_READING = Reading(range_in=KEPT_IN, pair_in=PAIR_KEPT_IN)


def fights_of(
    scenario: Scenario, placements: Iterable[Placement], battlefield: Battlefield
) -> dict[str, tuple[str, ...]]:
    """For each model of the acting unit, the enemy units it can attack where it is written."""
    return fight_eligibility(scenario, placements, battlefield=battlefield, reading=SOLVER_READING)


def who_fights(scenario: Scenario, placements: Iterable[Placement]) -> dict[str, list[str]]:
    """The models of the acting unit that can attack, per enemy unit (every model with no
    placement stands where it started)."""
    out: dict[str, list[str]] = {}
    for model, units in fights_of(
        scenario, placements, Battlefield.from_scenario(scenario)
    ).items():
        for u in units:
            out.setdefault(u, []).append(model)
    return out
