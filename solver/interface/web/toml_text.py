"""A scenario document written back as TOML in the style of the example files: top-level keys,
then each table and array of tables, lists of tables (a unit's models) one inline table a line.
Keys, strings and numbers are written by `tomli-w` (a maintained writer: escapes as TOML demands,
control characters included); only the layout is ours (tomli-w spreads every list over lines)."""

from __future__ import annotations

from typing import Any

import tomli_w


def toml_text(document: dict[str, Any]) -> str:
    """`document` (as parsed from a TOML or JSON scenario) as TOML text that parses back to it,
    less its null values (TOML has none; every key that may be null defaults to null)."""
    document = _without_nulls(document)
    plain = {k: v for k, v in document.items() if not _is_table(v) and not _is_tables(v)}
    lines = [f"{_key(k)} = {_value(v)}" for k, v in plain.items()]
    for k, v in document.items():
        if _is_table(v):
            lines += ["", f"[{_key(k)}]", *_body(v)]
        elif _is_tables(v):
            for entry in v:
                lines += ["", f"[[{_key(k)}]]", *_body(entry)]
    return "\n".join(lines).lstrip("\n") + "\n"


def _without_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_without_nulls(v) for v in value]
    return value


def _is_table(value: Any) -> bool:
    return isinstance(value, dict)


def _is_tables(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _body(table: dict[str, Any]) -> list[str]:
    """A table's keys, a list of tables spread one inline table a line."""
    out = []
    for k, v in table.items():
        if _is_tables(v):
            out += [f"{_key(k)} = [", *(f"  {_value(e)}," for e in v), "]"]
        else:
            out.append(f"{_key(k)} = {_value(v)}")
    return out


def _key(key: str) -> str:
    return tomli_w.dumps({key: 0})[: -len(" = 0\n")]


def _value(value: Any) -> str:
    if isinstance(value, bool | int | float | str):
        return tomli_w.dumps({"v": value})[len("v = ") : -1]
    if isinstance(value, dict):
        inner = ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items())
        return f"{{ {inner} }}" if inner else "{}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")
