"""The construction that settles an 11th-edition pile in or consolidation without CP-SAT where it
can, as the 10th edition's close moves are settled (`solver.forty_k.close_fight`): proven
ceilings per count (each model that reaches a spot where it would count), a legal greedy
placement (the 11e charge's greedy toward the selected units), a local search moving one model
at a time onto a spot where it counts (the shared first-improvement search, plus the 11th's
9" span and the mode's after-move rule), and the least-movement tie break by the same search.
A placement that meets every ceiling is optimal over the candidates; any other is CP-SAT's
incumbent and hint."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core.cpsat_blocks import MOVE_SCALE
from chargeopt.solver.core.exact_limits import margin
from chargeopt.solver.core.greedy import _OneMove, satisfies_all
from chargeopt.solver.core.ordered_solve import SolveState, StageOutcome
from chargeopt.solver.core.tolerances import PAIR_MARGIN_IN, ROLL_MARGIN_IN
from chargeopt.solver.forty_k_11e.close_move_11e import CloseMove11e, Mode
from chargeopt.solver.forty_k_11e.heuristic import _gaps_from, greedy_11e
from chargeopt.solver.forty_k_11e.least_movement_11e import MoveRules, shortest

Counts = dict[str, float]
GREEDY_SEEDS = 6
"""Seeds of the greedy tried while the construction falls short of a ceiling (a count, not
seconds)."""
CHAIN_DEPTH = 3
"""Models one chain moves at most (the first included)."""
CHAIN_WIDTH = 6
"""Spots tried for each model a chain moves on past the second."""
CHAIN_LOOK = 48
"""Spots a chain looks at for each model it moves on past the second (nearest first)."""
CHAIN_SCANS = 64
"""Chains one search may try (a count, not seconds: the answer does not depend on the
machine)."""


@dataclass
class Levels:
    """Per model, the spots where it counts on each ordered level (the first: engaged with its
    closest selected unit, or within range of the objective; then engaged with any enemy
    unit, unless both count the same models); a count is the sum over models of their own
    spot's flag, so moving one model changes only its own terms."""

    names: list[str]
    flags: dict[str, list[np.ndarray]]

    def of(self, index: int, p: int) -> tuple[bool, ...]:
        return tuple(bool(self.flags[n][index][p]) for n in self.names)


def levels_of(move: CloseMove11e, c: cand.Candidates, names: list[str]) -> Levels:
    """The flags of each level named (`engaged_closest`, `on_objective`, `engaged`)."""
    engaged = np.array([bool(e) for e in c.engaged], dtype=bool)
    count = len(move.unit.models)
    flags: dict[str, list[np.ndarray]] = {}
    for name in names:
        if name == "engaged":
            flags[name] = [engaged] * count
        elif name == "on_objective":
            inside = np.zeros(len(c), bool)
            for b, base in enumerate(c.base_keys):
                at = np.flatnonzero(c.base_of == b)
                inside[at] = move.in_range(base, c.x[at], c.y[at])
            flags[name] = [inside] * count
        else:
            memo: dict[frozenset[str], np.ndarray] = {}
            rows = []
            for i in range(count):
                units = move.closest_units(i)
                if units not in memo:
                    memo[units] = np.array([bool(units & e) for e in c.engaged], dtype=bool)
                rows.append(memo[units])
            flags[name] = rows
    return Levels(names, flags)


def ceilings_of(
    move: CloseMove11e, c: cand.Candidates, levels: Levels, starts: dict[str, int]
) -> dict[str, int]:
    """A proven ceiling per level: the models that reach at least one spot where they would
    count (a fixed model only its start), under the same reach filter as the placements."""
    reach = move.limit_in - margin(ROLL_MARGIN_IN)
    out = {}
    for name in levels.names:
        most = 0
        for i, m in enumerate(move.unit.models):
            mask = levels.flags[name][i]
            if m.id in move.fixed:
                most += bool(mask[starts[m.id]])
            else:
                most += bool(((c.reach[m.id] <= reach) & mask).any())
        out[name] = most
    return out


