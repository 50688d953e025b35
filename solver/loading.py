"""Loading a scenario the way every command does: validated structure, then a legal start layout."""

from __future__ import annotations

from pathlib import Path

from chargeopt.models import RankAndFileScenario, Scenario, document_name
from chargeopt.models import load_scenario as load_scenario_document


def load_checked_scenario(path: str | Path) -> Scenario | RankAndFileScenario:
    """Read and validate a scenario file (`-`: standard input), then refuse models off the
    board, overlapping, or inside walls at the start; raise ScenarioError naming the file and
    key path."""
    scenario = load_scenario_document(path)
    if isinstance(scenario, RankAndFileScenario):
        from chargeopt.geometry.rank_and_file.start import check_block_layout

        check_block_layout(scenario, document_name(path))
        return scenario
    from chargeopt.geometry.start_layout import check_start_layout

    check_start_layout(scenario, document_name(path))
    return scenario
