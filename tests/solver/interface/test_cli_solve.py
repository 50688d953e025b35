"""`chargeopt solve`: the summary, the result JSON contract, -o, --svg, and an impossible charge."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from repo_paths import REPO_ROOT

from chargeopt.solver.interface.cli import main

EXAMPLE = REPO_ROOT / "benchmarks/layouts/examples"
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
PLACEMENT_KEYS = {"model", "x", "y", "z", "moved", "contact", "token"}


def run(*args: str) -> Result:
    """Invoke the CLI in-process, stdout and stderr kept apart."""
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """One `solve --json -o --svg` run of the example: its CLI result and the files written."""
    out = tmp_path_factory.mktemp("solve")
    written, picture = out / "result.json", out / "charge.svg"
    cli = run("solve", SCENARIO, "--json", "-o", str(written), "--svg", str(picture))
    return {"cli": cli, "json": written, "svg": picture}


@pytest.fixture
def far_scenario(tmp_path: Path) -> str:
    """The example with the cultists moved to x = 38: 38 - 10 - 16mm - 12.5mm = 26.88" away."""
    scenario = tmp_path / "far.toml"
    scenario.write_text(
        (EXAMPLE / "marines-charge-open.toml").read_text().replace("x = 17.0", "x = 38.0")
    )
    return str(scenario)


def test_summary_names_the_status_and_the_contacts() -> None:
    """The example is solved to proven optimum: 3 of 5 marines touch the 3 cultists; counts
    print as whole numbers."""
    out = run("solve", SCENARIO, "--no-roll-table")
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert lines[0].startswith("OPTIMAL: A charges B with a roll of 7")
    assert "Minimum roll 5: 83.3% on 2D6, 97.2% with a re-roll" in lines
    assert "Base contact: 3 of 5 models (most possible: 3)" in lines
    assert "base contact" in out.stdout
    assert sum(" base contact with B" in line for line in lines) == 3


def test_json_has_every_key_of_the_contract(solved: dict[str, object]) -> None:
    """--json prints the result document with every key SCENARIO.md promises."""
    cli = solved["cli"]
    assert isinstance(cli, Result) and cli.exit_code == 0, cli.output
    doc = json.loads(cli.stdout)
    assert set(doc) >= CONTRACT
    assert doc["format"] == 1 and doc["status"] == "optimal" and doc["ruleset"] == ["40k-10e"]
    assert doc["action"] == {"kind": "charge", "unit": "A", "targets": ["B"], "roll": 7}
    assert doc["min_roll"] == 5 and doc["success_probability"] == pytest.approx(30 / 36, abs=1e-4)
    assert doc["objective"]["base_contact"] == 3 and doc["bound"]["base_contact"] == 3
    assert [p["model"] for p in doc["placements"]] == ["A1", "A2", "A3", "A4", "A5"]
    assert all(set(p) >= PLACEMENT_KEYS for p in doc["placements"])
    assert doc["stats"]["seconds"] > 0 and doc["stats"]["candidates"] > 0
    assert doc["proof"] is None and doc["violations"] == []


def test_output_file_matches_stdout_and_passes_check(solved: dict[str, object]) -> None:
    """-o writes the same JSON as --json prints, and `chargeopt check` finds it legal."""
    cli, written = solved["cli"], solved["json"]
    assert isinstance(cli, Result) and isinstance(written, Path)
    assert json.loads(written.read_text()) == json.loads(cli.stdout)
    checked = run("check", SCENARIO, str(written))
    assert checked.exit_code == 0, checked.output
    assert checked.stdout == "OK: no violations (5 models checked)\n"


def test_svg_is_a_drawing_with_every_charger(solved: dict[str, object]) -> None:
    """--svg writes well-formed SVG with an <svg> root naming each charging model."""
    picture = solved["svg"]
    assert isinstance(picture, Path)
    root = ET.parse(picture).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    text = picture.read_text()
    assert all(f"A{i} ends here" in text for i in range(1, 6))


def test_unreachable_target_is_infeasible_with_a_proof(far_scenario: str) -> None:
    """No roll up to 12 brings a marine within 1" of B: infeasible, a proof, exit 0."""
    out = run("solve", far_scenario, "--json")
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert doc["status"] == "infeasible"
    assert doc["min_roll"] is None
    assert doc["proof"].startswith("No model of A can end within engagement range of B")
    assert '26.88" away' in doc["proof"] and "12.00" in doc["proof"]


def test_infeasible_summary_leads_with_the_proof(far_scenario: str) -> None:
    """The summary says the charge cannot be made, why, and that no roll helps."""
    lines = run("solve", far_scenario).stdout.splitlines()
    assert lines[0] == "INFEASIBLE: A cannot charge B with a roll of 7"
    assert lines[1].startswith("Proof: No model of A can end within engagement range of B")
    assert lines[2] == "Minimum roll: none; no roll up to 12 makes this charge"


def test_repair_flag_brings_an_18th_model_within_engagement_range() -> None:
    """scaling-v1 c30-walls-s1: 17 engaged on the candidates; `--repair` adds one, and the
    summary names it."""
    horde = str(EXAMPLE.parent / "scaling-v1" / "c30-walls-s1.toml")
    args = ("solve", horde, "--no-roll-table", "--time-limit", "10", "--repair")
    out = run(*args, "--json")
    assert out.exit_code == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["objective"]["engaged"] == 18
    assert len(result["stats"]["repair"]["added"]) == 1
    assert result["violations"] == []
    summary = run(*args)
    assert "Repaired: A" in summary.stdout
    assert "Engagement range: 18 of 30 models" in summary.stdout
