"""The 40k-assault-4e charge by a randomised greedy with restarts, independent of the solver's
candidates and orders (geometry, models and the checker only). Each restart follows seed 001:
the model nearest the charged unit (a tie: any tied model) into base contact with the nearest
enemy model, then model after model in a random order, each ending within 2" of a model already
moved on a random spot of the best preference open to it (a new enemy model, an engaged one,
within 2" of an engaged mate, within 2" of a moved mate). Spots are sampled densely: contact
rings, notches against two bases, and 2" chain spots around moved mates. Paths go around the
bases standing at that moment (mates moved at their ends, mates not yet moved at their starts,
every other model). Every answer is re-checked; the best by the solver's objective is kept."""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

import numpy as np
from shapely.geometry import Point

from chargeopt.geometry import Battlefield, Footprint
from chargeopt.geometry.checker import check_placement
from chargeopt.geometry.circles import circle_crossings
from chargeopt.geometry.distance_matrix import edge_distances
from chargeopt.geometry.obstacles import grown_obstacle
from chargeopt.geometry.paths import ObstacleMap, obstacle_map
from chargeopt.models import (
    Placement,
    Result,
    ResultAction,
    RoundBase,
    Scenario,
    Status,
    TerrainKind,
    UnsupportedRuleError,
    assault_range_of,
)
from chargeopt.solver.assault_4e.answer import counted, fighters

MATES_BLOCK = True
"""Whether paths go around unit mates (issue 40: the seed's "models may not move through each
other"), as the solver's steps (`solver/assault_4e/mates.py`) and the checker
(`moved_through_model`) read it; False only to compare with the reading before issue 40."""
RESTARTS = 48
"""Restarts of a bench run (each a whole charge), unless the time limit ends them sooner."""
RING_RANDOM = 60
"""Random angles per contact ring, besides every `RING_STEP_DEG`."""
RING_STEP_DEG = 6.0
"""The fixed angles of every ring (the checker's witnesses stand on them)."""
CHAIN_RANDOM = 80
"""Random 2" chain spots around each moved mate."""
CONTACT_GAP_IN = 0.0025
"""A contact spot's gap to the enemy base (written to 0.001", it stays within 0.005")."""
TOUCH_IN = 0.004
"""A base this close to an enemy base (as written) touches it."""
RANGE_KEPT_IN = 0.012
"""Kept inside the assault range (and the difficult roll)."""
APART_KEPT_IN = 0.011
"""Kept beyond the 1" of an enemy unit not charged, and inside the board."""
CHAIN_KEPT_IN = 0.016
"""Kept inside the 2" chain and the 2" of an engaged mate (two written positions)."""
BASES_APART_IN = 0.002
"""Two bases never stand closer than this (rounding moves each by 0.0007")."""
DECIMALS = 3
"""Spots stand on the result's 0.001" grid, so they are judged as written."""

End = tuple[float, float, tuple[str, ...], float]
"""Where a model ends: x, y, the enemy models it touches, how far it moved."""


@dataclass
class _Table:
    """The charge's fixed facts: the unit, its range, the charged models and what else stands."""

    scenario: Scenario
    battlefield: Battlefield
    range_in: float
    roll: int | None
    avoid: tuple[str, ...]
    foes: dict[str, Footprint]
    others: list[Footprint]
    no_go: list[Footprint]
    maps: dict[tuple, tuple[ObstacleMap, ObstacleMap | None]] = field(default_factory=dict)

    def start(self, mid: str) -> Footprint:
        unit = self.scenario.acting_unit
        m = next(m for m in unit.models if m.id == mid)
        return Footprint(unit.base_of(m), m.x, m.y, m.z, m.facing)


