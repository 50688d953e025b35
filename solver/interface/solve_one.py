"""What one `chargeopt solve` does around the solver, for each scenario of a batch (several
files, `--jsonl`): the same refusals, its own forked child within its own --time-limit, the
checker's verdict and the exit code a command of its own would give; the stage line on stderr
and the refusal of a --roll the rules do not read are the single command's too."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

import click

from chargeopt.models import (
    ChargeoptError,
    IneligibleMoveError,
    RankAndFileScenario,
    Scenario,
    ScenarioError,
)
from chargeopt.solver.interface.child import Terminated
from chargeopt.solver.interface.error_text import error_lines, internal_error_line
from chargeopt.solver.interface.exit_codes import (
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_NO_ANSWER,
    EXIT_VIOLATIONS,
)
from chargeopt.solver.options import SolveOptions

if TYPE_CHECKING:
    from chargeopt.solver.interface.bounded import Outcome

AnyScenario = Scenario | RankAndFileScenario
Report = Callable[[list[str], Exception | None], None]
"""Told a refused scenario's `error:` lines and the error (None for a bug)."""


@dataclass(frozen=True)
class Settings:
    """`chargeopt solve`'s options, the same for every scenario of a batch."""

    roll: int | None
    as_json: bool
    output: str | None
    svg_file: str | None
    time_limit: float
    seed: int
    workers: int | None
    no_roll_table: bool
    repair: bool
    show_progress: bool
    quiet: bool

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> Settings:
        """The settings from click's parameters of `solve`."""
        return cls(**{name: params[name] for name in cls.__dataclass_fields__})

    def options(self) -> SolveOptions:
        """Each scenario's solve options: the whole --time-limit for each."""
        return SolveOptions(
            time_limit_s=self.time_limit,
            seed=self.seed,
            roll=self.roll,
            roll_table=not self.no_roll_table,
            repair=self.repair,
            **({} if self.workers is None else {"workers": self.workers}),
        )


def start_solving() -> None:
    """CP-SAT (without pandas) imported once in the parent before the first fork: a batch's
    children inherit it instead of each paying its import."""
    from chargeopt.solver.core.lazy_ortools import load_cp_model, prefer_without_pandas

    prefer_without_pandas()
    load_cp_model()


def solve_scenario(scenario: AnyScenario, name: str, settings: Settings) -> Outcome:
    """Solve as `chargeopt solve` does: refuse a move no solver makes and a --roll the rules
    do not read, load the solver's module here (every later fork inherits it), solve within
    the limit in a child."""
    from chargeopt.solver.api import UnsupportedMove, solver_for
    from chargeopt.solver.interface.bounded import solve_bounded

    try:
        solver = solver_for(scenario)
    except UnsupportedMove as exc:
        raise ScenarioError(name, [("action.kind", exc.problem, exc.fix)]) from None
    roll_is_read(scenario, settings.roll)
    module = getattr(solver, "module", None)
    if isinstance(module, str):
        import_module(module)
    shown = StageLine(settings.show_progress, settings.quiet)
    try:
        return solve_bounded(scenario, settings.options(), shown)
    except IneligibleMoveError as exc:
        raise ScenarioError(name, [("action", str(exc), "")]) from None
    finally:
        shown.clear()


def outcome_code(outcome: Outcome) -> int:
    """The exit code one `chargeopt solve` of this scenario would give."""
    result = outcome.result
    if outcome.cut_short == "interrupted":
        return EXIT_INTERRUPTED
    if result is None:
        return EXIT_NO_ANSWER
    if result.violations:
        return EXIT_VIOLATIONS
    return EXIT_NO_ANSWER if result.status.value == "unknown" else 0


def in_turn(answers: Iterable[Callable[[], int]]) -> int:
    """Run each answer (it prints its own output) in turn, standard output flushed after each;
    the batch's exit code: 130 at once on Ctrl-C, else the highest of theirs (0: all fine)."""
    codes: list[int] = []
    try:
        for answer in answers:
            codes.append(answer())
            sys.stdout.flush()
            if codes[-1] == EXIT_INTERRUPTED:
                break
    except KeyboardInterrupt:
        codes.append(EXIT_INTERRUPTED)
    return EXIT_INTERRUPTED if EXIT_INTERRUPTED in codes else max(codes, default=0)


def no_answer_object(outcome: Outcome, limit_s: float) -> dict[str, Any]:
    """What `--json` prints when the time ran out before any answer (as for one file)."""
    from chargeopt.solver.interface.summary import cut_short_line

    cut = {"by": outcome.cut_short, "stage": outcome.stage, "seconds": outcome.seconds}
    message = cut_short_line(outcome.cut_short, outcome.stage, outcome.seconds, limit_s)
    return {"status": "unknown", "cut_short": cut, "message": message}


def guarded(work: Callable[[], int], report: Report) -> int:
    """`work()`'s exit code, or the code of its refusal (2) or bug (4) once `report` has told
    it; SIGTERM and Ctrl-C stop the whole batch."""
    try:
        return work()
    except ChargeoptError as exc:
        report(error_lines(exc), exc)
        return EXIT_BAD_INPUT
    except (Terminated, KeyboardInterrupt, click.exceptions.Exit):
        raise
    except Exception as exc:
        if os.environ.get("CHARGEOPT_TRACEBACK"):
            raise
        report([internal_error_line(exc)], None)
        return EXIT_INTERNAL


class StageLine:
    """The solve's stage and elapsed time on stderr: one line kept up to date on a terminal,
    a line per stage with --progress, nothing with --quiet or when stderr is not a terminal."""

    def __init__(self, forced: bool, quiet: bool) -> None:
        self.terminal = not quiet and not forced and sys.stderr.isatty()
        self.lines = forced and not quiet
        self.drawn = False

    def __call__(self, stage: str, seconds: float) -> None:
        if self.lines:
            click.echo(f"[{seconds:5.1f} s] {stage}", err=True)
        elif self.terminal:
            click.echo(f"\r\x1b[K  {seconds:5.1f} s  {stage}", err=True, nl=False)
            self.drawn = True

    def clear(self) -> None:
        if self.drawn:
            click.echo("\r\x1b[K", err=True, nl=False)
            self.drawn = False


def roll_is_read(scenario: Scenario | RankAndFileScenario, roll: int | None) -> None:
    """Refuse `--roll` where the charge rolls no dice (40k-assault-4e, whfb-6e), as the
    scenario's own `roll` is refused there."""
    rules = scenario.rules
    if roll is None or scenario.action.kind != "charge":
        return
    if isinstance(scenario, Scenario) and rules.assault_range_in:
        why = "each model moves its unit's assault range"
    elif isinstance(scenario, RankAndFileScenario) and rules.charge_move == "double-move":
        why = "the charge move is twice the Move"
    else:
        return
    raise ChargeoptError(
        f"--roll {roll}: a {rules.edition} charge rolls no dice: {why}; leave --roll out"
    )
