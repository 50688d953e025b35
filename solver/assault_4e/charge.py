"""The 40k-assault-4e charge: the first model to the nearest enemy, then every model in an order
that keeps the seed's preferences, read globally (see README.md)."""

from __future__ import annotations

from chargeopt.models import Result, Scenario, UnsupportedRuleError
from chargeopt.solver.options import SolveOptions


def solve_assault_charge(scenario: Scenario, options: SolveOptions) -> Result:
    """The charge under 40k-assault-4e (being built)."""
    raise UnsupportedRuleError("the 40k-assault-4e charge is being built")
