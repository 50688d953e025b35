"""Two-move chains for the close-combat moves' local search: a model that cannot fight takes a
spot where it would, which one friend stands on or overlaps, and that friend moves on to a spot
that keeps the counts rising. Where the unit's front is full (pile-in-v1 p20-two-units: every
spot from which the last two models could fight was taken), one model at a time never gets
there, and CP-SAT's search for the last models took the whole time limit."""

from __future__ import annotations

import numpy as np

from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core.greedy import _OneMove
from chargeopt.solver.core.tolerances import ROLL_MARGIN_IN
from chargeopt.solver.forty_k.close_moves import CloseMove

CHAIN_DEPTH = 3
"""Models moved by one chain at most (the first included)."""
CHAIN_WIDTH = 6
"""Spots tried for each model a chain moves on past the first (nearest first)."""
CHAIN_SCANS = 64
"""Scans of a model's spots one search for a chain may make: a count, not seconds, so that the
answer does not depend on the machine (pile-in-v1 p20-two-units found its chains in 27; a
unit that cannot improve, p5-line-9e, had spent 2,772, 6 s, before this cap)."""


def chain_move(
    move: CloseMove,
    c: cand.Candidates,
    placed: dict[str, int],
    k: int,
    score,
) -> dict[str, int] | None:
    """A legal placement with better counts (the objectives' order) than `placed`, reached by
    moving one model that cannot fight onto a fightable spot held by exactly one friend and
    that friend elsewhere (or on, in turn, through up to `CHAIN_DEPTH` models); None if no
    such chain improves."""
    best = score.key(placed)
    fightable = score.fightable(placed)
    used = set(placed.values())
    standing = {p: mid for mid, p in placed.items()}
    reach = {mid: c.reach[mid] <= move.limit_in - ROLL_MARGIN_IN for mid in placed}
    scans = [CHAIN_SCANS]
    for mid, p in placed.items():
        if mid in move.fixed or score.direct[p] or not score.near[p].isdisjoint(used):
            continue
        lengths = c.reach[mid]
        spots = np.flatnonzero(reach[mid] & fightable)
        for q in spots[np.argsort(lengths[spots], kind="stable")].tolist():
            friend = _only_blocker(c, standing, q, mid)
            if friend is None or friend in move.fixed:
                continue
            trial = {**placed, mid: q}
            found = _move_on(c, move, trial, friend, reach, k, score, best, scans)
            if found is not None or scans[0] <= 0:
                return found
    return None


def _only_blocker(c: cand.Candidates, standing: dict[int, str], q: int, mid: str) -> str | None:
    """The one model other than `mid` that stands on or overlaps spot `q`, if exactly one."""
    blockers = {standing[r] for r in c.conflict_lists[q].tolist() if r in standing}
    if q in standing:
        blockers.add(standing[q])
    blockers.discard(mid)
    return blockers.pop() if len(blockers) == 1 else None


def _move_on(c, move, trial, friend, reach, k, score, best, scans, depth=CHAIN_DEPTH):
    """`trial` with `friend` moved to the nearest spot it reaches that keeps every rule and
    beats `best`, or, `depth` allowing, to one of the nearest `CHAIN_WIDTH` fightable spots held
    by exactly one other model that then moves on; None if no chain improves. `scans` holds
    the scans left (`CHAIN_SCANS`), one spent here."""
    scans[0] -= 1
    key = score.moving(trial, friend)
    fits = _OneMove(c, move.untargeted, trial, friend, k)
    lengths = c.reach[friend]
    spots = np.flatnonzero(reach[friend])
    spots = spots[np.argsort(lengths[spots], kind="stable")]
    for r in spots.tolist():
        if key(r) > best and fits(r):
            return {**trial, friend: r}
    if depth <= 1 or scans[0] <= 0:
        return None
    standing = {p: mid for mid, p in trial.items() if mid != friend}
    fightable = score.fightable({m: p for m, p in trial.items() if m != friend})
    tried = 0
    for r in spots[fightable[spots]].tolist():
        other = _only_blocker(c, standing, r, friend)
        if other is None or other in move.fixed or trial[other] == trial[friend]:
            continue
        trial_on = {**trial, friend: r}
        found = _move_on(c, move, trial_on, other, reach, k, score, best, scans, depth - 1)
        if found is not None or scans[0] <= 0:
            return found
        tried += 1
        if tried >= CHAIN_WIDTH:
            return None
    return None
