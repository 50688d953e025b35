"""Which layouts of a suite a solve settles without loading CP-SAT (issue 45): each layout is
solved in a fresh process with the command's defaults (the roll table on, or off with
`--no-roll-table`), its answer re-checked, and the process asked whether OR-Tools, scipy or
pandas was imported. `python -m chargeopt.solver.bench.solver_free SUITE_DIR... [--workers N]
[--no-roll-table]` prints one Markdown table per suite."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from chargeopt.solver.bench.suite import load_suite

HEAVY = ("ortools", "scipy", "pandas")

PROBE = """
import json, sys
HEAVY = ("ortools", "scipy", "pandas")
from chargeopt.solver.core.lazy_ortools import prefer_without_pandas
prefer_without_pandas()
from chargeopt import load_scenario, solve, SolveOptions
from chargeopt.solver.verify import verified
from chargeopt.models import ChargeoptError
options = SolveOptions(workers=int(sys.argv[2]), roll_table=sys.argv[3] == "table")
try:
    scenario = load_scenario(sys.argv[1])
    result = verified(scenario, solve(scenario, options=options))
except ChargeoptError:
    print(json.dumps({"status": "refused", "objective": {}, "violations": 0, "loaded": []}))
    raise SystemExit(0)
print(json.dumps({
    "status": result.status.value,
    "objective": dict(result.objective),
    "violations": len(result.violations),
    "loaded": [m for m in HEAVY if m in sys.modules],
}))
"""


def probe(path: Path, workers: int, roll_table: bool) -> dict[str, object]:
    """One layout solved in a fresh process: its status, objective, violations and which of
    `HEAVY` the process imported."""
    args = [sys.executable, "-c", PROBE, str(path), str(workers), "table" if roll_table else "-"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        return {"status": "error", "objective": {}, "violations": 0, "loaded": ["?"]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def report(directory: str, workers: int, roll_table: bool) -> str:
    """The Markdown table of one suite, with the count of layouts settled without CP-SAT."""
    suite = load_suite(directory)
    rows = ["| layout | status | objective | loaded |", "|---|---|---|---|"]
    free = 0
    for layout in suite.layouts:
        out = probe(layout.path, workers, roll_table)
        objective = ", ".join(f"{k} {v}" for k, v in out["objective"].items())
        loaded = ", ".join(out["loaded"]) or "none"
        free += out["status"] != "refused" and "ortools" not in out["loaded"]
        rows.append(f"| {layout.file} | {out['status']} | {objective} | {loaded} |")
    head = f"{suite.name}: {free} of {len(suite.layouts)} layouts without OR-Tools"
    return "\n".join([head, "", *rows, ""])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suites", nargs="+")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-roll-table", action="store_true")
    args = parser.parse_args(argv)
    for directory in args.suites:
        print(report(directory, args.workers, not args.no_roll_table), flush=True)


if __name__ == "__main__":
    main()
