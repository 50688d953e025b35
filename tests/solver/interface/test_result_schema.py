"""`chargeopt schema result` validates the results chargeopt writes: every rank-and-file
benchmark layout and at least one layout of every other suite (each move kind and verdict the
suites hold) is solved with a short time limit and its result checked with jsonschema; every
key a block writes is one the schema describes. CHARGEOPT_ALL_LAYOUTS=1 solves every layout of
every suite (about two minutes)."""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from repo_paths import REPO_ROOT

from chargeopt.models import RankAndFileScenario, result_schema
from chargeopt.solver import SolveOptions, load_scenario
from chargeopt.solver.api import solve
from chargeopt.solver.interface.cli import main

BENCHMARKS = REPO_ROOT / "benchmarks"
REPRESENTATIVES = {
    "quick-v1": ("q1-one-on-one.toml", "q3-screened.toml"),
    "curated-v1": ("k1-ruin-tight-gap.toml", "k7-screened-infeasible.toml"),
    "examples": ("two-marines-one-sliver.toml",),
    "pile-in-v1": ("p5-line-9e.toml",),
    "scaling-v1": ("c10-open-s2.toml",),
    "speed-v1": ("c10-open-s1.toml",),
    "wtc-walls": ("walled-room.toml",),
    "forty-k-11e-v1": (
        "c01-open-one.toml",
        "c06-choice-after-roll.toml",
        "c09-nine-inch-coherency.toml",
        "h02-heroic-into-the-fray.toml",
    ),
    "assault-4e-v1": (
        "a2-gap-choke.toml",
        "a3-reinforce-wall.toml",
        "e1-just-escapes.toml",
        "t1-trapped-against-rocks.toml",
    ),
}
"""The cheap layouts of each skirmish suite that cover its move kinds and verdicts (charge,
pile-in, fall back; optimal, infeasible, Trapped!)."""
REFUSED = {"pile-in-out-of-range.toml", "x1-wall.toml"}
"""Layouts the command refuses (exit 2, nothing written): no result to validate."""
ALL = bool(os.environ.get("CHARGEOPT_ALL_LAYOUTS"))


def suites() -> dict[str, list[Path]]:
    """Every benchmark suite (a folder of scenario files) and its layouts."""
    folders = [p for p in BENCHMARKS.iterdir() if p.is_dir()]
    folders += [p for p in (BENCHMARKS / "layouts").iterdir() if p.is_dir()]
    found = {
        folder.name: sorted(p for p in folder.glob("*.toml") if p.name != "suite.toml")
        for folder in folders
    }
    return {name: files for name, files in sorted(found.items()) if files}


def _is_blocks(path: Path) -> bool:
    return isinstance(load_scenario(str(path)), RankAndFileScenario)


def chosen() -> list[Path]:
    """All rank-and-file layouts, the representatives of the others (or every layout)."""
    out = []
    for name, files in suites().items():
        for path in files:
            if path.name in REFUSED:
                continue
            if ALL or path.name in REPRESENTATIVES.get(name, ()) or _is_blocks(path):
                out.append(path)
    return out


@cache
def validator() -> jsonschema.Draft202012Validator:
    schema = result_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _errors(document: dict[str, Any]) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator().iter_errors(document)]


def test_every_suite_has_a_layout_validated() -> None:
    """A new suite needs its representatives named here (or is rank-and-file, all solved)."""
    picked = {p.parent.name for p in chosen()}
    assert picked == set(suites())
    for name, files in REPRESENTATIVES.items():
        assert set(files) <= {p.name for p in suites()[name]}, name


@pytest.mark.parametrize("path", chosen(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_result_validates_against_the_schema(path: Path) -> None:
    """The result as `solve -o` writes it passes `chargeopt schema result`."""
    result = solve(load_scenario(str(path)), options=SolveOptions(time_limit_s=0.5))
    document = json.loads(json.dumps(result.model_dump(mode="json")))
    assert _errors(document) == []
    described = result_schema()["$defs"]
    for block in document["blocks"]:
        assert set(block) <= set(described["ResultBlock"]["properties"]), block["unit"]
        for step in block.get("path", []):
            model = {"forward": "ForwardStep", "wheel": "WheelStep", "align": "AlignStep"}
            assert set(step) <= set(described[model[step["move"]]]["properties"]), step


def test_a_combined_charge_written_by_the_command_validates(tmp_path: Path) -> None:
    """The file `chargeopt solve -o` writes for a combined T9A charge passes the schema."""
    out = tmp_path / "result.json"
    scenario = BENCHMARKS / "rank-and-file-v1" / "c2-two-side-by-side.toml"
    solved = CliRunner().invoke(main, ["solve", str(scenario), "-o", str(out), "--quiet"])
    assert solved.exit_code == 0, solved.output
    document = json.loads(out.read_text())
    assert [b["unit"] for b in document["blocks"] if b["role"] == "charger"] == ["A1", "A2"]
    assert _errors(document) == []


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"ruleset": ["t9a-2023"]}, "['ruleset', 0]"),
        ({"blocks": [{"unit": "A", "x": 1.0, "y": 2.0}]}, "['blocks', 0]"),
        ({"blocks": [{"unit": "A", "x": 1, "y": 2, "facing": 0, "arc": "flank"}]}, "arc"),
        (
            {"blocks": [{"unit": "A", "x": 1, "y": 2, "facing": 0, "path": [{"move": "hop"}]}]},
            "['blocks', 0, 'path', 0]",
        ),
        (
            {"blocks": [{"unit": "A", "x": 1, "y": 2, "facing": 0, "path": [{"move": "wheel"}]}]},
            "['blocks', 0, 'path', 0]",
        ),
    ],
)
def test_the_schema_refuses_a_broken_block_result(change: dict[str, Any], where: str) -> None:
    """An unknown ruleset, a block without its facing, an arc that is not one of the four,
    a path step of no known kind or missing its keys: each is refused where it is."""
    document = {"placements": [], **change}
    errors = _errors(document)
    assert len(errors) == 1 and where in errors[0], errors
