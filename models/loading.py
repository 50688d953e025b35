"""Reading scenario and result files (TOML or JSON by extension) into validated models."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .errors import ScenarioError
from .messages import Document, refusals
from .result import Result
from .scenario import Scenario
from .syntax import Syntax, syntax_of

T = TypeVar("T", bound=BaseModel)


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


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file (structure and references; see also geometry's
    start-layout check for overlaps and models off the board)."""
    return validate_document(Scenario, read_document(path), str(path))


def load_result(path: str | Path) -> Result:
    """Read and validate a result (or hand-written placement) file."""
    return validate_document(Result, read_document(path), str(path))
