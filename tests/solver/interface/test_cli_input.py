"""What the command line reads: `-` for standard input, a byte-order mark, and inputs that
crashed it before (an outline crossing itself, brackets nested 100,000 deep): each gets the same
one-line message from `solve` and `check`, exit code 2 and no traceback."""

from __future__ import annotations

import codecs
import io
import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from repo_paths import MALFORMED

from chargeopt.models import ScenarioError, read_document
from chargeopt.solver.interface.cli import main

OK_TOML = (MALFORMED / "ok.toml").read_text(encoding="utf-8")
OK_RESULT = str(MALFORMED / "ok.result.json")


def run(*args: str, stdin: str | bytes | None = None) -> Result:
    """Invoke the CLI in-process with `stdin` as standard input, stdout and stderr kept apart."""
    return CliRunner().invoke(main, list(args), input=stdin)


def script() -> str:
    """The installed `chargeopt` script beside this interpreter."""
    found = shutil.which("chargeopt", path=str(Path(sys.executable).parent))
    assert found is not None
    return found


def test_check_reads_a_toml_scenario_from_stdin() -> None:
    """`chargeopt check - RESULT` reads the scenario from standard input (TOML: no `{`)."""
    result = run("check", "-", OK_RESULT, stdin=OK_TOML)
    assert result.exit_code == 0, result.output
    assert result.stdout == "OK: no violations (2 models checked)\n"


def test_check_reads_a_json_scenario_from_stdin() -> None:
    """Text starting with `{` (after blank space) is read as JSON."""
    as_json = "\n  " + json.dumps(tomllib.loads(OK_TOML))
    result = run("check", "-", OK_RESULT, stdin=as_json)
    assert result.exit_code == 0, result.output
    assert result.stdout == "OK: no violations (2 models checked)\n"


def test_check_reads_the_result_from_stdin() -> None:
    """The result file may be the one on standard input instead."""
    result = run("check", str(MALFORMED / "ok.toml"), "-", stdin=Path(OK_RESULT).read_text("utf-8"))
    assert result.exit_code == 0, result.output


def test_errors_on_stdin_name_it_and_use_its_syntax() -> None:
    """A refused scenario from standard input is named `<stdin>`; JSON text gets JSON examples."""
    document = tomllib.loads(OK_TOML)
    document["units"][0]["models"][1]["x"] = "five"
    result = run("check", "-", OK_RESULT, stdin=json.dumps(document))
    assert result.exit_code == 2
    assert result.stderr == (
        "error: <stdin>: units[0].models[1].x: expected a number of inches (the distance of "
        "the model's centre from the board's left edge), got the text \"five\"; "
        'write e.g. "x": 12.0\n'
    )


def test_start_layout_errors_on_stdin_name_it() -> None:
    """The start-layout check (geometry) names `<stdin>` too, not `-`."""
    overlap = (MALFORMED / "start-overlap.toml").read_text(encoding="utf-8")
    result = run("check", "-", OK_RESULT, stdin=overlap)
    assert result.exit_code == 2
    assert result.stderr == (
        "error: <stdin>: units[0].models[1]: model 'A2' overlaps 'A1' by 0.76\"; move it apart\n"
    )


def test_empty_stdin_is_refused() -> None:
    """Nothing piped in reads as an empty file."""
    result = run("check", "-", OK_RESULT, stdin="")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: <stdin>: the file is empty; ")


def test_both_files_from_stdin_is_refused() -> None:
    """Standard input holds one document: `check - -` is refused before reading it."""
    result = run("check", "-", "-", stdin=OK_TOML)
    assert result.exit_code == 2
    assert result.stderr == (
        "error: <stdin>: only one of the two files can come from standard input; name the other\n"
    )


