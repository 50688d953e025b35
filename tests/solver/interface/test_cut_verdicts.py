"""Every verdict printed after a time cut says what it is (issue 42): an answer offered before
its minimum roll was settled (`min_roll_proven` still null, smaller rolls open down to 3) and
cut by the time limit prints the minimum with the range it lies in, in words and in the JSON."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner
from repo_paths import REPO_ROOT

from chargeopt.solver import load_scenario, solve
from chargeopt.solver.core import progress
from chargeopt.solver.interface.cli import main

EXAMPLE = REPO_ROOT / "benchmarks/layouts/examples/marines-charge-open.toml"


@pytest.fixture
def cut_before_the_minimum_is_settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver offers the example's answer as it stands before the certificate (its
    minimum roll 5 not proven, the straight line leaving 3 open), then hangs past the limit."""
    real = solve(load_scenario(EXAMPLE))
    offered = real.model_copy(
        update={
            "min_roll_proven": None,
            "min_roll_at_least": None,
            "stats": {k: v for k, v in real.stats.items() if not k.startswith("min_roll_proof")}
            | {"min_roll_lower": 3, "min_roll_proven": False},
        }
    )

    def hang(*args: object, **kwargs: object) -> None:
        progress.stage("certificate")
        progress.answer(offered)
        time.sleep(60)

    monkeypatch.setattr("chargeopt.solver.api.solve", hang)


@pytest.mark.usefixtures("cut_before_the_minimum_is_settled")
def test_a_cut_minimum_roll_prints_its_range() -> None:
    done = CliRunner().invoke(main, ["solve", str(EXAMPLE), "--time-limit", "0.5"])
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    assert lines[1].startswith("Time limit")
    assert lines[2] == (
        "Minimum roll 5: 83.3% on 2D6, 97.2% with a re-roll (not proven: the minimum is 3 to 5)"
    )


@pytest.mark.usefixtures("cut_before_the_minimum_is_settled")
def test_a_cut_minimum_roll_is_not_proven_in_the_json() -> None:
    done = CliRunner().invoke(main, ["solve", str(EXAMPLE), "--time-limit", "0.5", "--json"])
    payload = json.loads(done.stdout)
    assert payload["stats"]["cut_short"]["by"] == "time limit"
    assert (payload["min_roll"], payload["min_roll_proven"]) == (5, False)
    assert payload["min_roll_at_least"] == 3
