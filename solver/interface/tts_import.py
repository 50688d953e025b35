"""A Tabletop Simulator save as a chargeopt scenario: its models (GUIDs as model ids) grouped
into units, each model's base from a datasheet or from the player (never guessed), the move
and, when named, a layout's terrain.

Which objects are models: the unlocked figures (Names Custom_Model, Custom_Assetbundle,
Figurine_*); locked objects (mats, terrain) and others are left out, as is any `--skip`."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from chargeopt.models import ChargeoptError, KeyPathError, parse_base
from chargeopt.solver.interface.tts_save import Frame, Save, TableObject, facing_of

FIGURE_NAMES = ("Custom_Model", "Custom_Assetbundle", "Figurine")
COHERENCY_LINK_IN = 2.0
"""Models with the same nickname whose bases are this close (edge to edge) are one unit."""


@dataclass(frozen=True)
class ImportOptions:
    """What the player tells the import: the frame, bases, datasheets, groups and the move."""

    frame: Frame = field(default_factory=Frame)
    bases: dict[str, str] = field(default_factory=dict)
    datasheets: dict[str, str] = field(default_factory=dict)
    keywords: dict[str, tuple[str, ...]] = field(default_factory=dict)
    groups: dict[str, tuple[str, ...]] = field(default_factory=dict)
    skip: tuple[str, ...] = ()
    charger: str | None = None
    targets: tuple[str, ...] = ()
    attackers: tuple[str, ...] = ()
    roll: int | None = None
    ruleset: str = "40k-11e"
    layout: str | None = None


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("-", " ").split())


def _matches(obj: TableObject, names: dict[str, Any]) -> Any:
    """The option value given for this object by GUID or by nickname (case ignored)."""
    if obj.guid in names:
        return names[obj.guid]
    by_nick = {_norm(k): v for k, v in names.items()}
    return by_nick.get(_norm(obj.nickname))


def figures(save: Save, options: ImportOptions) -> list[TableObject]:
    """The save's models: unlocked figures not skipped."""
    skipped = {_norm(s) for s in options.skip} | set(options.skip)
    return [
        o
        for o in save.objects
        if o.name.startswith(FIGURE_NAMES)
        and not o.locked
        and o.guid not in skipped
        and _norm(o.nickname) not in skipped
    ]


@dataclass(frozen=True)
class _Model:
    obj: TableObject
    base: str | None
    datasheet: str | None
    radius_in: float


def _base_of(obj: TableObject, options: ImportOptions) -> tuple[str | None, str | None]:
    """(base text, datasheet name): `--base` first, else the datasheet named by `--datasheet`
    or by the nickname itself, if the data set is installed and has it with one base."""
    given = _matches(obj, options.bases)
    if given:
        return str(given), None
    sheet_name = _matches(obj, options.datasheets) or obj.nickname
    if not sheet_name:
        return None, None
    from chargeopt.models.datasheets import find_datasheet

    try:
        sheet = find_datasheet(str(sheet_name))
    except KeyPathError as exc:
        if _matches(obj, options.datasheets):
            raise ChargeoptError(f"--datasheet {sheet_name!r}: {exc.problem}; {exc.fix}") from None
        return None, None
    if sheet.base is None:
        return None, None
    return parse_base(sheet.base).label(), sheet.name


def _radius_in(base: str) -> float:
    return float(parse_base(base).circumradius_in)


def scenario_table(save: Save, options: ImportOptions, save_name: str) -> dict[str, Any]:
    """The scenario as a table (what `to_toml` writes); ChargeoptError when a model has no
    base, a GUID repeats, or the move names no unit of the save."""
    units = save_units(save, options, save_name)
    _check_move(units, options, save_name)
    return _table(units, options)


def save_units(save: Save, options: ImportOptions, save_name: str) -> dict[str, list[_Model]]:
    """The save's models grouped into units (before any move is named); ChargeoptError when a
    model has no base or a GUID repeats."""
    models = []
    missing: dict[str, list[str]] = {}
    for obj in figures(save, options):
        base, sheet = _base_of(obj, options)
        if base is None:
            missing.setdefault(obj.nickname or "(no nickname)", []).append(obj.guid)
            continue
        models.append(_Model(obj, base, sheet, _radius_in(base)))
    if missing:
        raise ChargeoptError(_missing_bases(save_name, missing))
    if not models:
        raise ChargeoptError(f"{save_name}: no unlocked figures on the table")
    guids = [m.obj.guid for m in models]
    if repeated := sorted({g for g in guids if guids.count(g) > 1}):
        raise ChargeoptError(
            f"{save_name}: GUID {repeated[0]} names two models; give each model its own GUID "
            "in TTS (copy it again) or leave one out with --skip GUID"
        )
    return _group(models, options)


def _missing_bases(save_name: str, missing: dict[str, list[str]]) -> str:
    count = sum(len(g) for g in missing.values())
    listed = "; ".join(
        f"{nick!r} ({', '.join(guids[:6])}{', ...' if len(guids) > 6 else ''})"
        for nick, guids in missing.items()
    )
    first = next(iter(missing))
    return (
        f"{save_name}: {count} model(s) have no base (a save stores none, and chargeopt never "
        f"guesses one): {listed}; give --base '{first}=32mm', --datasheet '{first}=DATASHEET' "
        f"or --skip '{first}'"
    )


