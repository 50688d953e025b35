"""Reading scenario and result files (TOML or JSON by extension) into validated models."""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .errors import KeyPathError, ScenarioError
from .result import Result
from .scenario import Scenario

T = TypeVar("T", bound=BaseModel)
MAX_LINES = 10


def read_document(path: str | Path) -> dict[str, Any]:
    """Parse a TOML or JSON file (chosen by its extension) into a dict; `-` reads standard
    input, JSON if it starts with `{`, else TOML. A UTF-8 byte-order mark is skipped."""
    if str(path) == "-":
        return _parse(STDIN, sys.stdin.read().removeprefix("\ufeff"), None)
    path = Path(path)
    if path.is_dir():
        raise ScenarioError(str(path), [("", "is a folder", "give a .toml or .json file")])
    suffix = path.suffix.lower()
    if suffix not in (".toml", ".json"):
        kind = f"a {suffix} file" if suffix else "a file without an extension"
        raise ScenarioError(str(path), [("", f"cannot read {kind}", "give a .toml or .json file")])
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ScenarioError(
            str(path), [("", f"cannot open the file ({exc.strerror})", "")]
        ) from None
    except UnicodeDecodeError:
        raise ScenarioError(
            str(path), [("", "the file is not UTF-8 text", "save it as UTF-8")]
        ) from None
    return _parse(str(path), text, suffix)


STDIN = "<stdin>"
"""How messages name a document read from standard input."""
MAX_DEPTH = 32
"""Deepest nesting of tables and lists a document may have (a scenario needs 5)."""


def document_name(path: str | Path) -> str:
    """How messages name the document at `path` (`-` is standard input)."""
    return STDIN if str(path) == "-" else str(path)


def _parse(name: str, text: str, suffix: str | None) -> dict[str, Any]:
    """The document in `text`: TOML or JSON by `suffix`, or by its first character."""
    as_json = suffix == ".json" if suffix else text.lstrip().startswith("{")
    try:
        data = json.loads(text) if as_json else tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(name, [("", f"not valid TOML ({exc})", "")]) from None
    except json.JSONDecodeError as exc:
        raise ScenarioError(
            name,
            [("", f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})", "")],
        ) from None
    except RecursionError:
        data = None
    if data is None or _too_deep(data):
        raise ScenarioError(
            name,
            [("", f"nested more than {MAX_DEPTH} levels deep", "a scenario needs only a few")],
        )
    if not isinstance(data, dict):
        raise ScenarioError(name, [("", "the document must be a table (object) at the top", "")])
    return data


def _too_deep(data: Any) -> bool:
    """Whether tables and lists nest deeper than MAX_DEPTH (walked without recursion)."""
    stack = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            if depth > MAX_DEPTH:
                return True
            children = node.values() if isinstance(node, dict) else node
            stack.extend((child, depth + 1) for child in children)
    return False


def validate_document(model: type[T], data: dict[str, Any], file: str) -> T:
    """Validate `data` as `model`; turn every pydantic error into one `file: key: problem` line."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        problems = [_problem(model, err) for err in errors if not _is_follow_on(err, errors)][
            :MAX_LINES
        ]
        raise ScenarioError(file, problems) from None


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file (structure and references; see also geometry's
    start-layout check for overlaps and models off the board)."""
    return validate_document(Scenario, read_document(path), document_name(path))


def load_result(path: str | Path) -> Result:
    """Read and validate a result (or hand-written placement) file."""
    return validate_document(Result, read_document(path), document_name(path))


def key_path(loc: tuple[int | str, ...]) -> str:
    """('units', 0, 'models', 2, 'x') -> 'units[0].models[2].x'."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _clean_loc(loc: tuple[int | str, ...]) -> tuple[int | str, ...]:
    """Drop pydantic's internal steps (union tags, validator names) from a location."""
    return tuple(
        p
        for p in loc
        if not (
            isinstance(p, str)
            and (
                p.startswith("function-")
                or p in _INTERNAL_STEPS
                or p.startswith(("tuple[", "list[", "dict["))
            )
        )
    )


_INTERNAL_STEPS = frozenset({"str", "int", "float", "round", "oval", "hull"})


def _allowed_keys(model: type[BaseModel], loc: tuple[int | str, ...]) -> list[str]:
    """The keys the schema allows at `loc` (an object's location), for unknown-key messages."""
    schema = model.model_json_schema()
    defs = schema.get("$defs", {})
    node: dict[str, Any] = schema

    def resolve(n: dict[str, Any]) -> dict[str, Any]:
        while True:
            if "$ref" in n:
                n = defs[n["$ref"].rsplit("/", 1)[-1]]
            elif "anyOf" in n or "oneOf" in n:
                options = [resolve(o) for o in n.get("anyOf", n.get("oneOf", []))]
                n = next((o for o in options if "properties" in o or "items" in o), options[0])
            else:
                return n

    for part in loc:
        tagged = [
            o
            for o in node.get("anyOf", [])
            if resolve(o).get("properties", {}).get("kind", {}).get("const") == part
        ]
        if tagged:
            node = tagged[0]
            continue
        node = resolve(node)
        if isinstance(part, int):
            node = node.get("items", {})
        else:
            node = node.get("properties", {}).get(part, {})
    return sorted(resolve(node).get("properties", {}))


def _is_follow_on(err: Any, errors: list[Any]) -> bool:
    """A "too short" error that only counts items refused for their own reasons."""
    loc = tuple(err["loc"])
    return err["type"] == "too_short" and any(
        len(other["loc"]) > len(loc) and tuple(other["loc"])[: len(loc)] == loc for other in errors
    )


