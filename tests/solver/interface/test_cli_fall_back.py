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
    """The headline names the verdict; each range of directions names the model that has no
    route long enough (A2: 4.73" sideways to either 1" plus the 0.37" drop, 5.1", bounded
    from above) and what stops it."""
    out = run("solve", written(against_wall(), tmp_path, "wall.json"))
    assert out.exit_code == 0, out.output
    assert out.stdout.splitlines() == [
        'INFEASIBLE: Trapped! A cannot fall back 7" and is destroyed',
        'No full fall back of 7" for any direction within 90 degrees of straight toward the '
        "bottom edge:",
        '  directions 0.0-67.5 deg: A2 has no route longer than 5.45", stopped by 1" of enemy '
        "D1 and impassable 'wall'",
        '  directions 67.5-112.5 deg: A2 has no route longer than 5.45", stopped by 1" of '
        "enemy C1 and 1\" of enemy D1 and impassable 'wall'",
        '  directions 112.5-180.0 deg: A2 has no route longer than 5.45", stopped by 1" of '
        "enemy C1 and impassable 'wall'",
        "Proven for every route of every model, bent or straight (8 ranges of d)",
    ]


def test_solve_then_check_a_fall_back(tmp_path: Path) -> None:
    """The JSON answer passes `chargeopt check`; its paths run from start to end."""
    scenario = written(against_wall(fought_by=("B", "C")), tmp_path, "escape.json")
    answer = tmp_path / "answer.json"
    assert run("solve", scenario, "-o", str(answer)).exit_code == 0
    doc = json.loads(answer.read_text(encoding="utf-8"))
    assert doc["status"] == "feasible"
    assert [p["path"][0] for p in doc["placements"]] == [[13.0, 10.0], [15.0, 10.0], [17.0, 10.0]]
    checked = run("check", scenario, str(answer))
    assert checked.exit_code == 0, checked.output
    assert checked.stdout.strip() == "OK: no violations (3 models checked)"


def test_solve_without_a_roll_gives_the_chance(tmp_path: Path) -> None:
    """Rolls 4 and 5 are neither escaped nor proven (A1 and A3 would have to pass each other;
    the proof ignores mates): unknown, exit 3, with the chance's two ends."""
    out = run("solve", written(against_wall(roll=None), tmp_path, "dice.json"))
    assert out.exit_code == 3, out.output
    assert "Trapped! chance: 13/18 (72.2%), at most 11/12 (rolls left open)" in out.stdout


def test_svg_rings_what_blocks(tmp_path: Path) -> None:
    """The picture rings the wall and the two enemies and draws their 1"."""
    picture = tmp_path / "wall.svg"
    out = run("solve", written(against_wall(), tmp_path, "wall.json"), "--svg", str(picture))
    assert out.exit_code == 0, out.output
    svg = picture.read_text(encoding="utf-8")
    assert svg.count('<path class="blocking"') == 3
    assert svg.count('<path class="zone"') == 2
    assert 'class="own-edge"' in svg
