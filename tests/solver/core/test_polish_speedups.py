"""The faster polishing and fight counting answer exactly as the plain versions they replace:
the coherency test against a whole-matrix check with networkx, the engagement test against
one target at a time, and `fighters` against building every unit's bases on each call."""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np
import pytest
from builders import BARRICADE, make_scenario

from chargeopt.geometry import Battlefield
from chargeopt.geometry.fight import engaged_pairs, fighters, supports
from chargeopt.geometry.move_state import footprint_at_end, footprint_at_start
from chargeopt.geometry.pairs import Bases, engagement
from chargeopt.geometry.token_engagement import token_pairs
from chargeopt.models import Placement, RoundBase, Scenario
from chargeopt.solver.core.candidates import engagement_limits, surroundings
from chargeopt.solver.core.polish import Pose, _Around, _engaged, _Group
from chargeopt.solver.core.tolerances import MARGIN_IN, PAIR_MARGIN_IN

PILE_IN = {"kind": "pile-in", "unit": "A", "charged": True}


def _scenario(
    rng: np.random.Generator, ruleset: str, *, enemy_base: str = "32mm", action=PILE_IN
) -> Scenario:
    attackers = [(float(rng.uniform(17, 21)), float(rng.uniform(7, 13))) for _ in range(6)]
    defenders = {
        "B": [(float(rng.uniform(21.5, 24)), float(rng.uniform(7, 13))) for _ in range(3)],
        "C": [(float(rng.uniform(21.5, 24)), float(rng.uniform(7, 13))) for _ in range(4)],
    }
    terrain: list[dict[str, Any]] = [BARRICADE] if rng.random() < 0.5 else []
    return make_scenario(
        attackers, defenders, ruleset=ruleset, enemy_base=enemy_base, terrain=terrain, action=action
    )


def _placements(rng: np.random.Generator, s: Scenario) -> dict[str, Placement]:
    """Most of the unit moved near the enemy (some left where they stand), some raised."""
    out = {}
    for m in s.acting_unit.models:
        if rng.random() < 0.2:
            continue
        out[m.id] = Placement(
            model=m.id,
            x=float(rng.uniform(19, 23)),
            y=float(rng.uniform(7, 13)),
            z=float(rng.choice([0.0, 0.0, 0.0, 3.0])),
            facing=float(rng.uniform(0, 360)),
        )
    return out


def _reference_pairs(s: Scenario, placements, battlefield) -> frozenset[tuple[str, str]]:
    unit = s.acting_unit
    mine = Bases.of([footprint_at_end(unit, m, placements.get(m.id)) for m in unit.models])
    ids = [m.id for m in unit.models]
    pairs: set[tuple[str, str]] = set()
    for enemy in s.enemies_of(unit):
        theirs = Bases.of([footprint_at_start(enemy, m) for m in enemy.models])
        reach = engagement(mine, theirs, s.rules, battlefield)
        for i, j in zip(*np.nonzero(reach.engaged), strict=True):
            pairs.add((ids[i], enemy.models[j].id))
    return frozenset(pairs | token_pairs(s, placements, battlefield))


def _reference_fighters(s: Scenario, placements, battlefield) -> dict[str, tuple[str, ...]]:
    unit = s.acting_unit
    ids = [m.id for m in unit.models]
    engaged = _reference_pairs(s, placements, battlefield)
    unit_of = {m.id: u.id for u in s.units for m in u.models}
    can = {i: {unit_of[e] for a, e in engaged if a == i} for i in ids}
    mine = Bases.of([footprint_at_end(unit, m, placements.get(m.id)) for m in unit.models])
    friends = supports(s, mine, mine)
    np.fill_diagonal(friends, False)
    for enemy in s.enemies_of(unit):
        theirs = Bases.of([footprint_at_start(enemy, m) for m in enemy.models])
        near = supports(s, mine, theirs).any(axis=1)
        helped = friends[:, near].any(axis=1)
        for i in np.nonzero(helped)[0]:
            can[ids[i]].add(enemy.id)
    order = [u.id for u in s.units]
    return {i: tuple(sorted(can[i], key=order.index)) for i in ids}


@pytest.mark.parametrize("enemy_base", ["32mm", "60x35mm"])
@pytest.mark.parametrize("ruleset", ["40k-9e", "40k-10e"])
def test_fighters_match_the_plain_count(ruleset: str, enemy_base: str) -> None:
    """Random layouts (some across a barricade, some raised, ovals among the enemy): the
    same engaged pairs and the same units for every model; many layouts do fight."""
    rng = np.random.default_rng(7)
    fought = 0
    for _ in range(40):
        s = _scenario(rng, ruleset, enemy_base=enemy_base)
        battlefield = Battlefield.from_scenario(s)
        for _ in range(5):
            placed = _placements(rng, s)
            want = _reference_fighters(s, placed, battlefield)
            assert fighters(s, placed, battlefield) == want
            assert engaged_pairs(s, placed, battlefield) == _reference_pairs(s, placed, battlefield)
            fought += sum(1 for f in want.values() if f)
    assert fought > 100


