"""The benchmark harness: the speed-v1 generator is deterministic, the committed suite is what it
writes and loads cleanly, and the speed runner summarises runs as stated. Nothing is solved."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from chargeopt.models import mm_to_in
from chargeopt.solver import load_scenario

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
SUITE_DIR = BENCHMARKS / "layouts" / "speed-v1"
SUITE_FILES = sorted(SUITE_DIR.glob("*.toml"))


def _load(name: str) -> ModuleType:
    """Import a script of benchmarks/ (not a package) by its path."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


generate = _load("generate_layouts")
speed = _load("run_speed")


def _bytes_of(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_generator_writes_the_same_bytes_twice(tmp_path: Path) -> None:
    """Two runs of the generator into empty folders write identical files."""
    first, second = tmp_path / "first", tmp_path / "second"
    generate.write_suite(first)
    generate.write_suite(second)
    assert _bytes_of(first) == _bytes_of(second)
    assert len(_bytes_of(first)) == 19


def test_committed_suite_is_the_generators_output() -> None:
    """The committed speed-v1 scenarios are byte for byte what the generator writes."""
    planned = generate.planned_files(generate.all_layouts())
    assert sorted(planned) == [p.name for p in SUITE_FILES]
    for path in SUITE_FILES:
        assert path.read_text(encoding="utf-8") == planned[path.name], path.name


def test_generator_refuses_to_rewrite_a_changed_file(tmp_path: Path) -> None:
    """A suite file edited by hand is not overwritten without --force."""
    generate.write_suite(tmp_path)
    edited = tmp_path / "c10-open-s1.toml"
    edited.write_text("edited\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="frozen"):
        generate.write_suite(tmp_path)
    assert edited.read_text(encoding="utf-8") == "edited\n"


@pytest.mark.parametrize("path", SUITE_FILES, ids=lambda p: p.stem)
def test_committed_layout_passes_start_validation(path: Path) -> None:
    """Each speed-v1 file loads with a legal start layout and is the charge its name says."""
    scenario = load_scenario(path)
    size, terrain, seed = path.stem.split("-")
    attackers = scenario.acting_unit
    assert scenario.name.startswith(f"speed-v1 {path.stem}: {size.removeprefix('c')} marines")
    assert len(attackers.models) == int(size.removeprefix("c"))
    assert attackers.base_of(attackers.models[0]).label() == "32mm"
    assert "INFANTRY" in {k.upper() for k in attackers.keywords}
    assert scenario.action.roll == {"s1": 7, "s2": 8, "s3": 9}[seed]
    assert 5 <= len(scenario.unit_by_id["B"].models) <= 20
    assert (len(scenario.terrain) == 0) == (terrain == "open")


def test_suite_md_lists_every_file_as_open() -> None:
    """SUITE.md has one row per committed file, each still marked 'open'."""
    rows = [
        line
        for line in (SUITE_DIR / "SUITE.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("| c")
    ]
    assert [row.split(" | ")[0].removeprefix("| ") for row in rows] == [p.name for p in SUITE_FILES]
    assert all(row.endswith("| open |") for row in rows)


def test_diameter_of_a_32mm_base() -> None:
    """The generator reads '32mm' as 32 / 25.4 inches."""
    assert generate.diameter_in("32mm") == pytest.approx(mm_to_in(32.0))
    assert generate.diameter_in("32mm") == pytest.approx(1.259843, abs=1e-6)


def test_segment_distance_by_hand() -> None:
    """Distances to the segment (0,0)-(4,0): beside it, past its end, and on it."""
    import numpy as np

    got = generate.segment_distances(
        np.array([[2.0, 3.0], [7.0, 4.0], [1.0, 0.0]]), np.array([0.0, 0.0]), np.array([4.0, 0.0])
    )
    assert got.tolist() == pytest.approx([3.0, 5.0, 0.0])


def _run(status: str, wall: float, check_exit: int | None, solver: float | None = None):
    return speed.Run(
        wall_s=wall, exit_code=0, status=status, solver_s=solver, check_exit=check_exit
    )


def test_agreed_counts_disagreeing_runs() -> None:
    """Runs that agree show one value; runs that differ show each with its count."""
    assert speed.agreed(["optimal", "optimal"]) == "optimal"
    assert speed.agreed(["optimal", "feasible", "optimal"]) == "optimal×2, feasible"
    assert speed.agreed([7.0, 7.0, None]) == "7×2, —"


def test_checker_verdict_counts_failures() -> None:
    """A non-zero exit of `chargeopt check` counts as a failure; infeasible is not checked."""
    assert speed.verdict([_run("optimal", 1.0, 0), _run("feasible", 1.0, 0)]) == "ok 2/2"
    failing = _run("optimal", 1.0, 1)
    failing.error = "1 violation:"
    assert speed.verdict([_run("optimal", 1.0, 0), failing]) == "FAIL 1/2: 1 violation:"
    assert speed.verdict([_run("infeasible", 1.0, None)]) == "n/a"
    assert speed.check_failed(_run("error", 0.5, None))


def test_size_class_summary_is_median_of_medians() -> None:
    """Layout medians 2 and 10 (of runs 1,2,3 and 9,10,30) give a class median of 6."""
    reports = [
        speed.LayoutReport("a.toml", "a", 10, runs=[_run("optimal", t, 0, t) for t in (1, 2, 3)]),
        speed.LayoutReport("b.toml", "b", 10, runs=[_run("optimal", t, 0, t) for t in (9, 10, 30)]),
    ]
    rows = speed.size_class_table(reports)
    assert rows[2] == "| 10 | 2 | 6 | 6 | 2/2 | 0 |"


def test_report_names_the_machine_and_every_layout() -> None:
    """The Markdown report starts with the machine and has one row per layout."""
    reports = [speed.LayoutReport("x/c10-open-s1.toml", "n", 10, runs=[_run("optimal", 1.5, 0)])]
    reports[0].baseline_note = "absent"
    args = argparse.Namespace(repeats=1, time_limit=5.0, seed=0)
    box = {
        "nproc": "2",
        "cpu": "CPU",
        "memory": "1 GiB",
        "python": "3",
        "ortools": "9",
        "platform": "linux",
    }
    text = speed.report_markdown(reports, box, args)
    assert "- machine: 2 cores, CPU, 1 GiB" in text
    assert "| c10-open-s1.toml | 10 | 1 | 1.50 | — | optimal | — | — | ok 1/1 |" in text
    assert "greedy baseline: not shown" in text


def test_baseline_cell_shows_value_or_why_not() -> None:
    """The greedy column shows its base contact, or 'none' with the greedy result's status."""
    found = speed.LayoutReport("a.toml", "a", 10, baseline=6.0, baseline_note="feasible")
    missing = speed.LayoutReport("b.toml", "b", 10, baseline=None, baseline_note="unknown")
    assert speed.baseline_cell(found) == "6"
    assert speed.baseline_cell(missing) == "none (unknown)"
