"""A search over orders of moves for the charge: seeded random walks, each a whole legal order
(every step at the best category open to its model, as the seed orders them), where the next
model and its spot are drawn at random among those that keep the seed's preference, steered
toward the enemy models not yet engaged: a move that touches no enemy model (or only engaged
ones) is drawn nearer such a model, so that the 2" chain bridges out to it. The walks find
orders the plan and the greedy miss (a second model standing between the first and a far enemy
model so that a third can reach it)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from chargeopt.geometry import Footprint
from chargeopt.geometry.circles import circle_crossings
from chargeopt.solver.assault_4e.contact_plan import ContactPlan
from chargeopt.solver.assault_4e.order import End, first_model_spots, first_spots
from chargeopt.solver.assault_4e.sequence import NO_SPOT, Charge, Spots, State, options_at
from chargeopt.solver.core import clock
from chargeopt.solver.core.tolerances import APART_IN, CONTACT_GAP_IN, JSON_DECIMALS, MARGIN_IN

WALK_STEPS = 800
"""Single-model moves the walks of one charge may take in all (a 5-model unit walks 160
orders, a 10-model one 80), within the solve's deadline on its clock: a sampled
eight-marine charge (seed 0, sampled-06) found its sixth contact only past 240, at 15 s of
its clock's 20 (each step charges `sequence.STEP_COST_S`; it took 5.6 s on the wall)."""
MIN_WALKS = 6
"""Whole orders a charge of more than `LARGE_UNIT` models walks in all."""
LARGE_UNIT = 15
"""Units of more models than this walk only `MIN_WALKS` orders (a walk of a5-twenty costs
about 0.3-0.5 s with mates blocking; the contact plan packs such units better than
chance)."""


def moves_budget(models: int) -> int:
    """Single-model moves the order search of a charge by `models` models may take in all."""
    return WALK_STEPS if models <= LARGE_UNIT else MIN_WALKS * models
SUPPORT = 3
"""The first category that touches no enemy model."""

Rank = Callable[[dict[str, End]], tuple]
"""An answer's rank, higher better (the charge's objective)."""


def random_walks(
    charge: Charge,
    first: str,
    foe: str,
    rank: Rank,
    goal: tuple,
    deadline: float,
    seed: int = 0,
    plan: ContactPlan | None = None,
    *,
    steps: int | None = None,
) -> tuple[dict[str, End], list[str]] | None:
    """The best complete order of the walks by `rank` (None if no walk completes); stops at
    `goal` (a ceiling), once `steps` single-model moves are taken (`moves_budget` if None;
    a walk that finds no spot counts the moves it took) or at `deadline`. With a contact
    `plan`, some moves are drawn among the planned spots."""
    rng = random.Random(seed)
    ids = [m.id for m in charge.unit.models]
    budget = moves_budget(len(ids)) if steps is None else steps
    leads = first_spots(charge, first, foe)
    if not len(leads):
        return None
    best: tuple[tuple, dict[str, End], list[str]] | None = None
    taken = 0
    while taken < budget:
        if clock.now() > deadline:
            break
        ends, order, complete = _walk(charge, first, leads, ids, rng, plan)
        taken += len(order)
        if not complete:
            continue
        run = (ends, order)
        key = rank(run[0])
        if best is None or key > best[0]:
            best = (key, *run)
            if key >= goal:
                break
    return None if best is None else (best[1], best[2])


def _walk(
    charge: Charge,
    first: str,
    leads: np.ndarray,
    ids: list[str],
    rng: random.Random,
    plan: ContactPlan | None,
) -> tuple[dict[str, End], list[str], bool]:
    """One random order: the first model on a random spot touching its enemy model, then a
    model with a spot open (at random, or those with the fewest contact spots first), on a
    drawn spot of its best category; the ends, the order and whether every model moved."""
    sp = first_model_spots(charge, first)
    ends = {first: _end(sp, _lead(charge, sp, leads, rng, _planned(plan, first)))}
    state = State({first: ends[first][:3]})
    order = [first]
    waiting = [m for m in ids if m != first]
    scarce = rng.random() < 0.5
    while waiting:
        rng.shuffle(waiting)
        if scarce:
            waiting.sort(key=lambda m: _contact_spots(charge, m))
        for mid in waiting:
            cats, spots = options_at(_with_snug(charge, state, mid), state, mid)
            if len(cats) and cats.min() < NO_SPOT:
                break
        else:
            return ends, order, False
        i = _draw(charge, state, cats, spots, rng, _planned(plan, mid))
        ends[mid] = _end(spots, i)
        state.ends[mid] = ends[mid][:3]
        order.append(mid)
        waiting.remove(mid)
    return ends, order, True


def _planned(plan: ContactPlan | None, mid: str) -> np.ndarray:
    """The static spot indices of the planned spots model `mid` reaches."""
    if plan is None:
        return np.empty(0, int)
    return np.array(sorted(plan.reach.get(mid, {}).values()), int)


def _contact_spots(charge: Charge, mid: str) -> int:
    """How many static spots of model `mid` touch an enemy model (few: move it early)."""
    return sum(1 for t in charge.spots[mid].touches if t)


