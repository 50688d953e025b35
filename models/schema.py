"""JSON Schema for the scenario and the result, generated from the data models, and the way to
the schema of one key (for error messages and the key reference)."""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue

from .rank_and_file import RankAndFileScenario
from .result import Result
from .result_blocks import ResultBlock
from .scenario import Scenario

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
DOCUMENT_DESCRIPTIONS = {
    "Scenario": "A tabletop position and the move to make in it: chargeopt's input "
    "(TOML or JSON, coordinates in inches from the board's top-left corner).",
    "Result": "The answer to a scenario, or a hand-written placement to check: only "
    "placements is required.",
    "ResultBlock": "One block of a rank-and-file result: where it ends (its front-left corner "
    "and facing) and the ruling's reasons.",
    "RankAndFileScenario": "A rank-and-file table (t9a-2022, whfb-6e, tow): blocks of models in "
    "files and ranks, impassable terrain and one charge, single or combined; the ruleset picks "
    "this document type.",
}
_KEPT_FROM_OUTSIDE = ("description", "examples", "default", "unit", "title")


class _InWrittenOrder(GenerateJsonSchema):
    """pydantic's schema with keys sorted, except properties and examples: those keep the order
    they are declared and written in (an example board reads width, then height)."""

    def sort(self, value: JsonSchemaValue, parent_key: str | None = None) -> JsonSchemaValue:
        return _sorted(value, parent_key)


def _sorted(value: Any, parent_key: str | None) -> Any:
    if parent_key in ("examples", "default", "const", "enum"):
        return value
    if isinstance(value, dict):
        keys = list(value) if parent_key == "properties" else sorted(value)
        return {k: _sorted(value[k], k) for k in keys}
    if isinstance(value, list):
        return [_sorted(v, parent_key) for v in value]
    return value


def scenario_schema() -> dict[str, Any]:
    """JSON Schema of a scenario document (as written: base strings accepted)."""
    schema = Scenario.model_json_schema(mode="validation", schema_generator=_InWrittenOrder)
    return _with_header(schema, "chargeopt scenario")


def rank_and_file_schema() -> dict[str, Any]:
    """JSON Schema of a rank-and-file scenario document (t9a-2022, whfb-6e, tow)."""
    schema = RankAndFileScenario.model_json_schema(
        mode="validation", schema_generator=_InWrittenOrder
    )
    return _with_header(schema, "chargeopt rank-and-file scenario")


def result_schema() -> dict[str, Any]:
    """JSON Schema of a result document."""
    schema = Result.model_json_schema(mode="serialization", schema_generator=_InWrittenOrder)
    return _with_header(_with_block_defs(schema), "chargeopt result")


def _with_block_defs(schema: dict[str, Any]) -> dict[str, Any]:
    """The result's schema with `blocks[]` described: ResultBlock and its path steps added to
    its $defs (the result keeps each block a plain table; see models/result_blocks.py)."""
    block = ResultBlock.model_json_schema(
        mode="serialization",
        schema_generator=_InWrittenOrder,
        ref_template="#/$defs/{model}",
    )
    defs = {**schema.get("$defs", {}), **block.pop("$defs", {}), "ResultBlock": block}
    blocks = {**schema["properties"]["blocks"], "items": {"$ref": "#/$defs/ResultBlock"}}
    properties = {**schema["properties"], "blocks": blocks}
    return {**schema, "properties": properties, "$defs": dict(sorted(defs.items()))}


def _with_header(schema: dict[str, Any], title: str) -> dict[str, Any]:
    description = DOCUMENT_DESCRIPTIONS[schema["title"]]
    return {"$schema": SCHEMA_DIALECT, **schema, "title": title, "description": description}


@cache
def _validation_schema(model: type[BaseModel]) -> dict[str, Any]:
    schema = model.model_json_schema(mode="validation", schema_generator=_InWrittenOrder)
    return _with_block_defs(schema) if model is Result else schema


class KeySchema:
    """The schema of one key of a document, its `$ref` resolved (the key's own description,
    example and default kept over its type's)."""

    def __init__(self, node: dict[str, Any], defs: dict[str, Any]) -> None:
        self.defs = defs
        self.node = self.resolve(node)

    def resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        """`node` with its `$ref` replaced by the definition, its own annotations kept."""
        while "$ref" in node:
            target = self.defs[node["$ref"].rsplit("/", 1)[-1]]
            node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        return node

    def variants(self) -> list[dict[str, Any]]:
        """The alternatives a key accepts (one unless it is a union), resolved, nulls dropped."""
        options = self.node.get("anyOf") or self.node.get("oneOf") or [self.node]
        found = [self.resolve(o) for o in options]
        return [o for o in found if o.get("type") != "null"] or found

    def step(self, part: int | str) -> KeySchema | None:
        """The schema one step down: a list entry, a tuple position, a table key or a base
        kind (pydantic puts the tag of a tagged union in its error locations)."""
        options = self.variants()
        tagged = [
            o for o in options if o.get("properties", {}).get("kind", {}).get("const") == part
        ]
        if tagged:
            return self._inner(tagged[0])
        for option in options:
            if isinstance(part, int) and option.get("type") == "array":
                prefix = option.get("prefixItems") or []
                return KeySchema(
                    prefix[part] if part < len(prefix) else option.get("items", {}), self.defs
                )
            if isinstance(part, str) and part in option.get("properties", {}):
                return KeySchema(option["properties"][part], self.defs)
        return None

    def _inner(self, option: dict[str, Any]) -> KeySchema:
        kept = {k: self.node[k] for k in _KEPT_FROM_OUTSIDE if k in self.node}
        return KeySchema({**option, **kept}, self.defs)

    @property
    def keys(self) -> list[str]:
        """The keys a table here allows, sorted."""
        return sorted(k for o in self.variants() for k in o.get("properties", {}))

    def get(self, name: str, default: Any = None) -> Any:
        return self.node.get(name, default)


def key_schema(model: type[BaseModel], loc: tuple[int | str, ...]) -> KeySchema | None:
    """The schema of the key at pydantic location `loc` in a `model` document, or None when
    the location leaves the schema (an unknown key)."""
    schema = _validation_schema(model)
    here: KeySchema | None = KeySchema(schema, schema.get("$defs", {}))
    for part in loc:
        if here is None:
            return None
        if isinstance(part, str) and _internal_step(part):
            continue
        here = here.step(part)
    return here


def _internal_step(part: str) -> bool:
    """pydantic's own steps in a location: validator names and union members."""
    return part.startswith(("function-", "tuple[", "list[", "dict[")) or part in {
        "str",
        "int",
        "float",
        "bool",
        "none",
    }