class Settler:
    """The legal placements of one selection over its candidates, their counts, and the
    searches that improve them."""

    def __init__(
        self, move: CloseMove11e, c: cand.Candidates, levels: Levels, starts: dict[str, int]
    ):
        self.move, self.c, self.levels = move, c, levels
        self.index = {m.id: i for i, m in enumerate(move.unit.models)}
        self.pinned = {mid: starts[mid] for mid in move.fixed}
        self.k = move.rules.coherency_neighbours(len(move.unit.models))
        self.span = move.rules.coherency_unit_span_in
        self.within = move.limit_in - margin(ROLL_MARGIN_IN)
        self.engaged = np.array([bool(e) for e in c.engaged], dtype=bool)
        sel = move.selection
        self.inside = levels.flags["on_objective"][0] if "on_objective" in levels.flags else None
        self.must_engage = tuple(sel.targets) if sel.mode == Mode.ENGAGING else ()
        self.ceilings: dict[str, int] = {}
        """The proven ceilings, once known: a level that meets its ceiling seeks no chain."""

    def counts(self, placed: dict[str, int]) -> Counts:
        return {
            n: float(sum(self.levels.flags[n][self.index[m]][p] for m, p in placed.items()))
            for n in self.levels.names
        }

    def key(self, placed: dict[str, int]) -> tuple[float, ...]:
        return tuple(self.counts(placed).values())

    def after_move(self, spots: list[int]) -> bool:
        """The mode's rule on the unit after the move (as the CP-SAT model posts it)."""
        mode = self.move.selection.mode
        if mode == Mode.PILE_IN and not any(self.engaged[p] for p in spots):
            return False
        if mode == Mode.OBJECTIVE and not (self.inside is not None and self.inside[spots].any()):
            return False
        return all(any(u in self.c.engaged[p] for p in spots) for u in self.must_engage)

    def _spans(self, p: int, others: list[int]) -> bool:
        if self.span is None or not others:
            return True
        return bool((_gaps_from(self.c, p)[others] <= self.span - PAIR_MARGIN_IN).all())

    def legal(self, placed: dict[str, int]) -> bool:
        """Every rule the selection's CP-SAT model posts, with the span kept
        `PAIR_MARGIN_IN` inside 9"."""
        if set(placed) != set(self.index) or any(
            placed[mid] != p for mid, p in self.pinned.items()
        ):
            return False
        if any(not self.c.reach[m][p] <= self.within for m, p in placed.items()):
            return False
        spots = list(placed.values())
        if not satisfies_all(self.c, self.move.untargeted, placed, self.k):
            return False
        if any(not self._spans(p, spots[i + 1 :]) for i, p in enumerate(spots)):
            return False
        return self.after_move(spots)

    def fits(self, placed: dict[str, int], mid: str) -> Callable[[int], bool]:
        """Whether `placed` with model `mid` moved to a spot stays legal (`placed` is)."""
        one = _OneMove(self.c, self.move.untargeted, placed, mid, self.k)
        others = [p for m, p in placed.items() if m != mid]

        def ok(q: int) -> bool:
            return one(q) and self._spans(q, others) and self.after_move([*others, q])

        return ok

    def _search(self, placed, order, spots_for) -> dict[str, int]:
        """`first_improvement` with the 11th's span and after-move rules on every step."""
        current = dict(placed)
        improved = True
        while improved:
            improved = False
            for mid in order(current):
                fits = self.fits(current, mid)
                for q in spots_for(current, mid):
                    if fits(int(q)):
                        current, improved = {**current, mid: int(q)}, True
                        break
        return current

    def climb(self, placed: dict[str, int]) -> dict[str, int]:
        """Level by level, each model that does not count moves to the nearest spot where it
        does (and counts on every level before), while a move keeps every rule."""
        for depth, name in enumerate(self.levels.names):
            before = self.levels.names[:depth]

            def short(current: dict[str, int], name=name) -> list[str]:
                return [
                    m
                    for m, p in current.items()
                    if m not in self.pinned and not self.levels.flags[name][self.index[m]][p]
                ]

            def spots(current: dict[str, int], mid: str, name=name, before=before) -> np.ndarray:
                i = self.index[mid]
                lengths = self.c.reach[mid]
                ok = (lengths <= self.within) & self.levels.flags[name][i]
                for b in before:
                    if self.levels.flags[b][i][current[mid]]:
                        ok &= self.levels.flags[b][i]
                idx = np.flatnonzero(ok)
                return idx[np.argsort(lengths[idx], kind="stable")]

            while True:
                placed = self._search(placed, short, spots)
                if self.counts(placed)[name] >= self.ceilings.get(name, np.inf):
                    break
                chained = self._chain(placed, short, spots)
                if chained is None:
                    break
                placed = chained
        return placed

    def _chain(self, placed, short, spots) -> dict[str, int] | None:
        """A chain of moves where no single move helps (a full front, as the 10th's
        `close_chains`): a model that does not count takes a spot where it would, which one
        friend stands on or overlaps; that friend moves to a spot where it still counts on
        every level it counted on, or, up to `CHAIN_DEPTH` models, onto one held by exactly
        one other that moves on in turn; the whole kept legal. None if no chain within
        `CHAIN_SCANS` tries improves."""
        best = self.key(placed)
        scans = [CHAIN_SCANS]
        for mid in short(placed):
            for q in spots(placed, mid).tolist():
                friend = self._only_blocker(placed, q, (mid,))
                if friend is None:
                    continue
                trial = {**placed, mid: q}
                rest = [p for m, p in trial.items() if m not in (mid, friend)]
                if not self._spans(q, rest):
                    continue
                found = self._move_on(trial, friend, best, (mid,), CHAIN_DEPTH - 1, scans)
                if found is not None or scans[0] <= 0:
                    return found
        return None

    def _only_blocker(self, placed: dict[str, int], q: int, moved: tuple[str, ...]) -> str | None:
        """The one model not in `moved` standing on or overlapping spot `q`, if exactly one and
        it may move."""
        standing = {p: m for m, p in placed.items() if m not in moved}
        blockers = {standing[r] for r in self.c.conflict_lists[q].tolist() if r in standing}
        if q in standing:
            blockers.add(standing[q])
        if len(blockers) != 1:
            return None
        friend = blockers.pop()
        return None if friend in self.pinned else friend

    def _move_on(self, trial, friend, best, moved, depth, scans) -> dict[str, int] | None:
        """`trial` with `friend` on the nearest spot where it keeps its counts and the whole is
        legal and beats `best`; else, `depth` allowing, on one of the nearest `CHAIN_WIDTH`
        such spots held by exactly one other model, which moves on."""
        scans[0] -= 1
        fits = self.fits(trial, friend)
        keeping = self._keeping(trial, friend).tolist()
        for r in keeping:
            if fits(r) and self.key({**trial, friend: r}) > best:
                return {**trial, friend: r}
        if depth <= 1 or scans[0] <= 0:
            return None
        tried = 0
        chain = (*moved, friend)
        for r in keeping[:CHAIN_LOOK]:
            other = self._only_blocker(trial, r, chain)
            if other is None:
                continue
            rest = [p for m, p in trial.items() if m not in (friend, other)]
            if not self._spans(r, rest):
                continue
            found = self._move_on({**trial, friend: r}, other, best, chain, depth - 1, scans)
            if found is not None or scans[0] <= 0:
                return found
            tried += 1
            if tried >= CHAIN_WIDTH:
                return None
        return None

    def _keeping(self, placed: dict[str, int], mid: str) -> np.ndarray:
        """The spots `mid` reaches where it counts on every level it counts on now, nearest
        first."""
        i, lengths = self.index[mid], self.c.reach[mid]
        ok = lengths <= self.within
        for name in self.levels.names:
            if self.levels.flags[name][i][placed[mid]]:
                ok &= self.levels.flags[name][i]
        idx = np.flatnonzero(ok)
        return idx[np.argsort(lengths[idx], kind="stable")]

    def shorten(self, placed: dict[str, int]) -> dict[str, int]:
        """The least-movement tie break (`least_movement_11e.shortest`): each model keeps every
        level it counts on; where the movers share their goal, the spots are re-matched."""
        return shortest(self.move_rules(), placed)

    def move_rules(self) -> MoveRules:
        return MoveRules(
            c=self.c,
            index=self.index,
            flags=[self.levels.flags[n] for n in self.levels.names],
            pinned=self.pinned,
            fits=self.fits,
            legal=self.legal,
            key=self.key,
            classes=self._classes(),
            limit_in=self.move.limit_in,
        )

    def _classes(self) -> dict[int, list[str]] | None:
        """The movers by base, when they all share their closest selected units (then any of
        them counts the same on a spot); None otherwise."""
        movers = [m for m in self.move.unit.models if m.id not in self.pinned]
        goals = {self.move.closest_units(self.index[m.id]) for m in movers}
        if len(goals) > 1:
            return None
        classes: dict[int, list[str]] = {}
        for m in movers:
            classes.setdefault(self.c.base_keys.index(self.move.unit.base_of(m)), []).append(m.id)
        return classes

    def moved(self, placed: dict[str, int]) -> float:
        return float(sum(self.c.reach[m][p] for m, p in placed.items()))