def solve_random_greedy(
    scenario: Scenario,
    *,
    restarts: int = RESTARTS,
    seed: int = 0,
    time_limit_s: float = math.inf,
    mates_block: bool = MATES_BLOCK,
    check_every: bool = False,
) -> Result:
    """The best of `restarts` random charges by (enemy models engaged, chargers in contact,
    one-attack supporters, least movement); only answers the checker accepts are kept.
    `feasible` with an answer, `unknown` without one. `mates_block=False` lets paths pass
    through unit mates (the reading before issue 40); `check_every`: every complete charge
    is checked, not only those better than the best (`refused_by_checker` counts them all)."""
    t0 = time.perf_counter()
    table = _table(scenario)
    rng = random.Random(seed)
    best: tuple[tuple, Result] | None = None
    tried = refused = complete = 0
    for _ in range(restarts):
        if time.perf_counter() - t0 > time_limit_s and tried:
            break
        tried += 1
        run = _one_charge(table, rng, mates_block)
        if run is None:
            continue
        complete += 1
        ends, order = run
        result = _result(scenario, ends, order)
        rank = _rank(result)
        if best is not None and rank <= best[0] and not check_every:
            continue
        if check_placement(scenario, result.placements, order=result.order):
            refused += 1
            continue
        if best is None or rank > best[0]:
            best = (rank, result)
    stats: dict[str, object] = {
        "method": "random greedy with restarts",
        "restarts": tried,
        "complete": complete,
        "checked": "every complete charge" if check_every else "each better one",
        "refused_by_checker": refused,
        "seconds": round(time.perf_counter() - t0, 3),
    }
    if best is None:
        return Result(
            scenario=scenario.name,
            ruleset=scenario.ruleset,
            action=ResultAction.of(scenario.action, None),
            status=Status.UNKNOWN,
            stats=stats,
        )
    return best[1].model_copy(update={"stats": stats})


def _rank(result: Result) -> tuple[int, int, int, float]:
    o = result.objective
    return (o["enemy_engaged"], o["base_contact"], o["one_attack"], -o["movement_in"])


def _table(scenario: Scenario) -> _Table:
    unit = scenario.acting_unit
    if not all(isinstance(unit.base_of(m), RoundBase) for m in unit.models):
        raise UnsupportedRuleError("the random-greedy method places round bases only")
    targets = set(scenario.action.targets)
    foes, others, no_go = {}, [], []
    for u in scenario.units:
        if u.id == unit.id:
            continue
        for m in u.models:
            fp = Footprint(u.base_of(m), m.x, m.y, m.z, m.facing)
            others.append(fp)
            if u.id in targets:
                foes[m.id] = fp
            elif u in scenario.enemies_of(unit):
                no_go.append(fp)
    avoid = tuple(sorted(u.id for u in scenario.enemies_of(unit) if u.id not in targets))
    return _Table(
        scenario,
        Battlefield.from_scenario(scenario),
        assault_range_of(unit, scenario.rules),
        scenario.action.difficult_roll,
        avoid,
        foes,
        others,
        no_go,
    )


def _one_charge(
    table: _Table, rng: random.Random, mates_block: bool
) -> tuple[dict[str, End], list[str]] | None:
    """One random charge: the ends and order, or None where a model finds no spot."""
    unit = table.scenario.acting_unit
    first, foe = _first(table, rng)
    ends: dict[str, End] = {}
    spots = _spots(table, ends, first, rng, mates_block)
    lead = [i for i, s in enumerate(spots) if foe in s[2]]
    if not lead:
        return None
    ends[first] = spots[rng.choice(lead)]
    order = [first]
    waiting = [m.id for m in unit.models if m.id != first]
    while waiting:
        rng.shuffle(waiting)
        for mid in waiting:
            spots = _spots(table, ends, mid, rng, mates_block)
            if spots:
                break
        else:
            return None
        engaged = {e for end in ends.values() for e in end[2]}
        cats = [_category(table, ends, s, engaged, table.start(mid)) for s in spots]
        top = min(cats)
        ends[mid] = rng.choice([s for s, c in zip(spots, cats, strict=True) if c == top])
        order.append(mid)
        waiting.remove(mid)
    return ends, order


def _first(table: _Table, rng: random.Random) -> tuple[str, str]:
    """The model nearest the primary target and the enemy model nearest it; ties at random."""
    primary = table.scenario.unit_by_id[table.scenario.action.targets[0]]
    foes = [table.foes[m.id] for m in primary.models]
    ids = [m.id for m in table.scenario.acting_unit.models]
    gaps = np.array([_gaps(table.start(mid), [], [], foes)[0] for mid in ids]).reshape(len(ids), -1)
    near = gaps.min(axis=1)
    who = rng.choice([i for i in range(len(ids)) if near[i] <= near.min() + 1e-9])
    whom = rng.choice([j for j in range(len(foes)) if gaps[who, j] <= near[who] + 1e-9])
    return ids[who], primary.models[whom].id


def _gaps(start: Footprint, xs, ys, others: list[Footprint]) -> np.ndarray:
    """Edge gaps from a base of `start`'s shape at each (x, y) (its start if none) to `others`."""
    xs = np.atleast_1d(np.asarray(xs if len(xs) else [start.x], float))
    ys = np.atleast_1d(np.asarray(ys if len(ys) else [start.y], float))
    return edge_distances(start.base, xs, ys, np.full(len(xs), start.facing), others)


