"""Starts from a packing of the engagement bands (`solver.packing_seeds`) and the repacked
front of the continuous repair (`engaged_repair._repack`): on scaling-v1 c30-walls-s1 the
candidates' best has 17 models within engagement range of at most 18, and the repacked front
has the 18th."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from repo_paths import REPO_ROOT

from chargeopt.geometry import Battlefield
from chargeopt.models import Status, load_scenario
from chargeopt.solver import solve
from chargeopt.solver.core import clock
from chargeopt.solver.forty_k.packing_seeds import OVERLAP_IN, packed_seeds
from chargeopt.solver.options import SolveOptions

LAYOUT = REPO_ROOT / "benchmarks/layouts/scaling-v1/c30-walls-s1.toml"
D_IN = 32 / 25.4
"""Centre to centre, two 32mm bases touching."""
SECTOR_REACH_IN = 0.05
"""A seed on a contact sector stands at the sector's centre; the sector's nearest point is
within the roll (a start for the repair, not a placement)."""


@pytest.fixture(scope="module")
def walls():
    scenario = load_scenario(LAYOUT)
    return scenario, Battlefield.from_scenario(scenario)


def test_seeds_place_one_more_model_in_the_bands(walls) -> None:
    scenario, battlefield = walls
    seeds = packed_seeds(scenario, battlefield, 7, 9, 18, (clock.now() + 30, 20.0, 0))
    assert seeds is not None
    assert len(seeds.centres) == 18
    assert len(seeds.contact) == 9
    targets = {m.id: (m.x, m.y) for m in scenario.unit_by_id["B"].models}
    starts = {m.id: (m.x, m.y) for m in scenario.acting_unit.models}
    for mid, xy in seeds.centres.items():
        gap = min(math.dist(xy, t) for t in targets.values()) - D_IN
        assert -0.01 <= gap <= 1.0
        assert math.dist(xy, starts[mid]) <= 7.0 + SECTOR_REACH_IN
        if mid in seeds.contact:
            assert abs(math.dist(xy, targets[seeds.contact[mid]]) - D_IN) <= 0.01
    xy = np.array(list(seeds.centres.values()))
    apart = np.hypot(*(xy[:, None] - xy[None]).transpose(2, 0, 1)) + 9 * np.eye(len(xy))
    assert apart.min() >= D_IN - OVERLAP_IN - 0.01
    assert set(seeds.centres) == {f"A{i}" for i in range(1, 19)}


def test_no_seeds_for_more_models_than_reach_the_bands(walls) -> None:
    scenario, battlefield = walls
    assert packed_seeds(scenario, battlefield, 7, 9, 19, (clock.now() + 30, 5.0, 0)) is None


def test_the_repacked_front_engages_an_18th_model() -> None:
    scenario = load_scenario(LAYOUT)
    options = SolveOptions(roll_table=False, time_limit_s=10.0)
    plain = solve(scenario, options=options)
    assert plain.status == Status.FEASIBLE
    assert (plain.objective["base_contact"], plain.objective["engaged"]) == (9, 17)
    assert plain.bound == {"base_contact": 9, "engaged": 18}
    result = solve(scenario, options=replace(options, repair=True))
    assert result.status == Status.OPTIMAL
    assert not result.violations
    assert (result.objective["base_contact"], result.objective["engaged"]) == (9, 18)
    repair = result.stats["repair"]
    assert repair["engaged"] == {"candidates": 17, "repaired": 18}
    assert len(repair["added"]) - len(repair["left"]) == 1
    assert result.stats["bound_scope"] == "continuous"
