"""Writing a key and its value the way a scenario file spells them, TOML or JSON, for the
examples in error messages and in the key reference."""

from __future__ import annotations

import json
import re
from typing import Any, Literal

Syntax = Literal["toml", "json"]
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def syntax_of(name: str) -> Syntax:
    """The syntax a file's name implies: JSON for `.json`, TOML otherwise."""
    return "json" if name.lower().endswith(".json") else "toml"


def assignment(key: str, value: Any, syntax: Syntax = "toml") -> str:
    """`key = value` in TOML, `"key": value` in JSON, on one line."""
    if syntax == "json":
        return f"{json.dumps(key)}: {inline(value, syntax)}"
    return f"{_toml_key(key)} = {inline(value, syntax)}"


def inline(value: Any, syntax: Syntax = "toml") -> str:
    """A value on one line: TOML inline tables `{ a = 1 }`, or compact JSON."""
    if syntax == "json":
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(inline(v, syntax) for v in value) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(assignment(k, v, syntax) for k, v in value.items()) + " }"
    return json.dumps(value)


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key)
