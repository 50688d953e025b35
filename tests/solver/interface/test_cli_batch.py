"""`chargeopt solve` over several files and `--jsonl`: each scenario gets exactly the answer
and exit code of its own `chargeopt solve`, a bad one is reported and the others go on."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from repo_paths import LAYOUTS, REPO_ROOT

from chargeopt.solver.interface.cli import main

QUICK = LAYOUTS / "quick-v1"
ONE = str(QUICK / "q1-one-on-one.toml")
SCREENED = str(QUICK / "q3-screened.toml")
LINE = str(QUICK / "q4-five-in-line.toml")
ASSAULT = str(REPO_ROOT / "benchmarks/assault-4e-v1/a1-first-forced.toml")
FAST = ("--no-roll-table", "--time-limit", "20")


def run(*args: str, stdin: bytes | None = None) -> Result:
    """Invoke the CLI in-process, stdout and stderr kept apart."""
    return CliRunner().invoke(main, list(args), input=stdin)


def answer(document: dict[str, Any]) -> dict[str, Any]:
    """A result without its timings (`stats`), the one part that differs run to run."""
    return {key: value for key, value in document.items() if key != "stats"}


def alone(file: str) -> tuple[dict[str, Any], int]:
    """The answer and exit code of one `chargeopt solve FILE --json` of its own."""
    single = run("solve", file, "--json", *FAST)
    return answer(json.loads(single.stdout)), single.exit_code


def json_line(file: str) -> str:
    """A scenario file as one line of JSON, as a program sends it to `--jsonl`."""
    return json.dumps(tomllib.loads(Path(file).read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def singles() -> dict[str, tuple[dict[str, Any], int]]:
    """Each scenario solved by a command of its own."""
    return {file: alone(file) for file in (ONE, SCREENED, LINE, ASSAULT)}


def test_several_files_give_the_answers_of_separate_runs(singles: dict) -> None:
    """Three files in one command, --json: one line each, in order, each the document a
    separate `solve --json` prints (timings aside): q1 1 contact, q3 infeasible, 4e a1."""
    batch = run("solve", ONE, SCREENED, ASSAULT, "--json", *FAST)
    assert batch.exit_code == 0, batch.stderr
    lines = batch.stdout.splitlines()
    assert len(lines) == 3
    got = [answer(json.loads(line)) for line in lines]
    assert got == [singles[ONE][0], singles[SCREENED][0], singles[ASSAULT][0]]
    assert got[0]["objective"]["base_contact"] == 1
    assert got[1]["status"] == "infeasible"


def test_summaries_come_under_a_line_naming_each_file() -> None:
    """Without --json each summary follows `==> FILE <==`, a blank line between files."""
    batch = run("solve", ONE, LINE, *FAST)
    assert batch.exit_code == 0, batch.stderr
    blocks = batch.stdout.split("\n\n==> ")
    assert len(blocks) == 2
    assert blocks[0].startswith(f"==> {ONE} <==\nOPTIMAL: A charges B with a roll of 7")
    assert blocks[1].startswith(f"{LINE} <==\nOPTIMAL:")
    assert "Base contact: 5 of 5 models" in blocks[1]


def test_a_missing_file_is_refused_and_the_others_solved(singles: dict) -> None:
    """A file that does not exist gets its error (stderr, and its object under --json), the
    next file is still solved, and the exit code is 2, bad input."""
    batch = run("solve", "no-such.toml", ONE, "--json", *FAST)
    assert batch.exit_code == 2
    error, result = (json.loads(line) for line in batch.stdout.splitlines())
    assert error["file"] == "no-such.toml"
    assert error["problems"] == [
        {"key": None, "problem": "no such file", "fix": "check the name and the folder it is in"}
    ]
    assert answer(result) == singles[ONE][0]
    assert batch.stderr == (
        "error: no-such.toml: no such file; check the name and the folder it is in\n"
    )


def test_outputs_go_to_folders_as_a_separate_run_writes_them(tmp_path: Path) -> None:
    """-o and --svg name folders: NAME.result.json holds what `solve FILE -o` writes for it
    (timings aside), NAME.svg the picture."""
    batch = run("solve", ONE, SCREENED, "-o", str(tmp_path), "--svg", str(tmp_path), *FAST)
    assert batch.exit_code == 0, batch.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "q1-one-on-one.result.json",
        "q1-one-on-one.svg",
        "q3-screened.result.json",
        "q3-screened.svg",
    ]
    single = tmp_path / "single.json"
    assert run("solve", SCREENED, "-o", str(single), *FAST).exit_code == 0
    written = (tmp_path / "q3-screened.result.json").read_text(encoding="utf-8")
    assert written.startswith('{\n  "format": 1,') and written.endswith("}\n")
    assert answer(json.loads(written)) == answer(json.loads(single.read_text(encoding="utf-8")))
    assert (tmp_path / "q1-one-on-one.svg").read_text(encoding="utf-8").startswith("<svg")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("-o", "out.json"), "-o out.json: with several scenarios -o names a folder"),
        (("--svg", "{tmp}/x.svg"), "--svg {tmp}/x.svg: with several scenarios --svg names"),
    ],
)
def test_several_files_need_output_folders(args: tuple[str, ...], message: str, tmp_path) -> None:
    """With several files an output that is not a folder is refused before any solve."""
    filled = [a.replace("{tmp}", str(tmp_path)) for a in args]
    batch = run("solve", ONE, SCREENED, *filled)
    assert batch.exit_code == 2
    assert batch.stdout == ""
    assert batch.stderr.startswith("error: " + message.replace("{tmp}", str(tmp_path)))


def test_two_files_of_one_name_cannot_share_a_folder(tmp_path: Path) -> None:
    """Two scenarios named alike would write the same result file: refused, nothing solved."""
    other = tmp_path / "in" / "q1-one-on-one.toml"
    other.parent.mkdir()
    shutil.copy(ONE, other)
    batch = run("solve", ONE, str(other), "-o", str(tmp_path))
    assert batch.exit_code == 2
    target = tmp_path / "q1-one-on-one.result.json"
    assert batch.stderr == (
        f"error: -o: {ONE} and {other} would both write {target}; rename one or solve them "
        "in two commands\n"
    )
    assert not target.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "error: Missing argument 'SCENARIO'."),
        (("-", "-"), "error: - is given twice: standard input can be read once"),
        (
            ("--jsonl", ONE),
            f"error: --jsonl reads the scenarios from standard input; leave out {ONE}",
        ),
        (("--jsonl", "-o", "x"), "error: -o x: --jsonl writes each result as a line on standard"),
    ],
)
def test_refused_combinations(args: tuple[str, ...], message: str) -> None:
    """No file, standard input twice, --jsonl with a file or with -o: one clear message."""
    batch = run("solve", *args, stdin=b"")
    assert batch.exit_code == 2
    assert message.lower() in batch.stderr.lower()


def test_jsonl_answers_every_line_and_names_the_bad_one(singles: dict) -> None:
    """Lines 1 and 5 are solved as separate runs solve them; line 2 (x as text) gets one error
    object naming line 2 and its key path, line 3 (blank) no reply, line 4 (not JSON) its
    error; the exit code is 2."""
    bad = json.loads(json_line(ONE))
    bad["units"][0]["models"][0]["x"] = "ten"
    stdin = "\n".join([json_line(ONE), json.dumps(bad), "", "{not json", json_line(LINE)])
    batch = run("solve", "--jsonl", *FAST, stdin=stdin.encode() + b"\n")
    assert batch.exit_code == 2
    first, second, fourth, fifth = (json.loads(line) for line in batch.stdout.splitlines())
    assert answer(first) == singles[ONE][0]
    assert answer(fifth) == singles[LINE][0]
    assert second["line"] == 2
    assert second["file"] == "<stdin> line 2"
    assert second["key"] == "units[0].models[0].x"
    assert '"x": 12.0' in second["problems"][0]["fix"]
    assert fourth["line"] == 4
    assert (
        fourth["problems"][0]["problem"]
        == "not valid JSON (column 2: Expecting property name enclosed in double quotes)"
    )
    assert batch.stderr.splitlines()[0].startswith("error: <stdin> line 2: units[0].models[0].x:")


def test_jsonl_all_good_exits_0(singles: dict) -> None:
    """Every line solved: exit 0, one line each, the infeasible proof among them."""
    stdin = f"{json_line(SCREENED)}\n{json_line(ASSAULT)}\n".encode()
    batch = run("solve", "--jsonl", *FAST, stdin=stdin)
    assert batch.exit_code == 0, batch.stderr
    got = [answer(json.loads(line)) for line in batch.stdout.splitlines()]
    assert got == [singles[SCREENED][0], singles[ASSAULT][0]]


def test_the_installed_script_answers_a_line_before_the_next_is_sent() -> None:
    """An engine keeps one process: each reply comes as soon as its line is sent, before
    standard input ends, and the process ends 0 when it does."""
    script = shutil.which("chargeopt", path=str(Path(sys.executable).parent))
    assert script is not None
    with subprocess.Popen(
        [script, "solve", "--jsonl", *FAST],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as engine:
        assert engine.stdin is not None and engine.stdout is not None
        for file, status in ((ONE, "optimal"), (SCREENED, "infeasible")):
            engine.stdin.write(json_line(file) + "\n")
            engine.stdin.flush()
            assert json.loads(engine.stdout.readline())["status"] == status
        engine.stdin.close()
        assert engine.wait(timeout=60) == 0
