"""The files the page opens and saves: the same scenario and result documents the command line
reads, checked the same way, within the size the server accepts."""

from __future__ import annotations

import json
from pathlib import PurePath
from typing import Any

from chargeopt.models import (
    ChargeoptError,
    RankAndFileScenario,
    Result,
    Scenario,
    ScenarioError,
    parse_document,
    validate_document,
)
from chargeopt.solver.loading import checked_scenario

MAX_REQUEST_BYTES = 1_000_000
"""The largest request the server reads (a scenario of a few hundred models is ~50 kB)."""
MAX_MODELS = 300
"""The most models (or blocks) a scenario on the page may hold."""
DEFAULT_NAME = "board.toml"


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
    """A scenario document from the page, checked like a file given to `chargeopt solve`."""
    if not isinstance(data, dict):
        raise ScenarioError(name, [("", "the board is not a scenario document", "")])
    count = _model_count(data)
    if count > MAX_MODELS:
        raise TooLarge(
            f"{name}: the scenario has {count} models; chargeopt serve takes at most {MAX_MODELS}"
        )
    return checked_scenario(data, name)


def _model_count(data: dict[str, Any]) -> int:
    """The models a document holds, counted before any check (a block: its models, or files
    times ranks)."""
    units = data.get("units")
    total = 0
    for unit in units if isinstance(units, list) else []:
        if not isinstance(unit, dict):
            continue
        models, files, ranks = unit.get("models"), unit.get("files"), unit.get("ranks")
        if isinstance(models, list):
            total += len(models)
        elif isinstance(models, int):
            total += models
        elif isinstance(files, int) and isinstance(ranks, int):
            total += files * ranks
    return total


def parse_scenario(text: str, name: str) -> tuple[dict[str, Any], Scenario | RankAndFileScenario]:
    """A scenario file's text (TOML or JSON by the name's extension), parsed and checked."""
    data = parse_document(text, name)
    return data, board_from(data, name)


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
