"""Rewrite the stored answers the rank-and-file mutation test breaks: `chargeopt solve` of
every layout of the two rank-and-file suites, kept to the keys `check` reads (action, status,
blocks). A layout the suite knows as `refused` (the command exits 2: e.g. a charge that cannot
be declared) has no answer to break; it is skipped and any stale answer removed. Run from the
repository root: python tests/data/rank_and_file_answers/regenerate.py"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

HERE = Path(__file__).parent
CHARGEOPT = str(Path(sys.executable).with_name("chargeopt"))
SUITES = ("rank-and-file-v1", "rank-and-file-wheel-v1")


def refused(suite: str) -> set[str]:
    """The layouts of a suite its manifest knows the command refuses."""
    manifest = tomllib.loads(Path("benchmarks", suite, "suite.toml").read_text())
    return {e["file"] for e in manifest["layouts"] if e.get("known") == "refused"}


def main() -> None:
    for suite in SUITES:
        skipped = refused(suite)
        for layout in sorted(Path("benchmarks", suite).glob("*.toml")):
            if layout.name == "suite.toml":
                continue
            path = HERE / suite / f"{layout.stem}.json"
            with tempfile.TemporaryDirectory() as tmp:
                out = Path(tmp, "r.json")
                run = subprocess.run(
                    [CHARGEOPT, "solve", str(layout), "-o", str(out)],
                    check=False,
                    capture_output=True,
                    text=True,
                )
                if layout.name in skipped:
                    if run.returncode != 2:
                        sys.exit(f"{layout}: known refused, but solve exited {run.returncode}")
                    path.unlink(missing_ok=True)
                    continue
                if not out.exists():
                    sys.exit(f"{layout}: no answer (exit {run.returncode}): {run.stderr}")
                doc = json.loads(out.read_text())
            kept = {k: doc[k] for k in ("format", "ruleset", "action", "status", "blocks")}
            path.parent.mkdir(exist_ok=True)
            path.write_text(json.dumps(kept, indent=1) + "\n")


if __name__ == "__main__":
    main()
