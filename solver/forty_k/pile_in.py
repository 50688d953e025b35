"""Pile in (40k 9th and 10th edition): each model may move up to 3" toward the enemy; see
`close_moves` for the rules shared with consolidation and heroic intervention."""

from __future__ import annotations

from chargeopt.geometry import Battlefield
from chargeopt.models import Result, Scenario
from chargeopt.solver.forty_k.close_moves import CloseMove, require_pile_in
from chargeopt.solver.forty_k.close_solve import solve_close
from chargeopt.solver.options import SolveOptions


def solve_pile_in(scenario: Scenario, options: SolveOptions) -> Result:
    """The best pile in: most models in base contact, then most models that can fight, then
    the least movement. Raises IneligibleMoveError for a unit that neither is within
    engagement range of an enemy unit nor charged this turn."""
    move = CloseMove(scenario, Battlefield.from_scenario(scenario))
    require_pile_in(move)
    return solve_close(move, options)
