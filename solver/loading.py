"""Loading a scenario the way every command does: validated structure, then a legal start layout."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chargeopt.models import (
    RankAndFileScenario,
    Scenario,
    ScenarioError,
    document_name,
    is_rank_and_file,
    validate_document,
)
from chargeopt.models import load_scenario as load_scenario_document
from chargeopt.models.syntax import Syntax

MAX_MODELS_PER_FILE = 10_000
"""The most models (every unit's, a block's counted model by model) a scenario file may hold."""


class TooManyModels(ScenarioError):
    """A scenario with more models than the command (or the server) takes."""


def load_checked_scenario(
    path: str | Path, max_models: int = MAX_MODELS_PER_FILE, who: str = "chargeopt"
) -> Scenario | RankAndFileScenario:
    """Read and validate a scenario file (`-`: standard input), refuse more than `max_models`
    models (naming `who` takes no more), then refuse models off the board, overlapping, or
    inside walls at the start; raise ScenarioError naming the file and key path."""
    return _with_legal_start(load_scenario_document(path), document_name(path), max_models, who)


def checked_scenario(
    data: dict[str, Any],
    name: str,
    max_models: int = MAX_MODELS_PER_FILE,
    who: str = "chargeopt",
    syntax: Syntax | None = None,
) -> Scenario | RankAndFileScenario:
    """The same checks on a document already parsed (the web page's board, a `--jsonl` line),
    named `name`; `who` is named in the refusal of too many models; refusals write their
    examples in `syntax` (by default the one `name`'s extension implies)."""
    model = RankAndFileScenario if is_rank_and_file(data.get("ruleset")) else Scenario
    scenario = validate_document(model, data, name, syntax)
    return _with_legal_start(scenario, name, max_models, who)


def model_count(scenario: Scenario | RankAndFileScenario) -> int:
    """How many models the scenario holds (a block: files times ranks, or its `models`)."""
    if isinstance(scenario, RankAndFileScenario):
        return sum(block.model_count for block in scenario.units)
    return sum(len(unit.models) for unit in scenario.units)


def too_many_models(name: str, count: float, max_models: int, who: str) -> TooManyModels:
    """The one-line refusal of a file past the cap: file, key, count, cap and the fix."""
    told = f"{int(count):,}" if count < 1e18 else "more than 10^18"
    problem = f"the scenario has {told} models; {who} takes at most {max_models:,} per file"
    fix = "remove the units and models that take no part in the move"
    return TooManyModels(name, [("units", problem, fix)])


def _with_legal_start(
    scenario: Scenario | RankAndFileScenario,
    name: str,
    max_models: int,
    who: str = "chargeopt",
) -> Scenario | RankAndFileScenario:
    count = model_count(scenario)
    if count > max_models:
        raise too_many_models(name, count, max_models, who)
    if isinstance(scenario, RankAndFileScenario):
        from chargeopt.geometry.rank_and_file.declaration import check_declarations
        from chargeopt.geometry.rank_and_file.start import check_block_layout

        check_block_layout(scenario, name)
        check_declarations(scenario, name)
        return scenario
    from chargeopt.geometry.start_layout import check_start_layout

    check_start_layout(scenario, name)
    return scenario
