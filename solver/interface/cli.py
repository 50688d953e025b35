"""The `chargeopt` command line: a click group whose commands share one error contract.

Every ChargeoptError (bad input, unsupported rule) is printed as `error: ...` lines on stderr
with exit code 2 and no traceback (with `--json`, also as a JSON object on stdout); any other
exception is a bug in chargeopt: one line saying so and exit code 4 (the traceback only with
CHARGEOPT_TRACEBACK=1).
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import click

from chargeopt.models import (
    STDIN,
    ActionKind,
    ChargeoptError,
    IneligibleMoveError,
    RankAndFileScenario,
    Result,
    Scenario,
    ScenarioError,
    UnsupportedRuleError,
    document_name,
    load_result,
    mm_to_in,
    rank_and_file_schema,
    result_schema,
    scenario_schema,
)
from chargeopt.solver.interface.bench_command import bench
from chargeopt.solver.interface.child import EXIT_TERMINATED, Terminated
from chargeopt.solver.interface.error_text import error_lines, error_object, internal_error_line
from chargeopt.solver.interface.exit_codes import (
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_NO_ANSWER,
    EXIT_VIOLATIONS,
)
from chargeopt.solver.interface.files import write_text
from chargeopt.solver.interface.solve_one import StageLine as _StageLine
from chargeopt.solver.interface.solve_one import roll_is_read as _roll_is_read
from chargeopt.solver.interface.tts_command import export_group, import_group
from chargeopt.solver.loading import load_checked_scenario

EXIT_CODES = (
    "Exit codes: 0 solved or legal, 1 a rule is broken, 2 bad input, "
    "3 no answer within the time limit, 4 an internal error, 130 interrupted (Ctrl-C), "
    "143 stopped by SIGTERM."
)
MAX_ROLL = 36
JSON_ERRORS = "chargeopt.json_errors"
"""Key in click's context meta: the running command was asked for JSON, so errors are too."""


