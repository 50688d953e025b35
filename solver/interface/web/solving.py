"""One solve at a time for the page: it runs in a thread (the solver itself in the forked child
of `bounded.solve_bounded`, so the time limit holds), reports its stage and elapsed time, and can
be cancelled, keeping the best checked answer so far."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from chargeopt.models import (
    ChargeoptError,
    IneligibleMoveError,
    RankAndFileScenario,
    Scenario,
    ScenarioError,
)
from chargeopt.solver.options import SolveOptions


class Busy(ChargeoptError):
    """A solve was asked for while another is running."""


@dataclass
class SolveJob:
    """The state of the page's solve, read by the page as it polls."""

    limit_s: float
    state: str = "running"
    stage: str | None = None
    started: float = field(default_factory=time.monotonic)
    seconds: float = 0.0
    reply: dict[str, Any] | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    def progress(self) -> dict[str, Any]:
        """What the page shows: running (stage, seconds, limit), or the finished reply."""
        if self.state == "running":
            elapsed = time.monotonic() - self.started
            return {
                "state": "running",
                "stage": self.stage,
                "seconds": round(elapsed, 1),
                "limit_s": self.limit_s,
                "cancelling": self.cancel.is_set(),
            }
        return {"state": self.state, **(self.reply or {})}


class Solver:
    """Runs at most one solve; a second request while one runs is refused, not queued."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.job: SolveJob | None = None

    def start(
        self, scenario: Scenario | RankAndFileScenario, options: SolveOptions, name: str
    ) -> SolveJob:
        """Start solving `scenario`, or raise Busy if a solve is running."""
        with self.lock:
            if self.job is not None and self.job.state == "running":
                raise Busy("a solve is already running: wait for it or cancel it")
            job = SolveJob(options.time_limit_s)
            self.job = job
        job.thread = threading.Thread(
            target=_run, args=(job, scenario, options, name), name="chargeopt-solve", daemon=True
        )
        job.thread.start()
        return job

    def cancel(self) -> bool:
        """Ask the running solve to stop; True if there was one."""
        job = self.job
        if job is None or job.state != "running":
            return False
        job.cancel.set()
        return True

    def shutdown(self, wait_s: float = 5.0) -> None:
        """Stop the running solve, if any, and wait until its child is gone (server exit)."""
        self.cancel()
        job = self.job
        if job is not None and job.thread is not None:
            job.thread.join(wait_s)


class Checker:
    """Runs at most one check, in a child bounded by `limit_s` (see `bounded.call_bounded`); a
    second request while one runs is refused, not queued."""

    def __init__(self, limit_s: float) -> None:
        self.limit_s = limit_s
        self.lock = threading.Lock()
        self.closing = threading.Event()

    def run(self, judge: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """The check's answer, or Busy while another check runs, or TimeUp past the limit."""
        from chargeopt.solver.interface.bounded import call_bounded

        if not self.lock.acquire(blocking=False):
            raise Busy("a check is already running: wait for it")
        try:
            return call_bounded(judge, self.limit_s, "the check", self.closing.is_set)
        finally:
            self.lock.release()


def _run(
    job: SolveJob, scenario: Scenario | RankAndFileScenario, options: SolveOptions, name: str
) -> None:
    """Solve and store the reply: the result with its summary, or the refusal's lines."""
    from chargeopt.solver.interface.bounded import solve_bounded
    from chargeopt.solver.interface.summary import cut_short_line
    from chargeopt.solver.interface.web.documents import error_lines

    def on_stage(stage: str, _seconds: float) -> None:
        job.stage = stage

    try:
        try:
            outcome = solve_bounded(scenario, options, on_stage, job.cancel.is_set)
        except IneligibleMoveError as exc:
            raise ScenarioError(name, [("action", str(exc), "")]) from None
        reply = _answer(scenario, outcome.result)
        if outcome.cut_short:
            reply["cut_short"] = cut_short_line(
                outcome.cut_short, outcome.stage, outcome.seconds, options.time_limit_s
            )
        job.reply, job.state = reply, "done"
    except ChargeoptError as exc:
        job.reply, job.state = {"error": error_lines(exc)}, "refused"
    except Exception as exc:  # a bug: said in one line, as the command line says it
        job.reply, job.state = {"error": [internal_error_line(exc)]}, "failed"
    finally:
        job.seconds = round(time.monotonic() - job.started, 2)


def _answer(scenario: Scenario | RankAndFileScenario, result: Any) -> dict[str, Any]:
    """The result as the page uses it: the document, its text summary and the file to save."""
    from chargeopt.solver.interface.result_text import summary_text
    from chargeopt.solver.interface.web.documents import result_text

    if result is None:
        return {"result": None, "summary": "", "status": "unknown"}
    return {
        "result": result.model_dump(mode="json"),
        "status": result.status.value,
        "summary": summary_text(result),
        "result_text": result_text(result),
    }


def internal_error_line(exc: Exception) -> str:
    """An unexpected failure in one line, never a traceback (as `chargeopt` says it)."""
    name = getattr(exc, "kind", type(exc).__name__)
    detail = str(exc).splitlines()[0][:200] if str(exc) else ""
    return (
        f"internal error ({name}{': ' + detail if detail else ''}); this is a bug in chargeopt: "
        "please report it with the scenario you were solving"
    )
