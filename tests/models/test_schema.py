"""The published schemas and the key reference are written for people: every property has a
description and an example that the schema itself accepts, closed sets of values are enums, and
models/README.md's reference is exactly what the models render."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from repo_paths import REPO_ROOT

from chargeopt.models import (
    KNOWN_RULESETS,
    rank_and_file_schema,
    result_schema,
    scenario_schema,
)
from chargeopt.models.keys import UNIT_WORDS
from chargeopt.models.reference import MARKER, readme_with_reference, render_reference
from chargeopt.models.rulesets import RULE_KEYWORDS

SCHEMAS = {
    "scenario": scenario_schema(),
    "result": result_schema(),
    "rank-and-file": rank_and_file_schema(),
}
README = REPO_ROOT / "models" / "README.md"


def properties(schema: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(table, key, property schema) for every property of the document and of its $defs."""
    for name, node in [("top", schema), *schema.get("$defs", {}).items()]:
        for key, prop in node.get("properties", {}).items():
            yield name, key, prop


@pytest.mark.parametrize("document", SCHEMAS)
def test_every_property_has_a_description_and_an_example(document: str) -> None:
    """No key is left for a person to guess: a sentence and a value to copy."""
    missing = [
        f"{table}.{key}"
        for table, key, prop in properties(SCHEMAS[document])
        if not prop.get("description") or not prop.get("examples")
    ]
    assert missing == []


@pytest.mark.parametrize("document", SCHEMAS)
def test_every_example_is_valid_for_its_key(document: str) -> None:
    """Each property's example passes the property's own schema (so the examples in messages
    and in the reference can be copied as they are)."""
    schema = SCHEMAS[document]
    for table, key, prop in properties(schema):
        checker = jsonschema.Draft202012Validator({"$defs": schema.get("$defs", {}), **prop})
        errors = [e.message for e in checker.iter_errors(prop["examples"][0])]
        assert errors == [], f"{table}.{key}"


@pytest.mark.parametrize("document", SCHEMAS)
def test_units_are_ones_the_reference_names(document: str) -> None:
    """A unit annotation is inches, millimetres or degrees; lengths in inches say so."""
    units = {
        (table, key): prop["unit"]
        for table, key, prop in properties(SCHEMAS[document])
        if "unit" in prop
    }
    assert set(units.values()) <= set(UNIT_WORDS)
    if document == "scenario":
        assert units[("GameModel", "x")] == units[("Terrain", "path")] == "in"
        assert units[("RoundBase", "diameter_mm")] == "mm"
        assert units[("GameModel", "facing")] == "deg"


def _enum_at(schema: dict[str, Any], *path: str) -> list[Any]:
    """The enum a property offers: $refs followed, `None` members of unions skipped, and the
    enums of its union members (a string, or a list of strings) gathered."""

    def resolve(node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            node = schema["$defs"][node["$ref"].rsplit("/", 1)[-1]]
        options = [resolve(o) for o in node.get("anyOf", []) if o.get("type") != "null"]
        return options[0] if len(options) == 1 else node

    node = resolve(schema)
    for part in path:
        node = resolve(node["items"] if part == "[]" else node["properties"][part])
    found = list(node.get("enum", []))
    for option in node.get("anyOf", []):
        option = resolve(option)
        found += option.get("enum", []) + option.get("items", {}).get("enum", [])
    return found


def test_closed_sets_are_enums() -> None:
    """Ruleset ids, move kinds, terrain kinds, owners, rule keywords and statuses are enums."""
    scenario, result = SCHEMAS["scenario"], SCHEMAS["result"]
    assert _enum_at(scenario, "ruleset") == [*KNOWN_RULESETS, *KNOWN_RULESETS]
    assert _enum_at(scenario, "action", "kind") == [
        "charge",
        "pile-in",
        "consolidate",
        "heroic-intervention",
        "fall-back",
    ]
    assert _enum_at(scenario, "terrain", "[]", "kind") == [
        "wall",
        "floor",
        "impassable",
        "barricade",
        "difficult",
        "dense",
        "light",
        "exposed",
    ]
    assert _enum_at(scenario, "units", "[]", "owner") == ["attacker", "defender"]
    assert _enum_at(scenario, "units", "[]", "keywords", "[]") == list(RULE_KEYWORDS)
    assert {"INFANTRY", "CHARACTER", "FLY", "MONSTER", "VEHICLE"} <= set(RULE_KEYWORDS)
    assert _enum_at(result, "status") == ["optimal", "feasible", "infeasible", "unknown"]
    rank_and_file = ["t9a-2022", "whfb-6e", "tow", "wheel-arc", "wheel-chord"]
    assert _enum_at(result, "ruleset", "[]") == [*KNOWN_RULESETS, *rank_and_file]
    assert _enum_at(result, "blocks", "[]", "role") == ["charger", "target"]
    assert _enum_at(result, "blocks", "[]", "target_facing") == ["front", "right", "rear", "left"]
    assert _enum_at(result, "blocks", "[]", "wheel_metric") == ["arc", "chord"]
    assert _enum_at(result, "action", "kind") == _enum_at(scenario, "action", "kind")


def test_keywords_outside_the_enum_stay_valid() -> None:
    """The keyword enum offers the rule keywords; any other keyword still validates."""
    checker = jsonschema.Draft202012Validator(SCHEMAS["scenario"])
    document = {
        "ruleset": "40k-10e",
        "board": {"width": 20, "height": 20},
        "units": [
            {
                "id": "A",
                "owner": "attacker",
                "keywords": ["INFANTRY", "ADEPTUS ASTARTES"],
                "base": "32mm",
                "models": [{"id": "A1", "x": 5, "y": 5}],
            }
        ],
        "action": {"kind": "consolidate", "unit": "A"},
    }
    assert list(checker.iter_errors(document)) == []
    document["ruleset"] = "40k-12e"
    assert [e.validator for e in checker.iter_errors(document)] == ["anyOf"]


def test_readme_reference_is_the_rendering_of_the_models() -> None:
    """models/README.md keeps its short map on top; below MARKER it equals the rendering.
    Fix a failure with `python -m chargeopt.models.reference`."""
    text = README.read_text(encoding="utf-8")
    assert text.startswith("# chargeopt.models: the data\n")
    assert text.count(MARKER) == 1
    assert text.split(MARKER, 1)[1] == render_reference().split(MARKER, 1)[1]
    assert readme_with_reference(text) == text


def test_reference_lists_every_key_with_its_example() -> None:
    """Every property of both documents has a row: its key, then (last cell) its example."""
    rendered = render_reference()
    for schema in SCHEMAS.values():
        for _, key, _ in properties(schema):
            assert f"| `{key}` |" in rendered, key
    assert "| `x` | The distance of the model's centre from the board's left edge. " in rendered
    assert "| inches | required | `x = 12.0` |" in rendered


def test_a_stale_readme_is_rewritten_and_the_map_kept() -> None:
    """Whatever follows the marker is replaced; the hand-written map above it is kept."""
    stale = "# chargeopt.models: the data\n\nThe map.\n\n" + MARKER + "\nold table\n"
    assert readme_with_reference(stale) == (
        "# chargeopt.models: the data\n\nThe map.\n\n" + render_reference()
    )


def test_reference_module_check_passes() -> None:
    """`python -m chargeopt.models.reference --check` exits 0 on the committed README."""
    done = subprocess.run(
        [sys.executable, "-m", "chargeopt.models.reference", "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
