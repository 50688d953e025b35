"""The 40k-assault-4e consolidation: up to 3" in any direction, coherency kept."""

from __future__ import annotations

from chargeopt.models import Result, Scenario, UnsupportedRuleError
from chargeopt.solver.options import SolveOptions


def solve_assault_consolidate(scenario: Scenario, options: SolveOptions) -> Result:
    """The consolidation under 40k-assault-4e (being built)."""
    raise UnsupportedRuleError("the 40k-assault-4e consolidation is being built")
