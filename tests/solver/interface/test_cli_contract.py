"""The command line's contract: one meaning per exit code, outputs checked before any work,
errors as JSON under --json, no traceback even for a bug, models left out of a result judged
where they started, and a start that loads no solver for --help, schema and check."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from repo_paths import REPO_ROOT

from chargeopt.models import Status
from chargeopt.solver.core.clock import WALL_SAFETY
from chargeopt.solver.interface import cli
from chargeopt.solver.interface.bounded import GRACE_S
from chargeopt.solver.interface.cli import main

EXAMPLE = REPO_ROOT / "benchmarks/layouts/examples/marines-charge-open.toml"
MALFORMED = REPO_ROOT / "tests" / "data" / "malformed"


def run(*args: str) -> Result:
    """Invoke the CLI in-process, stdout and stderr kept apart."""
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def no_solving(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any call of the solver fails the test: the command must stop before it."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the solver ran")

    monkeypatch.setattr("chargeopt.solver.api.solve", refuse)


def test_roll_zero_is_an_impossible_charge_not_a_crash() -> None:
    """`--roll 0 --no-roll-table` on the example: 5.90" to cover with 0", proven impossible
    (it used to raise a TypeError on an empty candidate set)."""
    result = run("solve", str(EXAMPLE), "--roll", "0", "--no-roll-table")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("INFEASIBLE: A cannot charge B with a roll of 0\n")
    assert 'B is 5.90" away edge to edge' in result.stdout


def test_output_onto_the_scenario_is_refused_before_solving(
    tmp_path: Path, no_solving: None
) -> None:
    """-o naming the scenario file is refused with exit 2, and the scenario is unchanged."""
    scenario = tmp_path / "charge.toml"
    shutil.copy(EXAMPLE, scenario)
    before = scenario.read_bytes()
    result = run("solve", str(scenario), "-o", str(scenario))
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"error: -o {scenario}: is the scenario file itself; writing there would overwrite "
        "the scenario\n"
    )
    assert scenario.read_bytes() == before


@pytest.mark.parametrize("option", ["-o", "--svg"])
def test_output_into_a_missing_folder_is_refused_before_solving(
    tmp_path: Path, no_solving: None, option: str
) -> None:
    """A path whose folder does not exist fails at once, not after the solve."""
    target = tmp_path / "nowhere" / "out.file"
    result = run("solve", str(EXAMPLE), option, str(target))
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"error: {option} {target}: cannot be written: the folder {target.parent} does not exist\n"
    )


def test_two_outputs_on_one_file_are_refused(tmp_path: Path, no_solving: None) -> None:
    """-o and --svg naming the same file would leave only the picture."""
    target = str(tmp_path / "out.json")
    result = run("solve", str(EXAMPLE), "-o", target, "--svg", target)
    assert result.exit_code == 2
    assert result.stderr == "error: -o and --svg name the same file; give two names\n"


def test_json_errors_are_a_json_object_on_stdout() -> None:
    """With --json a refused scenario prints the stderr line and one JSON object naming the
    file and the key."""
    case = MALFORMED / "action-unit-missing.toml"
    result = run("solve", str(case), "--json")
    assert result.exit_code == 2
    payload = json.loads(result.stdout)
    assert payload["file"] == str(case)
    assert payload["key"] == "action.unit"
    assert payload["error"] == result.stderr.removeprefix("error: ").rstrip("\n")
    assert [p["key"] for p in payload["problems"]] == ["action.unit"]


def test_without_json_an_error_prints_nothing_on_stdout() -> None:
    """The JSON object is only for --json; a person sees the stderr line alone."""
    result = run("solve", str(MALFORMED / "action-unit-missing.toml"))
    assert result.exit_code == 2
    assert result.stdout == ""


def test_a_bug_is_one_line_and_exit_4(monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception that is not a refused input becomes one line asking for a report."""

    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr("chargeopt.solver.api.solve", broken)
    monkeypatch.delenv("CHARGEOPT_TRACEBACK", raising=False)
    result = run("solve", str(EXAMPLE))
    assert result.exit_code == cli.EXIT_INTERNAL == 4
    assert result.stderr == (
        "error: internal error (ZeroDivisionError: division by zero); this is a bug in "
        "chargeopt: please report it with the files you gave (CHARGEOPT_TRACEBACK=1 shows "
        "where it happened)\n"
    )


