"""Time the charge solver on benchmark layouts, the way a user runs it, and re-check every answer.

Each layout is solved N times as a whole process (`chargeopt solve FILE --json --time-limit T`),
so the times include start-up and loading. Both the wall clock around the process and the
solver's own `stats.seconds` are kept. Every placement is re-checked with `chargeopt check`;
a non-zero exit there counts as a failure. The report is Markdown (one row per layout, then
the median of medians per size class), with the machine it ran on at the top.

    python benchmarks/run_speed.py [LAYOUT_OR_DIR ...] [-n 3] [--time-limit 60]
        [--report benchmarks/speed-report.md] [--json RAW.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

BENCHMARKS = Path(__file__).resolve().parent
DEFAULT_LAYOUTS = BENCHMARKS / "layouts" / "speed-v1"
DEFAULT_REPORT = BENCHMARKS / "speed-report.md"
CHECKED_STATUSES = ("optimal", "feasible")
HARD_TIMEOUT_FACTOR = 3.0
HARD_TIMEOUT_GRACE_S = 60.0


@dataclass
class Run:
    """One solve of one layout, and the checker's verdict on its placement."""

    wall_s: float
    exit_code: int
    status: str
    solver_s: float | None = None
    base_contact: float | None = None
    bound: float | None = None
    check_exit: int | None = None
    error: str = ""


@dataclass
class LayoutReport:
    """Every run of one layout plus what describes it (size class, greedy baseline)."""

    path: str
    name: str
    size: int
    runs: list[Run] = field(default_factory=list)
    baseline: float | None = None
    baseline_note: str = ""


def machine() -> dict[str, str]:
    """What the timings were taken on: cores, CPU model, memory, Python and OR-Tools versions."""
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor() or "unknown"
    memory = "unknown"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = f"{int(line.split()[1]) / 1024**2:.1f} GiB"
                break
    except OSError:
        pass
    try:
        ortools = metadata.version("ortools")
    except metadata.PackageNotFoundError:
        ortools = "not installed"
    return {
        "nproc": str(os.cpu_count()),
        "cpu": cpu,
        "memory": memory,
        "python": platform.python_version(),
        "ortools": ortools,
        "platform": platform.platform(),
    }


def chargeopt_command() -> list[str]:
    """The `chargeopt` of the running interpreter's environment, else the one on PATH."""
    beside = Path(sys.executable).with_name("chargeopt")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("chargeopt")
    if not found:
        raise SystemExit("chargeopt is not installed here; pip install -e . first")
    return [found]


def find_layouts(items: list[str]) -> list[Path]:
    """Scenario files named on the command line; a directory stands for its *.toml files."""
    paths: list[Path] = []
    for item in items:
        path = Path(item)
        paths.extend(sorted(path.glob("*.toml")) if path.is_dir() else [path])
    return paths


def describe(path: Path) -> tuple[str, int]:
    """The layout's name and its size class (how many models charge); validates the file."""
    from chargeopt.solver import load_scenario

    scenario = load_scenario(path)
    return scenario.name, len(scenario.acting_unit.models)


def greedy_base_contact(path: Path) -> tuple[float | None, str]:
    """The greedy baseline's base contact and status, if `chargeopt.solver.solve_greedy` exists
    (or `chargeopt.solver.bench.baseline.solve_greedy`, before it is exported).

    Returns (None, "absent") when there is no baseline, (None, status) when it found nothing."""
    try:
        from chargeopt.solver import solve_greedy  # type: ignore[attr-defined]
    except ImportError:
        try:
            from chargeopt.solver.bench.baseline import solve_greedy  # type: ignore[import-not-found]
        except ImportError:
            return None, "absent"
    from chargeopt.models import ChargeoptError
    from chargeopt.solver import load_scenario

    try:
        result = solve_greedy(load_scenario(path))
    except ChargeoptError as exc:
        return None, f"error: {exc}"
    value = result.objective.get("base_contact")
    return (None if value is None else float(value)), result.status.value


def baseline_cell(rep: LayoutReport) -> str:
    """The greedy column: its base contact, or 'none' with the greedy result's status."""
    if rep.baseline is not None:
        return fmt(rep.baseline)
    return f"none ({rep.baseline_note})"