def test_fighters_remember_each_scenario_by_identity() -> None:
    """Two scenarios alike but for where the enemy stands, asked in turn: each is answered
    from its own layout."""
    near = make_scenario([(20.0, 10.0)], {"B": [(21.4, 10.0)]}, action=PILE_IN)
    far = make_scenario([(20.0, 10.0)], {"B": [(25.0, 10.0)]}, action=PILE_IN)
    for _ in range(3):
        for s, want in ((near, ("B",)), (far, ())):
            assert fighters(s, {}, Battlefield.from_scenario(s)) == {"A1": want}


def _reference_coherent(s: Scenario, poses: dict[str, Pose], mid: str, k: int) -> bool:
    """The whole-matrix check polishing made before (overlap, k links each, one group)."""
    rules, unit = s.rules, s.acting_unit
    ids = list(poses)
    radii = np.array([unit.base_of(s.model_index[i][1]).circumradius_in for i in ids])
    xy = np.array([(poses[i].x, poses[i].y) for i in ids])
    z = np.array([poses[i].z for i in ids])
    gap = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    gap -= radii[:, None] + radii[None, :]
    same_level = np.abs(z[:, None] - z[None, :]) < 0.01
    me = ids.index(mid)
    if ((gap[me] < 0.0) & same_level[me] & (np.arange(len(ids)) != me)).any():
        return False
    near = (gap <= rules.coherency_range_in - PAIR_MARGIN_IN) & (
        np.abs(z[:, None] - z[None, :]) <= rules.coherency_vertical_in
    )
    np.fill_diagonal(near, False)
    if k and (near.sum(axis=1) < k).any():
        return False
    return len(ids) == 1 or nx.is_connected(nx.from_numpy_array(near.astype(int)))


@pytest.mark.parametrize("n", [1, 2, 5, 8])
def test_group_matches_the_whole_matrix_check(n: int) -> None:
    """Random units, one model moved to random spots: overlap and coherency agree, and both
    answers occur."""
    rng = np.random.default_rng(n)
    seen = set()
    for _ in range(30):
        pts = [(float(rng.uniform(10, 14)), float(rng.uniform(10, 14))) for _ in range(n)]
        s = make_scenario(pts, {"B": [(30.0, 10.0)]}, action=PILE_IN)
        poses = {
            m.id: Pose(m.x, m.y, float(rng.choice([0.0, 0.0, 3.0, 6.0])), 0.0, 0.0)
            for m in s.acting_unit.models
        }
        mid = str(rng.choice(list(poses)))
        group = _Group(s, poses, mid)
        for _ in range(20):
            x, y = float(rng.uniform(9, 15)), float(rng.uniform(9, 15))
            trial = {**poses, mid: Pose(x, y, poses[mid].z, 0.0, 0.0)}
            for k in {0, 1, 2, s.rules.coherency_neighbours(n)}:
                want = _reference_coherent(s, trial, mid, k)
                assert group.holds(x, y, k) == want
                seen.add(want)
    assert seen == {True, False} or n == 1


def _reference_engaged(pose: Pose, base: RoundBase, around, battlefield, rules) -> set[str]:
    if not around.targets:
        return set()
    limits = engagement_limits(
        np.array([pose.x]), np.array([pose.y]), around.targets, battlefield, rules
    )[0]
    gaps = [
        max(0.0, np.hypot(pose.x - t.x, pose.y - t.y) - base.radius_in - t.radius_in)
        for t in around.targets
    ]
    return {
        uid
        for (uid, _), t, gap, lim in zip(
            around.target_ids, around.targets, gaps, limits, strict=True
        )
        if gap <= lim - MARGIN_IN and abs(t.z - pose.z) <= rules.engagement_vertical_in
    }


@pytest.mark.parametrize("ruleset", ["40k-9e", "40k-10e"])
def test_engaged_matches_one_target_at_a_time(ruleset: str) -> None:
    """Random spots near two target units (some across a barricade, some raised): the same
    target units engaged."""
    rng = np.random.default_rng(3)
    found = 0
    for _ in range(20):
        s = _scenario(rng, ruleset, action={**PILE_IN, "targets": ["B", "C"]})
        battlefield = Battlefield.from_scenario(s)
        plain = surroundings(s)
        around = _Around.of(plain)
        base = s.acting_unit.base_of(s.acting_unit.models[0])
        for _ in range(20):
            pose = Pose(
                float(rng.uniform(19, 23)),
                float(rng.uniform(7, 13)),
                float(rng.choice([0.0, 0.0, 6.0])),
                0.0,
                0.0,
            )
            want = _reference_engaged(pose, base, plain, battlefield, s.rules)
            assert _engaged(pose, base, around, battlefield, s.rules) == want
            found += bool(want)
    assert found > 50
