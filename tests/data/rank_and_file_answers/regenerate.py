"""Rewrite the stored answers the rank-and-file mutation test breaks: `chargeopt solve` of
every layout of the two rank-and-file suites, kept to the keys `check` reads (action, status,
blocks). Run from the repository root: python tests/data/rank_and_file_answers/regenerate.py"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
CHARGEOPT = str(Path(sys.executable).with_name("chargeopt"))
SUITES = ("rank-and-file-v1", "rank-and-file-wheel-v1")


def main() -> None:
    for suite in SUITES:
        for layout in sorted(Path("benchmarks", suite).glob("*.toml")):
            if layout.name == "suite.toml":
                continue
            with tempfile.TemporaryDirectory() as tmp:
                out = Path(tmp, "r.json")
                subprocess.run(
                    [CHARGEOPT, "solve", str(layout), "-o", str(out)],
                    check=False,
                    capture_output=True,
                )
                doc = json.loads(out.read_text())
            kept = {k: doc[k] for k in ("format", "ruleset", "action", "status", "blocks")}
            path = HERE / suite / f"{layout.stem}.json"
            path.parent.mkdir(exist_ok=True)
            path.write_text(json.dumps(kept, indent=1) + "\n")


if __name__ == "__main__":
    main()
