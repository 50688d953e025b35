"""The scenario document: loading, immutability, key paths in errors, TOML = JSON, the schema."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from pydantic import ValidationError

from chargeopt.models import (
    ActionKind,
    OvalBase,
    RoundBase,
    Scenario,
    ScenarioError,
    load_scenario,
    validate_document,
)
from chargeopt.solver.interface.cli import main


def minimal_document() -> dict[str, Any]:
    """A small valid scenario as a dict, to break one key at a time."""
    return {
        "ruleset": "40k-10e",
        "board": {"width": 20.0, "height": 20.0},
        "terrain": [{"id": "w", "kind": "wall", "path": [[15, 2], [15, 18]], "thickness": 0.25}],
        "units": [
            {
                "id": "A",
                "owner": "attacker",
                "base": "32mm",
                "models": [{"id": "A1", "x": 5, "y": 5}, {"id": "A2", "x": 5, "y": 6.5}],
            },
            {
                "id": "B",
                "owner": "defender",
                "base": "25mm",
                "models": [{"id": "B1", "x": 10, "y": 5, "base": "60x35mm"}],
            },
        ],
        "action": {"kind": "charge", "unit": "A", "targets": ["B"], "roll": 7},
    }


def problems_of(document: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The (key path, problem, fix) triples a document is refused with."""
    with pytest.raises(ScenarioError) as caught:
        validate_document(Scenario, document, "doc.json")
    return caught.value.problems


def test_example_scenario_loads(example_scenario: Scenario) -> None:
    """The README's example: 5 marines (32mm) charge 3 cultists (25mm) with a roll of 7."""
    assert example_scenario.name == "Five marines charge three cultists in the open"
    assert example_scenario.ruleset == ("40k-10e",)
    assert example_scenario.rules.edition == "40k-10e"
    assert [u.id for u in example_scenario.units] == ["A", "B"]
    assert example_scenario.action.kind == ActionKind.CHARGE
    assert example_scenario.action.roll == 7
    marines = example_scenario.acting_unit
    assert len(marines.models) == 5
    assert marines.base_of(marines.models[0]) == RoundBase(diameter_mm=32)
    assert example_scenario.model_index["B3"][1].y == 17.5
    assert example_scenario.enemies_of(marines) == (example_scenario.unit_by_id["B"],)


def test_model_base_overrides_the_unit_default() -> None:
    """A model's own base wins over its unit's."""
    scenario = validate_document(Scenario, minimal_document(), "doc.json")
    unit, model = scenario.model_index["B1"]
    assert unit.base_of(model) == OvalBase(length_mm=60, width_mm=35)


def test_scenario_is_immutable(example_scenario: Scenario) -> None:
    """Assigning to a field of a scenario, unit or model raises; collections are tuples."""
    with pytest.raises(ValidationError, match="frozen"):
        example_scenario.name = "changed"  # type: ignore[misc]
    with pytest.raises(ValidationError, match="frozen"):
        example_scenario.units[0].models[0].x = 0.0  # type: ignore[misc]
    assert isinstance(example_scenario.units, tuple)
    assert isinstance(example_scenario.units[0].models, tuple)


def test_nested_errors_name_their_key_paths() -> None:
    """Several problems are reported together, each at its own key path."""
    document = minimal_document()
    document["units"][0]["models"][1]["x"] = "five"
    document["units"][1]["models"][0]["base"] = "60x"
    document["board"]["depth"] = 3
    paths = [path for path, _, _ in problems_of(document)]
    assert paths == ["board.depth", "units[0].models[1].x", "units[1].models[0].base"]


def test_model_validator_error_is_placed_under_its_object() -> None:
    """A wall without thickness is reported at terrain[0].thickness, with a fix."""
    document = minimal_document()
    del document["terrain"][0]["thickness"]
    assert problems_of(document) == [
        ("terrain[0].thickness", "a wall needs a thickness", "add thickness = 0.25")
    ]


def test_reference_error_key_path() -> None:
    """A second target that does not exist is reported at action.targets[1]."""
    document = minimal_document()
    document["action"]["targets"] = ["B", "Z"]
    assert problems_of(document) == [("action.targets[1]", "no unit 'Z'", "choose one of A, B")]


def test_error_lines_name_the_file() -> None:
    """ScenarioError.lines() writes `file: key: problem; fix`."""
    document = minimal_document()
    document["action"]["unit"] = "Z"
    with pytest.raises(ScenarioError) as caught:
        validate_document(Scenario, document, "doc.json")
    assert caught.value.lines() == ["doc.json: action.unit: no unit 'Z'; choose one of A, B"]


def test_json_and_toml_give_the_same_scenario(example_scenario_path: Path, tmp_path: Path) -> None:
    """The example written as JSON loads to a Scenario equal to the TOML one."""
    as_json = tmp_path / "example.json"
    as_json.write_text(json.dumps(tomllib.loads(example_scenario_path.read_text())))
    assert load_scenario(as_json) == load_scenario(example_scenario_path)


def test_ruleset_as_a_list_equals_the_string_form() -> None:
    """ruleset = "40k-10e" and ruleset = ["40k-10e"] are the same scenario."""
    listed = minimal_document()
    listed["ruleset"] = ["40k-10e"]
    assert validate_document(Scenario, listed, "a") == validate_document(
        Scenario, minimal_document(), "b"
    )


@pytest.fixture(scope="module")
def cli_scenario_schema() -> dict[str, Any]:
    """The schema exactly as `chargeopt schema scenario` prints it."""
    result = CliRunner().invoke(main, ["schema", "scenario"])
    assert result.exit_code == 0
    return json.loads(result.stdout)


def test_schema_validates_every_example(
    examples_dir: Path, cli_scenario_schema: dict[str, Any]
) -> None:
    """Every scenario in benchmarks/layouts/examples/ is valid against the published schema."""
    validator = jsonschema.Draft202012Validator(cli_scenario_schema)
    jsonschema.Draft202012Validator.check_schema(cli_scenario_schema)
    files = sorted(examples_dir.glob("*.toml")) + sorted(
        p for p in examples_dir.glob("*.json") if not p.name.endswith(".result.json")
    )
    assert files
    for path in files:
        text = path.read_text()
        document = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
        errors = [e.message for e in validator.iter_errors(document)]
        assert errors == [], path.name


def test_schema_refuses_an_unknown_key(cli_scenario_schema: dict[str, Any]) -> None:
    """The schema is strict like the loader: an unknown key in a model fails validation."""
    document = minimal_document()
    document["units"][0]["models"][0]["facng"] = 90
    errors = list(jsonschema.Draft202012Validator(cli_scenario_schema).iter_errors(document))
    assert len(errors) == 1
    assert "'facng' was unexpected" in errors[0].message


def test_result_schema_accepts_a_hand_written_placement(examples_dir: Path) -> None:
    """A result file with only placements is valid against `chargeopt schema result`."""
    schema = json.loads(CliRunner().invoke(main, ["schema", "result"]).stdout)
    hand_written = {"placements": [{"model": "A1", "x": 15.8779, "y": 14.5}]}
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(hand_written)) == []
    for path in examples_dir.glob("*.result.json"):
        document = json.loads(path.read_text())
        assert list(jsonschema.Draft202012Validator(schema).iter_errors(document)) == [], path