def construct(
    settler: Settler, starts: dict[str, int], seed: int, ceilings: dict[str, int]
) -> tuple[dict[str, int], Counts] | None:
    """The best legal placement found: everyone where they stand, and the greedy toward all
    the selected units and toward each alone, each improved by `Settler.climb`; the greedy
    again under up to `GREEDY_SEEDS` seeds while nothing meets `ceilings`. None if none is
    legal."""
    move, c = settler.move, settler.c
    sel = move.selection
    settler.ceilings = ceilings
    best = None

    def consider(placed: dict[str, int]) -> None:
        nonlocal best
        if not settler.legal(placed):
            return
        placed = settler.climb(placed)
        key = (*settler.key(placed), -settler.moved(placed))
        if best is None or key > best[0]:
            best = (key, placed)

    consider(dict(starts))
    if not sel.targets:
        return None if best is None else (best[1], settler.counts(best[1]))
    first = settler.levels.names[0]
    near = np.logical_or.reduce(settler.levels.flags[first])
    sets = [sel.targets, *((t,) for t in sel.targets if len(sel.targets) > 1)]
    for k in range(GREEDY_SEEDS):
        if best is not None and meets(settler.counts(best[1]), ceilings):
            break
        for targets in sets:
            action = move.scenario.action.model_copy(update={"targets": targets})
            view = move.scenario.model_copy(update={"action": action})
            found = greedy_11e(c, view, move.limit_in, near, seed + k)
            if found is not None:
                consider({**found[0], **settler.pinned})
    return None if best is None else (best[1], settler.counts(best[1]))


def meets(counts: Counts, ceilings: dict[str, int]) -> bool:
    return all(counts[n] >= v for n, v in ceilings.items())


def settled(settler: Settler, placed: dict[str, int], ceilings: dict[str, int]) -> SolveState:
    """The answer when the construction meets every proven ceiling: optimal without CP-SAT,
    then the least movement by local search."""
    t0 = time.perf_counter()
    placed = settler.shorten(placed)
    stages = [StageOutcome(n, float(v), float(v), "OPTIMAL", 0.0) for n, v in ceilings.items()]
    stages.append(
        StageOutcome(
            "movement",
            settler.moved(placed) * MOVE_SCALE,
            0.0,
            "LOCAL_SEARCH",
            time.perf_counter() - t0,
        )
    )
    return SolveState(placed, stages, "OPTIMAL")
