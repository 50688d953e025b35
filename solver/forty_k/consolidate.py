"""Consolidation (40k 9th and 10th edition): as a pile in, after the unit's attacks; in the
10th edition a unit that cannot end within engagement range of an enemy unit may move toward
the closest objective marker instead (see `close_solve`)."""

from __future__ import annotations

from chargeopt.geometry import Battlefield
from chargeopt.models import Result, Scenario
from chargeopt.solver.forty_k.close_moves import CloseMove
from chargeopt.solver.forty_k.close_solve import solve_close
from chargeopt.solver.options import SolveOptions


def solve_consolidate(scenario: Scenario, options: SolveOptions) -> Result:
    """The best consolidation: most models in base contact, then most models that can fight
    (in the 10th edition's objective mode: most models within range of the marker), then the
    least movement. No eligibility test of its own: the unit fought, and its enemies may since
    have been removed from the board."""
    move = CloseMove(scenario, Battlefield.from_scenario(scenario))
    return solve_close(move, options)
