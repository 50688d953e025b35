"""A table being set up on the page: a board (a layout by name, say) with no move yet, and
units added one by one. It has no `action` key; it becomes a scenario (a charge by its first
attacking unit at its first defending one) as soon as it holds a unit of each side.

Until then it is checked as a scenario completed by stand-in units (one per missing side, and
the move between them): the board, terrain and units are checked exactly as a file's are, and
the stand-ins are taken out of what the page is told and drawn."""

from __future__ import annotations

from typing import Any

from chargeopt.models import ScenarioError

STAND_IN = "~stand-in"
SIDES = ("attacker", "defender")


def is_draft(data: dict[str, Any]) -> bool:
    """A document without a move: the page's table being set up."""
    return "action" not in data


def promoted(data: dict[str, Any]) -> dict[str, Any]:
    """The draft with the move its sides allow (a charge of the first attacker at the first
    defender), or the draft itself while a side is missing."""
    units = [u for u in data.get("units") or [] if isinstance(u, dict)]
    first = {side: next((u["id"] for u in units if u.get("owner") == side), None) for side in SIDES}
    if None in first.values():
        return data
    action = {"kind": "charge", "unit": first["attacker"], "targets": [first["defender"]]}
    return {**data, "action": action}


def completed(data: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The draft with a stand-in unit for each missing side and the move between the sides, and
    how many real units come first."""
    if not isinstance(data.get("units", []), list):
        raise ScenarioError("board", [("units", "is not a list of units", "")])
    units = list(data.get("units") or [])
    real = len(units)
    board = data.get("board") if isinstance(data.get("board"), dict) else {}
    x, y = float(board.get("width") or 1.0) / 2, float(board.get("height") or 1.0) / 2
    for side in SIDES:
        if not any(isinstance(u, dict) and u.get("owner") == side for u in units):
            units.append(
                {
                    "id": f"{STAND_IN}-{side}",
                    "owner": side,
                    "base": "25mm",
                    "models": [{"id": f"{STAND_IN}-{side}", "x": x, "y": y}],
                }
            )
    ids = {side: next(u["id"] for u in units if u.get("owner") == side) for side in SIDES}
    action = {"kind": "charge", "unit": ids["attacker"], "targets": [ids["defender"]]}
    return {**data, "units": units, "action": action}, real


def real_problems(problems: list[dict[str, str]], real: int) -> list[dict[str, str]]:
    """The problems of the draft's own units (a stand-in's are not the player's)."""
    stand_ins = tuple(f"units[{i}]" for i in range(real, real + len(SIDES)))
    return [p for p in problems if not p["key"].startswith(stand_ins) and STAND_IN not in p["line"]]


def draft_view(view: dict[str, Any]) -> dict[str, Any]:
    """The page's view of a completed draft less its stand-ins, with no move to make."""
    return {
        **view,
        "draft": True,
        "moves": [],
        "units": [u for u in view["units"] if not u["id"].startswith(STAND_IN)],
        "pieces": [p for p in view["pieces"] if not str(p.get("unit") or "").startswith(STAND_IN)],
    }
