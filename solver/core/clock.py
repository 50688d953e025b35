"""The solver's clock: every time limit inside a solve is counted in work, not on the wall, so
that the same scenario gives the same answer on any machine under any load.

The clock advances by CP-SAT's deterministic time (`DTIME_PER_S` units make one second) and
by fixed costs charged for the other steps that loop until a deadline (`spend`). Every CP-SAT
call goes through `run`: its limit is deterministic time, with a fixed number of workers in
CP-SAT's deterministic (interleaved) mode. A solve's budget is `WORK_SHARE` of its time
limit, counted on this clock. The wall clock is only a safety net: a solve has
`SolveOptions.time_limit_s` times `WALL_SAFETY` of real time; a CP-SAT call cut by it, or a
step that stops on it, marks the clock (`safety`), and the result says so, since an answer cut
by the wall may differ from run to run.

A solve opens its own clock (`opened`); outside one, a process-wide clock with no wall limit
serves (library calls of single steps, tests)."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from chargeopt.solver.core.lazy_ortools import cp_model

DTIME_PER_S = 0.8
"""CP-SAT deterministic time per second of the clock and per worker (interleaved workers add
up their work: two do about twice as much in a wall second): what one worker does in a wall
second on the 2-core reference machine on large charge and pile-in models (measured 0.75 to
0.87 on scaling-v1 c20-open-s1 and c40-walls-s2 and pile-in-v1 p20-two-units-9e; less on
small models, whose loading dominates), so that a budget of the clock's seconds takes about
as long on the wall."""
WORK_SHARE = 0.75
"""A solve's work budget, as a share of its time limit: the clock counts CP-SAT's work and a
few fixed costs, not the geometry, paths and checks around them, which take the rest, so that
on the reference machine the whole command ends within the limit."""
WALL_SAFETY = 3.0
"""The wall-clock safety net, as a multiple of the time limit: far enough that a machine two
or three times slower than the reference (busy with other work) still gives the same answer."""


@dataclass
class Clock:
    """Work done in one solve, in seconds of the clock, and the wall-clock safety net."""

    wall_limit_s: float = math.inf
    spent_s: float = 0.0
    safety: str | None = None
    wall_start: float = field(default_factory=time.perf_counter)

    def now(self) -> float:
        """The work done so far: what deadlines are measured against."""
        return self.spent_s

    def spend(self, seconds: float) -> None:
        """Charge `seconds` of work (a step that is not CP-SAT's)."""
        self.spent_s += max(0.0, seconds)

    def wall_left(self) -> float:
        """Real seconds left before the safety net."""
        return self.wall_start + self.wall_limit_s - time.perf_counter()

    def overrun(self, where: str) -> bool:
        """Whether the safety net has fired (and, the first time, where)."""
        if self.wall_left() > 0:
            return False
        self.safety = self.safety or where
        return True


_PROCESS = Clock()
_CURRENT: ContextVar[Clock | None] = ContextVar("chargeopt_clock", default=None)


def current() -> Clock:
    """The clock of the solve under way (the process-wide one outside a solve)."""
    return _CURRENT.get() or _PROCESS


def now() -> float:
    """The current clock's reading, in seconds of work."""
    return current().now()


def spend(seconds: float) -> None:
    current().spend(seconds)


def overrun(where: str) -> bool:
    return current().overrun(where)


@contextmanager
def opened(time_limit_s: float) -> Iterator[Clock]:
    """A fresh clock for one solve, with its wall-clock safety net."""
    clock = Clock(wall_limit_s=time_limit_s * WALL_SAFETY)
    token = _CURRENT.set(clock)
    try:
        yield clock
    finally:
        _CURRENT.reset(token)


def run(
    solver: cp_model.CpSolver,
    model: cp_model.CpModel,
    seconds: float,
    *,
    workers: int = 1,
    seed: int = 0,
    dtime: float | None = None,
    where: str = "CP-SAT",
) -> int:
    """Solve `model` with at most `seconds` of the clock (and at most `dtime` units of
    deterministic time, when given), on `workers` workers in deterministic mode, under the
    wall-clock safety net; charge the clock what it used. Other parameters (presolve, hints)
    are the caller's."""
    clock = current()
    rate = DTIME_PER_S * max(1, workers)
    limit = max(0.0, seconds) * rate
    if dtime is not None:
        limit = min(limit, dtime)
    p = solver.parameters
    p.max_deterministic_time = max(0.005, limit)
    p.num_workers = max(1, workers)
    p.interleave_search = workers > 1
    p.random_seed = seed
    wall = clock.wall_left()
    if math.isfinite(wall):
        p.max_time_in_seconds = max(0.01, wall)
    status = solver.Solve(model)
    used = solver.deterministic_time
    clock.spend(used / rate)
    cut = status in (cp_model.UNKNOWN, cp_model.FEASIBLE)
    if cut and math.isfinite(wall) and solver.wall_time >= 0.99 * p.max_time_in_seconds:
        clock.safety = clock.safety or where
    return status
