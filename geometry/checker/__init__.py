"""chargeopt.geometry.checker: the independent rules checker. `check_placement` judges any
placement of the acting unit (the solver's or a person's) against every rule of its move,
one module per rule group. May import chargeopt.models and the rest of chargeopt.geometry;
never chargeopt.solver (it shares no candidate or constraint code with the solver)."""

from chargeopt.geometry.checker.judge import (
    VIOLATION_KINDS,
    check_placement,
    summarise,
    unmoved_models,
)

__all__ = ["VIOLATION_KINDS", "check_placement", "summarise", "unmoved_models"]
