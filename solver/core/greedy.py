"""Greedy placements: the sequential procedure a player follows, and the completion of a
partial placement (contacts fixed) into a whole unit. Both seed CP-SAT's hint; the first is
also the benchmarks' baseline."""

from __future__ import annotations

import numpy as np

from chargeopt.models import Scenario
from chargeopt.solver.core.candidates import Candidates
from chargeopt.solver.core.exact_limits import margin
from chargeopt.solver.core.matching import FORBIDDEN, least_cost_pairs
from chargeopt.solver.core.tolerances import ROLL_MARGIN_IN


class _Board:
    """Candidates already taken, those blocked by them, and coherency counts."""

    def __init__(self, c: Candidates) -> None:
        self.conflicts = c.conflict_lists
        self.coherent = c.coherent_lists
        self.blocked = np.zeros(len(c), bool)
        self.near = np.zeros(len(c), int)
        self.taken: dict[str, int] = {}

    def take(self, model_id: str, p: int) -> None:
        self.taken[model_id] = p
        self.blocked[self.conflicts[p]] = True
        self.blocked[p] = True
        self.near[self.coherent[p]] += 1


def _target_distance(
    c: Candidates, scenario: Scenario
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    targets = [t for tid in scenario.action.targets for t in scenario.unit_by_id[tid].models]
    tx = np.array([t.x for t in targets])
    ty = np.array([t.y for t in targets])
    near = np.min(np.hypot(c.x[:, None] - tx[None, :], c.y[:, None] - ty[None, :]), axis=1)
    return near, tx, ty


def greedy_assignment(c: Candidates, scenario: Scenario, roll: float) -> dict[str, int] | None:
    """Nearest model first: base contact if it can, else engagement, else the spot nearest
    the targets, always beside a model already placed. None if a model finds no spot."""
    near_target, tx, ty = _target_distance(c, scenario)
    order = sorted(
        scenario.acting_unit.models, key=lambda m: float(np.min(np.hypot(m.x - tx, m.y - ty)))
    )
    board = _Board(c)
    for m in order:
        lengths = c.reach[m.id]
        mask = (lengths <= roll - margin(ROLL_MARGIN_IN)) & ~board.blocked
        if board.taken:
            mask &= board.near > 0
        ok = np.flatnonzero(mask)
        if len(ok) == 0:
            return None
        contact = [p for p in ok if c.contact[p]]
        engaged = [p for p in ok if c.engaged[p]]
        if contact:
            p = min(contact, key=lambda q: lengths[q])
        elif engaged:
            p = min(engaged, key=lambda q: lengths[q])
        else:
            p = min(ok, key=lambda q: (near_target[q], lengths[q]))
        board.take(m.id, int(p))
    return board.taken


def complete(
    c: Candidates, scenario: Scenario, roll: float, fixed: dict[str, int], k: int
) -> dict[str, int] | None:
    """Place the models not in `fixed` one by one next to those placed (most coherency
    neighbours first, then engagement, then nearest the targets); None if one finds no spot."""
    near_target, tx, ty = _target_distance(c, scenario)
    board = _Board(c)
    for mid, p in fixed.items():
        board.take(mid, p)
    rest = [m for m in scenario.acting_unit.models if m.id not in fixed]
    rest.sort(key=lambda m: float(np.min(np.hypot(m.x - tx, m.y - ty))))
    engaged = np.array([bool(e) for e in c.engaged], dtype=bool)
    if board.taken:
        for tid in scenario.action.targets:
            if any(tid in c.engaged[p] for p in board.taken.values()):
                continue
            chain = _chain(c, board, [m.id for m in rest], tid, roll)
            if chain is None:
                return None
            for mid, p in chain.items():
                board.take(mid, p)
            rest = [m for m in rest if m.id not in chain]
    for m in rest:
        mask = (c.reach[m.id] <= roll - margin(ROLL_MARGIN_IN)) & ~board.blocked
        if board.taken:
            mask &= board.near > 0
        ok = np.flatnonzero(mask)
        if len(ok) == 0:
            return None
        score = np.lexsort(
            (c.reach[m.id][ok], near_target[ok], ~engaged[ok], -np.minimum(board.near[ok], k))
        )
        board.take(m.id, int(ok[score[0]]))
    return board.taken


def satisfies_all(c: Candidates, scenario: Scenario, placed: dict[str, int], k: int) -> bool:
    """Whether a placement on candidates meets every coupled rule of the discrete model:
    no two bases overlap, k coherency neighbours each, one connected group, every target
    unit engaged. (Single-model rules hold by construction of the candidates.)"""
    used = list(placed.values())
    if len(set(used)) != len(used):
        return False
    conflicts, coherent = _relation_sets(c)
    near: list[list[int]] = [[] for _ in used]
    for i, p in enumerate(used):
        clash, close = conflicts(p), coherent(p)
        for j in range(i + 1, len(used)):
            q = used[j]
            if q in clash:
                return False
            if q in close:
                near[i].append(j)
                near[j].append(i)
    if k and any(len(n) < k for n in near):
        return False
    seen, stack = {0}, [0]
    while stack:
        for j in near[stack.pop()]:
            if j not in seen:
                seen.add(j)
                stack.append(j)
    if len(seen) != len(used):
        return False
    engaged = set().union(*(c.engaged[p] for p in used))
    return set(scenario.action.targets) <= engaged


def _relation_sets(c: Candidates):
    """Per-candidate conflict and coherency neighbours as sets, built on first use."""
    if "relation_sets" not in c.memo:
        conflict_lists, coherent_lists = c.conflict_lists, c.coherent_lists
        conflicts: dict[int, set[int]] = {}
        coherent: dict[int, set[int]] = {}

        def conflict_set(p: int) -> set[int]:
            if p not in conflicts:
                conflicts[p] = set(conflict_lists[p].tolist())
            return conflicts[p]

        def coherent_set(p: int) -> set[int]:
            if p not in coherent:
                coherent[p] = set(coherent_lists[p].tolist())
            return coherent[p]

        c.memo["relation_sets"] = (conflict_set, coherent_set)
    return c.memo["relation_sets"]


def shorten_moves(
    c: Candidates, scenario: Scenario, placed: dict[str, int], roll: float, k: int
) -> dict[str, int]:
    """Local search for the least-movement tie break: move one model at a time to a spot it
    reaches with a shorter move, keeping base contact and engagement as good and every rule
    of `satisfies_all` met."""

    def shorter(current: dict[str, int], mid: str) -> np.ndarray:
        lengths, p = c.reach[mid], current[mid]
        better = np.flatnonzero(lengths < lengths[p] - 0.01)
        same = c.contact if c.contact[p] else (c.engaged if c.engaged[p] else None)
        if same is not None:
            better = better[[bool(same[q]) for q in better]]
        return better[np.argsort(lengths[better])]

    def longest_first(current: dict[str, int]) -> list[str]:
        return sorted(current, key=lambda mid: -c.reach[mid][current[mid]])

    return first_improvement(c, scenario, placed, k, longest_first, shorter)


def first_improvement(c, scenario, placed, k, order, spots_for) -> dict[str, int]:
    """First-improvement search: for each model in `order(current)`, move it to the first of
    `spots_for(current, model)` that keeps every rule; repeat until no move is taken."""
    current = dict(placed)
    improved = True
    while improved:
        improved = False
        for mid in order(current):
            fits = _OneMove(c, scenario, current, mid, k)
            for q in spots_for(current, mid):
                if fits(int(q)):
                    current, improved = {**current, mid: int(q)}, True
                    break
    return current


class _OneMove:
    """`satisfies_all` for a placement that differs from a legal one only in where `mid`
    stands, in time linear in the unit: the rest of the placement is measured once."""

    def __init__(self, c: Candidates, scenario: Scenario, placed: dict[str, int], mid: str, k: int):
        self.conflicts, self.coherent = _relation_sets(c)
        self.k = k
        self.others = [p for m, p in placed.items() if m != mid]
        self.used = set(self.others)
        near: list[set[int]] = [set() for _ in self.others]
        clash = len(self.used) < len(self.others)
        for i, p in enumerate(self.others):
            close, conflicting = self.coherent(p), self.conflicts(p)
            for j in range(i + 1, len(self.others)):
                clash = clash or self.others[j] in conflicting
                if self.others[j] in close:
                    near[i].add(j)
                    near[j].add(i)
        degree = [len(n) for n in near]
        self.hopeless = clash or (bool(k) and any(d < k - 1 for d in degree))
        self.short = {i for i, d in enumerate(degree) if d < k}
        self.groups = _components(near)
        engaged = set().union(*(c.engaged[p] for p in self.others))
        self.missing = set(scenario.action.targets) - engaged
        self.c = c

    def __call__(self, q: int) -> bool:
        if self.hopeless or q in self.used or not self.conflicts(q).isdisjoint(self.used):
            return False
        close = self.coherent(q)
        mine = {i for i, p in enumerate(self.others) if p in close}
        if self.k and (len(mine) < self.k or not self.short <= mine):
            return False
        if self.others and any(mine.isdisjoint(g) for g in self.groups):
            return False
        return self.missing <= self.c.engaged[q]


def _components(near: list[set[int]]) -> list[set[int]]:
    """The connected groups of a graph given as neighbour sets."""
    groups, seen = [], set()
    for s in range(len(near)):
        if s in seen:
            continue
        group, stack = {s}, [s]
        while stack:
            for j in near[stack.pop()]:
                if j not in group:
                    group.add(j)
                    stack.append(j)
        seen |= group
        groups.append(group)
    return groups


def _chain(
    c: Candidates, board: _Board, free_models: list[str], target: str, roll: float
) -> dict[str, int] | None:
    """Models placed along the shortest coherency chain (fewest hops) from the placed models to
    a spot engaging `target`, over free spots some free model can reach; None if too long."""
    from collections import deque

    usable = (
        ~board.blocked
        & np.logical_or.reduce([c.reach[m] <= roll - margin(ROLL_MARGIN_IN) for m in free_models])
        if free_models
        else np.zeros(len(c), bool)
    )
    parent: dict[int, int] = {}
    queue = deque()
    for p in board.taken.values():
        parent[p] = -1
        queue.append(p)
    goal = None
    while queue and goal is None:
        p = queue.popleft()
        for q in board.coherent[p]:
            q = int(q)
            if q in parent or not usable[q]:
                continue
            parent[q] = p
            if target in c.engaged[q]:
                goal = q
                break
            queue.append(q)
    if goal is None:
        return None
    path = []
    while parent[goal] != -1:
        path.append(goal)
        goal = parent[goal]
    if len(path) > len(free_models):
        return None
    cost = np.array([[c.reach[m][p] for p in path] for m in free_models])
    cost = np.where(np.isfinite(cost), cost, FORBIDDEN)
    pairs = least_cost_pairs(cost)
    if any(cost[r, k] >= FORBIDDEN for r, k in pairs):
        return None
    return {free_models[r]: path[k] for r, k in pairs}


def best_completion(
    c: Candidates, scenario: Scenario, roll: float, packed: dict[str, int], k: int
) -> dict[str, int] | None:
    """The best legal completion of the relaxation's contacts, or of a subset of them: around
    each target model in turn, keep the r contacts nearest to it (r from all down to none)
    and complete the unit; the first r that works gives the most contacts for that anchor."""
    targets = [t for tid in scenario.action.targets for t in scenario.unit_by_id[tid].models]
    best: dict[str, int] | None = None
    best_key = (-1, -1)
    for anchor in targets:
        order = sorted(
            packed,
            key=lambda mid: np.hypot(c.x[packed[mid]] - anchor.x, c.y[packed[mid]] - anchor.y),
        )
        for r in range(len(order), -1, -1):
            if r < best_key[0]:
                break
            kept = _unhemmed(c, scenario, roll, {mid: packed[mid] for mid in order[:r]})
            placed = complete(c, scenario, roll, kept, k)
            if placed is None or not satisfies_all(c, scenario, placed, k):
                continue
            key = (
                sum(1 for p in placed.values() if c.contact[p]),
                sum(1 for p in placed.values() if c.engaged[p]),
            )
            if key > best_key:
                best, best_key = placed, key
            break
        if best_key[0] >= len(packed):
            break
    return best


def _unhemmed(
    c: Candidates, scenario: Scenario, roll: float, fixed: dict[str, int]
) -> dict[str, int]:
    """`fixed` less the models whose spots take every spot some other model could reach (a
    model hemmed in by a packing that ignored it): for each such model, the fixed models on
    spots overlapping its nearest reachable spot give way."""
    out = dict(fixed)
    conflicts = c.conflict_lists
    for m in scenario.acting_unit.models:
        if m.id in out:
            continue
        spots = np.flatnonzero(c.reach[m.id] <= roll - margin(ROLL_MARGIN_IN))
        if not len(spots):
            continue
        taken = {p: mid for mid, p in out.items()}
        blocked = np.zeros(len(c), bool)
        for p in taken:
            blocked[conflicts[p]] = True
            blocked[p] = True
        if (~blocked[spots]).any():
            continue
        nearest = int(spots[np.argmin(c.reach[m.id][spots])])
        for p in [nearest, *conflicts[nearest].tolist()]:
            out.pop(taken.get(int(p), ""), None)
    return out


def improve_count(
    c: Candidates,
    scenario: Scenario,
    placed: dict[str, int],
    roll: float,
    k: int,
    flags: list,
) -> dict[str, int]:
    """Local search for one count (`flags` is c.contact or c.engaged): move a model whose spot
    is not flagged to a flagged spot it reaches (shortest move first), keeping every rule of
    `satisfies_all`. A model in contact is also engaged, so neither count ever drops."""

    def flagged(current: dict[str, int], mid: str) -> np.ndarray:
        lengths = c.reach[mid]
        spots = np.flatnonzero(lengths <= roll - margin(ROLL_MARGIN_IN))
        spots = spots[[bool(flags[q]) for q in spots]]
        return spots[np.argsort(lengths[spots])]

    def unflagged(current: dict[str, int]) -> list[str]:
        return [mid for mid, p in current.items() if not flags[p]]

    return first_improvement(c, scenario, placed, k, unflagged, flagged)


def greedy_packing(c: Candidates, scenario: Scenario, roll: float) -> dict[str, int]:
    """Contact spots for as many models as a quick packing finds, every other rule ignored:
    models with the fewest reachable contact spots choose first, each the spot that blocks
    the fewest free contact spots (then the shortest move). A cheap stand-in for the packing
    relaxation's placement, to be completed by `best_completion`."""
    contact = np.array([bool(f) for f in c.contact], dtype=bool)
    conflicts = c.conflict_lists
    free = contact.copy()
    options = {
        m.id: np.flatnonzero(contact & (c.reach[m.id] <= roll - margin(ROLL_MARGIN_IN)))
        for m in scenario.acting_unit.models
    }
    placed: dict[str, int] = {}
    for mid in sorted(options, key=lambda m: (len(options[m]), m)):
        spots = options[mid][free[options[mid]]]
        if len(spots) == 0:
            continue
        blocked = np.array([int(free[conflicts[p]].sum()) for p in spots])
        p = int(spots[np.lexsort((c.reach[mid][spots], blocked))[0]])
        placed[mid] = p
        free[conflicts[p]] = False
        free[p] = False
    return placed