def solve_once(
    command: list[str],
    path: Path,
    time_limit: float,
    seed: int,
    work: Path,
    extra: tuple[str, ...] = (),
) -> Run:
    """Solve `path` in a fresh process, time it, and check its placement with `chargeopt check`."""
    args = [*command, "solve", str(path), "--json", "--time-limit", str(time_limit)]
    args += ["--seed", str(seed), *extra]
    hard_timeout = time_limit * HARD_TIMEOUT_FACTOR + HARD_TIMEOUT_GRACE_S
    start = time.perf_counter()
    try:
        proc = subprocess.run(args, capture_output=True, text=True, timeout=hard_timeout)
    except subprocess.TimeoutExpired:
        return Run(
            wall_s=time.perf_counter() - start,
            exit_code=-1,
            status="killed",
            error=f"no answer after {hard_timeout:.0f} s",
        )
    wall = time.perf_counter() - start
    try:
        result = json.loads(proc.stdout)
    except json.JSONDecodeError:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return Run(wall_s=wall, exit_code=proc.returncode, status="error", error=tail)
    run = Run(
        wall_s=wall,
        exit_code=proc.returncode,
        status=str(result.get("status")),
        solver_s=(result.get("stats") or {}).get("seconds"),
        base_contact=(result.get("objective") or {}).get("base_contact"),
        bound=(result.get("bound") or {}).get("base_contact"),
    )
    if run.status in CHECKED_STATUSES:
        result_file = work / f"{path.stem}.result.json"
        result_file.write_text(proc.stdout, encoding="utf-8")
        check = subprocess.run(
            [*command, "check", str(path), str(result_file)], capture_output=True, text=True
        )
        run.check_exit = check.returncode
        if check.returncode != 0:
            run.error = (check.stdout + check.stderr).strip().splitlines()[0]
    return run


def check_failed(run: Run) -> bool:
    """A run fails the re-check if its placement was checked and the checker did not exit 0,
    or if the solver produced no usable answer at all."""
    if run.status in CHECKED_STATUSES:
        return run.check_exit != 0
    return run.status in ("error", "killed")


def median(values: list[float | None]) -> float | None:
    """The median of the values that exist, or None."""
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def fmt(value: float | None, digits: int = 2) -> str:
    """A number for the table; integers without decimals; '—' for nothing."""
    if value is None:
        return "—"
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.{digits}f}"


def agreed(values: list[Any]) -> str:
    """One value if all runs agree, else each value with its count (e.g. 'optimal×2, feasible')."""
    counts = Counter(fmt(v) if isinstance(v, float | int) or v is None else str(v) for v in values)
    if len(counts) == 1:
        return next(iter(counts))
    return ", ".join(f"{v}×{n}" if n > 1 else v for v, n in counts.most_common())


def verdict(runs: list[Run]) -> str:
    """The checker column: how many runs passed, or which failed and why."""
    checked = [r for r in runs if r.status in CHECKED_STATUSES or check_failed(r)]
    if not checked:
        return "n/a"
    failed = [r for r in checked if check_failed(r)]
    if not failed:
        return f"ok {len(checked)}/{len(checked)}"
    return f"FAIL {len(failed)}/{len(checked)}: {failed[0].error or failed[0].status}"


def layout_table(reports: list[LayoutReport], with_baseline: bool) -> list[str]:
    """One Markdown row per layout: medians over its runs, the answer, and the checker's word."""
    head = [
        "layout",
        "size",
        "runs",
        "median wall s",
        "median solver s",
        "status",
        "base_contact",
        "bound",
    ]
    head += ["greedy"] if with_baseline else []
    head += ["checker"]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for rep in reports:
        cells = [
            Path(rep.path).name,
            str(rep.size),
            str(len(rep.runs)),
            fmt(median([r.wall_s for r in rep.runs])),
            fmt(median([r.solver_s for r in rep.runs])),
            agreed([r.status for r in rep.runs]),
            agreed([r.base_contact for r in rep.runs]),
            agreed([r.bound for r in rep.runs]),
        ]
        cells += [baseline_cell(rep)] if with_baseline else []
        cells += [verdict(rep.runs)]
        rows.append("| " + " | ".join(cells) + " |")
    return rows


