"""Reading scenario and result files (TOML or JSON by extension) into validated models."""

from __future__ import annotations

import json
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
    """Parse a TOML or JSON file (chosen by its extension) into a dict."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".toml", ".json"):
        raise ScenarioError(
            str(path),
            [
                (
                    "",
                    f"cannot read a {suffix or 'extension-less'} file",
                    "give a .toml or .json file",
                )
            ],
        )
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(
            str(path), [("", f"cannot open the file ({exc.strerror})", "")]
        ) from None
    except UnicodeDecodeError:
        raise ScenarioError(str(path), [("", "the file is not UTF-8 text", "")]) from None
    try:
        data = tomllib.loads(text) if suffix == ".toml" else json.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(str(path), [("", f"not valid TOML ({exc})", "")]) from None
    except json.JSONDecodeError as exc:
        raise ScenarioError(
            str(path),
            [("", f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})", "")],
        ) from None
    if not isinstance(data, dict):
        raise ScenarioError(
            str(path), [("", "the document must be a table (object) at the top", "")]
        )
    return data


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
    return validate_document(Scenario, read_document(path), str(path))


def load_result(path: str | Path) -> Result:
    """Read and validate a result (or hand-written placement) file."""
    return validate_document(Result, read_document(path), str(path))


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
        message = message[len("Value error, ") :]
    received = err.get("input")
    if kind.startswith(("enum", "literal")) or kind in {
        "float_parsing",
        "int_parsing",
        "string_type",
        "float_type",
        "int_type",
        "bool_type",
    }:
        message = f"{message} (got {received!r})"
    return path, message, ""
