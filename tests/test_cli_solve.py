"""`chargeopt solve`: the summary, the result JSON contract, -o, --svg, and an impossible charge."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner

from chargeopt.solver.cli import main

EXAMPLE = Path(__file__).resolve().parent.parent / "benchmarks/layouts/examples"
SCENARIO = str(EXAMPLE / "marines-charge-open.toml")
CONTRACT = {
    "format",
    "scenario",
    "ruleset",
    "action",
    "status",
    "min_roll",
    "success_probability",
    "objective",
    "bound",
    "placements",
    "proof",
    "violations",
    "stats",
}


def run(*args: str):
    """Invoke the CLI in-process."""
    return CliRunner().invoke(main, list(args))


def test_summary_names_the_status_and_the_contacts() -> None:
    """The example is solved to proven optimum: 3 of 5 marines touch the 3 cultists."""
    out = run("solve", SCENARIO, "--no-roll-table")
    assert out.exit_code == 0, out.output
    assert out.output.startswith("OPTIMAL")
    assert "Base contact: 3 of 5 models" in out.output


def test_json_has_every_key_of_the_contract(tmp_path: Path) -> None:
    """--json prints the result document; -o writes the same one, and `check` accepts it."""
    written = tmp_path / "result.json"
    out = run("solve", SCENARIO, "--json", "-o", str(written))
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert set(doc) >= CONTRACT
    assert doc["status"] == "optimal" and doc["violations"] == []
    assert set(doc["placements"][0]) >= {"model", "x", "y", "z", "moved", "contact", "token"}
    assert doc["stats"]["seconds"] > 0 and doc["stats"]["candidates"] > 0
    assert json.loads(written.read_text())["placements"] == doc["placements"]
    assert run("check", SCENARIO, str(written)).exit_code == 0


def test_svg_is_a_drawing_with_every_charger(tmp_path: Path) -> None:
    """--svg writes well-formed SVG naming each charging model."""
    picture = tmp_path / "charge.svg"
    assert run("solve", SCENARIO, "--svg", str(picture), "--no-roll-table").exit_code == 0
    root = ET.parse(picture).getroot()
    assert root.tag.endswith("svg")
    text = picture.read_text()
    assert all(f"A{i}" in text for i in range(1, 6))


def test_unreachable_target_is_infeasible_with_a_proof(tmp_path: Path) -> None:
    """A target 30" away cannot be reached by any roll: status infeasible, a proof, exit 0."""
    scenario = tmp_path / "far.toml"
    scenario.write_text(
        (EXAMPLE / "marines-charge-open.toml").read_text().replace("x = 17.0", "x = 40.0")
    )
    out = run("solve", str(scenario), "--json")
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert doc["status"] == "infeasible"
    assert doc["min_roll"] is None
    assert "B" in doc["proof"] and "12.00" in doc["proof"]
