"""`chargeopt check` takes back what `chargeopt solve -o` writes for a combined rank-and-file
charge (the result names its first charger; the scenario names them all)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from repo_paths import REPO_ROOT

from chargeopt.solver.interface.cli import main


def test_combined_charge_round_trips_through_solve_and_check(tmp_path: Path) -> None:
    layout = REPO_ROOT / "benchmarks" / "rank-and-file-v1" / "c2-two-side-by-side.toml"
    out = tmp_path / "r.json"
    runner = CliRunner()
    solved = runner.invoke(main, ["solve", str(layout), "-o", str(out)])
    assert solved.exit_code == 0, solved.output
    assert json.loads(out.read_text())["action"]["unit"] == "A1"
    checked = runner.invoke(main, ["check", str(layout), str(out)])
    assert checked.exit_code == 0 and checked.output.startswith("OK"), checked.output


def test_check_takes_a_block_written_by_hand_and_refuses_one_without_facing(
    tmp_path: Path,
) -> None:
    layout = REPO_ROOT / "benchmarks" / "rank-and-file-v1" / "f2-front-seed-wheel.toml"
    runner = CliRunner()
    good = tmp_path / "good.json"
    good.write_text(
        json.dumps({"blocks": [{"unit": "A", "x": 25.07874, "y": 10.0, "facing": -90.0}]})
    )
    checked = runner.invoke(main, ["check", str(layout), str(good)])
    assert checked.exit_code == 0 and checked.output.startswith("OK"), checked.output
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"blocks": [{"unit": "A", "x": 25.07874, "y": 10.0}]}))
    refused = runner.invoke(main, ["check", str(layout), str(bad)])
    assert refused.exit_code == 2
    assert f"error: {bad}: blocks[0].facing: is missing" in refused.output
    assert "Traceback" not in refused.output


def test_check_refuses_a_precision_for_blocks(tmp_path: Path) -> None:
    """--precision rounds model positions; a block answer is judged as written, so the option
    is refused rather than silently ignored."""
    layout = REPO_ROOT / "benchmarks" / "rank-and-file-v1" / "f2-front-seed-wheel.toml"
    good = tmp_path / "good.json"
    good.write_text(
        json.dumps({"blocks": [{"unit": "A", "x": 25.07874, "y": 10.0, "facing": -90.0}]})
    )
    refused = CliRunner().invoke(main, ["check", str(layout), str(good), "--precision", "0.01"])
    assert refused.exit_code == 2, refused.output
    assert "Invalid value for --precision: a rank-and-file block is judged exactly" in (
        refused.output
    )
    assert "Traceback" not in refused.output
