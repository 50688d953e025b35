"""`chargeopt solve` and `chargeopt check` on T9A rank-and-file tables: the ruling printed,
the result checked back, the picture drawn, and bad blocks refused with exit code 2, one
`error:` line per problem naming the file, the key and the fix, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from chargeopt.solver.interface.cli import main

HEAD_ON = """
name = "A charges B head on"
ruleset = "t9a-2022"
board = { width = 48.0, height = 48.0 }

[[terrain]]
id = "rock"
kind = "impassable"
path = [[30.0, 30.0], [34.0, 30.0], [34.0, 34.0], [30.0, 34.0]]

[[units]]
id = "A"
owner = "attacker"
files = 5
ranks = 4
base = "25x25mm"
x = 10.0
y = 30.0
facing = -90.0

[[units]]
id = "B"
owner = "defender"
files = 5
models = 13
base = "25x25mm"
x = 16.0
y = 20.0
facing = 90.0

[action]
kind = "charge"
unit = "A"
targets = ["B"]
roll = 10
"""


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def write(tmp_path: Path, text: str, name: str = "t9a.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_solve_prints_a_ruling_and_check_accepts_it(tmp_path: Path) -> None:
    scenario = write(tmp_path, HEAD_ON)
    out = tmp_path / "result.json"
    svg = tmp_path / "ruling.svg"
    solved = run("solve", scenario, "-o", str(out), "--svg", str(svg))
    assert solved.exit_code == 0, solved.output
    assert "OPTIMAL: A charges B with a Charge Range of 10" in solved.output
    assert "A is in B's front arc by" in solved.output
    assert "5 of B's models and 5 of A's in contact (most possible: 5 and 5)" in solved.output
    checked = run("check", scenario, str(out))
    assert checked.exit_code == 0 and checked.output.startswith("OK"), checked.output
    picture = svg.read_text()
    assert picture.count('class="arc"') == 4 + 1 and "A-r1f1" in picture  # and the legend's
    assert picture.count('class="arc-name"') == 4
    assert '<path class="move"' in picture and 'class="point"' in picture
    document = json.loads(out.read_text())
    assert document["blocks"][0]["target_facing"] == "front"
    assert len(document["placements"]) == 20


def test_check_refuses_a_block_pushed_into_the_target(tmp_path: Path) -> None:
    scenario = write(tmp_path, HEAD_ON)
    out = tmp_path / "result.json"
    assert run("solve", scenario, "-o", str(out)).exit_code == 0
    document = json.loads(out.read_text())
    document["blocks"][0]["y"] -= 0.5
    bad = write(tmp_path, json.dumps(document), "bad.json")
    checked = run("check", scenario, bad)
    assert checked.exit_code == 1
    assert "overlaps" in checked.output or "passes the line" in checked.output


@pytest.mark.parametrize(
    ("change", "key", "words"),
    [
        (("files = 5", "files = 0", 1), "units[0].files", "from 1 to 100"),
        (("ranks = 4", "ranks = -2", 1), "units[0].ranks", "from 1 to 100"),
        (('base = "25x25mm"', 'base = "32mm"', 1), "units[0].base", "not a rectangular base"),
        (
            ("ranks = 4", "ranks = 4\nprofile = { charge_sped = 1 }", 1),
            "units[0].profile.charge_sped",
            "did you mean 'charge_speed'",
        ),
        (("y = 30.0", "y = 19.0", 1), "units[1]", "overlaps block"),
        (("x = 10.0", "x = 28.0", 1), "units[0]", "impassable terrain 'rock'"),
        (('kind = "impassable"', 'kind = "difficult"', 1), "terrain[0].kind", "impassable"),
    ],
)
def test_bad_blocks_are_refused_in_one_line(
    tmp_path: Path, change: tuple[str, str, int], key: str, words: str
) -> None:
    scenario = write(tmp_path, HEAD_ON.replace(*change))
    done = CliRunner().invoke(main, ["solve", scenario])
    assert done.exit_code == 2, done.output
    lines = done.stderr.splitlines() if hasattr(done, "stderr") else done.output.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"error: {scenario}: {key}") and words in lines[0]
    assert "Traceback" not in done.output
