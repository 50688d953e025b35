"""`Check` on the page: the placement on the board as it stands, judged by the independent
checker with the same messages as `chargeopt check`."""

from __future__ import annotations

from typing import Any

from chargeopt.models import (
    ActionKind,
    RankAndFileScenario,
    Result,
    Scenario,
    ScenarioError,
    validate_document,
)


def judge(
    scenario: Scenario | RankAndFileScenario, placed: dict[str, Any], name: str
) -> dict[str, Any]:
    """Violations of the placement `placed` ({"placements": [...]} for models, {"blocks":
    [...]} for blocks) against the scenario's start and roll; each names its models."""
    if isinstance(scenario, RankAndFileScenario):
        return _judge_blocks(scenario, placed, name)
    from chargeopt.geometry.checker import check_placement, summarise, unmoved_models

    document = {"placements": placed.get("placements") or []}
    result = validate_document(Result, document, f"{name} (placements on the page)", "json")
    roll = scenario.action.roll
    if roll is None and scenario.action.kind == ActionKind.CHARGE:
        raise ScenarioError(
            name, [("action.roll", "checking a charge needs its roll", "give the roll on the page")]
        )
    violations = check_placement(scenario, result.placements, roll=roll, file=name)
    unmoved = unmoved_models(scenario, result.placements)
    checked = len(scenario.acting_unit.models)
    lines = [f"Taken as unmoved (no placement given): {', '.join(unmoved)}"] if unmoved else []
    lines.append(
        summarise(violations) if violations else f"OK: no violations ({checked} models checked)"
    )
    return _verdict(violations, "\n".join(lines), unmoved)


def _judge_blocks(
    scenario: RankAndFileScenario, placed: dict[str, Any], name: str
) -> dict[str, Any]:
    from chargeopt.geometry.checker.rank_and_file import check_blocks

    document = {"blocks": placed.get("blocks") or []}
    result = validate_document(Result, document, f"{name} (blocks on the page)", "json")
    violations = check_blocks(scenario, result)
    text = "\n".join(f"violation ({v.kind}): {v.message}" for v in violations)
    return _verdict(violations, text or f"OK: no violations ({len(result.blocks)} blocks checked)")


def _verdict(violations: list[Any], summary: str, unmoved: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "ok": not violations,
        "violations": [v.model_dump(mode="json") for v in violations],
        "unmoved": list(unmoved),
        "summary": summary,
    }