def _category(
    table: _Table, ends: dict[str, End], spot: End, engaged: set[str], start: Footprint
) -> int:
    """The seed's preference a spot takes: 1 a new enemy model, 2 an engaged one, 3 within 2"
    of an engaged mate, 4 within 2" of a moved mate."""
    if any(e not in engaged for e in spot[2]):
        return 1
    if spot[2]:
        return 2
    support = table.scenario.rules.fight_support_range_in or 0.0
    mates = [_mate(table, m, e) for m, e in ends.items() if e[2]]
    if mates:
        gap = _gaps(start, [spot[0]], [spot[1]], mates).min()
        if gap <= support - CHAIN_KEPT_IN:
            return 3
    return 4


def _mate(table: _Table, mid: str, end: End) -> Footprint:
    start = table.start(mid)
    return Footprint(start.base, end[0], end[1], start.z, start.facing)


def _spots(
    table: _Table, ends: dict[str, End], mid: str, rng: random.Random, mates_block: bool
) -> list[End]:
    """Every sampled spot model `mid` may end on now: on the board, clear of every base and of
    the 1" of units not charged, in the 2" chain (after the first move), reached within its
    range along a path around what stands."""
    start = table.start(mid)
    unit = table.scenario.acting_unit
    moved = [_mate(table, m, e) for m, e in ends.items()]
    still = [table.start(m.id) for m in unit.models if m.id not in ends and m.id != mid]
    xs, ys = _sample(table, start, moved, still, rng)
    r = start.radius_in + APART_KEPT_IN
    bf = table.battlefield
    ok = (xs >= r) & (xs <= bf.width - r) & (ys >= r) & (ys <= bf.height - r)
    xs, ys = xs[ok], ys[ok]
    near = np.hypot(xs - start.x, ys - start.y) <= table.range_in
    xs, ys = xs[near], ys[near]
    ok = np.ones(len(xs), bool)
    for group, gap in ((table.others, BASES_APART_IN), (moved + still, BASES_APART_IN)):
        if group and len(xs):
            ok &= (_gaps(start, xs, ys, group) >= gap).all(axis=1)
    if table.no_go and len(xs):
        limit = table.scenario.rules.engagement_range_in + APART_KEPT_IN
        ok &= (_gaps(start, xs, ys, table.no_go) > limit).all(axis=1)
    if moved and len(xs):
        limit = table.scenario.rules.coherency_range_in - CHAIN_KEPT_IN
        ok &= (_gaps(start, xs, ys, moved) <= limit).any(axis=1)
    xs, ys = xs[ok], ys[ok]
    if not len(xs):
        return []
    lengths = _lengths(table, mid, start, moved + still if mates_block else [], xs, ys)
    keep = np.isfinite(lengths)
    xs, ys, lengths = xs[keep], ys[keep], lengths[keep]
    ids = list(table.foes)
    touch = _gaps(start, xs, ys, list(table.foes.values())) <= TOUCH_IN if ids else None
    return [
        (
            float(xs[i]),
            float(ys[i]),
            tuple(ids[j] for j in np.flatnonzero(touch[i])) if touch is not None else (),
            float(lengths[i]),
        )
        for i in range(len(xs))
    ]


