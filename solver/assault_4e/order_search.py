"""A search over orders of moves for the charge: seeded random walks, each a whole legal order
(every step at the best category open to its model, as the seed orders them), where the next
model and its spot are drawn at random among those that keep the seed's preference, steered
toward the enemy models not yet engaged: a move that touches no enemy model (or only engaged
ones) is drawn nearer such a model, so that the 2" chain bridges out to it. The walks find
orders the plan and the greedy miss (a second model standing between the first and a far enemy
model so that a third can reach it)."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from chargeopt.solver.assault_4e.order import End, first_spots
from chargeopt.solver.assault_4e.sequence import NO_SPOT, Charge, Spots, State, options_at
from chargeopt.solver.core import clock

WALK_STEPS = 480
"""Single-model moves the walks of one charge may take in all (a 10-model unit walks 48
orders, a 20-model one 24)."""
MIN_WALKS = 8
"""Walks of a charge whatever its size."""

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
) -> tuple[dict[str, End], list[str]] | None:
    """The best complete order of the walks by `rank` (None if no walk completes); stops at
    `goal` (a ceiling), the step budget or `deadline`."""
    rng = random.Random(seed)
    ids = [m.id for m in charge.unit.models]
    walks = max(MIN_WALKS, WALK_STEPS // max(len(ids), 1))
    leads = first_spots(charge, first, foe)
    if not len(leads):
        return None
    best: tuple[tuple, dict[str, End], list[str]] | None = None
    for _ in range(walks):
        if clock.now() > deadline:
            break
        run = _walk(charge, first, leads, ids, rng)
        if run is None:
            continue
        key = rank(run[0])
        if best is None or key > best[0]:
            best = (key, *run)
            if key >= goal:
                break
    return None if best is None else (best[1], best[2])


def _walk(
    charge: Charge, first: str, leads: np.ndarray, ids: list[str], rng: random.Random
) -> tuple[dict[str, End], list[str]] | None:
    """One random order: the first model on a random spot touching its enemy model, then a
    random model with a spot open, on a drawn spot of its best category."""
    sp = charge.spots[first]
    ends = {first: _end(sp, _lead(charge, sp, leads, rng))}
    state = State({first: ends[first][:3]})
    order = [first]
    waiting = [m for m in ids if m != first]
    while waiting:
        rng.shuffle(waiting)
        for mid in waiting:
            cats, spots = options_at(charge, state, mid)
            if len(cats) and cats.min() < NO_SPOT:
                break
        else:
            return None
        i = _draw(charge, state, cats, spots, rng)
        ends[mid] = _end(spots, i)
        state.ends[mid] = ends[mid][:3]
        order.append(mid)
        waiting.remove(mid)
    return ends, order


def _lead(charge: Charge, sp: Spots, leads: np.ndarray, rng: random.Random) -> int:
    """The first model's spot: the shortest, one nearest an enemy model of the unit still
    free, or any, at random."""
    pick = rng.random()
    if pick < 0.25:
        return int(leads[np.argmin(sp.moved[leads])])
    if pick < 0.6:
        return int(leads[np.argmin(_to_free(charge, State(), sp, leads, rng))])
    return int(rng.choice(list(leads)))


def _draw(charge: Charge, state: State, cats: np.ndarray, sp: Spots, rng: random.Random) -> int:
    """A spot of the best category open, touching the most enemy models not yet engaged: the
    shortest, the nearest a free enemy model (a bridge), or any, at random."""
    best = int(cats.min())
    idx = np.flatnonzero(cats == best)
    engaged = state.engaged
    fresh = np.array([sum(e not in engaged for e in sp.touches[i]) for i in idx])
    idx = idx[fresh == fresh.max()]
    pick = rng.random()
    if pick < 0.3:
        return int(idx[np.argmin(sp.moved[idx])])
    if pick < 0.75:
        return int(idx[np.argmin(_to_free(charge, state, sp, idx, rng))])
    return int(rng.choice(list(idx)))


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
