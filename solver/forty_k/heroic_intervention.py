"""Heroic intervention (40k 9th edition, seed 004): an eligible CHARACTER unit moves each
model up to 3", ending closer to the closest enemy model, in coherency. In the 10th edition it
is a stratagem that makes a charge move instead, so it is solved as a charge there."""

from __future__ import annotations

from chargeopt.geometry import Battlefield
from chargeopt.models import Result, Scenario
from chargeopt.solver.forty_k.close_moves import CloseMove, require_heroic_intervention
from chargeopt.solver.forty_k.close_solve import solve_close
from chargeopt.solver.options import SolveOptions


def solve_heroic_intervention(scenario: Scenario, options: SolveOptions) -> Result:
    """The best heroic intervention: most models in base contact, then most models that can
    fight, then the least movement. Raises IneligibleMoveError for a unit that is not a
    CHARACTER unit, is already within engagement range, or has no enemy unit within 3"."""
    move = CloseMove(scenario, Battlefield.from_scenario(scenario))
    require_heroic_intervention(move)
    return solve_close(move, options)
