"""The 11th-edition charge (being built): refused clearly until it is."""

from __future__ import annotations

from chargeopt.models import Result, Scenario, UnsupportedRuleError
from chargeopt.solver.options import SolveOptions


def solve_charge_11e(scenario: Scenario, options: SolveOptions) -> Result:
    """Refuse: the 11th-edition charge is not built yet (never solved with 10th rules)."""
    raise UnsupportedRuleError(
        "chargeopt does not solve a charge under 40k-11e yet; solve it under 40k-10e",
        "action.kind",
    )