def _problem(model: type[BaseModel], err: Any) -> tuple[str, str, str]:
    loc = _clean_loc(tuple(err["loc"]))
    kind = err["type"]
    cause = (err.get("ctx") or {}).get("error")
    if isinstance(cause, KeyPathError):
        path = ".".join(p for p in (key_path(loc), cause.key_path) if p)
        return path.replace(".[", "["), cause.problem, cause.fix
    path = key_path(loc)
    if kind == "extra_forbidden":
        allowed = ", ".join(_allowed_keys(model, tuple(err["loc"])[:-1]))
        return path, f"unknown key {loc[-1]!r}", f"check its spelling; allowed here: {allowed}"
    if kind == "missing":
        document = "scenario" if model.__name__ == "Scenario" else "result"
        return (
            path,
            "required key is missing",
            (f"add it (`chargeopt schema {document}` lists every key)"),
        )
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        return path, "unknown base kind", 'use kind = "round", "oval" or "hull"'
    message = err["msg"]
    if message.startswith("Value error, "):
        return path, message[len("Value error, ") :], ""
    received = err.get("input")
    words = _in_words(kind, err.get("ctx") or {}, loc, received)
    if words is not None:
        return path, *words
    if kind.startswith(("enum", "literal")):
        message = f"{message} (got {received!r})"
    return path, message, ""


LIST_EXAMPLES = {
    "units": 'a list of units, e.g. [[units]] id = "A" owner = "attacker" models = [...]',
    "models": 'a list of models, e.g. models = [{ id = "A1", x = 10.0, y = 5.0 }]',
    "terrain": 'a list of terrain pieces, e.g. [[terrain]] id = "wall-1" kind = "wall" ...',
    "path": "a list of [x, y] points in inches, e.g. path = [[20.0, 4.0], [20.0, 10.0]]",
    "targets": 'a list of unit ids, e.g. targets = ["B"]',
    "keywords": 'a list of keywords, e.g. keywords = ["INFANTRY"]',
    "charged_units": 'a list of unit ids, e.g. charged_units = ["B"]',
    "objectives": 'a list of objective markers, e.g. [[objectives]] id = "obj-1" x = 22.0 ...',
    "placements": 'a list of placements, e.g. [{"model": "A1", "x": 15.9, "y": 14.5}]',
    "contact": 'a list of model ids, e.g. ["B1"]',
    "engaged": 'a list of unit ids, e.g. ["B"]',
}
"""What a list key holds, in the game's words, with an example to copy."""
ITEM_NAMES = {
    "units": "unit",
    "models": "model",
    "path": "point",
    "targets": "target",
    "placements": "placement",
    "ruleset": "ruleset",
}
"""What one entry of a list key is called, for "needs at least N ..."."""
TABLE_EXAMPLES = {
    "board": "a table, e.g. [board] width = 44.0 height = 30.0",
    "action": 'a table, e.g. [action] kind = "charge" unit = "A" targets = ["B"] roll = 7',
}
"""What a table key holds, with an example to copy."""


def _in_words(
    kind: str, ctx: dict[str, Any], loc: tuple[int | str, ...], received: Any
) -> tuple[str, str] | None:
    """(problem, fix) for pydantic's common error kinds, in the scenario's language; None
    for kinds without a better wording."""
    key = next((p for p in reversed(loc) if isinstance(p, str)), "")
    got = (
        f"got {received!r}"
        if not isinstance(received, dict | list)
        else f"got a {type(received).__name__}"
    )
    point = key == "path" and bool(loc) and isinstance(loc[-1], int)
    if kind in ("tuple_type", "list_type") and point:
        return f"a point is [x, y] in inches ({got})", "e.g. [20.0, 4.0]"
    if kind in ("tuple_type", "list_type"):
        return f"expected {LIST_EXAMPLES.get(key, 'a list')} ({got})", ""
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        expected = TABLE_EXAMPLES.get(key, "a table (in JSON an object)")
        return f"expected {expected} ({got})", ""
    if kind == "too_short":
        least = ctx.get("min_length", 1)
        what = ITEM_NAMES.get(key, "entry") if not point else "number"
        plural = what if least == 1 else ("entries" if what == "entry" else f"{what}s")
        return f"needs at least {least} {plural}, has {ctx.get('actual_length', 0)}", ""
    if kind == "enum":
        return f"expected one of {ctx.get('expected')} ({got})", ""
    if kind == "too_long":
        if point or key == "path":
            return "a point is [x, y] in inches, two numbers", "e.g. [20.0, 4.0]"
        return f"has more than {ctx.get('max_length')} entries", ""
    if kind in ("float_parsing", "float_type", "int_from_float"):
        return f"expected a number in inches ({got})", "write a number such as 12.5"
    if kind in ("int_parsing", "int_type"):
        return f"expected a whole number ({got})", "write a number such as 7"
    if kind == "finite_number":
        return "expected a finite number (not inf or nan)", ""
    if kind == "string_type":
        return f"expected text ({got})", 'write it in quotes, e.g. "A1"'
    if kind == "bool_type":
        return f"expected true or false ({got})", ""
    bounds = {
        "greater_than": ("gt", "more than"),
        "greater_than_equal": ("ge", "at least"),
        "less_than": ("lt", "less than"),
        "less_than_equal": ("le", "at most"),
    }
    if kind in bounds:
        name, words = bounds[kind]
        limit = ctx.get(name)
        value = (
            received
            if not isinstance(received, float) or abs(received) < 1e6
            else f"{received:.3g}"
        )
        shown = f"{limit:g}" if isinstance(limit, float) else limit
        where = key in ("x", "y") or key == "path"
        fix = "positions are inches from the board's top-left corner" if where else ""
        return f"must be {words} {shown} (got {value})", fix
    return None
