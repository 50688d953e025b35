"""Consolidation (40k 11th edition, 12.08): 3" in the first mode that applies, which is
compulsory: ongoing (engaged: as a pile in), engaging (enemy units within 3": end engaged
with every selected one), objective (an objective within 3": end within its range)."""

from __future__ import annotations

from chargeopt.models import Result, Scenario
from chargeopt.solver.forty_k_11e.close_solve_11e import solve_close_11e
from chargeopt.solver.options import SolveOptions


def solve_consolidate_11e(scenario: Scenario, options: SolveOptions) -> Result:
    """The best consolidation in its compulsory mode (`result.stats["mode"]`). Raises
    IneligibleMoveError when no mode applies."""
    return solve_close_11e(scenario, options)
