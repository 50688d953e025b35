"""Orders of single-model moves: the first model's move, the best category open at each step of
an order, and the greedy that places model after model by the seed's preferences."""

from __future__ import annotations

import numpy as np

from chargeopt.geometry.distance_matrix import edge_distances
from chargeopt.solver.assault_4e.mates import around_mates
from chargeopt.solver.assault_4e.sequence import (
    NO_SPOT,
    Charge,
    Spots,
    State,
    options_at,
    standing_at,
)
from chargeopt.solver.core.tolerances import APART_IN

End = tuple[float, float, tuple[str, ...], float]
"""Where a model ends: x, y, the target models it touches, how far it moved."""


def judged(charge: Charge, ends: dict[str, End], order: list[str]) -> list[int]:
    """The best category open to each model at its step, replaying `order`."""
    state = State()
    best = []
    for k, mid in enumerate(order):
        if k == 0:
            best.append(1)
        else:
            cats, _ = options_at(charge, state, mid)
            best.append(int(cats.min()) if len(cats) else NO_SPOT)
        state.ends[mid] = ends[mid][:3]
    return best


def first_spot(charge: Charge, first: str, foe: str) -> End | None:
    """The first model's move: the shortest into base contact with `foe`, clear of every unit
    mate still standing; None if there is none."""
    sp = first_model_spots(charge, first)
    idx = first_spots(charge, first, foe)
    if not len(idx):
        return None
    k = idx[np.argmin(sp.moved[idx])]
    return float(sp.x[k]), float(sp.y[k]), sp.touches[k], float(sp.moved[k])


def first_spots(charge: Charge, first: str, foe: str) -> np.ndarray:
    """Indices of the first model's spots in base contact with `foe`, clear of every unit
    mate still standing and reached along a path around them (`first_lengths`)."""
    sp = charge.spots[first]
    start = charge.start(first)
    idx = np.array([i for i, t in enumerate(sp.touches) if foe in t], dtype=int)
    still = [charge.start(m.id) for m in charge.unit.models if m.id != first]
    if len(idx) and still:
        gaps = edge_distances(
            start.base, sp.x[idx], sp.y[idx], np.full(len(idx), start.facing), still
        )
        idx = idx[(gaps >= APART_IN / 2).all(axis=1)]
    moved = first_lengths(charge, first)
    return idx[np.isfinite(moved[idx])]


def first_model_spots(charge: Charge, first: str) -> Spots:
    """The first model's spots with their move lengths around its unit mates."""
    sp = charge.spots[first]
    return Spots(sp.x, sp.y, first_lengths(charge, first), sp.touches)


def first_lengths(charge: Charge, first: str) -> np.ndarray:
    """The first model's move length to each of its spots, around every unit mate where it
    starts (inf where it cannot go); measured once per charge and model."""
    key = ("first", first)
    if key not in charge.first_cache:
        sp = charge.spots[first]
        which = np.array([bool(t) for t in sp.touches], bool)
        sp = around_mates(charge, first, standing_at(charge, State(), first), sp, which)
        charge.first_cache[key] = np.where(which, sp.moved, np.inf)
    return charge.first_cache[key]


def greedy_from(
    charge: Charge,
    ends: dict[str, End],
    order: list[str],
    queue: list[str],
    *,
    best_first: bool = True,
) -> tuple[dict[str, End], list[str], bool]:
    """Keep the moves of `order` and place the models of `queue` one at a time on a spot of
    the best category open (then touching most new enemies, then the shortest move). With
    `best_first` the next model is the one with the best spot open; else the first in
    `queue` that has a spot (the literal reading). Returns the ends, the order and whether
    every model found a spot."""
    ends = {m: ends[m] for m in order}
    order = list(order)
    state = State({m: ends[m][:3] for m in order})
    waiting = list(queue)
    while waiting:
        choice: tuple[tuple[int, int, float], str, End] | None = None
        for mid in waiting:
            cats, sp = options_at(charge, state, mid)
            if len(cats) == 0 or cats.min() >= NO_SPOT:
                continue
            best = int(cats.min())
            idx = np.flatnonzero(cats == best)
            engaged = state.engaged
            fresh = np.array([sum(e not in engaged for e in sp.touches[i]) for i in idx])
            k = idx[np.lexsort((sp.moved[idx], -fresh))[0]]
            rank = (best, -int(fresh.max()), float(sp.moved[k]))
            end = (float(sp.x[k]), float(sp.y[k]), sp.touches[k], float(sp.moved[k]))
            if choice is None or rank < choice[0]:
                choice = (rank, mid, end)
            if not best_first:
                break
        if choice is None:
            return ends, order, False
        _, mid, end = choice
        ends[mid] = end
        state.ends[mid] = end[:3]
        order.append(mid)
        waiting.remove(mid)
    return ends, order, True


def values(ends: dict[str, End]) -> tuple[int, int]:
    """Enemy models engaged and models in base contact."""
    engaged = {e for end in ends.values() for e in end[2]}
    return len(engaged), sum(1 for e in ends.values() if e[2])