def size_class_table(reports: list[LayoutReport]) -> list[str]:
    """Per size class: the median of the layouts' median times, answers proven, checker fails."""
    by_size: dict[int, list[LayoutReport]] = defaultdict(list)
    for rep in reports:
        by_size[rep.size].append(rep)
    rows = [
        "| size | layouts | median of median wall s | median of median solver s | "
        "all runs optimal | checker failures |",
        "|---|---|---|---|---|---|",
    ]
    for size in sorted(by_size):
        group = by_size[size]
        wall = median([median([r.wall_s for r in g.runs]) for g in group])
        solver = median([median([r.solver_s for r in g.runs]) for g in group])
        optimal = sum(all(r.status == "optimal" for r in g.runs) for g in group)
        failures = sum(check_failed(r) for g in group for r in g.runs)
        rows.append(
            f"| {size} | {len(group)} | {fmt(wall)} | {fmt(solver)} | "
            f"{optimal}/{len(group)} | {failures} |"
        )
    return rows


def report_markdown(
    reports: list[LayoutReport], box: dict[str, str], args: argparse.Namespace
) -> str:
    """The whole report: machine, settings, the per-layout table and the size-class summary."""
    with_baseline = any(rep.baseline_note != "absent" for rep in reports)
    baseline = (
        "- greedy: base contact of `chargeopt.solver.solve_greedy` (in-process, untimed)"
        if with_baseline
        else "- greedy baseline: not shown (`chargeopt.solver.solve_greedy` absent)"
    )
    lines = [
        "# Charge solver speed report",
        "",
        f"- machine: {box['nproc']} cores, {box['cpu']}, {box['memory']}",
        f"- python {box['python']}, ortools {box['ortools']}, {box['platform']}",
        f"- runs per layout: {args.repeats}; time limit: {args.time_limit} s; seed: {args.seed}",
        "- wall s: the whole `chargeopt solve` process (start-up, loading, solving and its own",
        "  re-check); solver s: the result's `stats.seconds`",
        baseline,
        "",
        "## Layouts",
        "",
        *layout_table(reports, with_baseline),
        "",
        "## By size class",
        "",
        *size_class_table(reports),
        "",
    ]
    return "\n".join(lines)


def run_all(paths: list[Path], args: argparse.Namespace) -> list[LayoutReport]:
    """Solve every layout `args.repeats` times, printing one line per run as it finishes."""
    command = chargeopt_command()
    reports = []
    with tempfile.TemporaryDirectory(prefix="chargeopt-speed-") as tmp:
        for path in paths:
            name, size = describe(path)
            baseline, note = greedy_base_contact(path)
            rep = LayoutReport(str(path), name, size, baseline=baseline, baseline_note=note)
            for i in range(args.repeats):
                run = solve_once(
                    command, path, args.time_limit, args.seed, Path(tmp), tuple(args.extra)
                )
                rep.runs.append(run)
                print(
                    f"{path.name} run {i + 1}/{args.repeats}: {run.status}, "
                    f"base_contact {fmt(run.base_contact)}, {run.wall_s:.2f} s wall, "
                    f"check exit {run.check_exit}",
                    file=sys.stderr,
                    flush=True,
                )
            reports.append(rep)
    return reports


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "layouts",
        nargs="*",
        default=[str(DEFAULT_LAYOUTS)],
        help="scenario files or directories (default: the speed-v1 suite)",
    )
    parser.add_argument("-n", "--repeats", type=int, default=3, help="runs per layout")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per solve")
    parser.add_argument("--seed", type=int, default=0, help="solver seed (same for every run)")
    parser.add_argument(
        "--extra",
        action="append",
        default=[],
        help="an extra option for `chargeopt solve`, e.g. --extra=--no-roll-table (repeatable)",
    )
    parser.add_argument("--report", type=Path, default=DEFAULT_REPORT, help="Markdown report")
    parser.add_argument("--json", type=Path, default=None, help="also write the raw runs here")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    """Run, print and write the report; exit 1 if any run failed the re-check."""
    args = parse_args(argv)
    paths = find_layouts(args.layouts)
    if not paths:
        print("no layouts found", file=sys.stderr)
        return 2
    box = machine()
    reports = run_all(paths, args)
    text = report_markdown(reports, box, args)
    print(text)
    args.report.write_text(text, encoding="utf-8")
    if args.json:
        raw = {
            "machine": box,
            "settings": {k: str(v) for k, v in vars(args).items()},
            "layouts": [asdict(rep) for rep in reports],
        }
        args.json.write_text(json.dumps(raw, indent=2) + "\n", encoding="utf-8")
    failed = sum(check_failed(r) for rep in reports for r in rep.runs)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
