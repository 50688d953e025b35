"""Loading a scenario the way every command does: validated structure, then a legal start layout."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chargeopt.models import (
    RankAndFileScenario,
    Scenario,
    document_name,
    is_rank_and_file,
    validate_document,
)
from chargeopt.models import load_scenario as load_scenario_document


def load_checked_scenario(path: str | Path) -> Scenario | RankAndFileScenario:
    """Read and validate a scenario file (`-`: standard input), then refuse models off the
    board, overlapping, or inside walls at the start; raise ScenarioError naming the file and
    key path."""
    return _with_legal_start(load_scenario_document(path), document_name(path))


def checked_scenario(data: dict[str, Any], name: str) -> Scenario | RankAndFileScenario:
    """The same checks on a document already parsed (the web page's board), named `name`."""
    model = RankAndFileScenario if is_rank_and_file(data.get("ruleset")) else Scenario
    return _with_legal_start(validate_document(model, data, name), name)


def _with_legal_start(
    scenario: Scenario | RankAndFileScenario, name: str
) -> Scenario | RankAndFileScenario:
    if isinstance(scenario, RankAndFileScenario):
        from chargeopt.geometry.rank_and_file.declaration import check_declarations
        from chargeopt.geometry.rank_and_file.start import check_block_layout

        check_block_layout(scenario, name)
        check_declarations(scenario, name)
        return scenario
    from chargeopt.geometry.start_layout import check_start_layout

    check_start_layout(scenario, name)
    return scenario
