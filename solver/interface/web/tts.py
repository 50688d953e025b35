"""Tabletop Simulator saves on the page, through the command line's own import and export
(`../tts_import.py`, `../tts_export.py`): a save uploaded with the import's options gives its
units, then the scenario; an answer goes back into the save, every other byte kept."""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

from chargeopt.models import ChargeoptError, Result, ScenarioError, validate_document
from chargeopt.models.nesting import too_deep
from chargeopt.solver.interface.tts_command import _frame, _pairs, import_tts
from chargeopt.solver.interface.tts_export import moved_save
from chargeopt.solver.interface.tts_import import ImportOptions, save_units, scenario_table
from chargeopt.solver.interface.tts_save import Frame, Save, parse_save

MAX_SAVE_BYTES = 20_000_000
"""The largest request carrying a save (saves with scripts and many objects run to megabytes)."""
MAX_SAVE_DEPTH = 64
RULESETS: tuple[str, ...] = next(
    tuple(p.type.choices)
    for p in import_tts.params
    if p.name == "ruleset"  # type: ignore[attr-defined]
)
"""The rulesets `chargeopt import tts --ruleset` offers, first its default."""
BOM = "\ufeff"


def _save(payload: dict[str, Any]) -> tuple[str, Save, str]:
    """(the save's name, the save, the byte-order mark it began with, if any)."""
    name = PurePath(str(payload.get("save_name") or "")).name or "save.json"
    text = payload.get("save_text")
    if not isinstance(text, str):
        raise ChargeoptError("the request carries no save: open a Tabletop Simulator save")
    bom = BOM if text.startswith(BOM) else ""
    text = text[len(bom) :]
    deep = too_deep(text, "json", MAX_SAVE_DEPTH)
    if deep is not None:
        raise ChargeoptError(
            f"{name}: nests deeper than {MAX_SAVE_DEPTH} levels (line {deep.line}); "
            "give the .json save TTS wrote"
        )
    return name, parse_save(text, name), bom


def _words(payload: dict[str, Any], key: str) -> tuple[str, ...]:
    """A list option as the page sends it: one entry a line (or comma-separated)."""
    text = payload.get(key) or ""
    if isinstance(text, list):
        text = "\n".join(str(t) for t in text)
    return tuple(w.strip() for w in str(text).replace(",", "\n").splitlines() if w.strip())


def frame_of(payload: dict[str, Any]) -> Frame:
    """The import's frame: inches per unit and the board (WxH, or the layout's, or 60x44)."""
    try:
        scale = float(payload.get("scale") or 1.0)
    except (TypeError, ValueError):
        scale = 0.0
    if not 0 < scale < 1e6:
        raise ChargeoptError(f"scale {payload.get('scale')!r}: give inches per TTS unit, e.g. 1")
    board = str(payload.get("board") or "").strip() or None
    layout = str(payload.get("layout") or "").strip() or None
    return _frame(scale, board, layout)


def options_of(payload: dict[str, Any]) -> ImportOptions:
    """The import's options as the page gives them (the command line's --base, --charge ...)."""
    roll = payload.get("roll")
    try:
        roll = int(roll) if roll not in (None, "") else None
    except (TypeError, ValueError):
        raise ChargeoptError(f"roll {roll!r}: give the dice total, e.g. 7") from None
    charger = str(payload.get("charger") or "").strip() or None
    return ImportOptions(
        frame=frame_of(payload),
        bases=_pairs("base", _words(payload, "bases")),
        datasheets=_pairs("datasheet", _words(payload, "datasheets")),
        skip=_words(payload, "skip"),
        charger=charger,
        targets=_words(payload, "targets"),
        roll=roll,
        ruleset=_ruleset(payload.get("ruleset")),
        layout=str(payload.get("layout") or "").strip() or None,
    )


def _ruleset(asked: object) -> str:
    if asked in (None, ""):
        return ImportOptions().ruleset
    if asked not in RULESETS:
        raise ChargeoptError(f"ruleset {asked!r}: the import reads one of {', '.join(RULESETS)}")
    return str(asked)


def save_units_view(payload: dict[str, Any]) -> dict[str, Any]:
    """The save's units as the import groups them (before the move is named)."""
    name, save, _ = _save(payload)
    options = options_of(payload)
    units = save_units(save, options, name)
    return {
        "save": name,
        "units": [
            {
                "id": unit,
                "models": len(members),
                "datasheet": members[0].datasheet,
                "base": members[0].base,
            }
            for unit, members in units.items()
        ],
    }


def imported(payload: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The scenario the import writes (file name, document)."""
    name, save, _ = _save(payload)
    table = scenario_table(save, options_of(payload), name)
    return f"{PurePath(name).stem}.toml", table


def exported(payload: dict[str, Any]) -> dict[str, Any]:
    """The save with the answer's positions written in: its text, file name and the GUIDs moved."""
    name, save, bom = _save(payload)
    frame = frame_of(payload)
    result = payload.get("result")
    if not isinstance(result, dict):
        raise ChargeoptError("no answer to write: solve first")
    answer = validate_document(Result, result, "result", "json")
    if answer.violations:
        raise ScenarioError(
            "result", [("violations", "the placement breaks a rule", "solve again")]
        )
    if not answer.placements:
        raise ScenarioError("result", [("placements", "has no placement to write", "solve first")])
    text, moved = moved_save(save, answer, frame, name)
    return {"file": f"{PurePath(name).stem}.moved.json", "text": bom + text, "moved": moved}
