"""Exact limits in every proof: the margins of `tolerances.py` keep a printed answer legal at the
summary's 0.01", so they shape the placement the solver picks, never a proof, a ceiling, a
verdict or a minimum roll. A solve runs with the printed margins; where that finds no answer,
it runs again with the limits exactly as the rules measure them (`EXACT`): an answer found
there is legal as written in the JSON (to 0.001") and is returned `feasible` with a note that
its 0.01" rounding may not be; where none is found either, the exact pass's proof stands.

Shared by every rule family: a solver takes a `Margins` and `solve_exactly_if_needed` runs it
once or twice; `note_lines` gives the summary's wording. The 40k solvers, whose shared steps
(candidates, greedy, CP-SAT blocks) read the `tolerances` constants, take the margins in
force instead (`held`, read through `margin`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from chargeopt.models import Result, Status
from chargeopt.solver.core.tolerances import (
    JSON_STEP_IN,
    MARGIN_IN,
    PAIR_KEPT_IN,
    ROLL_MARGIN_IN,
    SUMMARY_STEP_IN,
)

STAT_KEY = "exact_limits"
"""The result's `stats` key that holds the note of an answer found only at exact limits."""


@dataclass(frozen=True)
class Margins:
    """How far inside each limit a placement keeps: `one_in` between a moved model and what
    does not move, `pair_in` between two moved models, `roll_in` inside the move's length."""

    one_in: float
    pair_in: float
    roll_in: float

    @property
    def exact(self) -> bool:
        return self.one_in == self.pair_in == self.roll_in == 0.0


PRINTED = Margins(MARGIN_IN, PAIR_KEPT_IN, ROLL_MARGIN_IN)
"""The margins that keep an answer legal at the summary's 0.01"."""
EXACT = Margins(0.0, 0.0, 0.0)
"""The limits as the rules measure them: an answer on the JSON's grid is legal as written."""

_HELD: ContextVar[Margins] = ContextVar("chargeopt_margins", default=PRINTED)


@contextmanager
def held(margins: Margins) -> Iterator[None]:
    """Keep `margins` in force for the steps that read them through `margin`."""
    token = _HELD.set(margins)
    try:
        yield
    finally:
        _HELD.reset(token)


def margin(printed_in: float) -> float:
    """A margin of `tolerances` (what a printed answer keeps inside a limit) as the margins in
    force have it: itself, or nothing at exact limits."""
    return 0.0 if _HELD.get().exact else printed_in


def at_exact_limits() -> bool:
    """Whether the exact limits are in force (`held(EXACT)`)."""
    return _HELD.get().exact


NOTE = (
    f'legal as measured to {JSON_STEP_IN:g}"; the {SUMMARY_STEP_IN:g}" rounding of this answer '
    "may not be (it stands inside the margins the printed positions keep)"
)


def found(result: Result) -> bool:
    """Whether a result holds an answer (placements with an optimal or feasible status)."""
    return result.status in (Status.OPTIMAL, Status.FEASIBLE) and bool(result.placements)


def solve_exactly_if_needed(
    solve: Callable[[Margins], Result], *, proofs_exact: bool = False
) -> Result:
    """`solve` with the printed margins; if it finds no answer, `solve` at exact limits: its
    answer, `feasible` with `NOTE`, or its verdict (a proof made at exact limits). With
    `proofs_exact` (a solver whose proofs never read the margins), an `infeasible` first
    pass stands: it is already that proof."""
    first = solve(PRINTED)
    if found(first) or (proofs_exact and first.status == Status.INFEASIBLE):
        return first
    second = solve(EXACT)
    if not found(second):
        return second
    stats = {**second.stats, STAT_KEY: NOTE}
    return second.model_copy(update={"status": Status.FEASIBLE, "stats": stats})


def exactly_if_better(solve: Callable[[Margins], Result]) -> Result:
    """For a move that always has an answer (models may stay): `solve` with the printed
    margins; if that is not proven optimal, `solve` at exact limits, kept (`feasible`, with
    `NOTE`) where it does better on the terms its ceilings bound, in the order listed."""
    first = solve(PRINTED)
    if first.status == Status.OPTIMAL:
        return first
    second = solve(EXACT)
    keys = [k for k in first.objective if k in first.bound]
    if [second.objective.get(k, 0) for k in keys] <= [first.objective.get(k, 0) for k in keys]:
        return first
    stats = {**second.stats, STAT_KEY: NOTE}
    return second.model_copy(update={"status": Status.FEASIBLE, "stats": stats})


def note_lines(result: Result) -> list[str]:
    """The summary's line for an answer legal only at exact limits (none otherwise)."""
    note = result.stats.get(STAT_KEY)
    return [f"Note: {note}."] if note else []
