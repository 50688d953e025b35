"""Refusals in the player's words: every pydantic error becomes (key path, what is wrong, the fix).

What was expected comes from the key's own declaration (description, unit, range, example; see
keys.py), so a message says "expected a number of inches (the distance of the model's centre
from the board's left edge), got the text "five"; write e.g. x = 12.0" and never pydantic's
"Input should be a valid number".
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from .errors import KeyPathError, OffTheTableError
from .keys import MAX_COORDINATE_IN, UNIT_WORDS
from .schema import KeySchema, key_schema
from .syntax import Syntax, assignment, inline

MAX_LINES = 10
Problem = tuple[str, str, str]

_TYPE_WORDS = {
    "object": "a table",
    "array": "a list",
    "number": "a number",
    "integer": "a whole number",
    "string": "a text in quotes",
    "boolean": "true or false",
}
_TYPE_ERRORS = frozenset(
    {
        "model_type",
        "model_attributes_type",
        "dict_type",
        "list_type",
        "tuple_type",
        "string_type",
        "float_type",
        "float_parsing",
        "int_type",
        "int_parsing",
        "int_from_float",
        "bool_type",
        "bool_parsing",
        "finite_number",
    }
)
_RANGE_ERRORS = frozenset({"greater_than", "greater_than_equal", "less_than", "less_than_equal"})


@dataclass(frozen=True)
class Document:
    """What the messages know of the document refused: its model, data and syntax."""

    model: type[BaseModel]
    data: dict[str, Any]
    syntax: Syntax

    @property
    def name(self) -> str:
        return "scenario" if self.model.__name__ == "Scenario" else "result"


def refusals(exc: ValidationError, document: Document) -> list[Problem]:
    """At most MAX_LINES problems, one per error that is not only a consequence of another."""
    errors = exc.errors()
    kept = [err for err in errors if not _is_follow_on(err, errors)]
    return [_problem(err, document) for err in kept][:MAX_LINES]


def key_path(loc: tuple[int | str, ...]) -> str:
    """('units', 0, 'models', 2, 'x') -> 'units[0].models[2].x'."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _is_key(part: int | str) -> bool:
    """Whether a step of a pydantic location is the document's (not a validator name or a union
    member or tag that pydantic adds)."""
    return not (
        isinstance(part, str)
        and (
            part.startswith(("function-", "tuple[", "list[", "dict["))
            or part in {"str", "int", "float", "round", "oval", "hull"}
        )
    )


def _clean_loc(loc: tuple[int | str, ...]) -> tuple[int | str, ...]:
    """The location as the document spells it."""
    return tuple(p for p in loc if _is_key(p))


def _is_follow_on(err: Any, errors: list[Any]) -> bool:
    """A "too short" error that only counts items refused for their own reasons."""
    loc = tuple(err["loc"])
    return err["type"] == "too_short" and any(
        len(other["loc"]) > len(loc) and tuple(other["loc"])[: len(loc)] == loc for other in errors
    )


@dataclass(frozen=True)
class _Where:
    """One error's location with the schemas along it (outermost first)."""

    raw: tuple[int | str, ...]
    loc: tuple[int | str, ...]
    chain: tuple[KeySchema | None, ...]
    document: Document

    @property
    def here(self) -> KeySchema | None:
        return self.chain[-1]

    def nearest(self, annotation: str) -> Any:
        """The innermost value of `annotation` (description, unit, examples) along the path."""
        for schema in reversed(self.chain):
            if schema is not None and annotation in schema.node:
                return schema.node[annotation]
        return None

    @property
    def what(self) -> str:
        """The key in the game's words: the first sentence of its description."""
        return _first_sentence(self.nearest("description") or "")

    @property
    def example(self) -> str:
        """`key = value` for the innermost named key along the path that has an example."""
        for i in range(len(self.raw), 0, -1):
            part, schema = self.raw[i - 1], self.chain[i]
            named = isinstance(part, str) and _is_key(part)
            if named and schema is not None and schema.get("examples"):
                return assignment(part, schema.get("examples")[0], self.document.syntax)
        return ""

    @property
    def name(self) -> str:
        """The innermost key name along the path (`x` in `units[0].models[1].x`)."""
        return next((p for p in reversed(self.loc) if isinstance(p, str)), "value")


def _where(err: Any, document: Document) -> _Where:
    raw = tuple(err["loc"])
    chain = tuple(key_schema(document.model, raw[:i]) for i in range(len(raw) + 1))
    return _Where(raw, _clean_loc(raw), chain, document)