class ChargeoptGroup(click.Group):
    """A click group that turns ChargeoptError into `error:` lines and exit code 2, and any
    other failure into one line and exit code 4, never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ChargeoptError as exc:
            _report(ctx, error_lines(exc), exc)
            ctx.exit(EXIT_BAD_INPUT)
        except (click.exceptions.Exit, click.ClickException, KeyboardInterrupt):
            raise
        except Terminated:
            click.echo("stopped (SIGTERM); the solver was stopped too", err=True)
            ctx.exit(EXIT_TERMINATED)
        except Exception as exc:
            if os.environ.get("CHARGEOPT_TRACEBACK"):
                raise
            _report(ctx, [internal_error_line(exc)], None)
            ctx.exit(EXIT_INTERNAL)


def _report(ctx: click.Context, lines: list[str], exc: Exception | None) -> None:
    """Print an error's lines on stderr; under `--json` also one JSON object on stdout:
    {"error", "file", "key", "problems": [{"key", "problem", "fix"}]}."""
    for line in lines:
        click.echo(f"error: {line}", err=True)
    if not ctx.meta.get(JSON_ERRORS):
        return
    click.echo(json.dumps(error_object(lines, exc), indent=2))


@click.group(cls=ChargeoptGroup, epilog=EXIT_CODES)
@click.version_option(package_name="chargeopt")
def main() -> None:
    """Exact, checked charge and pile-in placements for tabletop wargames."""


@main.command()
@click.argument("scenario_files", metavar="SCENARIO...", nargs=-1)
@click.option(
    "--roll",
    type=click.IntRange(0, MAX_ROLL),
    default=None,
    help="The dice total (default: the scenario's; without one, find the minimum roll).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result JSON instead of a summary.")
@click.option(
    "-o",
    "--output",
    "output",
    default=None,
    help="Also write the result JSON here (several scenarios: a folder, NAME.result.json each).",
)
@click.option(
    "--svg",
    "svg_file",
    default=None,
    help="Draw the board and the answer as SVG here (several scenarios: a folder, NAME.svg each).",
)
@click.option(
    "--jsonl",
    is_flag=True,
    help="Read scenarios from standard input, one JSON object a line, and write one result "
    "(or error) a line, as each is solved; no SCENARIO then.",
)
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0.1),
    default=20.0,
    show_default=True,
    help="Seconds of solver work (about that long on an idle 2-core machine, the same answer "
    "later on a busy one); at 20 times it on the wall clock a safety net stops the solve and "
    "the best placement so far is checked and printed as 'feasible', saying so, or 'unknown'.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Solver random seed.")
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="CP-SAT workers (default: the machine's cores, at most 8). Any fixed count gives "
    "the same answer on every run; another count may give another answer.",
)
@click.option(
    "--no-roll-table",
    is_flag=True,
    help="Skip the table of base contacts for every roll from the minimum to 12.",
)
@click.option(
    "--repair",
    is_flag=True,
    help="If the answer is short of its engagement bound, try to bring more models within "
    "engagement range by shifting the unit off the candidate positions and laying its front "
    "out again (up to two fifths of the time limit).",
)
@click.option(
    "--progress",
    "show_progress",
    is_flag=True,
    help="Print each stage of the solve on stderr, even when it is not a terminal.",
)
@click.option("--quiet", is_flag=True, help="No progress line on stderr.")
def solve(
    scenario_files: tuple[str, ...],
    roll: int | None,
    as_json: bool,
    output: str | None,
    svg_file: str | None,
    time_limit: float,
    seed: int,
    workers: int | None,
    no_roll_table: bool,
    repair: bool,
    show_progress: bool,
    quiet: bool,
    jsonl: bool,
) -> None:
    """Find the best legal placement for the scenario's move, or prove there is none.

    SCENARIO is a .toml or .json file, or - to read it from standard input. Exit codes: 0 an
    answer (optimal, feasible, or infeasible with its proof), 1 the answer failed the checker
    (a bug), 2 bad input, 3 no answer and no proof within the time limit, 4 an internal error,
    130 interrupted (the best answer so far is printed first), 143 stopped by SIGTERM (the
    solver with it). --time-limit counts work, not the wall clock (a busy machine
    answers the same, later); on a terminal the stage it is in shows on stderr. A file holds
    at most 10,000 models.

    Several SCENARIO files are solved one after the other in this one process, each as if
    alone (its own --time-limit, the checker's verdict): summaries under a `==> FILE <==`
    line, or with --json one result (or error object) a line; -o and --svg then name a
    folder. --jsonl reads one JSON scenario a line from standard input and writes one line
    each; a bad line gets an error object naming its line and key and the rest go on. Either
    way the exit code is the highest of any scenario's (130 at once on Ctrl-C).
    """
    ctx = click.get_current_context()
    ctx.meta[JSON_ERRORS] = as_json
    if jsonl or len(scenario_files) != 1:
        from chargeopt.solver.interface.batch import solve_batch

        ctx.exit(solve_batch(ctx))
    (scenario_file,) = scenario_files
    outputs = _outputs(scenario_file, {"-o": output, "--svg": svg_file})
    from chargeopt.solver.core.lazy_ortools import prefer_without_pandas

    prefer_without_pandas()
    from chargeopt.solver.interface.bounded import solve_bounded
    from chargeopt.solver.interface.result_text import summary_text
    from chargeopt.solver.interface.summary import cut_short_line
    from chargeopt.solver.options import SolveOptions

    scenario = load_checked_scenario(scenario_file)
    options = SolveOptions(
        time_limit_s=time_limit,
        seed=seed,
        roll=roll,
        roll_table=not no_roll_table,
        repair=repair,
        **({} if workers is None else {"workers": workers}),
    )
    from chargeopt.solver.api import UnsupportedMove, solver_for

    try:
        solver_for(scenario)
    except UnsupportedMove as exc:
        problem = ("action.kind", exc.problem, exc.fix)
        raise ScenarioError(document_name(scenario_file), [problem]) from None
    _roll_is_read(scenario, roll)
    shown = _StageLine(show_progress, quiet)
    try:
        outcome = solve_bounded(scenario, options, shown)
    except IneligibleMoveError as exc:
        raise ScenarioError(document_name(scenario_file), [("action", str(exc), "")]) from None
    finally:
        shown.clear()
    result = outcome.result
    if result is None:
        message = cut_short_line(outcome.cut_short, outcome.stage, outcome.seconds, time_limit)
        if as_json:
            cut = {"by": outcome.cut_short, "stage": outcome.stage, "seconds": outcome.seconds}
            message = json.dumps({"status": "unknown", "cut_short": cut, "message": message})
        click.echo(message)
        ctx.exit(EXIT_INTERRUPTED if outcome.cut_short == "interrupted" else EXIT_NO_ANSWER)
    text = json.dumps(result.model_dump(mode="json"), indent=2)
    if "-o" in outputs:
        write_text(outputs["-o"], text + "\n")
    if "--svg" in outputs:
        from chargeopt.solver.interface.svg import render_svg

        write_text(outputs["--svg"], render_svg(scenario, result))
    click.echo(text if as_json else summary_text(result))
    if outcome.cut_short == "interrupted":
        ctx.exit(EXIT_INTERRUPTED)
    if result.violations:
        ctx.exit(EXIT_VIOLATIONS)
    if result.status.value == "unknown":
        ctx.exit(EXIT_NO_ANSWER)


def _outputs(scenario_file: str, wanted: dict[str, str | None]) -> dict[str, str]:
    """The output files asked for, checked before any work: each folder exists, no path is a
    folder, and none is the scenario itself (writing there would destroy it)."""
    scenario = Path(scenario_file).resolve()
    chosen = {option: path for option, path in wanted.items() if path}
    for option, path in chosen.items():
        target = Path(path)
        problem = None
        if target.resolve() == scenario:
            problem = "is the scenario file itself; writing there would overwrite the scenario"
        elif target.is_dir():
            problem = "is a folder; give a file name"
        elif not target.resolve().parent.is_dir():
            problem = f"cannot be written: the folder {target.parent} does not exist"
        if problem:
            raise ChargeoptError(f"{option} {path}: {problem}")
    if len(set(map(str, map(Path.resolve, map(Path, chosen.values()))))) < len(chosen):
        raise ChargeoptError(f"{' and '.join(chosen)} name the same file; give two names")
    return chosen


@main.command()
@click.argument("document", type=click.Choice(["scenario", "result", "rank-and-file"]))
def schema(document: str) -> None:
    """Print the JSON Schema of a scenario, a result or a rank-and-file scenario document."""
    schemas = {
        "scenario": scenario_schema,
        "result": result_schema,
        "rank-and-file": rank_and_file_schema,
    }
    chosen = schemas[document]()
    click.echo(json.dumps(chosen, indent=2))


class Precision(click.ParamType):
    """A length a position is measured to: inches (`0.01`) or millimetres (`1mm`), at least
    0 (0 is exact)."""

    name = "precision"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        if isinstance(value, float):
            return value
        text = str(value).strip().lower()
        try:
            inches = mm_to_in(float(text[:-2])) if text.endswith("mm") else float(text)
        except ValueError:
            self.fail(f"{value!r} is not a length such as 0.01 (inches) or 1mm", param, ctx)
        if not math.isfinite(inches) or inches < 0:
            self.fail(f"{value!r} is not a length of at least 0", param, ctx)
        return inches


@main.command()
@click.argument("scenario_file", metavar="SCENARIO")
@click.argument("result_file", metavar="RESULT.json")
@click.option(
    "--roll",
    type=click.IntRange(0, MAX_ROLL),
    default=None,
    help="Charge roll to check against (default: the result's, then the scenario's).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the violations as JSON.")
@click.option(
    "--precision",
    "precision",
    type=Precision(),
    default=None,
    help="Judge the positions as measured to this many inches (e.g. 0.01, the summary's "
    "two decimals) or millimetres (e.g. 1mm, a tape): base contact and overlap within its "
    "rounding error, every other rule exactly. Default: exact, as written.",
)
def check(
    scenario_file: str,
    result_file: str,
    roll: int | None,
    as_json: bool,
    precision: float | None,
) -> None:
    """Check a placement (the solver's or a person's) against the rules.

    A model of the acting unit that the result does not place is judged where it started (the
    output names it). Exit codes: 0 the placement is legal, 1 it breaks a rule, 2 bad input,
    4 an internal error. Either file may be - to read it from standard input.
    """
    click.get_current_context().meta[JSON_ERRORS] = as_json
    if scenario_file == result_file == STDIN:
        raise ScenarioError(
            document_name(STDIN),
            [("", "only one of the two files can come from standard input", "name the other")],
        )
    scenario = load_checked_scenario(scenario_file)
    result = load_result(result_file)
    _same_action(scenario, result, document_name(result_file))
    if isinstance(scenario, RankAndFileScenario):
        from chargeopt.solver.interface.block_check import check_block_result

        if precision:
            raise click.BadParameter(
                "a rank-and-file block is judged exactly as written (its x, y and facing as "
                "printed); --precision judges model placements: leave it out",
                param_hint="--precision",
            )

        if not check_block_result(scenario, result, roll, as_json, document_name(result_file)):
            click.get_current_context().exit(EXIT_VIOLATIONS)
        return
    chosen_roll = _roll_to_check(scenario, result, roll, document_name(scenario_file))
    from chargeopt.geometry.checker import check_placement, summarise, unmoved_models

    try:
        violations = check_placement(
            scenario,
            result.placements,
            roll=chosen_roll,
            file=document_name(scenario_file),
            precision_in=precision or 0.0,
            order=result.order,
        )
    except UnsupportedRuleError as exc:
        problem = (exc.key_path, str(exc), "")
        raise ScenarioError(document_name(scenario_file), [problem]) from None
    unmoved = unmoved_models(scenario, result.placements)
    if as_json:
        payload: dict[str, Any] = {
            "violations": [v.model_dump(mode="json") for v in violations],
            "ok": not violations,
            "unmoved": list(unmoved),
        }
        if precision is not None:
            payload["precision_in"] = precision
        click.echo(json.dumps(payload, indent=2))
    else:
        if precision is not None:
            click.echo(precision_line(precision))
        if unmoved:
            click.echo(f"Taken as unmoved (no placement given): {', '.join(unmoved)}")
        checked = len(scenario.acting_unit.models)
        click.echo(
            summarise(violations) if violations else f"OK: no violations ({checked} models checked)"
        )
        from chargeopt.solver.interface.data_set_text import credit_lines

        for line in credit_lines(scenario):
            click.echo(line)
    if violations:
        click.get_current_context().exit(EXIT_VIOLATIONS)


def precision_line(precision_in: float) -> str:
    """What a check at a precision judges, in one line."""
    if precision_in == 0:
        return "Judged exactly as written."
    error = precision_in / math.sqrt(2)
    return (
        f'Judged as measured to {precision_in:.4g}": base contact and overlap within the '
        f'rounding error ({error:.4f}" for each position written), every other rule exactly.'
    )


def _same_action(
    scenario: Scenario | RankAndFileScenario, result: Result, result_file: str
) -> None:
    """Refuse a result written for another action than the scenario's."""
    if result.action is None:
        return
    want_unit = scenario.action.unit
    if isinstance(scenario, RankAndFileScenario) and want_unit is None:
        want_unit = scenario.action.chargers[0]
    for key, got, want in (
        ("action.kind", result.action.kind, str(scenario.action.kind)),
        ("action.unit", result.action.unit, want_unit),
    ):
        if got != want:
            raise ScenarioError(
                result_file,
                [
                    (
                        key,
                        f"the result is for {got!r} but the scenario's is {want!r}",
                        "check the right pair of files",
                    )
                ],
            )


def _roll_to_check(
    scenario: Scenario, result: Result, roll: int | None, scenario_file: str
) -> int | None:
    """--roll, else the result's action.roll, else the scenario's; a charge needs one (except
    under a fixed assault range, 40k-assault-4e)."""
    if roll is None and result.action is not None:
        roll = result.action.roll
    if roll is None:
        roll = scenario.action.roll
    fixed_range = scenario.rules.assault_range_in is not None
    if roll is None and scenario.action.kind == ActionKind.CHARGE and not fixed_range:
        raise ScenarioError(
            scenario_file,
            [
                (
                    "action.roll",
                    "checking a charge needs its roll",
                    "add roll = N to [action], or give --roll N",
                )
            ],
        )
    return roll


@main.command()
@click.argument("scenario_file", metavar="[SCENARIO]", required=False)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="The port to listen on (0: any free port).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on; anything but loopback lets other machines in.",
)
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0.1),
    default=20.0,
    show_default=True,
    help="Seconds of solver work for each solve asked from the page (a safety net stops it "
    "at 20 times that on the wall clock) and at most for each check.",
)
def serve(scenario_file: str | None, port: int, host: str, time_limit: float) -> None:
    """Open a board in the browser: drag models, choose the move, solve it or check it.

    Starts a local web server and prints its URL (needs `pip install 'chargeopt[web]'`).
    SCENARIO, if given, opens on the page. One solve and one check run at a time, each
    within --time-limit (a solve's counts work); requests over 1 MB or scenarios over 300
    models are refused. Ctrl-C or SIGTERM stops the server, its solve with it, and frees the
    port.
    """
    if scenario_file == STDIN:
        raise ScenarioError(
            document_name(STDIN),
            [("", "chargeopt serve opens a file, not standard input", "give the file's path")],
        )
    if scenario_file is not None:
        from chargeopt.solver.interface.web.documents import MAX_MODELS, SERVE

        load_checked_scenario(scenario_file, MAX_MODELS, SERVE)
    from chargeopt.solver.interface.web.server import serve as run_server

    run_server(scenario_file, host, port, time_limit, click.echo)


main.add_command(bench)
main.add_command(import_group)
main.add_command(export_group)

if __name__ == "__main__":
    main()
