"""The 40k-assault-4e reinforcement (pile-in) move: locked but unengaged models move up to 6"
in a straight line (terrain and models do not block it) into base contact with the units they
are locked with, unengaged enemy models first; a model that cannot moves as close as it can
while keeping coherency. Engaged models stay, so their reach is 0 in the ceilings."""

from __future__ import annotations

import numpy as np

from chargeopt.geometry import Battlefield
from chargeopt.geometry.assault_moves import free_lengths
from chargeopt.models import IneligibleMoveError, Result, Scenario, Unit
from chargeopt.solver.assault_4e.close_in import close_in, in_contact_with
from chargeopt.solver.core.exact_limits import Margins, exactly_if_better
from chargeopt.solver.options import SolveOptions


def solve_reinforcement(scenario: Scenario, options: SolveOptions) -> Result:
    """The reinforcement move: each unengaged model of the acting unit to its shortest contact
    with a locked enemy model, in coherency; a model that cannot gets as close as it can.
    Where the printed margins leave it short of its ceilings, it is tried at exact limits too
    (`exact_limits.py`)."""
    return exactly_if_better(lambda margins: _reinforce(scenario, margins))


def _reinforce(scenario: Scenario, margins: Margins) -> Result:
    battlefield = Battlefield.from_scenario(scenario)
    unit = scenario.acting_unit
    foes = _locked(scenario)
    if not foes:
        raise IneligibleMoveError(
            f"unit {unit.id!r} cannot make a reinforcement (pile-in) move: it is locked in no "
            "combat (none of its models is in base contact with an enemy model and its "
            "locked_with is empty); if it is locked, name the enemy units in its locked_with, "
            'e.g. locked_with = ["B"]'
        )
    movers = [m.id for m in unit.models if not in_contact_with(scenario, m.id, foes)]
    start = {m.id: (m.x, m.y) for m in unit.models}

    def lengths(mid: str, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        return free_lengths(start[mid], xs, ys)

    limit = scenario.rules.reinforcement_in or 0.0
    stats: dict[str, object] = {"locked_with": [u.id for u in foes]}
    reach = {mid: limit for mid in movers}
    return close_in(
        scenario,
        battlefield,
        foes,
        movers,
        lengths,
        limit,
        stats,
        reach_in=reach,
        approach=True,
        margins=margins,
    )


def _locked(scenario: Scenario) -> list[Unit]:
    """`locked_with`, else every enemy unit a model of the acting unit touches at the start."""
    unit = scenario.acting_unit
    if unit.locked_with:
        return [scenario.unit_by_id[u] for u in unit.locked_with]
    enemies = list(scenario.enemies_of(unit))
    return [e for e in enemies if any(in_contact_with(scenario, m.id, [e]) for m in unit.models)]
