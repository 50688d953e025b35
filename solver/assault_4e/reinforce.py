"""The 40k-assault-4e reinforcement (pile-in) move: locked but unengaged models move up to 6"
to contact the enemy, through terrain and models."""

from __future__ import annotations

from chargeopt.models import Result, Scenario, UnsupportedRuleError
from chargeopt.solver.options import SolveOptions


def solve_reinforcement(scenario: Scenario, options: SolveOptions) -> Result:
    """The reinforcement move under 40k-assault-4e (being built)."""
    raise UnsupportedRuleError("the 40k-assault-4e reinforcement move is being built")
