"""Units by datasheet name: the 40kdc data set gives a unit's base, keywords and Move.

Names are matched as the data set matches them (case, diacritics, quotes, hyphens ignored); a
name several factions share with different profiles takes the faction in brackets,
"Chaos Spawn (World Eaters)". Bases the data set gives without a size (hulls, "unique") are
refused with the fix, never guessed."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .data_set import data_set
from .errors import KeyPathError

FLYING_BASE_MM = {"small": (60.0, 35.0), "large": (120.0, 92.0)}
"""Citadel flying bases by the size class the data set gives without millimetres: the small
one is the 60x35mm oval flight stand, the large one the 120x92mm oval."""
_FACTION = re.compile(r"^(.*\S)\s*\(([^()]+)\)\s*$")
HULL_FIX = (
    'give the unit its footprint: base = {kind = "hull", points = [[x, y], ...]} in inches '
    "around the model's centre"
)


@dataclass(frozen=True)
class Datasheet:
    """What chargeopt reads of one datasheet: the base (table form, or why there is none
    chargeopt can use), the keywords and the Move of each profile."""

    id: str
    name: str
    faction_id: str
    base: dict[str, Any] | None
    base_problem: str | None
    base_note: str | None
    keywords: tuple[str, ...]
    movement_in: tuple[float, ...]

    def facts(self) -> dict[str, Any]:
        """The datasheet as the result's stats record it."""
        out: dict[str, Any] = {"name": self.name, "id": self.id, "faction": self.faction_id}
        if self.base is not None:
            out["base"] = _label(self.base)
        if self.base_note:
            out["base_note"] = self.base_note
        out["keywords"] = list(self.keywords)
        out["movement_in"] = list(self.movement_in)
        return out


def _label(base: dict[str, Any]) -> str:
    if base["kind"] == "round":
        return f"{base['diameter_mm']:g}mm"
    return f"{base['length_mm']:g}x{base['width_mm']:g}mm"


def base_from_data(name: str, size: dict[str, Any] | None) -> tuple[dict | None, str | None]:
    """A data-set `base_size_mm` as chargeopt's base table, or (None, why it cannot be)."""
    if not size:
        return None, f"the data set gives no base for {name}"
    shape = size.get("shape")
    if shape == "round" and size.get("diameter"):
        return {"kind": "round", "diameter_mm": float(size["diameter"])}, None
    if shape in ("oval", "flying-base") and size.get("width") and size.get("length"):
        long_mm, short_mm = sorted((float(size["width"]), float(size["length"])), reverse=True)
        return {"kind": "oval", "length_mm": long_mm, "width_mm": short_mm}, None
    if shape == "flying-base" and size.get("size") in FLYING_BASE_MM:
        long_mm, short_mm = FLYING_BASE_MM[size["size"]]
        return {"kind": "oval", "length_mm": long_mm, "width_mm": short_mm}, None
    if shape == "hull":
        return None, f"{name} stands on its hull, which the data set gives no outline for"
    return None, f"the data set gives {name} a {shape} base without its size"


def _movement(profiles: list[dict[str, Any]]) -> tuple[float, ...]:
    out = []
    for profile in profiles:
        m = profile.get("M")
        if isinstance(m, int | float) and not isinstance(m, bool):
            out.append(float(m))
        elif isinstance(m, str) and (digits := re.match(r"^\s*(\d+(?:\.\d+)?)", m)):
            out.append(float(digits.group(1)))
    return tuple(out)


def _sheet(ds: Any, raw: dict[str, Any]) -> Datasheet:
    name = raw["name"]
    base, problem = base_from_data(name, raw.get("base_size_mm"))
    composition = ds.unit_composition_of(raw) or {}
    model_bases = {
        str(base_from_data(name, m["base_size_mm"])[0] or m["base_size_mm"])
        for m in composition.get("models") or []
        if m.get("base_size_mm")
    }
    if len(model_bases) > 1:
        kinds = ", ".join(
            f"{m['name']} {_label(b) if (b := base_from_data(name, m['base_size_mm'])[0]) else '?'}"
            for m in composition["models"]
            if m.get("base_size_mm")
        )
        base, problem = None, f"{name} has models on different bases ({kinds})"
    note = None
    size = raw.get("base_size_mm") or {}
    if base is not None and size.get("draft"):
        note = "the data set marks this base as provisional"
    return Datasheet(
        id=raw["id"],
        name=name,
        faction_id=raw.get("faction_id") or "",
        base=base,
        base_problem=problem,
        base_note=note,
        keywords=tuple(k.upper() for k in raw.get("keywords") or ()),
        movement_in=_movement(raw.get("profiles") or []),
    )


def _same(a: Datasheet, b: Datasheet) -> bool:
    return (a.base, a.base_problem, set(a.keywords), a.movement_in) == (
        b.base,
        b.base_problem,
        set(b.keywords),
        b.movement_in,
    )


