"""The `chargeopt` command line: schema, check, and one exact message per malformed input.

Each malformed input is a file in tests/data/malformed/ with its expected stderr beside it in
`<file>.expected`. A scenario case is checked against ok.result.json; a `*.result.json` case is
checked as the placement for ok.toml (a legal base case).
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from repo_paths import REPO_ROOT

from chargeopt.solver.interface.cli import main

MALFORMED = REPO_ROOT / "tests" / "data" / "malformed"
CASES = sorted(p.name.removesuffix(".expected") for p in MALFORMED.glob("*.expected"))
SUBPROCESS_CASES = [
    "unknown-key-model.toml",
    "start-overlap.toml",
    "broken-syntax.json",
    "nested-too-deep.json",
    "floor-crosses-itself.toml",
    "coordinate-absurd.toml",
]


def run(*args: str) -> Result:
    """Invoke the CLI in-process, stdout and stderr kept apart."""
    return CliRunner().invoke(main, list(args))


def check_args(case: str) -> list[str]:
    """The `check` arguments that put a malformed file in the slot it belongs to."""
    if case.endswith(".result.json"):
        return ["check", "ok.toml", case]
    return ["check", case, "ok.result.json"]


@pytest.fixture
def in_malformed(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run from tests/data/malformed so messages name files by their short names."""
    monkeypatch.chdir(MALFORMED)
    return MALFORMED


def test_every_malformed_file_has_an_expected_message() -> None:
    """No malformed input sits in the folder untested."""
    inputs = {p.name for p in MALFORMED.iterdir() if p.suffix != ".expected"}
    assert inputs - set(CASES) == {"ok.toml", "ok.result.json"}
    assert len(CASES) >= 52


@pytest.mark.parametrize("case", CASES)
def test_malformed_input_gives_its_exact_message(case: str, in_malformed: Path) -> None:
    """Each malformed file is refused with exit code 2 and exactly the expected stderr."""
    result = run(*check_args(case))
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr == (in_malformed / f"{case}.expected").read_text(encoding="utf-8")


@pytest.mark.parametrize("case", SUBPROCESS_CASES)
def test_installed_script_exits_2_without_traceback(case: str, in_malformed: Path) -> None:
    """The installed `chargeopt` script prints only the message and exits 2."""
    script = shutil.which("chargeopt", path=str(Path(sys.executable).parent))
    assert script is not None
    done = subprocess.run(
        [script, *check_args(case)], capture_output=True, text=True, cwd=in_malformed, check=False
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr == (in_malformed / f"{case}.expected").read_text(encoding="utf-8")


def test_missing_file_is_one_line_naming_it(in_malformed: Path) -> None:
    """A scenario that does not exist is one `error:` line with its name and the fix, exit 2."""
    result = run("check", "no-such-scenario.toml", "ok.result.json")
    assert result.exit_code == 2
    assert result.stderr == (
        "error: no-such-scenario.toml: no such file; check the name and the folder it is in\n"
    )


def test_legal_placement_passes(in_malformed: Path) -> None:
    """The base case's hand-written placement (both marines in base contact) is legal."""
    result = run("check", "ok.toml", "ok.result.json")
    assert result.exit_code == 0, result.output
    assert result.stdout == "OK: no violations (2 models checked)\n"
    assert result.stderr == ""


def test_legal_placement_as_json(in_malformed: Path) -> None:
    """--json prints an empty violation list and ok = true."""
    result = run("check", "ok.toml", "ok.result.json", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"violations": [], "ok": True, "unmoved": []}


def test_roll_option_overrides_the_scenario(in_malformed: Path) -> None:
    """With --roll 3 both moves are too long: A1 (5,5)->(8.8779,5) is 3.878", A2 is 4.728"."""
    result = run("check", "ok.toml", "ok.result.json", "--roll", "3", "--json")
    assert result.exit_code == 1, result.output
    payload = json.loads(result.stdout)
    assert payload["ok"] is False
    found = [(v["kind"], v["models"], v["limit_in"]) for v in payload["violations"]]
    assert found == [("moved_too_far", ["A1"], 3.0), ("moved_too_far", ["A2"], 3.0)]
    moved = [v["distance_in"] for v in payload["violations"]]
    assert moved == pytest.approx([3.8779, math.hypot(4.7095, 0.4161)], abs=1e-3)


def test_violations_are_summarised_for_people(in_malformed: Path) -> None:
    """Without --json the violations are listed one per line with their kind."""
    result = run("check", "ok.toml", "ok.result.json", "--roll", "3")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "2 violations:",
        "  - [moved_too_far] model 'A1' moves 3.88\" along its shortest legal path, "
        'more than the roll of 3"',
        "  - [moved_too_far] model 'A2' moves 4.73\" along its shortest legal path, "
        'more than the roll of 3"',
    ]


def test_roll_option_supplies_a_missing_roll(in_malformed: Path) -> None:
    """A charge with no roll in either file is checkable once --roll gives one."""
    result = run("check", "roll-missing.toml", "ok.result.json", "--roll", "7")
    assert result.exit_code == 0, result.output
    assert result.stdout == "OK: no violations (2 models checked)\n"


def test_result_roll_is_used_before_the_scenario_roll(tmp_path: Path) -> None:
    """A result whose action says roll = 3 is checked with 3, not the scenario's 7."""
    placements = json.loads((MALFORMED / "ok.result.json").read_text())["placements"]
    result_file = tmp_path / "short.result.json"
    result_file.write_text(
        json.dumps(
            {
                "action": {"kind": "charge", "unit": "A", "targets": ["B"], "roll": 3},
                "placements": placements,
            }
        )
    )
    result = run("check", str(MALFORMED / "ok.toml"), str(result_file), "--json")
    assert result.exit_code == 1, result.output
    limits = {v["limit_in"] for v in json.loads(result.stdout)["violations"]}
    assert limits == {3.0}


def test_negative_roll_option_is_a_usage_error(in_malformed: Path) -> None:
    """--roll -1 is refused by click's range check with exit code 2."""
    result = run("check", "ok.toml", "ok.result.json", "--roll", "-1")
    assert result.exit_code == 2
    assert "-1 is not in the range 0<=x<=36" in result.stderr


@pytest.mark.parametrize(
    ("document", "title"), [("scenario", "chargeopt scenario"), ("result", "chargeopt result")]
)
def test_schema_prints_indented_json(document: str, title: str) -> None:
    """`chargeopt schema` prints a 2020-12 JSON Schema, indented, with the document's title."""
    result = run("schema", document)
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema["title"] == title
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert result.stdout.startswith('{\n  "$schema"')


def test_schema_of_an_unknown_document_lists_the_choices() -> None:
    """An unknown schema name is a usage error that names both choices."""
    result = run("schema", "placement")
    assert result.exit_code == 2
    assert "'placement' is not one of 'scenario', 'result'" in result.stderr
