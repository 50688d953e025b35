"""`chargeopt check` for a rank-and-file result: the checker's verdict on its `blocks`."""

from __future__ import annotations

import json

import click

from chargeopt.models import RankAndFileScenario, Result, ScenarioError


def check_block_result(
    scenario: RankAndFileScenario, result: Result, roll: int | None, as_json: bool, file: str
) -> bool:
    """Print the verdict; True when the placement is legal."""
    from chargeopt.geometry.checker.rank_and_file import check_blocks

    if not result.blocks:
        raise ScenarioError(
            file,
            [
                (
                    "blocks",
                    "a rank-and-file result places blocks, not models",
                    'give blocks = [{ unit = "A", x = 10.0, y = 12.0, facing = 90.0, '
                    'target_facing = "front" }]',
                )
            ],
        )
    _refuse_unplaced(result, file)
    violations = check_blocks(scenario, result, roll=roll)
    if as_json:
        payload = {
            "violations": [v.model_dump(mode="json") for v in violations],
            "ok": not violations,
        }
        click.echo(json.dumps(payload, indent=2))
    elif violations:
        for v in violations:
            click.echo(f"violation ({v.kind}): {v.message}")
    else:
        click.echo(f"OK: no violations ({len(result.blocks)} blocks checked)")
    return not violations


def _refuse_unplaced(result: Result, file: str) -> None:
    """Every block names its unit and stands somewhere: x, y and facing as numbers."""
    problems = []
    for i, entry in enumerate(result.blocks):
        if not isinstance(entry.get("unit"), str):
            problems.append((f"blocks[{i}].unit", "names no unit", 'write unit = "A"'))
        for key in ("x", "y", "facing"):
            value = entry.get(key)
            if isinstance(value, bool) or not isinstance(value, int | float):
                got = "is missing" if value is None else f"is {value!r}, not a number"
                problems.append(
                    (f"blocks[{i}].{key}", got, f"give {key} in {_UNITS[key]}, e.g. {key} = 10.0")
                )
    if problems:
        raise ScenarioError(file, problems)


_UNITS = {"x": "inches", "y": "inches", "facing": "degrees"}
