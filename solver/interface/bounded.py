"""A solve the command line can stop. The solver runs in a forked child (`child`: it dies with
the command and holds none of its sockets) that reports each stage and its best answer so far
over a pipe; the command waits for the final answer until the wall-clock safety net (the time
limit times `clock.WALL_SAFETY`, plus `GRACE_S`: the time limit itself is counted in work, so
that a busy machine gives the same answer, only later), then stops the child and keeps the
best answer so far, checked by the independent checker and marked `wall_clock_safety`.
Ctrl-C does the same at once. Where the platform cannot fork, the solve runs in this process and the
time limit is the solver's own."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from chargeopt.models import (
    ChargeoptError,
    IneligibleMoveError,
    Result,
    Scenario,
    ScenarioError,
    Status,
    UnsupportedRuleError,
)
from chargeopt.solver.interface import child as child_process
from chargeopt.solver.options import SolveOptions
from chargeopt.solver.verify import verified

GRACE_S = 1.0
"""How long past the wall-clock safety net the command waits for the solver's own answer
before it stops the solver and takes the best answer so far (whose check comes on top)."""
POLL_S = 0.1
"""How often the command looks at the solver and the clock."""

StageHook = Callable[[str, float], None]
"""(stage name, seconds since the solve started): told as each stage begins."""


class SolverCrash(Exception):
    """The solver failed with an exception that is not a refused input: a bug."""

    def __init__(self, kind: str, message: str) -> None:
        self.kind = kind
        super().__init__(message)


@dataclass(frozen=True)
class Outcome:
    """What the command prints: the result (None if there was none in time) and, if the
    solve was cut short, by what ("time limit" or "interrupted") and in which stage."""

    result: Result | None
    cut_short: str | None = None
    stage: str | None = None
    seconds: float = 0.0


def solve_bounded(
    scenario: Scenario,
    options: SolveOptions,
    on_stage: StageHook | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Outcome:
    """Solve within the wall-clock safety net (`wall_limit_s`), whatever the solver's stages do.
    `cancelled`, asked every `POLL_S`, stops the solve like Ctrl-C when it returns True. The
    solver's child never outlives this call (see `child`); SIGTERM in the main thread stops
    it and raises `child.Terminated`."""
    if not child_process.can_fork():
        return _in_process(scenario, options, on_stage)
    started = time.monotonic()
    deadline = started + wall_limit_s(options)
    best: Result | None = None
    stage: str | None = None
    with child_process.sigterm_raises():
        solver = child_process.start(lambda send: _child(send, scenario, options))
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    solver.stop()
                    return _cut(scenario, best, "time limit", stage, started, options.time_limit_s)
                if cancelled is not None and cancelled():
                    solver.stop()
                    return _cut(scenario, best, "cancelled", stage, started, options.time_limit_s)
                if not solver.poll(min(left, POLL_S)):
                    continue
                try:
                    kind, payload = solver.receive()
                except EOFError:
                    raise SolverCrash(
                        "ChildProcessError", "the solver stopped without an answer"
                    ) from None
                if kind == "stage":
                    stage = payload
                    if on_stage is not None:
                        on_stage(payload, time.monotonic() - started)
                elif kind == "answer":
                    best = _better(best, Result.model_validate_json(payload))
                elif kind == "final":
                    return Outcome(Result.model_validate_json(payload))
                elif kind == "refused":
                    raise _refusal(*payload)
                else:
                    raise SolverCrash(*payload)
        except KeyboardInterrupt:
            solver.stop()
            return _cut(scenario, best, "interrupted", stage, started, options.time_limit_s)
        finally:
            solver.stop()


def wall_limit_s(options: SolveOptions) -> float:
    """How long on the wall the command waits for the solver's answer: its own safety net
    (`clock.WALL_SAFETY` times the time limit) and `GRACE_S` to send it."""
    from chargeopt.solver.core.clock import WALL_SAFETY

    return options.time_limit_s * WALL_SAFETY + GRACE_S


class _Reporter:
    """The child's listener: every stage and answer goes down the pipe."""

    def __init__(self, send: child_process.Send) -> None:
        self.send = send

    def stage(self, name: str) -> None:
        self.send(("stage", name))

    def answer(self, result: Result) -> None:
        self.send(("answer", result.model_dump_json()))


def _child(send: child_process.Send, scenario: Scenario, options: SolveOptions) -> None:
    """Run the solve and send its answer, or the refusal, or the failure."""
    from chargeopt.solver import api
    from chargeopt.solver.core import progress

    try:
        with progress.listening(_Reporter(send)):
            result = api.solve(scenario, options=options)
        send(("final", result.model_dump_json()))
    except ChargeoptError as exc:
        send(("refused", _describe(exc)))
    except Exception as exc:
        send(("crash", (type(exc).__name__, str(exc))))


T = TypeVar("T")


class TimeUp(ChargeoptError):
    """A bounded call did not finish within its time limit."""


