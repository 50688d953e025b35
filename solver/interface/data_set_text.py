"""The summary's line for data taken from the 40kdc data set: what it gave, with the
attribution its licence asks for."""

from __future__ import annotations

from typing import Any

from chargeopt.models import Result


def data_set_lines(result: Result) -> list[str]:
    """`Powered by 40kdc-data (wh40kdc 1.4.5): ...` when `stats.data_set` is there, else none."""
    used = result.stats.get("data_set")
    if not isinstance(used, dict):
        return []
    parts = [_sheet_words(unit, sheet) for unit, sheet in (used.get("datasheets") or {}).items()]
    layout = used.get("layout")
    if isinstance(layout, dict):
        assumed = layout.get("assumed_heights") or {}
        told = ", ".join(f'{kind} {height:g}"' for kind, height in assumed.items())
        parts.append(
            f"layout {layout.get('name')}" + (f" (heights not given: {told})" if told else "")
        )
    head = f"{used.get('attribution')} ({used.get('package')} {used.get('version')})"
    return [head + (": " + "; ".join(parts) if parts else "")]


def _sheet_words(unit: str, sheet: dict[str, Any]) -> str:
    moves = sorted(set(sheet.get("movement_in") or []))
    words = [sheet.get("base") or "own bases"]
    if moves:
        words.append("M " + "/".join(f'{m:g}"' for m in moves))
    if sheet.get("base_note"):
        words.append(str(sheet["base_note"]))
    return f"{unit} = {sheet.get('name')} ({', '.join(words)})"


def credit_lines(scenario: object) -> list[str]:
    """The same line for a scenario (`chargeopt check`): what the data set gave it."""
    from chargeopt.models.datasheets import data_set_used

    used = data_set_used(scenario)
    if used is None:
        return []
    return data_set_lines(Result(stats={"data_set": used}))