def test_no_answer_within_the_limit_is_exit_3(monkeypatch: pytest.MonkeyPatch) -> None:
    """Status `unknown` (no answer, no proof) has its own exit code, apart from a broken rule."""
    from chargeopt.solver import load_scenario, solve

    real = solve(load_scenario(EXAMPLE), roll=8, options=None)
    unknown = real.model_copy(update={"status": Status.UNKNOWN, "placements": ()})
    monkeypatch.setattr("chargeopt.solver.api.solve", lambda *a, **k: unknown)
    result = run("solve", str(EXAMPLE))
    assert result.exit_code == cli.EXIT_NO_ANSWER == 3


def test_help_lists_the_exit_codes() -> None:
    """The codes are documented where a script writer looks first."""
    result = run("--help")
    assert result.exit_code == 0
    assert " ".join(result.stdout.split()).endswith(" ".join(cli.EXIT_CODES.split()))


def test_models_left_out_of_a_result_are_judged_where_they_started(tmp_path: Path) -> None:
    """ok.result.json without A2 is checked with A2 where it started, (5, 6.5): the output
    names A2 as unmoved; A1 at (8.88, 5) leaves it 3.88" apart, out of coherency, and A2 does
    not end closer, so the placement breaks those rules (exit 1). Being left out is not
    itself a violation (it used to be `missing_model`)."""
    full = json.loads((MALFORMED / "ok.result.json").read_text())
    full["placements"] = [p for p in full["placements"] if p["model"] == "A1"]
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps(full))
    result = run("check", str(MALFORMED / "ok.toml"), str(partial))
    assert result.exit_code == 1, result.output
    assert result.stdout.splitlines()[0] == "Taken as unmoved (no placement given): A2"
    kinds = [line.split("]")[0].strip(" -[") for line in result.stdout.splitlines()[2:]]
    assert kinds == ["not_closer", "coherency", "coherency", "coherency_split"]
    as_json = json.loads(run("check", str(MALFORMED / "ok.toml"), str(partial), "--json").stdout)
    assert as_json["unmoved"] == ["A2"]
    assert "missing_model" not in {v["kind"] for v in as_json["violations"]}


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["schema", "scenario"],
        ["check", str(MALFORMED / "ok.toml"), str(MALFORMED / "ok.result.json")],
    ],
)
def test_light_commands_load_no_solver(args: list[str]) -> None:
    """--help, schema and check start without OR-Tools, scipy or pandas (start-up time is
    part of what a user waits for; the figure is in the README's development section)."""
    code = (
        "import sys\n"
        "from chargeopt.solver.interface.cli import main\n"
        "try:\n"
        f"    main({args!r})\n"
        "except SystemExit as exit:\n"
        "    assert not exit.code, exit.code\n"
        "heavy = [m for m in ('ortools', 'scipy', 'pandas') if m in sys.modules]\n"
        "print(heavy, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stderr.strip().splitlines()[-1] == "[]"


def _slow_solver(answer_first: bool):
    """A solver that reports a stage, maybe offers the example's real answer, then hangs: what
    a horde's slow stage looks like to the command."""
    from chargeopt.solver import load_scenario, solve
    from chargeopt.solver.core import progress

    real = solve(load_scenario(EXAMPLE))

    def hang(*args: object, **kwargs: object) -> None:
        progress.stage("certificate")
        if answer_first:
            progress.answer(real)
        time.sleep(60)

    return hang, real


def test_the_safety_net_bounds_the_whole_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """A solve that would hang is stopped at the wall-clock safety net (20 times the limit)
    plus the grace second; the answer it offered is printed, checked, as `feasible` (not
    `optimal`: its proof never finished), and the output says where the net cut it."""
    hang, real = _slow_solver(answer_first=True)
    assert real.status == Status.OPTIMAL
    monkeypatch.setattr("chargeopt.solver.api.solve", hang)
    started = time.monotonic()
    result = run("solve", str(EXAMPLE), "--time-limit", "0.5", "--json")
    elapsed = time.monotonic() - started
    assert result.exit_code == 0, result.output
    assert 0.5 * WALL_SAFETY + GRACE_S <= elapsed < 0.5 * WALL_SAFETY + GRACE_S + 3.0
    payload = json.loads(result.stdout)
    assert payload["status"] == "feasible"
    assert payload["violations"] == []
    assert payload["objective"] == real.objective
    assert payload["stats"]["cut_short"]["by"] == "time limit"
    assert payload["stats"]["cut_short"]["stage"] == "certificate"
    assert payload["stats"]["wall_clock_safety"] == "certificate"


def test_no_answer_by_the_time_limit_is_exit_3(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing offered before the limit: `unknown`, exit 3, and the stage it was in."""
    hang, _ = _slow_solver(answer_first=False)
    monkeypatch.setattr("chargeopt.solver.api.solve", hang)
    result = run("solve", str(EXAMPLE), "--time-limit", "0.5")
    assert result.exit_code == 3
    net = "Time limit of 0.5 s overrun on the wall clock: stopped by its safety net after "
    assert result.stdout.startswith(net) and result.stdout.endswith(" s during certificate\n")


def test_progress_lines_name_each_stage_on_stderr_only() -> None:
    """--progress prints the charge's stages on stderr; stdout is the summary alone."""
    plain = run("solve", str(EXAMPLE), "--no-roll-table")
    shown = run("solve", str(EXAMPLE), "--no-roll-table", "--progress")
    stages = [line.split("] ", 1)[1] for line in shown.stderr.splitlines()]
    assert stages == ["candidates", "placing at roll 7", "minimum roll", "certificate"]
    assert shown.stdout.splitlines()[:-1] == plain.stdout.splitlines()[:-1]


def test_ctrl_c_prints_the_best_answer_so_far_and_exits_130() -> None:
    """SIGINT during a horde's roll table (after the answer at the roll is found): the answer
    is printed, checked, marked as interrupted, and the exit code is 130."""
    layout = REPO_ROOT / "benchmarks/layouts/scaling-v1/c40-walls-s1.toml"
    command = [sys.executable, "-m", "chargeopt.solver.interface.cli", "solve", str(layout)]
    with subprocess.Popen(
        [*command, "--progress", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        assert proc.stderr is not None
        for line in proc.stderr:
            if line.rstrip().endswith("roll table"):
                proc.send_signal(signal.SIGINT)
                break
        out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 130
    payload = json.loads(out)
    assert payload["status"] == "feasible"
    assert payload["violations"] == []
    assert payload["stats"]["cut_short"]["by"] == "interrupted"
    assert payload["stats"]["cut_short"]["stage"] == "roll table"
    assert payload["objective"]["base_contact"] >= 1


def test_a_byte_order_mark_is_read_as_utf8(tmp_path: Path) -> None:
    """A scenario saved with a UTF-8 byte-order mark (as some editors do) is read as is (it
    was refused as "Invalid statement (line 1, col 1)")."""
    scenario = tmp_path / "bom.toml"
    scenario.write_bytes(b"\xef\xbb\xbf" + (MALFORMED / "ok.toml").read_bytes())
    result = run("check", str(scenario), str(MALFORMED / "ok.result.json"))
    assert result.exit_code == 0, result.output
    assert result.stdout == "OK: no violations (2 models checked)\n"


def test_a_folder_is_refused_with_its_own_message(tmp_path: Path) -> None:
    """A folder given as the scenario, with or without a .toml name."""
    for folder in (tmp_path / "layouts", tmp_path / "charge.toml"):
        folder.mkdir()
        result = run("check", str(folder), str(MALFORMED / "ok.result.json"))
        assert result.exit_code == 2
        assert result.stderr == f"error: {folder}: is a folder; give a .toml or .json file\n"


@pytest.mark.parametrize("as_json", [False, True])
def test_the_scenario_can_come_from_standard_input(as_json: bool) -> None:
    """`-` reads the scenario from stdin, TOML or JSON (told apart by a leading brace)."""
    text = (MALFORMED / "ok.toml").read_text()
    if as_json:
        text = json.dumps(tomllib.loads(text))
    result = CliRunner().invoke(main, ["check", "-", str(MALFORMED / "ok.result.json")], input=text)
    assert result.exit_code == 0, result.output
    assert result.stdout == "OK: no violations (2 models checked)\n"


def test_errors_in_standard_input_name_it() -> None:
    """A refused scenario from stdin is named `<stdin>` in the message."""
    text = (MALFORMED / "start-overlap.toml").read_text()
    result = CliRunner().invoke(main, ["solve", "-"], input=text)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: <stdin>: units[0].models[1]: model 'A2' overlaps")
