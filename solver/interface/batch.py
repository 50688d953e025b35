"""Several scenarios in one process (`chargeopt solve A.toml B.toml`, `--jsonl`): each is solved
as a single `chargeopt solve` solves it (refusals, its own forked child and --time-limit, the
checker's verdict), but the imports are paid once and each solver's module is loaded before
the fork, so every later solve of its kind inherits it."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import click

from chargeopt.models import STDIN, ChargeoptError, document_name
from chargeopt.solver.interface.error_text import error_object
from chargeopt.solver.interface.files import write_text
from chargeopt.solver.interface.jsonl import solve_lines
from chargeopt.solver.interface.solve_one import (
    Report,
    Settings,
    guarded,
    in_turn,
    no_answer_object,
    outcome_code,
    solve_scenario,
    start_solving,
)

RESULT_SUFFIX = ".result.json"
PICTURE_SUFFIX = ".svg"


def solve_batch(ctx: click.Context) -> int:
    """`chargeopt solve` over no file, several files or `--jsonl`: the exit code."""
    files: tuple[str, ...] = ctx.params["scenario_files"]
    settings = Settings.from_params(ctx.params)
    if ctx.params["jsonl"]:
        _jsonl_alone(files, settings)
        return solve_lines(settings)
    if not files:
        raise click.UsageError("Missing argument 'SCENARIO'.", ctx)
    return solve_files(files, settings)


def solve_files(files: tuple[str, ...], settings: Settings) -> int:
    """Solve each file in turn; the outputs are checked before any solve, as for one file."""
    written = _output_files(files, settings)
    start_solving()
    report = _file_report(settings.as_json)

    def answer(index: int, file: str) -> int:
        if not settings.as_json:
            gap = "\n" if index else ""
            click.echo(f"{gap}==> {document_name(file)} <==")
        return guarded(lambda: _solve_file(file, written[file], settings), report)

    return in_turn(partial(answer, index, file) for index, file in enumerate(files))


def _file_report(as_json: bool) -> Report:
    def report(lines: list[str], exc: Exception | None) -> None:
        for line in lines:
            click.echo(f"error: {line}", err=True)
        if as_json:
            click.echo(json.dumps(error_object(lines, exc)))

    return report


def _solve_file(file: str, written: dict[str, str], settings: Settings) -> int:
    """One file: its answer printed (a summary, or one line of JSON) and written."""
    from chargeopt.solver.interface.result_text import summary_text
    from chargeopt.solver.interface.summary import cut_short_line
    from chargeopt.solver.loading import load_checked_scenario

    scenario = load_checked_scenario(file)
    outcome = solve_scenario(scenario, document_name(file), settings)
    result = outcome.result
    if result is None:
        if settings.as_json:
            click.echo(json.dumps({**no_answer_object(outcome, settings.time_limit), "file": file}))
        else:
            limit = settings.time_limit
            click.echo(cut_short_line(outcome.cut_short, outcome.stage, outcome.seconds, limit))
        return outcome_code(outcome)
    document = result.model_dump(mode="json")
    if "-o" in written:
        write_text(written["-o"], json.dumps(document, indent=2) + "\n")
    if "--svg" in written:
        from chargeopt.solver.interface.svg import render_svg

        write_text(written["--svg"], render_svg(scenario, result))
    click.echo(json.dumps(document) if settings.as_json else summary_text(result))
    return outcome_code(outcome)


def _output_files(files: tuple[str, ...], settings: Settings) -> dict[str, dict[str, str]]:
    """Per file, the result and picture files to write: FOLDER/NAME.result.json and
    FOLDER/NAME.svg, NAME the scenario file's name without its extension (`stdin` for -).
    Refused before any solve: a folder that does not exist, standard input twice, two
    scenarios of one NAME, an output that is one of the scenarios."""
    if list(files).count(STDIN) > 1:
        raise ChargeoptError("- is given twice: standard input can be read once")
    wanted = {"-o": (settings.output, RESULT_SUFFIX), "--svg": (settings.svg_file, PICTURE_SUFFIX)}
    written: dict[str, dict[str, str]] = {file: {} for file in files}
    inputs = {Path(f).resolve() for f in files if f != STDIN}
    for option, (folder, suffix) in wanted.items():
        if folder is None:
            continue
        if not Path(folder).is_dir():
            raise ChargeoptError(
                f"{option} {folder}: with several scenarios {option} names a folder (each "
                f"scenario's is written there as NAME{suffix}); create the folder or name one"
            )
        owner: dict[str, str] = {}
        for file in files:
            target = str(Path(folder) / f"{_stem(file)}{suffix}")
            if target in owner:
                raise ChargeoptError(
                    f"{option}: {owner[target]} and {file} would both write {target}; "
                    "rename one or solve them in two commands"
                )
            if Path(target).resolve() in inputs:
                raise ChargeoptError(
                    f"{option}: {target} is one of the scenarios; writing there would "
                    "overwrite it: give another folder"
                )
            owner[target] = file
            written[file][option] = target
    return written


def _stem(file: str) -> str:
    return "stdin" if file == STDIN else Path(file).stem


def _jsonl_alone(files: tuple[str, ...], settings: Settings) -> None:
    """--jsonl reads standard input and writes standard output only."""
    if files:
        raise ChargeoptError(
            f"--jsonl reads the scenarios from standard input; leave out {files[0]}"
        )
    for option, value in (("-o", settings.output), ("--svg", settings.svg_file)):
        if value is not None:
            raise ChargeoptError(
                f"{option} {value}: --jsonl writes each result as a line on standard output; "
                f"leave out {option}"
            )
