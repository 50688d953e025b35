"""Small T9A tables for the rank-and-file tests: blocks by front-left corner and facing."""

from __future__ import annotations

from typing import Any

from chargeopt.models import RankAndFileScenario

INCH_25MM = 25 / 25.4
"""The width of one 25 mm base in inches."""


def block(
    uid: str,
    owner: str,
    x: float,
    y: float,
    facing: float,
    files: int = 5,
    ranks: int = 3,
    base: str = "25x25mm",
    **extra: Any,
) -> dict[str, Any]:
    return {
        "id": uid,
        "owner": owner,
        "files": files,
        "ranks": ranks,
        "base": base,
        "x": x,
        "y": y,
        "facing": facing,
        **extra,
    }


def table(
    units: list[dict[str, Any]],
    terrain: list[list[tuple[float, float]]] = (),
    chargers: tuple[str, ...] = ("A",),
    target: str = "B",
    roll: int | None = None,
    board: tuple[float, float] = (48.0, 48.0),
    ruleset: str | list[str] = "t9a-2022",
    **action: Any,
) -> RankAndFileScenario:
    act: dict[str, Any] = {"kind": "charge", "targets": [target], **action}
    if len(chargers) == 1:
        act["unit"] = chargers[0]
    else:
        act["units"] = list(chargers)
    if roll is not None:
        act["roll"] = roll
    return RankAndFileScenario.model_validate(
        {
            "ruleset": ruleset,
            "board": {"width": board[0], "height": board[1]},
            "terrain": [
                {"id": f"rock-{i}", "kind": "impassable", "path": [list(p) for p in path]}
                for i, path in enumerate(terrain)
            ],
            "units": units,
            "action": act,
        }
    )
