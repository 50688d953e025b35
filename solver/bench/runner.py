"""Run a benchmark: every (layout, method, repeat) is one task, solved in a worker (a fresh
process per task on the local pool, or a Dask worker with --scheduler), timed there around the
solve alone with time.perf_counter, and its answer re-checked by the independent checker
there too. An illegal answer counts as a failure, never as a score."""

from __future__ import annotations

import multiprocessing
import os
import platform
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from chargeopt.models import ActionKind, ChargeoptError, RankAndFileScenario, Scenario
from chargeopt.solver.bench.suite import Suite, size_class

ANSWER_STATUSES = ("optimal", "feasible")
MAX_VIOLATIONS_KEPT = 3

Outcome = dict[str, Any]
"""What one task reports (plain JSON data, so it crosses process and network boundaries)."""


@dataclass(frozen=True)
class Task:
    """One solve: a layout file, a method, which repeat, and the solve's settings."""

    path: str
    file: str
    method: str
    repeat: int
    time_limit_s: float
    seed: int
    solver_workers: int = 2


def plan(
    suite: Suite,
    methods: Iterable[str],
    repeat: int,
    time_limit_s: float,
    seed: int,
    solver_workers: int = 2,
):
    """Every task, repeat by repeat, so a slow spell of the machine touches every method."""
    return [
        Task(str(lay.path), lay.file, m, r, time_limit_s, seed, solver_workers)
        for r in range(repeat)
        for lay in suite.layouts
        for m in methods
    ]


def _blank(task: Task) -> Outcome:
    """An outcome before the solve: an error until the method answers."""
    return {
        **asdict(task),
        "status": "error",
        "seconds": None,
        "verified": None,
        "failure": False,
        "error": "",
        "violations": [],
        "base_contact": None,
        "bound": None,
    }


def run_task(task: Task) -> Outcome:
    """Solve one task and re-check its answer; never raises (an error is an outcome)."""
    import time
    import traceback

    from chargeopt.geometry.checker import check_placement
    from chargeopt.solver import load_scenario
    from chargeopt.solver.bench.methods import METHODS, SOLVER_WORKERS

    out = _blank(task)
    try:
        scenario = load_scenario(task.path)
        out["models"] = model_count(scenario)
        roll = scenario.action.roll
        blocks = isinstance(scenario, RankAndFileScenario)
        fixed = not blocks and scenario.rules.assault_range_in is not None
        if roll is None and scenario.action.kind == ActionKind.CHARGE and not blocks and not fixed:
            raise ChargeoptError(f"{task.file}: a benchmark charge needs action.roll")
        token = SOLVER_WORKERS.set(task.solver_workers)
        t0 = time.perf_counter()
        try:
            result = METHODS[task.method](scenario, roll, task.time_limit_s, task.seed)
        finally:
            out["seconds"] = time.perf_counter() - t0
            SOLVER_WORKERS.reset(token)
    except ChargeoptError as exc:
        out.update(status="unsupported", error=str(exc).splitlines()[0])
        return out
    except Exception as exc:
        out.update(failure=True, error=f"{type(exc).__name__}: {exc}")
        out["traceback"] = traceback.format_exc(limit=6)
        return out
    out["status"] = result.status.value
    out["base_contact"] = result.objective.get("base_contact")
    out["engaged"] = result.objective.get("engaged", result.objective.get("enemy_engaged"))
    out["movement_in"] = result.objective.get("movement_in")
    out["bound"] = result.bound.get("base_contact")
    out["engaged_bound"] = result.bound.get("engaged", result.bound.get("enemy_engaged"))
    out["bound_scope"] = result.stats.get("bound_scope")
    out["objective"] = dict(result.objective)
    out["bound_terms"] = dict(result.bound)
    if not blocks and scenario.rules.charge_targets_after_roll and result.objective:
        out["headline"] = headline = next(iter(result.objective))
        value = result.objective[headline]
        out["base_contact"] = int(value) if float(value).is_integer() else value
        out["bound"] = result.bound.get(headline)
    if blocks:
        out["base_contact"] = models_in_contact(result.objective)
        out["bound"] = models_in_contact(result.bound)
    if out["status"] in ANSWER_STATUSES:
        try:
            if blocks:
                from chargeopt.geometry.checker.rank_and_file import check_blocks

                violations = check_blocks(scenario, result, roll=roll)
            else:
                violations = check_placement(
                    scenario, result.placements, roll=roll, order=result.order
                )
        except Exception as exc:
            out.update(verified=False, failure=True, error=f"checker raised {exc!r}")
            return out
        out["verified"] = not violations
        out["failure"] = bool(violations)
        out["violations"] = [str(v.message) for v in violations[:MAX_VIOLATIONS_KEPT]]
    return out


def model_count(scenario: Scenario | RankAndFileScenario) -> int:
    """The models that move: the acting unit's, or every charging block's."""
    if isinstance(scenario, RankAndFileScenario):
        return sum(scenario.unit_by_id[u].model_count for u in scenario.action.chargers)
    return len(scenario.acting_unit.models)


def models_in_contact(objective: dict[str, Any]) -> int | None:
    """A rank-and-file answer's score: both sides' models in contact (None: no answer)."""
    if "target_models_in_contact" not in objective:
        return None
    return int(objective["target_models_in_contact"]) + int(objective["models_in_contact"])


