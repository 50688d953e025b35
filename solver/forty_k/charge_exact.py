"""The 40k charge (9th and 10th edition) under the shared exact-limits rule
(`solver/core/exact_limits.py`): solved with the printed margins; where that finds no answer,
solved again at the limits the rules measure, and an answer found only there is `feasible`
with the note that its 0.01" rounding may not be legal."""

from __future__ import annotations

import time
from dataclasses import replace

from chargeopt.models import Result, Scenario
from chargeopt.solver.core import clock
from chargeopt.solver.core.exact_limits import (
    STAT_KEY,
    Margins,
    held,
    solve_exactly_if_needed,
)
from chargeopt.solver.forty_k.charge import solve_charge
from chargeopt.solver.options import SolveOptions

EXACT_MIN_SHARE = 0.25
"""The exact pass gets what the first left of the budget, but at least this share of it (a
first pass that found nothing has often spent it all); counted on the solver's clock."""


def solve_charge_exactly_if_needed(scenario: Scenario, options: SolveOptions) -> Result:
    """The charge with the printed margins, then, only without an answer or a proof, at exact
    limits (the charge's proofs, `solver/bounds`, hold anywhere on the table: no margin)."""
    started, t0 = clock.now(), time.perf_counter()

    def one_pass(margins: Margins) -> Result:
        limit_s = options.time_limit_s
        if margins.exact:
            left_s = limit_s - (clock.now() - started)
            limit_s = max(left_s, EXACT_MIN_SHARE * limit_s)
        with held(margins):
            return solve_charge(scenario, replace(options, time_limit_s=limit_s))

    result = solve_exactly_if_needed(one_pass, proofs_exact=True)
    if STAT_KEY in result.stats:
        stats = {**result.stats, "seconds": round(time.perf_counter() - t0, 3)}
        result = result.model_copy(update={"stats": stats})
    return result
