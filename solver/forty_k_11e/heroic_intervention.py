"""Heroic intervention (40k 11th edition, stratagem 15.11): an unengaged unit within 12" of an
enemy unit resolves a charge in one of two modes chosen before the roll: Leap to Defend
(only units that made a charge move this phase may be targets) or Into the Fray (the roll is
capped at 6; targets within 6"). Solved as the 11th-edition charge of the restricted
scenario."""

from __future__ import annotations

from chargeopt.models import Result, Scenario, UnsupportedRuleError
from chargeopt.solver.options import SolveOptions


def solve_heroic_intervention_11e(scenario: Scenario, options: SolveOptions) -> Result:
    """Refuse until the 11th-edition charge it resolves is built."""
    raise UnsupportedRuleError(
        "a heroic intervention under 40k-11e resolves the 11th-edition charge, which is not "
        "built yet",
        "action.kind",
    )
