"""The local searches' one-model move tests answer exactly as the full ones: `satisfies_all` on
the moved placement (also from placements that already break a rule), and the close moves'
score of it."""

from __future__ import annotations

import numpy as np
import pytest
from repo_paths import REPO_ROOT

from chargeopt.geometry import Battlefield
from chargeopt.solver import load_scenario
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core.greedy import _OneMove, best_completion, greedy_packing, satisfies_all
from chargeopt.solver.forty_k.close_fight import _Scorer
from chargeopt.solver.forty_k.close_moves import CloseMove, Goal
from chargeopt.solver.options import SolveOptions

LAYOUTS = REPO_ROOT / "benchmarks" / "layouts"
TRIALS = 400


@pytest.mark.parametrize("layout", ["speed-v1/c10-walls-s1.toml", "curated-v1/k3-two-targets.toml"])
def test_one_move_agrees_with_the_full_check(layout: str) -> None:
    scenario = load_scenario(LAYOUTS / layout)
    roll = scenario.action.roll
    c = cand.generate(scenario, Battlefield.from_scenario(scenario), roll, SolveOptions())
    k = scenario.rules.coherency_neighbours(len(scenario.acting_unit.models))
    placed = best_completion(c, scenario, roll, greedy_packing(c, scenario, roll), k)
    assert placed is not None and satisfies_all(c, scenario, placed, k)
    rng = np.random.default_rng(7)
    ids = sorted(placed)
    agreed = accepted = 0
    overlapping = int(c.conflict_lists[placed[ids[0]]][0])
    starts = (placed, {**placed, ids[1]: placed[ids[0]]}, {**placed, ids[1]: overlapping})
    for start in starts:
        for _ in range(TRIALS):
            mid = ids[int(rng.integers(len(ids)))]
            near = c.coherent_lists[start[mid]]
            q = (
                int(rng.choice(near))
                if len(near) and rng.random() < 0.8
                else int(rng.integers(len(c)))
            )
            full = satisfies_all(c, scenario, {**start, mid: q}, k)
            assert _OneMove(c, scenario, start, mid, k)(q) == full, (mid, q)
            agreed += 1
            accepted += full
    assert agreed == len(starts) * TRIALS
    assert accepted > 0


@pytest.mark.parametrize("layout", ["p20-two-units-9e.toml", "p10-wall-10e.toml"])
def test_moving_score_agrees_with_the_full_count(layout: str) -> None:
    """The close moves' scorer of one model's move counts as the whole placement's."""
    scenario = load_scenario(LAYOUTS / "pile-in-v1" / layout)
    move = CloseMove(scenario, Battlefield.from_scenario(scenario))
    c = move.candidates(SolveOptions(), Goal())
    score = _Scorer(move, c, Goal())
    rng = np.random.default_rng(11)
    ids = [m.id for m in move.unit.models]
    fighting = 0
    for _ in range(60):
        placed = {m: int(p) for m, p in zip(ids, rng.choice(len(c), len(ids)), strict=True)}
        mid = ids[int(rng.integers(len(ids)))]
        key = score.moving(placed, mid)
        for q in [*rng.choice(len(c), 30).tolist(), *placed.values()]:
            want = score.key({**placed, mid: q})
            assert key(q) == want, (mid, q)
            fighting += want[1]
    assert fighting > 0