@lru_cache(maxsize=512)
def find_datasheet(query: str, key_path: str = "datasheet") -> Datasheet:
    """The datasheet named `query` (its name, an id, or "Name (Faction)"); a KeyPathError at
    `key_path` naming the nearest names on a miss, or the factions when the name is
    ambiguous."""
    ds = data_set(key_path)
    from wh40kdc import normalize_name

    faction, m = None, None
    hits = ds.units.find_all(query)
    if not hits and (m := _FACTION.match(query)):
        query, faction = m.group(1), normalize_name(m.group(2))
        hits = ds.units.find_all(query)
    key = normalize_name(query)
    exact = [u for u in hits if u.id == query or normalize_name(u.name) == key]
    exact = exact or [u for u in hits if key in map(normalize_name, u.raw.get("aliases") or ())]
    if faction is not None and exact:
        named = [u for u in exact if faction in (normalize_name(u.faction_id), _faction_name(u))]
        if not named:
            choices = ", ".join(f'"{u.name} ({_faction_label(ds, u.faction_id)})"' for u in exact)
            raise KeyPathError(
                key_path,
                f"no faction {m.group(2)!r} has a datasheet {query!r}" if m else "",
                f"name one of {choices}",
            )
        exact = named
    if not exact:
        raise KeyPathError(
            key_path, f"no datasheet {query!r} in the 40kdc data set", _near(ds, key)
        )
    sheets = [_sheet(ds, u.raw) for u in exact]
    if all(_same(sheets[0], s) for s in sheets[1:]):
        return sheets[0]
    choices = ", ".join(f'"{s.name} ({_faction_label(ds, s.faction_id)})"' for s in sheets)
    raise KeyPathError(
        key_path,
        f"{len(sheets)} factions have a datasheet {sheets[0].name!r} with different profiles",
        f"name the faction: one of {choices}",
    )


def _faction_name(unit: Any) -> str:
    from wh40kdc import normalize_name

    faction = unit.faction
    return normalize_name(faction.name) if faction is not None else ""


def _faction_label(ds: Any, faction_id: str) -> str:
    faction = ds.factions.get(faction_id)
    return str(faction.name) if faction is not None else faction_id


def _near(ds: Any, key: str) -> str:
    from wh40kdc import normalize_name

    names = sorted({u.name for u in ds.units})
    by_key = {normalize_name(n): n for n in names}
    close = difflib.get_close_matches(key, list(by_key), n=5, cutoff=0.6)
    close += [k for k in by_key if key and key in k and k not in close]
    if not close:
        return "check the spelling (the datasheet's name as printed, or its id)"
    return "did you mean " + ", ".join(f'"{by_key[k]}"' for k in close[:5]) + "?"


def datasheet_fill(data: dict[str, Any]) -> dict[str, Any]:
    """A unit table with `datasheet` given: the base and keywords filled from it where the
    table gives none (an explicit `base` or `keywords` wins)."""
    sheet = find_datasheet(str(data["datasheet"]))
    out = dict(data)
    if "keywords" not in out:
        out["keywords"] = list(sheet.keywords)
    if out.get("base") is None:
        models = out.get("models")
        own = isinstance(models, list) and all(
            isinstance(m, dict) and m.get("base") is not None for m in models
        )
        if sheet.base is not None:
            out["base"] = dict(sheet.base)
        elif not own:
            raise KeyPathError("datasheet", str(sheet.base_problem), _base_fix(sheet))
    return out


def _base_fix(sheet: Datasheet) -> str:
    if sheet.base_problem and "different bases" in sheet.base_problem:
        return "give the unit a base and the models on another base their own (base = ...)"
    return HULL_FIX if "hull" in (sheet.base_problem or "") else 'give the unit base = "32mm"'


def data_set_used(scenario: Any) -> dict[str, Any] | None:
    """`stats.data_set` for a scenario that names datasheets or a layout, else None (without
    importing the data set)."""
    from .data_set import data_set_stats

    sheets = {
        unit.id: _used(unit, find_datasheet(unit.datasheet))
        for unit in scenario.units
        if getattr(unit, "datasheet", None)
    }
    layout_name = getattr(scenario.board, "layout", None)
    layout = None
    if layout_name:
        from .layouts import layout_stats

        layout = layout_stats(layout_name, scenario.rules.edition)
    if not sheets and layout is None:
        return None
    return data_set_stats(sheets, layout)


def _used(unit: Any, sheet: Datasheet) -> dict[str, Any]:
    """The datasheet's facts as the unit used them: a base or keywords the scenario wrote
    instead are named as the scenario's."""
    facts = sheet.facts()
    own = unit.base.label() if unit.base is not None else "own bases"
    if sheet.base is None or own != _label(sheet.base):
        facts["base"] = f"{own}, the scenario's"
        facts.pop("base_note", None)
    if set(unit.keywords) != set(sheet.keywords):
        facts["keywords"] = list(unit.keywords)
        facts["keywords_from"] = "scenario"
    return facts