Progress = Callable[[Outcome], None]


def lost(task: Task, exc: BaseException) -> Outcome:
    """The outcome of a task whose worker died or could not report (a failure)."""
    return {**_blank(task), "failure": True, "error": f"worker lost: {type(exc).__name__}: {exc}"}


def _collect(tasks: list[Task], index: int, result: Callable[[], Outcome]) -> Outcome:
    try:
        return result()
    except Exception as exc:
        return lost(tasks[index], exc)


def run_local(tasks: list[Task], workers: int, progress: Progress) -> list[Outcome]:
    """Run the tasks on a local process pool, each in a fresh process forked from a server
    that has imported chargeopt already (so no task inherits another's caches). A worker that
    dies (a native crash) breaks the pool and every task still in it: those run again, each
    alone, so only the task that kills its worker is a failure."""
    results: list[Outcome | None] = [None] * len(tasks)
    broken = _run_pool(tasks, list(range(len(tasks))), workers, results, progress, retry=True)
    for i in broken:
        _run_pool(tasks, [i], 1, results, progress, retry=False)
    return [r for r in results if r is not None]


def _run_pool(
    tasks: list[Task],
    indices: list[int],
    workers: int,
    results: list[Outcome | None],
    progress: Progress,
    *,
    retry: bool,
) -> list[int]:
    """Run tasks[indices] on one pool; the indices lost to a broken pool when `retry`."""
    from concurrent.futures.process import BrokenProcessPool

    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["chargeopt.solver.bench.methods", "chargeopt.geometry.checker"])
    broken: list[int] = []
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, max_tasks_per_child=1) as pool:
        futures = {pool.submit(run_task, tasks[i]): i for i in indices}
        for future in as_completed(futures):
            i = futures[future]
            if retry and isinstance(future.exception(), BrokenProcessPool):
                broken.append(i)
                continue
            results[i] = outcome = _collect(tasks, i, future.result)
            progress(outcome)
    return sorted(broken)


def run_dask(tasks: list[Task], address: Any, progress: Progress) -> list[Outcome]:
    """Run the same tasks on a Dask distributed cluster (workers reuse their processes)."""
    try:
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError:
        raise ChargeoptError(
            "--scheduler needs Dask: pip install 'chargeopt[bench]' (dask and distributed)"
        ) from None
    results: list[Outcome | None] = [None] * len(tasks)
    with Client(address) as client:
        futures = client.map(run_task, tasks, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        for future in dask_completed(futures):
            i = index[future.key]
            results[i] = outcome = _collect(tasks, i, future.result)
            progress(outcome)
    return [r for r in results if r is not None]


def machine() -> dict[str, str]:
    """What the run was on: cores, CPU model, memory, Python, OR-Tools."""
    info = {"cores": str(os.cpu_count()), "cpu": platform.processor() or "unknown"}
    info["memory"] = "unknown"
    for path, key, fn in (
        ("/proc/cpuinfo", "model name", lambda v: ("cpu", v)),
        ("/proc/meminfo", "MemTotal", lambda v: ("memory", f"{int(v.split()[0]) / 2**20:.1f} GiB")),
    ):
        try:
            line = next(s for s in Path(path).read_text().splitlines() if s.startswith(key))
        except (OSError, StopIteration):
            continue
        name, value = fn(line.split(":", 1)[1].strip())
        info[name] = value
    info["python"] = platform.python_version()
    info["ortools"] = metadata.version("ortools")
    info["platform"] = platform.platform()
    return info


def run_bench(
    suite: Suite,
    methods: list[str],
    *,
    repeat: int,
    time_limit_s: float,
    seed: int,
    workers: int,
    scheduler: Any = None,
    progress: Progress | None = None,
    solver_workers: int = 2,
) -> dict[str, Any]:
    """Run every task and return the raw record the report and the JSON file are made of (a
    layout known refused is counted unchecked: its runs record the refusal)."""
    from chargeopt.models.loading import load_scenario as load_unchecked
    from chargeopt.solver import load_scenario

    layouts = []
    for lay in suite.layouts:
        load = load_unchecked if lay.known == "refused" else load_scenario
        n = model_count(load(lay.path))
        layouts.append(
            {
                "file": lay.file,
                "models": n,
                "size_class": size_class(n),
                "known": lay.known,
                "known_base_contact": lay.base_contact,
                "known_value": dict(lay.value),
                "note": lay.note,
            }
        )
    tasks = plan(suite, methods, repeat, time_limit_s, seed, solver_workers)
    tick = progress or (lambda _: None)
    if scheduler is None:
        runs = run_local(tasks, workers, tick)
    else:
        runs = run_dask(tasks, scheduler, tick)
    return {
        "suite": {"name": suite.name, "version": suite.version, "manifest": suite.has_manifest},
        "machine": machine(),
        "settings": {
            "methods": methods,
            "repeat": repeat,
            "time_limit_s": time_limit_s,
            "seed": seed,
            "workers": workers,
            "solver_workers": solver_workers,
            "executor": "local process pool" if scheduler is None else f"dask at {scheduler}",
        },
        "layouts": layouts,
        "runs": runs,
    }