def _sample(
    table: _Table,
    start: Footprint,
    moved: list[Footprint],
    still: list[Footprint],
    rng: random.Random,
) -> tuple[np.ndarray, np.ndarray]:
    """Contact rings (every `RING_STEP_DEG` and at random), notches where a contact ring
    meets the ring of a base it could stand against, and random spots in the 2" chain."""
    r = start.radius_in
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    fixed = np.radians(np.arange(0.0, 360.0, RING_STEP_DEG))

    def ring(cx: float, cy: float, d: np.ndarray, angles: np.ndarray) -> None:
        xs.append(cx + d * np.cos(angles))
        ys.append(cy + d * np.sin(angles))

    beside = [*table.others, *moved, *still]
    for foe in table.foes.values():
        if math.hypot(foe.x - start.x, foe.y - start.y) > table.range_in + r + foe.radius_in + 1:
            continue
        d = r + foe.radius_in + CONTACT_GAP_IN
        angles = np.concatenate(
            [fixed, np.array([rng.uniform(0, 2 * math.pi) for _ in range(RING_RANDOM)])]
        )
        ring(foe.x, foe.y, np.full(len(angles), d), angles)
        for other in beside:
            if other is foe:
                continue
            e = r + other.radius_in + BASES_APART_IN + 0.001
            for px, py in circle_crossings(foe.x, foe.y, d, other.x, other.y, e):
                xs.append(np.array([px]))
                ys.append(np.array([py]))
    reach = table.scenario.rules.coherency_range_in - CHAIN_KEPT_IN
    support = (table.scenario.rules.fight_support_range_in or 0.0) - CHAIN_KEPT_IN
    for mate in moved:
        base = r + mate.radius_in
        ring(mate.x, mate.y, np.full(len(fixed), base + 1.0), fixed)
        n = CHAIN_RANDOM
        gaps = np.array(
            [rng.uniform(BASES_APART_IN + 0.001, max(reach, support)) for _ in range(n)]
        )
        angles = np.array([rng.uniform(0, 2 * math.pi) for _ in range(n)])
        ring(mate.x, mate.y, base + gaps, angles)
        if moved:
            far = np.full(len(fixed) // 2, base + reach - 0.002)
            ring(mate.x, mate.y, far, fixed[::2] + rng.uniform(0, math.radians(12.0)))
    if not xs:
        return np.empty(0), np.empty(0)
    return (
        np.round(np.concatenate(xs), DECIMALS),
        np.round(np.concatenate(ys), DECIMALS),
    )


def _lengths(
    table: _Table,
    mid: str,
    start: Footprint,
    standing: list[Footprint],
    xs: np.ndarray,
    ys: np.ndarray,
) -> np.ndarray:
    """Path lengths to (xs, ys) around terrain, other units' models, the 1" of units not
    charged and the `standing` mates; difficult terrain by the difficult roll; inf beyond the
    range (`RANGE_KEPT_IN` kept)."""
    through, dry = _maps(table, mid, start, standing)
    reach = table.range_in
    length = through.path_field((start.x, start.y), within_in=reach).lengths_to(xs, ys)
    if dry is None:
        return np.where(length <= reach - RANGE_KEPT_IN, length, np.inf)
    dry_length = dry.path_field((start.x, start.y), within_in=reach).lengths_to(xs, ys)
    slowed = min(reach, table.roll) if table.roll is not None else -math.inf
    return np.where(
        dry_length <= reach - RANGE_KEPT_IN,
        dry_length,
        np.where(length <= slowed - RANGE_KEPT_IN, length, np.inf),
    )


def _maps(
    table: _Table, mid: str, start: Footprint, standing: list[Footprint]
) -> tuple[ObstacleMap, ObstacleMap | None]:
    """The mover's obstacles with the standing mates' bases grown by its radius (those a path
    within its range may meet), and the same out of difficult terrain (None without any)."""
    base = obstacle_map(table.scenario, table.battlefield, mid, avoid_engagement_of=table.avoid)
    clear = base.mover.clearance_in
    reach = table.range_in + clear
    near = [
        fp
        for fp in standing
        if math.hypot(fp.x - start.x, fp.y - start.y) <= reach + fp.radius_in + 1e-6
    ]
    key = (
        clear,
        round(start.x, 6),
        round(start.y, 6),
        tuple((f.x, f.y, f.radius_in) for f in near),
    )
    if key not in table.maps:
        if len(table.maps) > 256:
            table.maps.clear()
        mates = [
            grown_obstacle(f"mate:{i}", Point(f.x, f.y), f.radius_in + clear)
            for i, f in enumerate(near)
        ]
        _, _, x1, y1 = base.bounds
        w, h = x1 + clear, y1 + clear
        through = ObstacleMap(base.mover, w, h, [*base.obstacles, *mates])
        difficult = table.battlefield.of_kind(TerrainKind.DIFFICULT)
        dry = None
        if difficult:
            extra = [grown_obstacle(p.id, p.shape, clear) for p in difficult]
            dry = ObstacleMap(base.mover, w, h, [*through.obstacles, *extra])
        table.maps[key] = (through, dry)
    through, dry = table.maps[key]
    return through.for_mover(base.mover), None if dry is None else dry.for_mover(base.mover)


def _result(scenario: Scenario, ends: dict[str, End], order: list[str]) -> Result:
    """The answer as written: x, y on the 0.001" grid, contacts, moves, who fights."""
    unit = scenario.acting_unit
    placements = tuple(
        Placement(
            model=m.id,
            x=ends[m.id][0],
            y=ends[m.id][1],
            z=m.z,
            moved=round(ends[m.id][3], DECIMALS),
            contact=ends[m.id][2],
        )
        for m in unit.models
    )
    fight = fighters(scenario, placements)
    return Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=ResultAction.of(scenario.action, None),
        status=Status.FEASIBLE,
        objective=counted(placements, fight),
        placements=placements,
        order=tuple(order),
        fighters=fight,
    )
