"""`chargeopt solve` and `check` on a 40k-assault-4e fall back: the Trapped! verdict, a legal
fall back checked from its JSON, the chance over the dice, and the picture."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result
from fall_back_builders import against_wall

from chargeopt.models import Scenario
from chargeopt.solver.interface.cli import main


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def written(scenario: Scenario, folder: Path, name: str) -> str:
    path = folder / name
    path.write_text(scenario.model_dump_json(exclude_none=True), encoding="utf-8")
    return str(path)


def test_solve_says_trapped(tmp_path: Path) -> None:
    """The headline names the verdict; each range of headings names what blocks it."""
    out = run("solve", written(against_wall(), tmp_path, "wall.json"))
    assert out.exit_code == 0, out.output
    assert out.stdout.splitlines() == [
        'INFEASIBLE: Trapped! A cannot fall back 7" and is destroyed',
        'No full fall back of 7" in any heading within 90 degrees of straight toward the '
        "bottom edge:",
        '  headings 0.0-9.0 deg: A3 runs into 1" of enemy D1',
        "  headings 9.0-171.0 deg: A1 runs into impassable 'wall'",
        '  headings 171.0-180.0 deg: A1 runs into 1" of enemy C1',
        "Proven for every straight move of the whole unit (181 sectors of headings)",
    ]


def test_solve_then_check_a_fall_back(tmp_path: Path) -> None:
    """The JSON answer passes `chargeopt check`; its paths run from start to end."""
    scenario = written(against_wall(fought_by=("B", "C")), tmp_path, "escape.json")
    answer = tmp_path / "answer.json"
    assert run("solve", scenario, "-o", str(answer)).exit_code == 0
    doc = json.loads(answer.read_text(encoding="utf-8"))
    assert doc["status"] == "optimal"
    assert [p["path"][0] for p in doc["placements"]] == [[13.0, 10.0], [15.0, 10.0], [17.0, 10.0]]
    checked = run("check", scenario, str(answer))
    assert checked.exit_code == 0, checked.output
    assert checked.stdout.strip() == "OK: no violations (3 models checked)"


def test_solve_without_a_roll_gives_the_chance(tmp_path: Path) -> None:
    out = run("solve", written(against_wall(roll=None), tmp_path, "dice.json"))
    assert out.exit_code == 0, out.output
    assert "Trapped! chance: 35/36 (97.2%)" in out.stdout


def test_svg_rings_what_blocks(tmp_path: Path) -> None:
    """The picture rings the wall and the two enemies and draws their 1"."""
    picture = tmp_path / "wall.svg"
    out = run("solve", written(against_wall(), tmp_path, "wall.json"), "--svg", str(picture))
    assert out.exit_code == 0, out.output
    svg = picture.read_text(encoding="utf-8")
    assert svg.count('<path class="blocking"') == 3
    assert svg.count('<path class="zone"') == 2
    assert 'class="own-edge"' in svg