def test_solve_reads_stdin_with_the_installed_script() -> None:
    """`chargeopt solve - --json < ok.toml` solves the base case: both marines reach B1."""
    done = subprocess.run(
        [script(), "solve", "-", "--json", "--no-roll-table", "--time-limit", "5"],
        input=OK_TOML,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["scenario"] == "Base case that the malformed files each break once"
    assert result["status"] == "optimal"
    assert result["objective"]["base_contact"] == 2


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_a_utf8_byte_order_mark_is_accepted(suffix: str, tmp_path: Path) -> None:
    """A file saved "UTF-8 with BOM" (Windows editors) reads like one without."""
    text = OK_TOML if suffix == ".toml" else json.dumps(tomllib.loads(OK_TOML))
    scenario = tmp_path / f"bom{suffix}"
    scenario.write_bytes(codecs.BOM_UTF8 + text.encode("utf-8"))
    result = run("check", str(scenario), OK_RESULT)
    assert result.exit_code == 0, result.output
    assert result.stdout == "OK: no violations (2 models checked)\n"


def test_a_byte_order_mark_on_stdin_is_accepted() -> None:
    """Piped text with a byte-order mark reads too (and `{` after it still means JSON)."""
    as_json = json.dumps(tomllib.loads(OK_TOML))
    result = run("check", "-", OK_RESULT, stdin=codecs.BOM_UTF8 + as_json.encode("utf-8"))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    "case", ["floor-crosses-itself.toml", "coordinate-absurd.toml", "nested-too-deep.json"]
)
def test_solve_refuses_what_check_refuses(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`solve` refuses these inputs at load time with exactly the message `check` gives."""
    monkeypatch.chdir(MALFORMED)
    result = run("solve", case)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (MALFORMED / f"{case}.expected").read_text(encoding="utf-8")


@pytest.mark.parametrize("suffix", [".json", ".toml"])
def test_100000_levels_deep_is_one_line(suffix: str, tmp_path: Path) -> None:
    """The issue's file, nested 100,000 levels deep, is refused in one line by the installed
    script: exit 2, no RecursionError, the key path where it goes too deep."""
    deep = "[" * 100_000 + "]" * 100_000
    text = f'{{"units": {deep}}}' if suffix == ".json" else f"units = {deep}\n"
    lists = 19 if suffix == ".json" else 20  # JSON's outer braces are the twentieth bracket
    scenario = tmp_path / f"deep{suffix}"
    scenario.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [script(), "solve", str(scenario)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        f"error: {scenario}: units{'[0]' * lists}: nested more than 20 brackets deep (line 1); "
        "a scenario nests a few levels at most: check the brackets there\n"
    )


class _Terminal(io.TextIOWrapper):
    """Standard input that is a terminal (where `-` would wait for typing)."""

    def isatty(self) -> bool:
        return True


def test_a_terminal_on_stdin_is_refused_with_how_to_pipe(monkeypatch: pytest.MonkeyPatch) -> None:
    """`chargeopt solve -` typed at a prompt does not hang: it says to pipe a file in."""
    monkeypatch.setattr(sys, "stdin", _Terminal(io.BytesIO(b"")))
    with pytest.raises(ScenarioError) as caught:
        read_document("-")
    assert caught.value.lines() == [
        "<stdin>: nothing is piped in (`-` reads the document from standard input); "
        "pipe a file in, e.g. chargeopt solve - < scenario.toml"
    ]


FALL_BACK_10E = """ruleset = "40k-10e"
board = { width = 30.0, height = 30.0 }
[[units]]
id = "A"
owner = "attacker"
base = "32mm"
models = [{ id = "A1", x = 10.0, y = 10.0 }]
[[units]]
id = "B"
owner = "defender"
base = "32mm"
models = [{ id = "B1", x = 11.5, y = 10.0 }]
[action]
kind = "fall-back"
unit = "A"
table_edge = "bottom"
"""


def test_a_move_not_solved_under_the_edition_names_file_key_and_fix(tmp_path: Path) -> None:
    """A fall back under 40k-10e: the file, action.kind and the kinds 10th edition solves."""
    path = tmp_path / "fb.toml"
    path.write_text(FALL_BACK_10E, encoding="utf-8")
    result = run("solve", str(path))
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: {path}: action.kind: chargeopt does not solve a fall-back under 40k-10e; "
        'choose kind = "charge", "pile-in" or "consolidate"\n'
    )


def test_a_4e_reinforcement_locked_in_no_combat_is_refused_like_a_10e_pile_in(
    tmp_path: Path,
) -> None:
    """No model in base contact and no locked_with: refused (exit 2), never `optimal`."""
    text = FALL_BACK_10E.replace("40k-10e", "40k-assault-4e").replace("11.5", "20.0")
    path = tmp_path / "r.toml"
    text = text.replace('kind = "fall-back"', 'kind = "pile-in"').replace(
        'table_edge = "bottom"\n', ""
    )
    path.write_text(text, encoding="utf-8")
    result = run("solve", "--time-limit", "5", str(path))
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"error: {path}: action: unit 'A' cannot make a reinforcement (pile-in) move: it is "
        "locked in no combat (none of its models is in base contact with an enemy model and "
        "its locked_with is empty); if it is locked, name the enemy units in its locked_with, "
        'e.g. locked_with = ["B"]\n'
    )


@pytest.mark.parametrize(
    ("benchmark", "why"),
    [
        (
            "assault-4e-v1/a1-first-forced.toml",
            "a 40k-assault-4e charge rolls no dice: each model moves its unit's assault range",
        ),
        (
            "rank-and-file-wheel-v1/w1-6e-head-on.toml",
            "a whfb-6e charge rolls no dice: the charge move is twice the Move",
        ),
    ],
)
def test_roll_is_refused_where_the_charge_rolls_no_dice(benchmark: str, why: str) -> None:
    """`--roll` is refused where the scenario's own `roll` would be, never ignored."""
    path = Path(__file__).resolve().parents[3] / "benchmarks" / benchmark
    result = run("solve", "--roll", "7", str(path))
    assert result.exit_code == 2
    assert result.stderr == f"error: --roll 7: {why}; leave --roll out\n"


def test_check_names_the_file_and_key_of_a_move_the_edition_lacks(tmp_path: Path) -> None:
    """`check` of a 10e heroic intervention (a stratagem there): the file and action.kind."""
    text = OK_TOML.replace('kind = "charge"', 'kind = "heroic-intervention"')
    path = tmp_path / "hi.toml"
    path.write_text(text.replace('targets = ["B"]\n', "").replace("roll = 7\n", ""), "utf-8")
    result = run("check", str(path), OK_RESULT)
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: {path}: action.kind: a heroic intervention under 40k-10e is a stratagem that "
        'makes a charge move: write it as kind = "charge"\n'
    )