def _problem(err: Any, document: Document) -> Problem:
    where = _where(err, document)
    path, kind = key_path(where.loc), err["type"]
    cause = (err.get("ctx") or {}).get("error")
    got = err.get("input")
    if isinstance(cause, OffTheTableError):
        return path, *_off_the_table(cause.value, where)
    if isinstance(cause, KeyPathError):
        inner = ".".join(p for p in (path, cause.key_path) if p)
        return inner.replace(".[", "["), cause.problem, cause.fix
    fix = f"write e.g. {where.example}" if where.example else ""
    if kind == "extra_forbidden":
        return path, *_unknown_key(str(where.loc[-1]), where)
    if kind == "missing" and where.loc and isinstance(where.loc[-1], int):
        return key_path(where.loc[:-1]), _tuple_size(where, got), fix
    if kind == "missing":
        return path, f"required key is missing ({where.what})", _add_it(where)
    if kind == "union_tag_invalid":
        return path, f"unknown base kind {_shown(got.get('kind'))}", _BASE_KINDS
    if kind == "union_tag_not_found":
        return path, "a base table needs its kind", _BASE_KINDS
    if kind in ("enum", "literal_error"):
        return path, *_not_a_choice(got, where, fix)
    if kind in _TYPE_ERRORS:
        expected = _expected(where)
        if kind == "finite_number":
            expected = expected.replace("a number", "a finite number", 1)
        return path, f"expected {expected} ({where.what}), got {_described(got)}", fix
    if kind in _RANGE_ERRORS:
        return path, f"expected {_range(where)} ({where.what}), got {_described(got)}", fix
    if kind == "string_too_short":
        return path, f"is empty ({where.what})", fix
    if kind in ("too_short", "too_long"):
        return path, _size(err, where, got), fix
    message = err["msg"].removeprefix("Value error, ")
    if kind == "value_error":
        return path, message, ""
    return path, f"{message} (got {_described(got)})", fix


_BASE_KINDS = 'use kind = "round", "oval" or "hull"'


def _unknown_key(name: str, where: _Where) -> tuple[str, str]:
    parent = where.chain[-2] if len(where.chain) > 1 else None
    allowed = parent.keys if parent is not None else []
    close = difflib.get_close_matches(name, allowed, n=1)
    listed = f"allowed here: {', '.join(allowed)}"
    hint = f"did you mean {close[0]!r}? {listed}" if close else f"check its spelling; {listed}"
    return f"unknown key {name!r}", hint


def _add_it(where: _Where) -> str:
    if where.example:
        return f"add it, e.g. {where.example}"
    return f"add it (`chargeopt schema {where.document.name}` lists every key)"


def _not_a_choice(got: Any, where: _Where, fix: str) -> tuple[str, str]:
    choices = [v for s in (where.here,) if s is not None for v in _choices(s)]
    if not choices:
        return f"{_shown(got)} is not allowed here ({where.what})", fix
    if len(choices) == 1:
        return f"expected {_shown(choices[0])} ({where.what}), got {_shown(got)}", fix
    listed = ", ".join(_shown(c) for c in choices[:-1]) + f" or {_shown(choices[-1])}"
    return f"unknown {where.name} {_shown(got)}", f"choose {listed}"


def _choices(schema: KeySchema) -> list[Any]:
    found: list[Any] = []
    for option in schema.variants():
        found += option.get("enum", [])
        if "const" in option:
            found.append(option["const"])
    return found


def _expected(where: _Where) -> str:
    """What the key holds, in words: "a number of inches", "a list", "a text in quotes"."""
    words: list[str] = []
    variants = where.here.variants() if where.here is not None else []
    for option in variants:
        word = _TYPE_WORDS.get(option.get("type", ""), "")
        if not word and "enum" in option:
            word = _TYPE_WORDS["string"]
        if word and word not in words:
            words.append(word)
    unit = where.nearest("unit")
    if unit and words and words[0] in ("a number", "a whole number"):
        words[0] = f"{words[0]} of {UNIT_WORDS[unit]}"
    return " or ".join(words) or "another value"


def _range(where: _Where) -> str:
    """ "a whole number from 0 to 36", "a number of inches more than 0 and at most 1000"."""
    node = where.here.variants()[0] if where.here is not None else {}
    low = [("from", node.get("minimum")), ("more than", node.get("exclusiveMinimum"))]
    high = [("to", node.get("maximum")), ("less than", node.get("exclusiveMaximum"))]
    lo = next(((w, v) for w, v in low if v is not None), None)
    hi = next(((w, v) for w, v in high if v is not None), None)
    what = _expected(where)
    if lo and hi:
        joined = f"{lo[0]} {lo[1]:g} {hi[0]} {hi[1]:g}"
        if lo[0] != "from" or hi[0] != "to":
            at_least = "at least" if lo[0] == "from" else lo[0]
            at_most = "at most" if hi[0] == "to" else hi[0]
            joined = f"{at_least} {lo[1]:g} and {at_most} {hi[1]:g}"
        return f"{what} {joined}"
    if lo:
        return f"{what} {'at least' if lo[0] == 'from' else lo[0]} {lo[1]:g}"
    if hi:
        return f"{what} {'at most' if hi[0] == 'to' else hi[0]} {hi[1]:g}"
    return what


