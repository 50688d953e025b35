"""Pile in (40k 11th edition, 12.03; an overrun fight's extra pile in, 12.06): each model may
move up to 3" toward the pile-in targets; models in base contact with an enemy model stay."""

from __future__ import annotations

from chargeopt.models import Result, Scenario
from chargeopt.solver.forty_k_11e.close_solve_11e import solve_close_11e
from chargeopt.solver.options import SolveOptions


def solve_pile_in_11e(scenario: Scenario, options: SolveOptions) -> Result:
    """The best pile in: most models engaged with their closest pile-in target, then most
    engaged, then the least movement. Raises IneligibleMoveError for a unit that is
    unengaged and neither charged nor makes an overrun fight, or has no enemy within 5"."""
    return solve_close_11e(scenario, options)