def _lead(
    charge: Charge, sp: Spots, leads: np.ndarray, rng: random.Random, planned: np.ndarray
) -> int:
    """The first model's spot: a planned one, the shortest, one nearest an enemy model of the
    unit still free, or any, at random."""
    mine = np.intersect1d(leads, planned)
    if len(mine) and rng.random() < 0.3:
        return int(rng.choice(list(mine)))
    pick = rng.random()
    if pick < 0.25:
        return int(leads[np.argmin(sp.moved[leads])])
    if pick < 0.6:
        return int(leads[np.argmin(_to_free(charge, State(), sp, leads, rng))])
    return int(rng.choice(list(leads)))


def _draw(
    charge: Charge,
    state: State,
    cats: np.ndarray,
    sp: Spots,
    rng: random.Random,
    planned: np.ndarray,
) -> int:
    """A spot of the best category open, touching the most enemy models not yet engaged: a
    planned one, the shortest, the snuggest, the nearest a free enemy model (a bridge), or
    any, at random."""
    best = int(cats.min())
    idx = np.flatnonzero(cats == best)
    engaged = state.engaged
    fresh = np.array([sum(e not in engaged for e in sp.touches[i]) for i in idx])
    idx = idx[fresh == fresh.max()]
    mine = np.intersect1d(idx, planned)
    if len(mine) and rng.random() < 0.4:
        return int(rng.choice(list(mine)))
    pick = rng.random()
    if pick < 0.25:
        return int(idx[np.argmin(sp.moved[idx])])
    if pick < 0.45 and best < SUPPORT:
        return int(idx[np.argmin(_to_moved(charge, state, sp, idx, rng))])
    if pick < 0.8:
        return int(idx[np.argmin(_to_free(charge, state, sp, idx, rng))])
    return int(rng.choice(list(idx)))


def _to_moved(
    charge: Charge, state: State, sp: Spots, idx: np.ndarray, rng: random.Random
) -> np.ndarray:
    """Distance from each spot to the nearest moved model, with a little noise: the snuggest
    contact spots first, so that more models fit around an enemy model."""
    xs = np.array([e[0] for e in state.ends.values()])
    ys = np.array([e[1] for e in state.ends.values()])
    d = np.hypot(sp.x[idx, None] - xs, sp.y[idx, None] - ys).min(axis=1)
    return d + np.array([rng.uniform(0.0, 0.02) for _ in range(len(idx))])


def _with_snug(charge: Charge, state: State, mid: str) -> Charge:
    """The charge with model `mid`'s spots widened by the snug ones: where a contact ring
    meets the ring of a moved model's base (bases side by side) or the edge of the 1" no-go
    of a unit not charged, so that a packing is not lost between the rings' 2-degree spots."""
    start = charge.start(mid)
    if not start.is_round:
        return charge
    r = start.radius_in
    fences: list[tuple[float, float, float]] = []
    for m in state.ends:
        fp = charge.start(m)
        fences.append((state.ends[m][0], state.ends[m][1], r + fp.radius_in + 1.5 * APART_IN))
    no_go = charge.scenario.rules.engagement_range_in + MARGIN_IN + 0.001
    fences += [(fp.x, fp.y, r + fp.radius_in + no_go) for fp in charge.non_targets if fp.is_round]
    xs: list[float] = []
    ys: list[float] = []
    for foe in charge.targets:
        if not foe.is_round or _far(start, foe, charge.range_in):
            continue
        d = r + foe.radius_in + CONTACT_GAP_IN
        for fx, fy, e in fences:
            for px, py in circle_crossings(foe.x, foe.y, d, fx, fy, e):
                xs.append(px)
                ys.append(py)
    if not xs:
        return charge
    x = np.round(np.array(xs), JSON_DECIMALS)
    y = np.round(np.array(ys), JSON_DECIMALS)
    moved = charge.lengths(mid, x, y)
    ok = np.isfinite(moved) & charge._clear(start, x, y)
    if not ok.any():
        return charge
    x, y, moved = x[ok], y[ok], moved[ok]
    own = charge.spots[mid]
    snug = Spots(
        np.concatenate([own.x, x]),
        np.concatenate([own.y, y]),
        np.concatenate([own.moved, moved]),
        [*own.touches, *charge.touching(start, x, y)],
    )
    return replace(charge, spots={**charge.spots, mid: snug})


def _far(start: Footprint, foe: Footprint, range_in: float) -> bool:
    reach = range_in + start.radius_in + foe.radius_in + 0.01
    return math.hypot(foe.x - start.x, foe.y - start.y) > reach


def _to_free(
    charge: Charge, state: State, sp: Spots, idx: np.ndarray, rng: random.Random
) -> np.ndarray:
    """Distance from each spot to one enemy model not yet engaged, drawn at random (to the
    nearest one when none is free), plus a little noise to break ties."""
    engaged = state.engaged
    free = [
        fp
        for (_, mid), fp in zip(charge.target_ids, charge.targets, strict=True)
        if mid not in engaged
    ] or list(charge.targets)
    foe = rng.choice(free)
    d = np.hypot(sp.x[idx] - foe.x, sp.y[idx] - foe.y)
    return d + np.array([rng.uniform(0.0, 0.05) for _ in range(len(idx))])


def _end(sp: Spots, i: int) -> End:
    return float(sp.x[i]), float(sp.y[i]), sp.touches[i], float(sp.moved[i])
