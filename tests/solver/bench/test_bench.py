"""`chargeopt bench`: the quick suite through the command line (every layout reported, every
answer verified), the Dask path matching the local pool, an illegal answer counted as a
failure, and the report's tallies on records written by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from repo_paths import REPO_ROOT

from chargeopt.models import Placement, Result, Status
from chargeopt.solver import load_scenario
from chargeopt.solver.bench import methods as bench_methods
from chargeopt.solver.bench.report import contradictions, pairwise, report_markdown, speed_table
from chargeopt.solver.bench.runner import Task, run_bench, run_task
from chargeopt.solver.bench.suite import load_suite
from chargeopt.solver.interface.bench_command import parse_methods
from chargeopt.solver.interface.cli import main

QUICK = REPO_ROOT / "benchmarks" / "layouts" / "quick-v1"


def test_quick_suite_through_the_cli(tmp_path: Path) -> None:
    """The CI run: every layout appears with every method, every answer passed the checker,
    and each proven answer matches what the suite says is known."""
    out_json, out_md = tmp_path / "quick.json", tmp_path / "quick.md"
    result = CliRunner().invoke(
        main,
        [
            "bench",
            str(QUICK),
            "--methods",
            "chargeopt,greedy,highs",
            "--workers",
            "2",
            "--time-limit",
            "20",
            "--json",
            str(out_json),
            "--report",
            str(out_md),
        ],
    )
    assert result.exit_code == 0, result.output
    record = json.loads(out_json.read_text())
    report = out_md.read_text()
    files = [lay.file for lay in load_suite(QUICK).layouts]
    assert len(record["runs"]) == len(files) * 3
    for f in files:
        for m in ("chargeopt", "greedy", "highs"):
            assert f"| {f} |" in report and f"| {m} |" in report
    answers = [r for r in record["runs"] if r["status"] in ("optimal", "feasible")]
    assert answers and all(r["verified"] is True for r in answers)
    assert not any(r["failure"] for r in record["runs"])
    chargeopt = {r["file"]: r for r in record["runs"] if r["method"] == "chargeopt"}
    assert [chargeopt[f]["status"] for f in files] == ["optimal"] * 2 + ["infeasible"] + [
        "optimal"
    ] * 2
    assert [chargeopt[f]["base_contact"] for f in files] == [1, 6, None, 5, 1]
    assert "no answer contradicts the suite" in report
    assert "- command: `chargeopt bench " in report and "--repeat 1 --workers 2" in report
    assert (tmp_path / "quick-time.svg").read_text().startswith("<svg")
    assert "<circle" in (tmp_path / "quick-contacts.svg").read_text()


def test_dask_local_cluster_matches_the_local_pool() -> None:
    """The same tasks on a LocalCluster (TCP on loopback, one in-process worker) give the same
    statuses, base contacts and verdicts as the local process pool."""
    distributed = pytest.importorskip("distributed")
    suite = load_suite(QUICK)
    methods = ["chargeopt", "greedy"]
    settings = {"repeat": 1, "time_limit_s": 20.0, "seed": 0, "workers": 2}
    local = run_bench(suite, methods, **settings)
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=False,
        protocol="tcp://",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        address = cluster.scheduler_address
        remote = run_bench(suite, methods, **settings, scheduler=address)
    assert address.startswith("tcp://127.0.0.1:")
    assert remote["settings"]["executor"] == f"dask at {address}"

    def key(record):
        return sorted(
            (r["file"], r["method"], r["status"], r["base_contact"], r["verified"])
            for r in record["runs"]
        )

    assert key(local) == key(remote)
    assert len(key(local)) == 10


def test_illegal_answer_is_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    """A method that claims an optimum by leaving the models where they stand (no target
    engaged) is caught by the checker: verified False, counted as a failure."""

    def cheat(scenario, roll, time_limit_s, seed) -> Result:
        stay = tuple(
            Placement(model=m.id, x=m.x, y=m.y, z=m.z, moved=0.0)
            for m in scenario.acting_unit.models
        )
        return Result(status=Status.OPTIMAL, objective={"base_contact": 9}, placements=stay)

    monkeypatch.setitem(bench_methods.METHODS, "cheat", cheat)
    path = QUICK / "q1-one-on-one.toml"
    out = run_task(Task(str(path), path.name, "cheat", 0, 5.0, 0))
    assert out["status"] == "optimal"
    assert out["verified"] is False and out["failure"] is True
    assert out["violations"]


def test_crash_is_a_failure_and_unsupported_is_not(monkeypatch: pytest.MonkeyPatch) -> None:
    from chargeopt.models import UnsupportedRuleError

    def boom(*_):
        raise ZeroDivisionError("x")

    def refuse(*_):
        raise UnsupportedRuleError("not this one")

    monkeypatch.setitem(bench_methods.METHODS, "boom", boom)
    monkeypatch.setitem(bench_methods.METHODS, "refuse", refuse)
    path = QUICK / "q1-one-on-one.toml"
    crashed = run_task(Task(str(path), path.name, "boom", 0, 5.0, 0))
    refused = run_task(Task(str(path), path.name, "refuse", 0, 5.0, 0))
    assert (crashed["status"], crashed["failure"]) == ("error", True)
    assert (refused["status"], refused["failure"]) == ("unsupported", False)


def test_lost_worker_is_a_failure() -> None:
    """A worker that dies (the pool breaks) leaves a failed outcome, not a traceback."""
    from concurrent.futures.process import BrokenProcessPool

    from chargeopt.solver.bench.runner import _collect

    task = Task("x.toml", "x.toml", "chargeopt", 0, 5.0, 0)

    def broken():
        raise BrokenProcessPool("gone")

    out = _collect([task], 0, broken)
    assert (out["status"], out["failure"]) == ("error", True)
    assert out["error"] == "worker lost: BrokenProcessPool: gone"


def test_highs_method_reaches_the_known_optimum() -> None:
    """HiGHS on the charge model of q2 (ten marines, one 32mm target) proves 6, legally."""
    scenario = load_scenario(QUICK / "q2-six-around-one.toml")
    result = bench_methods.highs(scenario, 12, 120.0, 0)
    assert result.status == Status.OPTIMAL
    assert result.objective["base_contact"] == 6
    assert result.bound == {"base_contact": 6}
    from chargeopt.geometry.checker import check_placement

    assert check_placement(scenario, result.placements, roll=12) == []


def test_ablations_keep_the_optimum() -> None:
    """Without hints, with presolve, and without symmetry classes, q2 is still 6."""
    scenario = load_scenario(QUICK / "q2-six-around-one.toml")
    for method in (bench_methods.no_hint, bench_methods.presolve, bench_methods.no_symmetry):
        result = method(scenario, 12, 30.0, 0)
        assert (result.status, result.objective["base_contact"]) == (Status.OPTIMAL, 6)


def test_methods_option() -> None:
    assert parse_methods(()) == ["chargeopt", "greedy", "highs"]
    assert parse_methods(("greedy,highs", "greedy")) == ["greedy", "highs"]
    assert parse_methods(("all",)) == list(bench_methods.METHODS)
    from chargeopt.models import ChargeoptError

    with pytest.raises(ChargeoptError, match="unknown method 'cpsat'"):
        parse_methods(("cpsat",))


def test_bad_suite_is_one_error_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        ["bench", str(tmp_path / "nope"), "--json", "a.json", "--report", "a.md"],
    )
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"error: {tmp_path / 'nope'}: not a directory (give a suite directory)"
    ]


def test_missing_output_folder_is_refused_before_running(tmp_path: Path) -> None:
    report = tmp_path / "no" / "a.md"
    result = CliRunner().invoke(
        main, ["bench", str(QUICK), "--json", str(tmp_path / "a.json"), "--report", str(report)]
    )
    assert result.exit_code == 2
    assert result.output.strip() == f"error: --report {report}: its folder does not exist"


def _run(file: str, method: str, status: str, contact, seconds: float, **extra):
    run = {
        "file": file,
        "method": method,
        "repeat": 0,
        "status": status,
        "base_contact": contact,
        "bound": contact if status == "optimal" else None,
        "seconds": seconds,
        "verified": True if status in ("optimal", "feasible") else None,
        "failure": False,
        "violations": [],
        "error": "",
    }
    run.update(extra)
    return run


def _record(runs, layouts):
    return {
        "suite": {"name": "t", "version": 1, "manifest": True},
        "machine": {
            "cores": "2",
            "cpu": "CPU",
            "memory": "1 GiB",
            "python": "3",
            "ortools": "9",
            "platform": "linux",
        },
        "settings": {
            "methods": ["chargeopt", "greedy", "highs"],
            "repeat": 1,
            "time_limit_s": 5.0,
            "seed": 0,
            "workers": 1,
            "executor": "local process pool",
        },
        "layouts": layouts,
        "runs": runs,
    }


def _layout(file: str, models: int, known="open", best=None):
    return {
        "file": file,
        "models": models,
        "size_class": max(10, -(-models // 10) * 10),
        "known": known,
        "known_base_contact": best,
        "note": "",
    }


def test_report_tallies_by_hand() -> None:
    """a (10 models): chargeopt 6 in 1 s, greedy 5 in 0.5 s, highs 6 in 4 s.
    b (20 models): chargeopt 9 in 2 s, greedy illegal, highs unknown at its limit in 8 s.
    chargeopt vs greedy: 2 wins; vs highs: 1 win (b), 1 tie (a); highs beats greedy on both
    (6 > 5, and no answer beats an illegal one). Speed ratios highs /
    chargeopt: 4 in class 10 where both finished; in class 20 only over all layouts (highs
    stopped at its limit)."""
    runs = [
        _run("a", "chargeopt", "optimal", 6, 1.0),
        _run("a", "greedy", "feasible", 5, 0.5),
        _run("a", "highs", "optimal", 6, 4.0),
        _run("b", "chargeopt", "optimal", 9, 2.0),
        _run(
            "b",
            "greedy",
            "feasible",
            8,
            1.0,
            verified=False,
            failure=True,
            violations=["A3 overlaps A4"],
        ),
        _run("b", "highs", "unknown", None, 8.0),
    ]
    record = _record(runs, [_layout("a", 10, "optimal", 6), _layout("b", 20)])
    from chargeopt.solver.bench.report import cells

    table = cells(record)
    assert pairwise(record, table)[2:] == [
        "| chargeopt | — | 2/0/0 | 1/1/0 |",
        "| greedy | 0/0/2 | — | 0/0/2 |",
        "| highs | 0/1/1 | 2/0/0 | — |",
    ]
    assert speed_table(record, table, "highs")[2:] == [
        "| 10 | 1 | 1.00 | 4.00 | 4.00 | 4.00 | 1, 1 | 0/1/0 |",
        "| 20 | 1 | 2.00 | 8.00 | — | 4.00 | 1, 0 | 1/0/0 |",
    ]
    text = report_markdown(record)
    assert (
        "| b | 20 | open | greedy | feasible | 8 | — | 1.00 | 1 | FAIL 1/1: A3 overlaps A4 |"
        in text
    )
    assert "| a | 10 | optimal 6 | chargeopt | optimal | 6 | 6 | 1.00 | 1 | yes 1/1 |" in text
    assert "Failures in this run: 1" in text


def test_contradictions_of_known_answers() -> None:
    runs = [
        _run("a", "chargeopt", "optimal", 5, 1.0),
        _run("a", "greedy", "feasible", 7, 1.0),
        _run("b", "highs", "feasible", 1, 1.0),
        _run("a", "highs", "infeasible", None, 1.0),
    ]
    record = _record(runs, [_layout("a", 10, "optimal", 6), _layout("b", 10, "infeasible")])
    assert contradictions(record) == [
        "a chargeopt run 1: 'optimal' at 5 < known optimum 6",
        "a greedy run 1: base contact 7 > known optimum 6",
        "b highs run 1: a legal answer on a layout known infeasible",
        "a highs run 1: 'infeasible' but an optimum of 6 is known",
    ]


def test_bounds_table_counts_layouts_where_every_run_met_its_bound() -> None:
    """a: both runs optimal (met); b: one run feasible with a bound above its objective (not
    met). One layout of two: 50%."""
    runs = [
        _run(
            "a",
            "chargeopt",
            "optimal",
            6,
            1.0,
            engaged=6,
            engaged_bound=6,
            bound_scope="continuous",
        ),
        _run(
            "a",
            "chargeopt",
            "optimal",
            6,
            1.0,
            repeat=1,
            engaged=6,
            engaged_bound=6,
            bound_scope="continuous",
        ),
        _run(
            "b",
            "chargeopt",
            "optimal",
            9,
            2.0,
            engaged=9,
            engaged_bound=9,
            bound_scope="continuous",
        ),
        _run(
            "b",
            "chargeopt",
            "feasible",
            9,
            2.0,
            repeat=1,
            bound=10,
            engaged=9,
            engaged_bound=10,
            bound_scope="candidates",
        ),
    ]
    record = _record(runs, [_layout("a", 10), _layout("b", 20)])
    from chargeopt.solver.bench.report import bounds_table, cells

    assert bounds_table(record, cells(record)) == [
        "| layout | models | base contact / bound | engaged / bound | bound over | met in runs |",
        "|---|---|---|---|---|---|",
        "| a | 10 | 6 / 6 | 6 / 6 | continuous | 2/2 |",
        "| b | 20 | 9 / 9, 9 / 10 | 9 / 9, 9 / 10 | continuous, candidates | 1/2 |",
        "",
        "The bound met the objective in every run on 1 of 2 layouts (50%).",
        "On base contact alone (the first term) it met it in every run on 1 of 2 layouts (50%).",
    ]


def test_bounds_table_counts_base_contact_alone_apart_from_every_term() -> None:
    """c: base contact proven (9 of 9) but engaged short of its bound (15 of 17), so `feasible`;
    d: proven infeasible. Every term: d only (1 of 2); base contact alone: both (2 of 2)."""
    runs = [
        _run("c", "chargeopt", "feasible", 9, 1.0, bound=9, engaged=15, engaged_bound=17),
        _run("d", "chargeopt", "infeasible", None, 1.0),
    ]
    record = _record(runs, [_layout("c", 30), _layout("d", 10)])
    from chargeopt.solver.bench.report import bounds_table, cells

    assert bounds_table(record, cells(record))[-2:] == [
        "The bound met the objective in every run on 1 of 2 layouts (50%).",
        "On base contact alone (the first term) it met it in every run on 2 of 2 layouts (100%).",
    ]


def test_an_answer_on_a_layout_known_refused_contradicts_it() -> None:
    """A layout the command refuses (a charge that cannot be declared): its runs must come back
    unsupported; any verdict or answer on it is a contradiction."""
    runs = [
        _run("x", "chargeopt", "unsupported", None, 0.0),
        _run("x", "greedy", "infeasible", None, 0.0),
    ]
    record = _record(runs, [_layout("x", 15, "refused")])
    assert contradictions(record) == [
        "x greedy run 1: an answer (infeasible) on a layout the command refuses"
    ]
