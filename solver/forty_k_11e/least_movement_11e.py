"""The least-movement tie break of the 11th edition's moves (charge, heroic intervention, pile
in, consolidation), shared by them: it only ever lowers total movement while every model keeps
each count it counts on and every rule holds. Steps, repeated until none helps: each model
(longest move first) to the nearest shorter spot; a model onto a shorter spot one mate blocks,
that mate moving on to a spot where it keeps its counts; the spots in use re-given to the
models of each base by least total movement. Limits are counts, never seconds."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core.cpsat_blocks import assign_models

SHORTER_BY_IN = 0.01
"""A step must shorten the total movement by more than this (it always ends)."""
PUSH_LOOK = 24
"""Shorter spots a model looks at for a push, nearest first (a count, not seconds)."""
PUSH_ROUNDS = 64
"""Pushes one search may take (a count, not seconds)."""

Placed = dict[str, int]


@dataclass
class MoveRules:
    """What one move keeps while its movement is shortened: the flags of each ordered count
    per model (`flags[level][model index]`, a spot's mask), the models that may not move, and
    the rules: `fits(placed, mid)` tells whether `mid` may stand on a spot with the rest as
    placed, `legal(placed)` checks the whole, `key(placed)` the counts."""

    c: cand.Candidates
    index: dict[str, int]
    flags: list[list[np.ndarray]]
    pinned: dict[str, int]
    fits: Callable[[Placed, str], Callable[[int], bool]]
    legal: Callable[[Placed], bool]
    key: Callable[[Placed], tuple[float, ...]]
    classes: dict[int, list[str]] | None
    limit_in: float

    def moved(self, placed: Placed) -> float:
        return float(sum(self.c.reach[m][p] for m, p in placed.items()))

    def keeping(self, placed: Placed, mid: str, below_in: float = np.inf) -> np.ndarray:
        """The spots `mid` reaches with a move shorter than `below_in` where it counts on
        every level it counts on now, nearest first."""
        i, lengths = self.index[mid], self.c.reach[mid]
        ok = lengths < below_in
        for level in self.flags:
            if level[i][placed[mid]]:
                ok &= level[i]
        idx = np.flatnonzero(ok)
        return idx[np.argsort(lengths[idx], kind="stable")]


def shortest(rules: MoveRules, placed: Placed) -> Placed:
    """`placed` (legal) with its total movement lowered by relocations, pushes and matching,
    its counts never lower."""
    start = rules.key(placed)
    pushes = [PUSH_ROUNDS]
    while True:
        before = rules.moved(placed)
        placed = _relocate(rules, placed)
        placed = _matched(rules, placed, start)
        pushed = _push(rules, placed, pushes)
        if pushed is not None:
            placed = pushed
        if rules.moved(placed) >= before - SHORTER_BY_IN:
            return placed


def _free(rules: MoveRules, placed: Placed) -> list[str]:
    """The models that may move, longest move first."""
    free = [m for m in placed if m not in rules.pinned]
    return sorted(free, key=lambda m: (-rules.c.reach[m][placed[m]], m))


def _relocate(rules: MoveRules, placed: Placed) -> Placed:
    """First improvement: each model to the nearest shorter spot that keeps its counts and
    every rule."""
    current = dict(placed)
    improved = True
    while improved:
        improved = False
        for mid in _free(rules, current):
            below = rules.c.reach[mid][current[mid]] - SHORTER_BY_IN
            fits = rules.fits(current, mid)
            for q in rules.keeping(current, mid, below).tolist():
                if fits(q):
                    current, improved = {**current, mid: q}, True
                    break
    return current


def _matched(rules: MoveRules, placed: Placed, start: tuple[float, ...]) -> Placed:
    """The spots in use given to the models of each base by least total movement, when the
    models of a base are interchangeable and the result is legal, counts as well and moves
    less."""
    if rules.classes is None:
        return placed
    matched = assign_models(
        rules.c, list(placed.values()), rules.classes, rules.pinned, rules.limit_in
    )
    if (
        set(matched) != set(placed)
        or not rules.legal(matched)
        or rules.key(matched) < start
        or rules.moved(matched) >= rules.moved(placed) - SHORTER_BY_IN
    ):
        return placed
    return matched


def _push(rules: MoveRules, placed: Placed, pushes: list[int]) -> Placed | None:
    """One model onto a shorter spot that exactly one movable mate stands on or overlaps, the
    mate moving on to a spot where it keeps its counts, the whole legal and shorter; None if
    no such pair within the remaining `pushes`."""
    c = rules.c
    total = rules.moved(placed)
    for mid in _free(rules, placed):
        below = c.reach[mid][placed[mid]] - SHORTER_BY_IN
        for q in rules.keeping(placed, mid, below)[:PUSH_LOOK].tolist():
            mate = _only_blocker(rules, placed, q, mid)
            if mate is None:
                continue
            if pushes[0] <= 0:
                return None
            pushes[0] -= 1
            trial = {**placed, mid: q}
            saved = c.reach[mid][placed[mid]] - c.reach[mid][q]
            budget = c.reach[mate][placed[mate]] + saved - SHORTER_BY_IN
            fits = rules.fits(trial, mate)
            for r in rules.keeping(placed, mate, budget).tolist():
                if r == q:
                    continue
                moved = {**trial, mate: r}
                if fits(r) and rules.legal(moved) and rules.moved(moved) < total - SHORTER_BY_IN:
                    return moved
    return None


def _only_blocker(rules: MoveRules, placed: Placed, q: int, mid: str) -> str | None:
    """The one model other than `mid` standing on or overlapping spot `q`, if exactly one and
    it may move."""
    standing = {p: m for m, p in placed.items() if m != mid}
    blockers = {standing[r] for r in rules.c.conflict_lists[q].tolist() if r in standing}
    if q in standing:
        blockers.add(standing[q])
    if len(blockers) != 1:
        return None
    mate = blockers.pop()
    return None if mate in rules.pinned else mate
