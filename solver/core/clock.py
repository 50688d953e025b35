"""The solver's clock: every time limit inside a solve is counted in work, not on the wall, so
that the same scenario gives the same answer on any machine under any load.

The clock advances by CP-SAT's deterministic time (`DTIME_PER_S` units make one second) and
by fixed costs charged for the other steps that loop until a deadline (`spend`). Every CP-SAT
call goes through `run`: its only limit is deterministic time, with a fixed number of workers
in CP-SAT's deterministic (interleaved) mode; CP-SAT is never told the wall clock. A solve's
budget is `WORK_SHARE` of its time limit, counted on this clock. The wall clock is only a
safety net, `WALL_SAFETY` times the time limit: a watchdog stops a CP-SAT call that runs into
it, a step that loops checks it (`overrun`), and either marks the clock (`safety`), which the
result reports (`stats.wall_clock_safety`), since an answer cut by the wall may differ from
run to run.

A solve opens its own clock (`opened`); outside one, a process-wide clock with no wall limit
serves (library calls of single steps, tests)."""

from __future__ import annotations

import math
import threading
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
WALL_SAFETY = 20.0
"""The wall-clock safety net, as a multiple of the time limit: about 27 times the work budget
(`WORK_SHARE`). A solve that spends its whole budget takes about the time limit on the
reference machine (2 cores, idle). The same machine shared with eight other jobs ran about 4
times slower (curated-v1 k2 at a 6 s limit: 5.1 s of work in 20.7 s of wall), and with two
more CPU-bound processes beside it about 12 times slower (61.8 s), which a net of ten times
the limit cut. Twenty leaves room for that; where the net does fire, the result says so."""


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
    p.clear_max_time_in_seconds()
    watchdog = _Watchdog(solver, clock.wall_left())
    try:
        status = solver.Solve(model)
    finally:
        watchdog.cancel()
    used = solver.deterministic_time
    clock.spend(used / rate)
    if watchdog.fired and status in (cp_model.UNKNOWN, cp_model.FEASIBLE):
        clock.safety = clock.safety or where
    return status


class _Watchdog:
    """Stops a CP-SAT search from another thread when the wall-clock safety net is reached, so
    that CP-SAT itself sees only deterministic limits."""

    def __init__(self, solver: cp_model.CpSolver, wall_left_s: float) -> None:
        self.fired = False
        self._lock = threading.Lock()
        self._done = False
        self._timer: threading.Timer | None = None
        if not math.isfinite(wall_left_s):
            return
        self._timer = threading.Timer(max(0.0, wall_left_s), self._fire, args=(solver,))
        self._timer.daemon = True
        self._timer.start()

    def _fire(self, solver: cp_model.CpSolver) -> None:
        with self._lock:
            if self._done:
                return
            self.fired = True
        solver.StopSearch()

    def cancel(self) -> None:
        with self._lock:
            self._done = True
        if self._timer is not None:
            self._timer.cancel()
