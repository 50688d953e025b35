"""`chargeopt solve --jsonl`: a program keeps one process and sends it scenarios, one JSON
object a line on standard input; each line gets one line back on standard output, written and
flushed as soon as it is solved: the result document, or an error object naming the line and
the key (`"line": N`), and the next line is read. Blank lines are skipped, without a reply."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from functools import partial
from typing import IO, Any

import click

from chargeopt.models import ScenarioError
from chargeopt.models.nesting import MAX_DEPTH, too_deep
from chargeopt.solver.interface.error_text import error_object
from chargeopt.solver.interface.solve_one import (
    AnyScenario,
    Settings,
    guarded,
    in_turn,
    no_answer_object,
    outcome_code,
    solve_scenario,
    start_solving,
)

ONE_OBJECT = "write each scenario as one JSON object on one line"


def solve_lines(settings: Settings, stream: IO[bytes] | None = None) -> int:
    """Answer every line of `stream` (standard input) until it ends; the exit code is the
    highest of any line's, as `chargeopt solve` gives it for one file (130 on Ctrl-C)."""
    source = stream if stream is not None else sys.stdin.buffer
    start_solving()

    def answers() -> Iterator[Callable[[], int]]:
        number = 0
        while raw := source.readline():
            number += 1
            if raw.strip():
                yield partial(_answer_line, raw, number, settings)

    return in_turn(answers())


def line_name(number: int) -> str:
    """How messages name a line of standard input."""
    return f"<stdin> line {number}"


def _answer_line(raw: bytes, number: int, settings: Settings) -> int:
    """Solve one line and write its one line back; its exit code."""
    reply: dict[str, Any] = {}

    def work() -> int:
        scenario = line_scenario(raw, line_name(number))
        outcome = solve_scenario(scenario, line_name(number), settings)
        if outcome.result is None:
            reply.update(line=number, **no_answer_object(outcome, settings.time_limit))
        else:
            reply.update(outcome.result.model_dump(mode="json"))
        return outcome_code(outcome)

    def report(lines: list[str], exc: Exception | None) -> None:
        for line in lines:
            click.echo(f"error: {line}", err=True)
        reply.update(line=number, **error_object(lines, exc))

    code = guarded(work, report)
    click.echo(json.dumps(reply))
    return code


def line_scenario(raw: bytes, name: str) -> AnyScenario:
    """A line's scenario, checked as `chargeopt solve` checks a file; refusals name the line
    (`name`) and write their examples in JSON."""
    from chargeopt.solver.loading import checked_scenario

    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        problem = f"the line is not UTF-8 text (at byte {exc.start + 1})"
        raise ScenarioError(name, [("", problem, "send UTF-8 text")]) from None
    deep = too_deep(text, "json")
    if deep is not None:
        problem = f"nested more than {MAX_DEPTH} brackets deep"
        fix = "a scenario nests a few levels at most: check the brackets there"
        raise ScenarioError(name, [(deep.key_path, problem, fix)])
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        problem = f"not valid JSON (column {exc.colno}: {exc.msg})"
        raise ScenarioError(name, [("", problem, ONE_OBJECT)]) from None
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else "a single value"
        problem = f"the line must be one JSON object (a scenario), not {kind}"
        raise ScenarioError(name, [("", problem, ONE_OBJECT)])
    return checked_scenario(data, name, syntax="json")