def _group(models: list[_Model], options: ImportOptions) -> dict[str, list[_Model]]:
    """`--group` units first, then the rest by nickname, linked within COHERENCY_LINK_IN."""
    units: dict[str, list[_Model]] = {}
    placed: set[str] = set()
    for unit, members in options.groups.items():
        chosen = [
            m
            for m in models
            if m.obj.guid in members or _norm(m.obj.nickname) in {_norm(x) for x in members}
        ]
        if chosen:
            units[unit] = chosen
            placed |= {m.obj.guid for m in chosen}
    rest = [m for m in models if m.obj.guid not in placed]
    by_nick: dict[str, list[_Model]] = {}
    for m in rest:
        by_nick.setdefault(m.obj.nickname or "unit", []).append(m)
    for nick, members in by_nick.items():
        parts = _linked(members, options.frame)
        for k, part in enumerate(parts):
            name = nick if len(parts) == 1 else f"{nick} {k + 1}"
            while name in units:
                name += "'"
            units[name] = part
    return units


def _linked(members: list[_Model], frame: Frame) -> list[list[_Model]]:
    """Connected groups: two models are linked when their bases are within the link gap."""
    pos = [frame.to_board(m.obj.transform["posX"], m.obj.transform["posZ"]) for m in members]
    parent = list(range(len(members)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(members)):
        for j in range(i + 1, len(members)):
            gap = math.dist(pos[i], pos[j]) - members[i].radius_in - members[j].radius_in
            if gap <= COHERENCY_LINK_IN:
                parent[root(i)] = root(j)
    groups: dict[int, list[_Model]] = {}
    for i, m in enumerate(members):
        groups.setdefault(root(i), []).append(m)
    return list(groups.values())


def _check_move(units: dict[str, list[_Model]], options: ImportOptions, save_name: str) -> None:
    listed = "; ".join(f"{u!r} ({len(ms)} models)" for u, ms in units.items())
    after_roll = options.ruleset == "40k-11e"
    if options.charger is None or not (options.targets or after_roll):
        raise ChargeoptError(
            f"{save_name}: say which unit charges which: --charge UNIT"
            + ("" if after_roll else " --target UNIT")
            + f"; the save's units are {listed}"
        )
    for name in (options.charger, *options.targets, *options.attackers):
        if name not in units:
            raise ChargeoptError(f"{save_name}: no unit {name!r}; the save's units are {listed}")


def _table(units: dict[str, list[_Model]], options: ImportOptions) -> dict[str, Any]:
    frame = options.frame
    friends = {options.charger, *options.attackers}
    board: dict[str, Any] = {"width": frame.width_in, "height": frame.height_in}
    if options.layout:
        board["layout"] = options.layout
    out_units = []
    for name, members in units.items():
        unit: dict[str, Any] = {
            "id": name,
            "owner": "attacker" if name in friends else "defender",
        }
        sheets = {m.datasheet for m in members}
        bases = {m.base for m in members}
        if len(sheets) == 1 and None not in sheets:
            unit["datasheet"] = next(iter(sheets))
        elif len(bases) == 1:
            unit["base"] = next(iter(bases))
        keywords = _matches(members[0].obj, options.keywords) or options.keywords.get(name)
        if keywords:
            unit["keywords"] = list(keywords)
        unit["models"] = [
            _model(m, frame, "base" not in unit and "datasheet" not in unit) for m in members
        ]
        out_units.append(unit)
    action: dict[str, Any] = {"kind": "charge", "unit": options.charger}
    if options.targets:
        action["targets"] = list(options.targets)
    if options.roll is not None:
        action["roll"] = options.roll
    return {
        "format": 1,
        "ruleset": options.ruleset,
        "board": board,
        "units": out_units,
        "action": action,
    }


def _model(m: _Model, frame: Frame, own_base: bool) -> dict[str, Any]:
    x, y = frame.to_board(m.obj.transform["posX"], m.obj.transform["posZ"])
    model: dict[str, Any] = {"id": m.obj.guid, "x": round(x, 6), "y": round(y, 6)}
    facing = round(facing_of(m.obj.transform["rotY"]), 6)
    if facing != 0.0:
        model["facing"] = facing
    if own_base:
        model["base"] = m.base
    return model


def to_toml(table: dict[str, Any], header: list[str]) -> str:
    """The scenario table as TOML (inline tables for models), `header` as comments on top."""
    lines = [f"# {h}" for h in header]
    for key in ("format", "ruleset"):
        lines.append(f"{key} = {_value(table[key])}")
    lines.append("")
    lines.append("[board]")
    lines += [f"{k} = {_value(v)}" for k, v in table["board"].items()]
    for unit in table["units"]:
        lines += ["", "[[units]]"]
        for k, v in unit.items():
            if k != "models":
                lines.append(f"{k} = {_value(v)}")
        lines.append("models = [")
        lines += [f"  {_value(m)}," for m in unit["models"]]
        lines.append("]")
    lines += ["", "[action]"]
    lines += [f"{k} = {_value(v)}" for k, v in table["action"].items()]
    return "\n".join(lines) + "\n"


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v))


def _key(k: str) -> str:
    return k if k.replace("_", "").isalnum() else json.dumps(k)
