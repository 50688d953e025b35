"""The files the page opens and saves: the same scenario and result documents the command line
reads, checked the same way, within the size the server accepts."""

from __future__ import annotations

import json
import math
from pathlib import PurePath
from typing import Any

from chargeopt.models import (
    ChargeoptError,
    RankAndFileScenario,
    Result,
    Scenario,
    ScenarioError,
    is_rank_and_file,
    parse_document,
    validate_document,
)
from chargeopt.solver.loading import TooManyModels, checked_scenario, too_many_models

MAX_REQUEST_BYTES = 1_000_000
"""The largest request the server reads (a scenario of a few hundred models is ~50 kB)."""
MAX_MODELS = 300
"""The most models (or blocks) a scenario on the page may hold."""
DEFAULT_NAME = "board.toml"
SERVE = "chargeopt serve"


class TooLarge(ChargeoptError):
    """A request or scenario past the stated limits."""


def error_lines(exc: ChargeoptError) -> list[str]:
    """The lines the page shows for a refusal: those `chargeopt` prints after `error:`."""
    if isinstance(exc, ScenarioError):
        return exc.lines()
    return str(exc).splitlines() or [type(exc).__name__]


def file_name(name: object) -> str:
    """The name messages give a document sent from the page: its base name, or a default."""
    text = PurePath(str(name or "")).name
    return text or DEFAULT_NAME


def board_from(data: object, name: str) -> Scenario | RankAndFileScenario:
    """A scenario document from the page, checked like a file given to `chargeopt solve`, with
    at most MAX_MODELS models: counted before any check (however a number is written) and again
    on the validated scenario."""
    if not isinstance(data, dict):
        raise ScenarioError(name, [("", "the board is not a scenario document", "")])
    count = _model_count(data)
    if count > MAX_MODELS:
        raise too_many_models(name, count, MAX_MODELS, SERVE)
    return checked_scenario(data, name, MAX_MODELS, SERVE)


def board_with_problems(
    data: object, name: str
) -> tuple[Scenario | RankAndFileScenario, list[dict[str, str]]]:
    """A document whose structure is valid, with the problems of its start layout (models off
    the board, overlapping, inside terrain; blocks the same) as {key, line} instead of a
    refusal, so the page can open it with them marked and let them be fixed by dragging. A
    document past the limits or malformed is still refused."""
    if not isinstance(data, dict):
        raise ScenarioError(name, [("", "the board is not a scenario document", "")])
    count = _model_count(data)
    if count > MAX_MODELS:
        raise too_many_models(name, count, MAX_MODELS, SERVE)
    model = RankAndFileScenario if is_rank_and_file(data.get("ruleset")) else Scenario
    scenario = validate_document(model, data, name)
    try:
        checked_scenario(data, name, MAX_MODELS, SERVE)
    except TooManyModels:
        raise
    except ScenarioError as exc:
        keys = [key for key, _, _ in exc.problems]
        return scenario, [{"key": k, "line": t} for k, t in zip(keys, exc.lines(), strict=True)]
    return scenario, []


def _model_count(data: dict[str, Any]) -> float:
    """The models a document holds, counted before any check: a list of models by its length,
    a block by its models, else files times ranks, each number as written (100, 100.0, "100",
    true), so no spelling of a number slips past the cap."""
    units = data.get("units")
    total = 0.0
    for unit in units if isinstance(units, list) else []:
        if not isinstance(unit, dict):
            continue
        models = unit.get("models")
        if isinstance(models, list):
            total += len(models)
        elif models is not None:
            total += _number(models)
        else:
            total += _number(unit.get("files")) * _number(unit.get("ranks"))
    return total


def _number(value: object) -> float:
    """A count as written, at least 0 (nonsense counts 0: validation refuses it later)."""
    if isinstance(value, bool | int | float):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return 0.0
    else:
        return 0.0
    return math.ceil(number) if math.isfinite(number) and number > 0 else _endless(number)


def _endless(number: float) -> float:
    return math.inf if number == math.inf else 0.0


def parse_scenario(
    text: str, name: str
) -> tuple[dict[str, Any], Scenario | RankAndFileScenario, list[dict[str, str]]]:
    """A scenario file's text (TOML or JSON by the name's extension), parsed and checked; the
    problems of its start layout returned, not refused (`board_with_problems`)."""
    data = parse_document(text, name)
    return data, *board_with_problems(data, name)


def parse_result(text: str, name: str) -> Result:
    """A result file's text (a solver's answer or hand-written placements), validated."""
    return validate_document(Result, parse_document(text, name), name)


def result_text(result: Result) -> str:
    """The result document exactly as `chargeopt solve -o` writes it."""
    return json.dumps(result.model_dump(mode="json"), indent=2) + "\n"


def scenario_text(data: dict[str, Any], syntax: str) -> str:
    """The board as a scenario file: TOML or JSON."""
    if syntax == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    from chargeopt.solver.interface.web.toml_text import toml_text

    return toml_text(data)
