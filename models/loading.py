"""Reading scenario and result files (TOML or JSON by extension, or `-` for standard input)
into validated models; every refusal is a ScenarioError naming the file and the key path."""

from __future__ import annotations

import codecs
import json
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .errors import ScenarioError
from .messages import Document, refusals
from .nesting import MAX_DEPTH, too_deep
from .rank_and_file import RankAndFileScenario, is_rank_and_file
from .result import Result
from .scenario import Scenario
from .syntax import Syntax, syntax_of

T = TypeVar("T", bound=BaseModel)
STDIN = "-"
"""The path that means "read the document from standard input"."""
STDIN_NAME = "<stdin>"
_FILE_KINDS = "give a .toml or .json file"
_KEYS = "`chargeopt schema scenario` or `chargeopt schema result` lists them"


def document_name(path: str | Path) -> str:
    """How messages name a document: its path, or `<stdin>` for `-`."""
    return STDIN_NAME if str(path) == STDIN else str(path)


@dataclass(frozen=True)
class _Read:
    """A parsed document with the name messages give it and the syntax it was written in."""

    data: dict[str, Any]
    name: str
    syntax: Syntax


def read_document(path: str | Path) -> dict[str, Any]:
    """Parse a TOML or JSON file (chosen by its extension; `-` reads standard input and tells
    JSON, which starts with `{`, from TOML) into a dict."""
    return _read(path).data


def parse_document(text: str, name: str) -> dict[str, Any]:
    """Parse a document given as text (a file sent to `chargeopt serve`), TOML or JSON as the
    extension of `name` says; refusals name it as `name`."""
    suffix = Path(name).suffix.lower()
    if suffix not in (".toml", ".json"):
        what = f"a {suffix} file" if suffix else "a file without an extension"
        raise ScenarioError(name, [("", f"cannot read {what}", _FILE_KINDS)])
    return _parse(text, name, "json" if suffix == ".json" else "toml").data


def validate_document(
    model: type[T], data: dict[str, Any], file: str, syntax: Syntax | None = None
) -> T:
    """Validate `data` as `model`; turn every pydantic error into one `file: key: problem; fix`
    line, with examples written in `syntax` (by default the one `file`'s extension implies)."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        document = Document(model, data, syntax or syntax_of(file))
        raise ScenarioError(file, refusals(exc, document)) from None


def load_scenario(path: str | Path) -> Scenario | RankAndFileScenario:
    """Read and validate a scenario file (structure and references; see also geometry's
    start-layout check for overlaps and models off the board). A rank-and-file ruleset
    (`t9a-2022`) reads the file as a RankAndFileScenario of blocks."""
    read = _read(path)
    model = RankAndFileScenario if is_rank_and_file(read.data.get("ruleset")) else Scenario
    return validate_document(model, read.data, read.name, read.syntax)


def load_result(path: str | Path) -> Result:
    """Read and validate a result (or hand-written placement) file."""
    read = _read(path)
    return validate_document(Result, read.data, read.name, read.syntax)


def _read(path: str | Path) -> _Read:
    if str(path) == STDIN:
        text = _decode(_stdin_bytes(), STDIN_NAME)
        syntax: Syntax = "json" if text.lstrip().startswith("{") else "toml"
        return _parse(text, STDIN_NAME, syntax)
    path = Path(path)
    name = str(path)
    if path.is_dir():
        raise ScenarioError(name, [("", "is a folder", _FILE_KINDS)])
    suffix = path.suffix.lower()
    if suffix not in (".toml", ".json"):
        what = f"a {suffix} file" if suffix else "a file without an extension"
        raise ScenarioError(name, [("", f"cannot read {what}", _FILE_KINDS)])
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ScenarioError(
            name, [("", "no such file", "check the name and the folder it is in")]
        ) from None
    except OSError as exc:
        raise ScenarioError(name, [("", f"cannot open the file ({exc.strerror})", "")]) from None
    return _parse(_decode(raw, name), name, "json" if suffix == ".json" else "toml")


def _stdin_bytes() -> bytes:
    """Everything on standard input; refuse a terminal, where `-` would wait for typing."""
    stream = sys.stdin
    if stream is None or stream.isatty():
        raise ScenarioError(
            STDIN_NAME,
            [
                (
                    "",
                    "nothing is piped in (`-` reads the document from standard input)",
                    "pipe a file in, e.g. chargeopt solve - < scenario.toml",
                )
            ],
        )
    buffer = getattr(stream, "buffer", None)
    return buffer.read() if buffer is not None else stream.read().encode("utf-8")


def _decode(raw: bytes, name: str) -> str:
    """UTF-8 text, a byte-order mark accepted (editors on Windows write one)."""
    fix = "save it as UTF-8 (plain text)"
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise ScenarioError(name, [("", "the file is UTF-16 text, not UTF-8", fix)])
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ScenarioError(
            name, [("", f"the file is not UTF-8 text (at byte {exc.start + 1})", fix)]
        ) from None


def _parse(text: str, name: str, syntax: Syntax) -> _Read:
    """Parse `text`, refusing an empty file, brackets nested past MAX_DEPTH, broken syntax and
    a top level that is not a table."""
    if not text.strip():
        raise ScenarioError(
            name, [("", "the file is empty", f"write the document's keys in it ({_KEYS})")]
        )
    if deep := too_deep(text, syntax):
        raise ScenarioError(
            name,
            [
                (
                    deep.key_path,
                    f"nested more than {MAX_DEPTH} brackets deep (line {deep.line})",
                    "a scenario nests a few levels at most: check the brackets there",
                )
            ],
        )
    try:
        data = tomllib.loads(text) if syntax == "toml" else json.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(name, [("", f"not valid TOML ({exc})", "")]) from None
    except json.JSONDecodeError as exc:
        raise ScenarioError(
            name,
            [("", f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})", "")],
        ) from None
    except RecursionError:
        raise ScenarioError(name, [("", "nested too deep to read", "check the brackets")]) from None
    if not isinstance(data, dict):
        raise ScenarioError(
            name,
            [
                (
                    "",
                    f"the top of the file must be one object of keys, not {_kind_of(data)}",
                    f'write {{"key": value, ...}} ({_KEYS})',
                )
            ],
        )
    return _Read(data, name, syntax)


def _kind_of(value: Any) -> str:
    return "a list" if isinstance(value, list) else "a single value"
