"""When a small unit's answer is not proven best, solve again on finer candidates: a gap on a
few models is most often a spot between grid points (a model squeezed past a wall or beside
another's engagement range), and there the finer grid costs a second or so. The hordes keep
their grid: their gaps are packings that finer candidates do not close (RESULTS.md)."""

from __future__ import annotations

from dataclasses import replace

from chargeopt.models import Result, Scenario, Status
from chargeopt.solver.options import SolveOptions

MOVED = (Status.OPTIMAL, Status.FEASIBLE)
"""The statuses of an answer that moves the unit."""
REFINE_MAX_MODELS = 10
"""Units of more models than this are not solved again."""
FINE_CONTACT_STEP_DEG = 1.0
FINE_NEAR_SPACING_IN = 0.3
FINE_FAR_SPACING_IN = 0.6
"""The finer candidates: a third of the default contact step, half its spacings. On the random
small charges of RESULTS.md they turn two of the seven unproven answers into proven ones, one
more engaged model each; a fifth of the step and a third of the spacings closed no more."""
REFINE_MIN_S = 1.0
"""No refined solve starts with less time than this left: the first answer's certificate has
had its full share (a bound that closes there, as on curated-v1 k4, costs no second solve)."""


def finer(options: SolveOptions) -> SolveOptions:
    """The options with candidates at least as fine as the refined grid."""
    return replace(
        options,
        contact_step_deg=min(options.contact_step_deg, FINE_CONTACT_STEP_DEG),
        near_spacing_in=min(options.near_spacing_in, FINE_NEAR_SPACING_IN),
        far_spacing_in=min(options.far_spacing_in, FINE_FAR_SPACING_IN),
    )


def may_refine(scenario: Scenario, options: SolveOptions) -> bool:
    """Whether a gap left by these options would be worth a solve on finer candidates."""
    small = len(scenario.acting_unit.models) <= REFINE_MAX_MODELS
    return small and finer(options) != options


def keep_refined(first: Result, fine: Result) -> bool:
    """Whether the refined answer replaces the first: it moves the unit and counts at least as
    many models in base contact, then in engagement range (ties go to the refined answer,
    whose certificate had the longer time)."""
    if fine.status not in MOVED or not fine.objective:
        return False
    terms = ("base_contact", "engaged")
    return tuple(fine.objective[t] for t in terms) >= tuple(first.objective[t] for t in terms)