def call_bounded(
    function: Callable[[], T],
    limit_s: float,
    what: str,
    cancelled: Callable[[], bool] | None = None,
) -> T:
    """`function()` in a child (see `child`), its value pickled back, within `limit_s`: a
    ChargeoptError it raises is raised here again, a time-out (or `cancelled()` turning True)
    is TimeUp naming `what`."""
    if not child_process.can_fork():
        return function()

    def run(send: child_process.Send) -> None:
        try:
            send(("final", function()))
        except ChargeoptError as exc:
            send(("refused", _describe(exc)))
        except Exception as exc:
            send(("crash", (type(exc).__name__, str(exc))))

    with child_process.sigterm_raises():
        worker = child_process.start(run)
        try:
            deadline = time.monotonic() + limit_s
            while not worker.poll(max(0.0, min(POLL_S, deadline - time.monotonic()))):
                if time.monotonic() >= deadline:
                    raise TimeUp(f"{what} took longer than {limit_s:g} s and was stopped")
                if cancelled is not None and cancelled():
                    raise TimeUp(f"{what} was stopped: the server is closing")
            try:
                kind, payload = worker.receive()
            except EOFError:
                stopped = f"{what} stopped without an answer"
                raise SolverCrash("ChildProcessError", stopped) from None
        finally:
            worker.stop()
    if kind == "final":
        return payload  # type: ignore[no-any-return]
    if kind == "refused":
        raise _refusal(*payload)
    raise SolverCrash(*payload)


def _in_process(scenario: Scenario, options: SolveOptions, on_stage: StageHook | None) -> Outcome:
    """The solve in this process: no hard limit, Ctrl-C keeps the best answer so far."""
    from chargeopt.solver import api
    from chargeopt.solver.core import progress

    started = time.monotonic()
    seen: dict[str, object] = {"best": None, "stage": None}

    class Keep:
        def stage(self, name: str) -> None:
            seen["stage"] = name
            if on_stage is not None:
                on_stage(name, time.monotonic() - started)

        def answer(self, result: Result) -> None:
            seen["best"] = _better(seen["best"], result)  # type: ignore[arg-type]

    try:
        with progress.listening(Keep()):
            return Outcome(api.solve(scenario, options=options))
    except KeyboardInterrupt:
        best, stage = seen["best"], seen["stage"]
        return _cut(scenario, best, "interrupted", stage, started, options.time_limit_s)  # type: ignore[arg-type]


def _better(kept: Result | None, new: Result) -> Result:
    """The later answer unless it places fewer models in contact, then engaged, than `kept`
    (a finer pass can report a worse first answer before it is compared)."""
    if kept is None:
        return new

    def key(r: Result) -> tuple[float, float]:
        return (r.objective.get("base_contact", 0), r.objective.get("engaged", 0))

    return kept if key(new) < key(kept) else new


def _cut(
    scenario: Scenario,
    best: Result | None,
    why: str,
    stage: str | None,
    started: float,
    limit_s: float,
) -> Outcome:
    """The best answer so far, checked and marked as cut short: never `optimal` (its proof
    was not finished), without a bound proven over the candidates only (the certificate on
    the whole table did not run), its minimum roll with the range it lies in
    (`api.min_roll_verdict`), and dropped if the checker finds a violation."""
    from chargeopt.solver.api import min_roll_verdict

    seconds = round(time.monotonic() - started, 2)
    if best is None:
        return Outcome(None, why, stage, seconds)
    cut = {"by": why, "stage": stage, "seconds": seconds, "limit_s": limit_s}
    stats = {**best.stats, "cut_short": cut}
    if why == "time limit":
        stats["wall_clock_safety"] = stats.get("wall_clock_safety") or (stage or "the solve")
    status = Status.FEASIBLE if best.status == Status.OPTIMAL else best.status
    bound = {} if stats.get("bound_scope") == "candidates" else best.bound
    update = {"status": status, "stats": stats, "bound": bound}
    checked = verified(scenario, min_roll_verdict(best.model_copy(update=update)))
    if checked.violations:
        return Outcome(None, why, stage, seconds)
    return Outcome(checked, why, stage, seconds)


def _describe(exc: ChargeoptError) -> tuple[str, str, str | None, list[tuple[str, str, str]]]:
    """A refused input as plain data, to cross the pipe."""
    problems = list(getattr(exc, "problems", []))
    return type(exc).__name__, str(exc), getattr(exc, "file", None), problems


def _refusal(
    kind: str, message: str, file: str | None, problems: list[tuple[str, str, str]]
) -> ChargeoptError:
    """The refused input again, as the same kind of error."""
    if kind == "ScenarioError" and file is not None:
        return ScenarioError(file, [tuple(p) for p in problems])  # type: ignore[misc]
    known = {
        "IneligibleMoveError": IneligibleMoveError,
        "UnsupportedRuleError": UnsupportedRuleError,
        "UnsupportedMove": UnsupportedRuleError,
    }
    return known.get(kind, ChargeoptError)(message)
