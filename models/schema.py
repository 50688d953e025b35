"""JSON Schema for the scenario and the result, generated from the data models."""

from __future__ import annotations

from typing import Any

from .result import Result
from .scenario import Scenario

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def scenario_schema() -> dict[str, Any]:
    """JSON Schema of a scenario document (as written: base strings accepted)."""
    return _with_header(Scenario.model_json_schema(mode="validation"), "chargeopt scenario")


def result_schema() -> dict[str, Any]:
    """JSON Schema of a result document."""
    return _with_header(Result.model_json_schema(mode="serialization"), "chargeopt result")


def _with_header(schema: dict[str, Any], title: str) -> dict[str, Any]:
    return {"$schema": SCHEMA_DIALECT, **schema, "title": title}
