"""The cost curve: the whole `chargeopt solve` command (default flags, start-up included) against
the number of acting models, beside the import floor measured in the same run; then the
`--jsonl` mode against one command per scenario over the quick suite.

    python benchmarks/cost-curve/run.py [-n 3] [--sizes 5,10,20,30,40,60]
        [--kinds charge-40k,pile-in-40k,charge-4e,combined-t9a] [--report OUT.md] [--json RAW]

Layouts are written by this script (deterministic, no randomness) into `layouts/` beside it:
for each size N, N marines charging a line of 10 (40k 10th edition), N marines piling in on a
line of 10 from within engagement range, N marines making the 4th-edition assault on 10, and two
blocks of N/2 models in a combined rank-and-file (T9A) charge on one block. Every run of a
layout is paired with a run of the import floor (`python -c "import ortools.sat.python.cp_model,
numpy, shapely"`) just before it, so both see the same load; medians are quoted. Every answer is
re-checked with `chargeopt check`. Times are wall seconds around each process (and its user +
system CPU from the operating system's accounting); only public tools are used.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from run_speed import chargeopt_command, machine  # noqa: E402  (the sibling script's helpers)

LAYOUTS = HERE / "layouts"
QUICK = HERE.parent / "layouts" / "quick-v1"
DEFAULT_REPORT = HERE.parent / "results" / "cost-curve.md"
SIZES = (5, 10, 20, 30, 40, 60)
KINDS = ("charge-40k", "pile-in-40k", "charge-4e", "combined-t9a")
FLOOR = "import ortools.sat.python.cp_model, numpy, shapely"
SPACING_IN = 1.6
"""Centre to centre between neighbouring 32mm marines (1.26" bases, 0.34" apart)."""
ROW = 10
"""Marines a rank (40k) or models a file (4e)."""
HARD_TIMEOUT_S = 120.0


def marines(prefix: str, count: int, x0: float, y0: float, dy: float) -> list[dict[str, Any]]:
    """`count` models in ranks of ROW centred on x0, the first rank at y0, the next at y0+dy."""
    models = []
    for i in range(count):
        rank, file = divmod(i, ROW)
        in_rank = min(ROW, count - rank * ROW)
        x = x0 + (file - (in_rank - 1) / 2) * SPACING_IN
        models.append({"id": f"{prefix}{i + 1}", "x": round(x, 3), "y": round(y0 + rank * dy, 3)})
    return models


def unit(uid: str, owner: str, base: str, models: list[dict[str, Any]]) -> dict[str, Any]:
    return {"id": uid, "owner": owner, "keywords": ["INFANTRY"], "base": base, "models": models}


def forty_k(kind: str, count: int) -> dict[str, Any]:
    """N marines (32mm) in ranks of 10 below a line of 10 cultists (25mm) at y = 10: 5" away
    edge to edge for the charge (roll 8), 0.6" (within engagement range) for the pile in."""
    gap_in = 5.0 if kind == "charge" else 0.6
    front_y = 10.0 + (25 / 25.4 + 32 / 25.4) / 2 + gap_in
    target = unit("B", "defender", "25mm", marines("B", 10, 30.0, 10.0, 0.0))
    attackers = unit("A", "attacker", "32mm", marines("A", count, 30.0, front_y, SPACING_IN))
    action: dict[str, Any] = {"kind": kind, "unit": "A"}
    action.update({"targets": ["B"], "roll": 8} if kind == "charge" else {"charged": True})
    return {
        "format": 1,
        "name": f"cost curve: {count} marines {kind.replace('-', ' ')} a line of 10 (40k-10e)",
        "ruleset": "40k-10e",
        "board": {"width": 60.0, "height": 44.0},
        "units": [attackers, target],
        "action": action,
    }


