"""The assault-4e-v1 suite is frozen: its manifest's hashes match, its generator writes it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from chargeopt.solver import load_scenario
from chargeopt.solver.bench.suite import load_suite

SUITE = Path(__file__).resolve().parents[3] / "benchmarks" / "assault-4e-v1"


def test_manifest_hashes_match_and_every_layout_loads() -> None:
    """Seven layouts, each hash checked, each a 40k-assault-4e scenario."""
    suite = load_suite(SUITE)
    assert suite.name == "assault-4e-v1" and suite.version == 1 and len(suite.layouts) == 7
    for lay in suite.layouts:
        assert load_scenario(lay.path).ruleset[0] == "40k-assault-4e"


def test_generator_writes_the_committed_files(tmp_path: Path) -> None:
    """The generator run again changes no byte."""
    before = {p.name: p.read_bytes() for p in SUITE.glob("*.toml")}
    subprocess.run([sys.executable, str(SUITE / "generate.py")], check=True)
    assert {p.name: p.read_bytes() for p in SUITE.glob("*.toml")} == before
