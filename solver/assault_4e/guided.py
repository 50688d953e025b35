"""The charge's order of moves walked toward a contact plan: each step still takes the best
category open to its model (the seed's preference), but among the moves that do, it prefers
the one that leaves the most planned contact spots to the models still waiting (a matching),
then the one touching most enemy models not yet engaged, then a planned spot over another,
then (a move that touches no enemy model) the one nearest an open planned spot, so that the 2"
chain reaches toward the plan, then the shortest move."""

from __future__ import annotations

import numpy as np

from chargeopt.solver.assault_4e.contact_plan import ContactPlan
from chargeopt.solver.assault_4e.order import End, first_model_spots, first_spots
from chargeopt.solver.assault_4e.sequence import NO_SPOT, Charge, Spots, State, options_at
from chargeopt.solver.bounds.contact_bound import most_matched
from chargeopt.solver.core.tolerances import APART_IN

Key = tuple[int, int, int, int, float, float]
SUPPORT = 3
"""The first category that touches no enemy model (within 2" of an engaged mate)."""
MAX_FIRST_TRIES = 90
"""The first model's spots weighed besides its planned ones, shortest first (half a ring of
2-degree spots)."""


def guided_first(charge: Charge, plan: ContactPlan, first: str, foe: str) -> End | None:
    """The first model's shortest move into base contact with `foe` that leaves the most of
    the plan to the others, clear of every unit mate still standing; None if it has none."""
    sp = first_model_spots(charge, first)
    idx = first_spots(charge, first, foe)
    others = [m.id for m in charge.unit.models if m.id != first]
    whole = _kept(plan, others, set())
    best: tuple[int, End] | None = None
    shortest = idx[np.argsort(sp.moved[idx], kind="stable")][:MAX_FIRST_TRIES]
    tried = np.union1d(shortest, np.intersect1d(idx, list(plan.reach.get(first, {}).values())))
    for i in tried[np.argsort(sp.moved[tried], kind="stable")]:
        end = _end(sp, int(i))
        kept = _kept(plan, others, _blocked(charge, plan, first, end))
        if best is None or kept > best[0]:
            best = (kept, end)
        if kept == whole:
            break
    return None if best is None else best[1]


def planned_firsts(charge: Charge, plan: ContactPlan, first: str, foe: str) -> list[End]:
    """The first model's own planned spots (touching `foe`), clear of every unit mate still
    standing, shortest first."""
    sp = first_model_spots(charge, first)
    mine = np.intersect1d(first_spots(charge, first, foe), list(plan.reach.get(first, {}).values()))
    return [_end(sp, int(i)) for i in mine[np.argsort(sp.moved[mine], kind="stable")]]


def guided_from(
    charge: Charge,
    plan: ContactPlan,
    ends: dict[str, End],
    order: list[str],
    queue: list[str],
) -> tuple[dict[str, End], list[str], bool]:
    """Keep the moves of `order` and place the models of `queue` one at a time, each on a
    spot of the best category open to it, steered by `plan`. Returns the ends, the order and
    whether every model found a spot."""
    ends = {m: ends[m] for m in order}
    order = list(order)
    state = State({m: ends[m][:3] for m in order})
    gone: set[int] = set()
    for mid in order:
        gone |= _blocked(charge, plan, mid, ends[mid])
    waiting = list(queue)
    while waiting:
        choice: tuple[Key, str, End, set[int]] | None = None
        for mid in waiting:
            cats, sp = options_at(charge, state, mid)
            if len(cats) == 0 or cats.min() >= NO_SPOT:
                continue
            best = int(cats.min())
            rest = [m for m in waiting if m != mid]
            for planned, i in _options(charge, plan, gone, mid, cats, best, sp, state):
                end = _end(sp, i)
                lost = gone | _blocked(charge, plan, mid, end)
                fresh = sum(e not in state.engaged for e in end[2])
                toward = _to_open(plan, lost, end) if best >= SUPPORT else 0.0
                key = (best, -_kept(plan, rest, lost), -fresh, int(not planned), toward, end[3])
                if choice is None or key < choice[0]:
                    choice = (key, mid, end, lost)
        if choice is None:
            return ends, order, False
        _, mid, end, gone = choice
        ends[mid] = end
        state.ends[mid] = end[:3]
        order.append(mid)
        waiting.remove(mid)
    return ends, order, True


def _options(
    charge: Charge,
    plan: ContactPlan,
    gone: set[int],
    mid: str,
    cats: np.ndarray,
    best: int,
    sp: Spots,
    state: State,
) -> list[tuple[bool, int]]:
    """The model's moves worth weighing, all at its best category and touching the most new
    enemy models: the shortest, its planned spot still open (the shortest), the spot that
    overlaps the fewest open planned spots (then the shortest), and for a move that touches
    no enemy the one nearest an open planned spot without overlapping any."""
    engaged = state.engaged
    idx = np.flatnonzero(cats == best)
    fresh = np.array([sum(e not in engaged for e in sp.touches[i]) for i in idx])
    idx = idx[fresh == fresh.max()]
    out = [(False, int(idx[np.argmin(sp.moved[idx])]))]
    planned = np.array(
        [i for q, i in plan.reach.get(mid, {}).items() if q not in gone and i in set(idx)], int
    )
    if len(planned):
        out.append((True, int(planned[np.argmin(sp.moved[planned])])))
    open_ = np.array([q for q in range(len(plan)) if q not in gone], int)
    if len(open_):
        reach = charge.start(mid).base.circumradius_in + _widest(charge) + APART_IN
        d = np.hypot(sp.x[idx, None] - plan.x[open_], sp.y[idx, None] - plan.y[open_])
        overlaps = (d < reach).sum(axis=1)
        out.append((False, int(idx[np.lexsort((sp.moved[idx], overlaps))[0]])))
        if best >= SUPPORT:
            clear = overlaps == 0
            if clear.any():
                near = np.where(clear, d.min(axis=1), np.inf)
                out.append((False, int(idx[np.lexsort((sp.moved[idx], near))[0]])))
    return out


def _end(sp: Spots, i: int) -> End:
    return float(sp.x[i]), float(sp.y[i]), sp.touches[i], float(sp.moved[i])


def _blocked(charge: Charge, plan: ContactPlan, mid: str, end: End) -> set[int]:
    """Planned spots a base of model `mid` at `end` takes or overlaps."""
    r = charge.start(mid).base.circumradius_in
    near = np.hypot(plan.x - end[0], plan.y - end[1]) < r + _widest(charge) + APART_IN
    return set(np.flatnonzero(near).tolist())


def _to_open(plan: ContactPlan, gone: set[int], end: End) -> float:
    """How far `end` is from the nearest planned spot still open (a support move that bridges
    the 2" chain toward it)."""
    open_ = [q for q in range(len(plan)) if q not in gone]
    if not open_:
        return 0.0
    return float(np.hypot(plan.x[open_] - end[0], plan.y[open_] - end[1]).min())


def _widest(charge: Charge) -> float:
    return max(charge.start(m.id).base.circumradius_in for m in charge.unit.models)


def _kept(plan: ContactPlan, models: list[str], gone: set[int]) -> int:
    """How many open planned spots the waiting `models` can still fill, one each."""
    reach = {m: {str(q) for q in plan.reach.get(m, {}) if q not in gone} for m in models}
    spots = {q for r in reach.values() for q in r}
    return most_matched(reach, {q: 1 for q in spots})
