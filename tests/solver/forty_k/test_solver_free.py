"""A charge whose greedy meets the proven ceilings is answered without loading CP-SAT (issue 45
item 1), and that answer is the one CP-SAT gives."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from repo_paths import LAYOUTS

from chargeopt.models import Status
from chargeopt.solver import load_scenario, solve
from chargeopt.solver.core.matching import _augmenting_paths
from chargeopt.solver.options import SolveOptions

EXAMPLE = LAYOUTS / "examples" / "marines-charge-open.toml"
ONE_ON_ONE = LAYOUTS / "quick-v1" / "q1-one-on-one.toml"

PROBE = """
import json, sys
from chargeopt.solver import load_scenario, solve
from chargeopt.solver.options import SolveOptions
from chargeopt.solver.verify import verified
scenario = load_scenario(sys.argv[1])
result = verified(scenario, solve(scenario, options=SolveOptions(workers=1)))
heavy = [m for m in ("ortools", "scipy", "pandas") if m in sys.modules]
print(json.dumps({"status": result.status.value, "objective": dict(result.objective),
                  "violations": len(result.violations), "heavy": heavy}))
"""


def _probe(path) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    ("path", "contact", "engaged"),
    [(EXAMPLE, 3, 5), (ONE_ON_ONE, 1, 1)],
)
def test_a_settled_charge_loads_no_solver(path, contact: int, engaged: int) -> None:
    """The README's example (three 25mm cultists: the straight line lets 3 touch, all 5 reach
    engagement) and one model against one: proven optimal, checked, and neither OR-Tools nor
    scipy nor pandas was imported by the process."""
    out = _probe(path)
    assert out["heavy"] == []
    assert out["status"] == "optimal"
    assert out["violations"] == 0
    assert (out["objective"]["base_contact"], out["objective"]["engaged"]) == (contact, engaged)


@pytest.mark.parametrize("path", [EXAMPLE, ONE_ON_ONE])
def test_the_settled_answer_is_cp_sats(path) -> None:
    """Without the heuristic starts (CP-SAT's model of every rule decides), the status, the
    counts, the bound and the minimum roll are the same."""
    scenario = load_scenario(path)
    quick = solve(scenario, options=SolveOptions(workers=1))
    searched = solve(scenario, options=SolveOptions(workers=1, use_hint=False))
    assert quick.status == searched.status == Status.OPTIMAL
    for key in ("base_contact", "engaged"):
        assert quick.objective[key] == searched.objective[key]
        assert quick.bound[key] == searched.bound[key]
    assert quick.min_roll == searched.min_roll


def test_numpy_matching_is_least_cost() -> None:
    """The numpy matching against every permutation of random 6x6 costs, ties included."""
    import itertools

    import numpy as np

    rng = np.random.default_rng(7)
    for _ in range(40):
        cost = rng.integers(0, 5, size=(6, 6)).astype(np.int64)
        mate = _augmenting_paths(cost)
        assert sorted(mate.tolist()) == list(range(6))
        best = min(sum(cost[r, p[r]] for r in range(6)) for p in itertools.permutations(range(6)))
        assert cost[np.arange(6), mate].sum() == best
