"""`chargeopt solve` and `check` under 40k-assault-4e: summary, JSON, SVG, bad input."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from chargeopt.solver.interface.cli import main

CHARGE = """format = 1
name = "Three marines charge two orks"
ruleset = "40k-assault-4e"

[board]
width = 30.0
height = 20.0

[[units]]
id = "A"
owner = "attacker"
keywords = ["INFANTRY"]
base = "32mm"
{assault}models = [
  {{ id = "A1", x = 10.0, y = 10.0 }},
  {{ id = "A2", x = 8.0, y = 10.0 }},
  {{ id = "A3", x = 6.0, y = 10.0 }},
]

[[units]]
id = "B"
owner = "defender"
keywords = ["INFANTRY"]
base = "32mm"
models = [
  {{ id = "B1", x = 14.0, y = 10.0 }},
  {{ id = "B2", x = 14.0, y = 12.0 }},
]

[action]
kind = "{kind}"
unit = "A"
{targets}"""


def write(tmp_path: Path, kind: str = "charge", assault: str = "") -> Path:
    """The three-on-two layout as a TOML file for move `kind`."""
    targets = 'targets = ["B"]\n' if kind == "charge" else ""
    path = tmp_path / f"{kind}.toml"
    path.write_text(CHARGE.format(kind=kind, assault=assault, targets=targets), encoding="utf-8")
    return path


def test_solve_prints_the_order_and_who_fights_and_check_agrees(tmp_path: Path) -> None:
    """Summary: the numbered moves and who fights; JSON: order and fighters; SVG: 3 numbers;
    `check` (no roll needed) passes the written answer."""
    scenario = write(tmp_path)
    out, svg = tmp_path / "r.json", tmp_path / "r.svg"
    run = CliRunner().invoke(main, ["solve", str(scenario), "-o", str(out), "--svg", str(svg)])
    assert run.exit_code == 0, run.output
    assert "Who fights: full attacks A1, A2; one attack A3" in run.output
    assert '  1. A1 moves 2.74" to (12.74, 10.00): base contact with B1 (not yet engaged)' in (
        run.output
    )
    data = json.loads(out.read_text("utf-8"))
    assert data["order"] == ["A1", "A2", "A3"]
    assert data["fighters"] == {"full": ["A1", "A2"], "one_attack": ["A3"]}
    assert svg.read_text("utf-8").count('class="step"') == 3
    check = CliRunner().invoke(main, ["check", str(scenario), str(out)])
    assert check.exit_code == 0 and check.output.startswith("OK"), check.output


def test_pile_in_and_consolidate_solve_and_check(tmp_path: Path) -> None:
    """Both moves answer from the command line and the checker passes what they wrote."""
    for kind in ("pile-in", "consolidate"):
        scenario = write(tmp_path, kind, 'locked_with = ["B"]\n' if kind == "pile-in" else "")
        out = tmp_path / f"{kind}.json"
        run = CliRunner().invoke(main, ["solve", str(scenario), "-o", str(out)])
        assert run.exit_code == 0, run.output
        check = CliRunner().invoke(main, ["check", str(scenario), str(out)])
        assert check.exit_code == 0, check.output


def test_bad_assault_range_is_one_message(tmp_path: Path) -> None:
    """An assault range of 7 names the key and the choices; exit 2, no traceback."""
    scenario = write(tmp_path, assault="assault_range_in = 7.0\n")
    run = CliRunner().invoke(main, ["solve", str(scenario)])
    assert run.exit_code == 2
    assert "units[0].assault_range_in" in run.output and "6, 9, 12" in run.output
    assert "Traceback" not in run.output