def _size(err: Any, where: _Where, got: Any) -> str:
    """A list that is too short or too long: a point of 3 numbers, a unit with no model."""
    ctx = err.get("ctx") or {}
    node = where.here.variants()[0] if where.here is not None else {}
    count = ctx.get("actual_length", len(got) if isinstance(got, list | tuple) else 0)
    if "prefixItems" in node:
        return _tuple_size(where, got)
    if err["type"] == "too_short":
        bound = f"at least {ctx.get('min_length', node.get('minItems', 1))}"
    else:
        bound = f"at most {ctx.get('max_length', node.get('maxItems', 0))}"
    return f"expected a list of {bound} ({where.what}), got {count or 'none'}"


def _tuple_size(where: _Where, got: Any) -> str:
    """A fixed-size list ([x, y]) with the wrong number of entries."""
    tuple_schema = next(
        (s for s in reversed(where.chain) if s is not None and "prefixItems" in s.variants()[0]),
        None,
    )
    size = len(tuple_schema.variants()[0]["prefixItems"]) if tuple_schema is not None else 2
    count = len(got) if isinstance(got, list | tuple) else 1
    description = tuple_schema.get("description") if tuple_schema else None
    what = _first_sentence(description) if description else where.what
    return f"expected {size} numbers ({what}), got {count}"


def _first_sentence(description: str) -> str:
    """A description's first sentence as a phrase: no trailing remark in brackets, no full
    stop, lower case unless it starts with a keyword ("INFANTRY")."""
    first = description.split(". ")[0].rstrip(".")
    if first.endswith(")") and " (" in first:
        first = first[: first.rindex(" (")]
    word = first.split(" ")[0]
    return first if len(word) > 1 and word.isupper() else first[:1].lower() + first[1:]


def _off_the_table(value: float, where: _Where) -> tuple[str, str]:
    """A coordinate no board could hold: say this board's size and where positions run."""
    axis = where.loc[-1]
    axis = {0: "x", 1: "y"}.get(axis, axis) if isinstance(axis, int) else axis
    fix = f"give the position in inches, e.g. {where.example}" if where.example else ""
    board = _board_size(where.document.data)
    if board is None:
        return (
            f"{value:g} is off any table (positions are inches from the board's top-left "
            f"corner, at most {MAX_COORDINATE_IN:g})",
            fix,
        )
    width, height = board
    runs = (
        f"x runs from 0 at the left edge to {width:g} at the right"
        if axis == "x"
        else f"y runs from 0 at the top edge to {height:g} at the bottom"
    )
    return f'{value:g} is off the table (the board is {width:g}" x {height:g}", {runs})', fix


def _board_size(data: dict[str, Any]) -> tuple[float, float] | None:
    board = data.get("board")
    if not isinstance(board, dict):
        return None
    sizes = [board.get("width"), board.get("height")]
    if all(
        isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) and v > 0
        for v in sizes
    ):
        return float(sizes[0]), float(sizes[1])
    return None


def _shown(value: Any) -> str:
    """A value as the file spells it: "wall" in quotes, 7, true (a number of 16 digits or more
    by its size)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**15:
        return f"{'-' if value < 0 else ''}a {len(str(abs(value)))}-digit number"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return f'"{text}"'
    if isinstance(value, float):
        return f"{value:g}"
    if value is None:
        return "null"
    if isinstance(value, list | tuple | dict):
        text = inline(value)
        return text if len(text) <= 40 else text[:37] + "..."
    return repr(value)


def _described(value: Any) -> str:
    """What a refused value is, in words: the text "five", the number 5, a table, a list."""
    if isinstance(value, str):
        return f"the text {_shown(value)}"
    if isinstance(value, bool):
        return _shown(value)
    if isinstance(value, int) and abs(value) >= 10**15:
        return _shown(value)
    if isinstance(value, int | float):
        return f"the number {_shown(value)}" if math.isfinite(value) else _shown(value)
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list | tuple):
        return "a list" if value else "an empty list"
    if value is None:
        return "null"
    return f"a {type(value).__name__}"