def assault_4e(count: int) -> dict[str, Any]:
    """N marines in files of 10 (x = 10, then 1.6" further back each), 3.74" from a file of 10
    orks at x = 15: the 4th-edition assault (a fixed 6" range, no roll)."""
    attackers = [
        {
            "id": f"A{i + 1}",
            "x": round(10.0 - (i // ROW) * SPACING_IN, 3),
            "y": round(6.0 + (i % ROW) * SPACING_IN, 3),
        }
        for i in range(count)
    ]
    target = [
        {"id": f"B{i + 1}", "x": 15.0, "y": round(6.0 + i * SPACING_IN, 3)} for i in range(10)
    ]
    return {
        "format": 1,
        "name": f"cost curve: {count} marines assault 10 (40k-assault-4e)",
        "ruleset": "40k-assault-4e",
        "board": {"width": 44.0, "height": 30.0},
        "units": [unit("A", "attacker", "32mm", attackers), unit("B", "defender", "32mm", target)],
        "action": {"kind": "charge", "unit": "A", "targets": ["B"]},
    }


def combined_t9a(count: int) -> dict[str, Any]:
    """Two blocks of N/2 models (25mm, five files) 6" below a block of 11 files by 3 ranks,
    charging it together (a combined charge, T9A), the range found by the solver."""
    sizes = (count // 2, count - count // 2)
    width_in = 25 / 25.4

    def block(uid: str, models: int, x: float) -> dict[str, Any]:
        files = min(5, models)
        return {
            "id": uid,
            "owner": "attacker",
            "files": files,
            "ranks": math.ceil(models / files),
            "base": "25x25mm",
            "x": round(x, 3),
            "y": 16.0,
            "facing": -90.0,
        }

    second_x = 20.0 + min(5, sizes[0]) * width_in + 0.5
    target = {
        "id": "B",
        "owner": "defender",
        "files": 11,
        "ranks": 3,
        "base": "25x25mm",
        "x": round(20.0 + 11 * width_in, 3),
        "y": 10.0,
        "facing": 90.0,
    }
    return {
        "name": f"cost curve: two blocks of {sizes[0]} and {sizes[1]} charge one (t9a-2022)",
        "ruleset": "t9a-2022",
        "board": {"width": 48.0, "height": 48.0},
        "units": [block("A1", sizes[0], 20.0), block("A2", sizes[1], second_x), target],
        "action": {"kind": "charge", "targets": ["B"], "units": ["A1", "A2"]},
    }


def layout(kind: str, count: int) -> dict[str, Any]:
    """The scenario of one kind and size."""
    if kind == "charge-40k":
        return forty_k("charge", count)
    if kind == "pile-in-40k":
        return forty_k("pile-in", count)
    if kind == "charge-4e":
        return assault_4e(count)
    return combined_t9a(count)


def write_layouts(kinds: list[str], sizes: list[int], folder: Path) -> dict[tuple[str, int], Path]:
    """Write every layout as a JSON scenario file; their paths by (kind, size)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for kind in kinds:
        for count in sizes:
            path = folder / f"{kind}-{count:02d}.json"
            path.write_text(json.dumps(layout(kind, count), indent=1) + "\n", encoding="utf-8")
            paths[kind, count] = path
    return paths


@dataclass
class Timing:
    """Whole-process figures of one command over its runs."""

    wall_s: list[float] = field(default_factory=list)
    cpu_s: list[float] = field(default_factory=list)
    exit_codes: list[int] = field(default_factory=list)

    def median_wall(self) -> float:
        return statistics.median(self.wall_s)

    def median_cpu(self) -> float:
        return statistics.median(self.cpu_s)


def timed(command: list[str], into: Timing, stdin_file: Path | None = None) -> None:
    """Run `command` once as a whole process (output thrown away), adding its wall seconds and
    its user + system CPU seconds (the kernel's accounting of the finished child) to `into`."""
    stdin = open(stdin_file, "rb") if stdin_file is not None else subprocess.DEVNULL  # noqa: SIM115
    try:
        started = time.perf_counter()
        child = subprocess.Popen(
            command, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if stdin_file is not None:
            stdin.close()
    into.wall_s.append(wall)
    into.cpu_s.append(usage.ru_utime + usage.ru_stime)
    into.exit_codes.append(child.returncode)


def checked(script: str, scenario: Path) -> dict[str, Any]:
    """One untimed solve written with -o, judged by `chargeopt check`: status and counts."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "result.json"
        solve = subprocess.run(
            [script, "solve", str(scenario), "-o", str(out), "--quiet"],
            capture_output=True,
            text=True,
            timeout=HARD_TIMEOUT_S,
            check=False,
        )
        if not out.exists():
            return {"status": "none", "solve_exit": solve.returncode, "check_exit": None}
        result = json.loads(out.read_text(encoding="utf-8"))
        check = subprocess.run(
            [script, "check", str(scenario), str(out)],
            capture_output=True,
            text=True,
            timeout=HARD_TIMEOUT_S,
            check=False,
        )
    return {
        "status": result.get("status"),
        "objective": result.get("objective", {}),
        "bound": result.get("bound", {}),
        "solve_exit": solve.returncode,
        "check_exit": check.returncode,
    }


def curve(script: str, paths: dict[tuple[str, int], Path], runs: int) -> list[dict[str, Any]]:
    """Each layout `runs` times, each run after a run of the import floor; one warm-up each."""
    rows = []
    for (kind, count), path in paths.items():
        solve, floor = Timing(), Timing()
        for attempt in range(runs + 1):
            floor_run, solve_run = (Timing(), Timing()) if attempt == 0 else (floor, solve)
            timed([sys.executable, "-c", FLOOR], floor_run)
            timed([script, "solve", str(path)], solve_run)
        verdict = checked(script, path)
        rows.append(
            {
                "kind": kind,
                "models": count,
                "file": path.name,
                "solve_s": solve.median_wall(),
                "solve_cpu_s": solve.median_cpu(),
                "floor_s": floor.median_wall(),
                "runs": solve.wall_s,
                "floor_runs": floor.wall_s,
                "exit_codes": solve.exit_codes,
                **verdict,
            }
        )
        print(
            f"{kind} {count}: {solve.median_wall():.2f} s (floor {floor.median_wall():.2f} s)"
            f" {verdict['status']} check {verdict['check_exit']}",
            file=sys.stderr,
        )
    return rows


def quick_lines(folder: Path, passes: int) -> Path:
    """The quick suite as one JSON scenario a line (its manifest's order), `passes` times over."""
    lines = [json.dumps(tomllib.loads(path.read_text(encoding="utf-8"))) for path in quick_files()]
    path = folder / f"quick-v1-x{passes}.jsonl"
    path.write_text("\n".join(lines * passes) + "\n", encoding="utf-8")
    return path


def quick_files() -> list[Path]:
    manifest = tomllib.loads((QUICK / "suite.toml").read_text(encoding="utf-8"))
    return [QUICK / entry["file"] for entry in manifest["layouts"]]


def strip_stats(document: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in document.items() if k != "stats"}


def jsonl_against_separate(script: str, runs: int, folder: Path, passes: int) -> dict[str, Any]:
    """The quick suite: one `chargeopt solve FILE` per layout against one `solve --jsonl` over
    the suite once (start-up included) and `passes` times over (as an engine that keeps the
    process sees it), in turn, one warm-up each; the answers compared (timings aside)."""
    files = quick_files()
    once, many = quick_lines(folder, 1), quick_lines(folder, passes)
    separate = {f.name: Timing() for f in files}
    batch_once, batch_many = Timing(), Timing()
    for attempt in range(runs + 1):
        for f in files:
            timed([script, "solve", str(f)], separate[f.name] if attempt else Timing())
        timed([script, "solve", "--jsonl"], batch_once if attempt else Timing(), once)
        timed([script, "solve", "--jsonl"], batch_many if attempt else Timing(), many)
    with open(many, "rb") as stdin:
        replies = subprocess.run(
            [script, "solve", "--jsonl"],
            stdin=stdin,
            capture_output=True,
            timeout=900,
            check=False,
        )
    alone = [
        json.loads(
            subprocess.run(
                [script, "solve", str(f), "--json"],
                capture_output=True,
                timeout=HARD_TIMEOUT_S,
                check=False,
            ).stdout
        )
        for f in files
    ]
    got = [json.loads(line) for line in replies.stdout.decode().splitlines()]
    same = [strip_stats(a) == strip_stats(b) for a, b in zip(alone * passes, got, strict=False)]
    count = len(files)
    wall = sum(t.median_wall() for t in separate.values()) / count
    cpu = sum(t.median_cpu() for t in separate.values()) / count
    return {
        "layouts": count,
        "passes": passes,
        "separate_s": {name: t.median_wall() for name, t in separate.items()},
        "separate_per_scenario_s": wall,
        "separate_per_scenario_cpu_s": cpu,
        "once_per_scenario_s": batch_once.median_wall() / count,
        "once_per_scenario_cpu_s": batch_once.median_cpu() / count,
        "many_per_scenario_s": batch_many.median_wall() / (count * passes),
        "many_per_scenario_cpu_s": batch_many.median_cpu() / (count * passes),
        "jsonl_runs": {"once": batch_once.wall_s, "many": batch_many.wall_s},
        "same_answers": all(same) and len(got) == count * passes,
        "jsonl_exit": replies.returncode,
    }


def machine_line() -> str:
    """The machine in one line (`run_speed.machine`), with the load average at the end."""
    about = machine()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"{about['nproc']} cores ({about['cpu']}), {about['memory']}, Python {about['python']}, "
        f"OR-Tools {about['ortools']}, load average at the end {load}"
    )


def curve_table(rows: list[dict[str, Any]], runs: int) -> list[str]:
    """Per kind, the whole command by size, its ratio to the floor and to 10 models."""
    out = [
        "",
        f"Medians of {runs} runs after a warm-up, each paired with a run of the import floor",
        f'(`python -c "{FLOOR}"`) just before it. Whole `chargeopt solve',
        "FILE` (default flags: roll table on, 20 s limit), start-up included; status and counts",
        "from one more run, every answer re-checked by `chargeopt check` (exit 0 = legal).",
        "",
        "| kind | models | whole command | CPU (user+sys) | import floor | × floor | × 10 models "
        "| status | objective / bound | check |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    ten = {r["kind"]: r["solve_s"] for r in rows if r["models"] == 10}
    for r in rows:
        objective = ", ".join(
            f"{k} {v:g}" for k, v in r.get("objective", {}).items() if not k.endswith("_in")
        )
        bound = ", ".join(f"{v:g}" for v in r.get("bound", {}).values())
        of_ten = f"{r['solve_s'] / ten[r['kind']]:.1f}" if r["kind"] in ten else ""
        out.append(
            f"| {r['kind']} | {r['models']} | {r['solve_s']:.2f} s | {r['solve_cpu_s']:.2f} s "
            f"| {r['floor_s']:.2f} s | {r['solve_s'] / r['floor_s']:.1f} | {of_ten} "
            f"| {r['status']} | {objective or '-'} / {bound or '-'} | {r['check_exit']} |"
        )
    return out


def report(rows: list[dict[str, Any]], quick: dict[str, Any] | None, runs: int) -> str:
    """The Markdown table for RESULTS.md: per kind, the whole command by size, its ratio to the
    floor and to the 10-model layout of its kind; then the --jsonl line."""
    out = [f"Machine: {machine_line()}."]
    if rows:
        out += curve_table(rows, runs)
    if quick is not None:
        count, passes = quick["layouts"], quick["passes"]
        base_wall, base_cpu = quick["separate_per_scenario_s"], quick["separate_per_scenario_cpu_s"]
        out += [
            "",
            f"`--jsonl` over the quick suite ({count} layouts, default flags), per scenario: one "
            "`chargeopt solve FILE` each, against one `solve --jsonl` process fed the suite once "
            f"(its start-up shared by {count}) and {passes} times over ({count * passes} lines, "
            f"as an engine that keeps the process sees it); medians of {runs}, in turn:",
            "",
            "| way | wall per scenario | speed-up | CPU per scenario | speed-up | same answers |",
            "|---|---|---|---|---|---|",
            f"| one command per scenario | {base_wall:.3f} s | 1 | {base_cpu:.3f} s | 1 | |",
        ]
        for key, way in (("once", "`--jsonl`, the suite once"), ("many", f"`--jsonl`, x{passes}")):
            wall, cpu = quick[f"{key}_per_scenario_s"], quick[f"{key}_per_scenario_cpu_s"]
            out.append(
                f"| {way} | {wall:.3f} s | {base_wall / wall:.1f}x | {cpu:.3f} s "
                f"| {base_cpu / cpu:.1f}x | {'yes' if quick['same_answers'] else 'NO'} |"
            )
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--runs", type=int, default=3, help="counted runs (default 3)")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--no-jsonl", action="store_true", help="skip the --jsonl comparison")
    parser.add_argument("--no-curve", action="store_true", help="only the --jsonl comparison")
    parser.add_argument(
        "--passes", type=int, default=10, help="times --jsonl is fed the quick suite (10)"
    )
    parser.add_argument("--layouts", type=Path, default=LAYOUTS)
    parser.add_argument("--report", type=Path, default=DEFAULT_REPORT)
    parser.add_argument("--json", type=Path, default=None, help="every run, as JSON")
    args = parser.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    unknown = set(kinds) - set(KINDS)
    if unknown:
        parser.error(f"unknown kinds {sorted(unknown)}; choose from {', '.join(KINDS)}")
    sizes = [int(s) for s in args.sizes.split(",") if s]
    script = chargeopt_command()[0]
    paths = write_layouts(kinds, sizes, args.layouts)
    rows = [] if args.no_curve else curve(script, paths, args.runs)
    with tempfile.TemporaryDirectory() as tmp:
        quick = (
            None
            if args.no_jsonl
            else jsonl_against_separate(script, args.runs, Path(tmp), args.passes)
        )
    text = report(rows, quick, args.runs)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(text, encoding="utf-8")
    if args.json is not None:
        args.json.write_text(json.dumps({"curve": rows, "jsonl": quick}, indent=1) + "\n")
    print(text)
    failed = any(r["check_exit"] not in (0, None) for r in rows) or (
        quick is not None and not quick["same_answers"]
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
