"""The CP-SAT model of a 3" close-combat move: every model on one candidate (fixed models on
their starts), no overlap, coherency and one connected group (the charge's blocks), and the
ordered objectives: models in base contact with an enemy model, then models that can fight,
then the least movement.

Who can fight, as constraints: a model within engagement range of an enemy unit can; so can a
model beside a friend that anchors it. 9th edition (seed 004): within 1/2" of a friend that
is itself within 1/2" of an enemy unit. 10th edition: in base contact with a friend that is in
base contact with an enemy model. (The 9th edition's 1/2" is measured in three dimensions, as
`chargeopt.geometry.fight` measures it.) `f[p]` (the model on p can fight through a friend)
holds only if p is used and some anchoring friend spot is used. The objective on a
placement's `can_fight` count is then exact over the candidates."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import pairwise

import numpy as np

from chargeopt.geometry.distance_matrix import edge_distances
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core import clock
from chargeopt.solver.core.coherency_constraints import add_coherency, neighbours
from chargeopt.solver.core.cpsat_blocks import (
    MOVE_SCALE,
    PlacementModel,
    add_no_overlap,
    assign_models,
    assignment,
)
from chargeopt.solver.core.greedy import (
    best_completion,
    first_improvement,
    greedy_assignment,
    improve_count,
    satisfies_all,
)
from chargeopt.solver.core.lazy_ortools import cp_model
from chargeopt.solver.core.ordered_solve import (
    REPEATABLE_WORKERS,
    Objective,
    SolveState,
    StageOutcome,
    solve_ordered,
)
from chargeopt.solver.core.tolerances import MARGIN_IN, PAIR_MARGIN_IN, ROLL_MARGIN_IN, TOUCH_IN
from chargeopt.solver.forty_k.charge_packing import packing_ceiling
from chargeopt.solver.forty_k.close_chains import chain_move
from chargeopt.solver.forty_k.close_moves import CloseMove, Goal, marker_footprint, support_pairs
from chargeopt.solver.options import SolveOptions


@dataclass
class CloseAnswer:
    """The discrete answer: a candidate per model, the stages, and the spots' facts."""

    state: SolveState
    c: cand.Candidates
    starts: dict[str, int]


def fight_anchors(move: CloseMove, c: cand.Candidates) -> tuple[np.ndarray, np.ndarray]:
    """(direct, anchor) flags per candidate: a model there can fight on its own (within
    engagement range of an enemy unit), or lets a friend beside it fight (9th: within the
    support range of an enemy model; 10th: in base contact with one)."""
    direct = np.array([bool(e) for e in c.engaged], dtype=bool)
    support = move.rules.fight_support_range_in
    if support is None:
        return direct, np.array([bool(t) for t in c.contact], dtype=bool)
    anchor = np.zeros(len(c), bool)
    for b, base in enumerate(c.base_keys):
        idx = np.flatnonzero(c.base_of == b)
        if not len(idx):
            continue
        d = edge_distances(base, c.x[idx], c.y[idx], c.facing[idx], move.enemies)
        dz = np.abs(c.z[idx, None] - np.array([e.z for e in move.enemies])[None, :])
        near = np.hypot(d, dz) <= support - MARGIN_IN
        anchor[idx] = near.any(axis=1)
    return direct, anchor


def helpers(move: CloseMove, c: cand.Candidates) -> list[list[int]]:
    """Per candidate, the candidates whose model would let a model on it fight (see the
    module docstring). Memoised on the candidates, which belong to one move."""
    if "fight_helpers" not in c.memo:
        c.memo["fight_helpers"] = _helpers(move, c)
    return c.memo["fight_helpers"]


def _helpers(move: CloseMove, c: cand.Candidates) -> list[list[int]]:
    rules = move.rules
    support = rules.fight_support_range_in
    if support is None:
        pairs = support_pairs(c, rules.base_contact_tolerance_in - TOUCH_IN, same_level=True)
    else:
        pairs = support_pairs(c, support - PAIR_MARGIN_IN, same_level=False)
    _, anchor = fight_anchors(move, c)
    i, j = pairs[:, 0], pairs[:, 1]
    seq = np.arange(len(pairs))
    helped = np.concatenate([i[anchor[j]], j[anchor[i]]])
    helper = np.concatenate([j[anchor[j]], i[anchor[i]]])
    order = np.lexsort((np.concatenate([2 * seq[anchor[j]], 2 * seq[anchor[i]] + 1]), helped))
    helped, helper = helped[order], helper[order]
    cuts = np.searchsorted(helped, np.arange(len(c) + 1))
    flat = helper.tolist()
    return [flat[a:b] for a, b in pairwise(cuts.tolist())]


def on_objective(move: CloseMove, c: cand.Candidates, goal: Goal) -> np.ndarray:
    """Candidates within range of the goal's objective marker (all False without one)."""
    out = np.zeros(len(c), bool)
    if goal.marker is None:
        return out
    marker = marker_footprint(goal.marker)
    for b, base in enumerate(c.base_keys):
        idx = np.flatnonzero(c.base_of == b)
        d = edge_distances(base, c.x[idx], c.y[idx], c.facing[idx], [marker])[:, 0]
        out[idx] = (d <= move.rules.objective_range_in - MARGIN_IN) & (
            np.abs(c.z[idx] - marker.z) <= 5.0
        )
    return out


def build(move: CloseMove, c: cand.Candidates, starts: dict[str, int]):
    """The placement model with fixed models pinned to their starts; None if some model
    has nowhere to go."""
    unit = move.unit
    classes = _classes(move, c)
    pm = assignment(c, move.limit_in, classes) if classes else _empty()
    if pm is None:
        return None, {}
    for mid in move.fixed:
        pinned = pm.model.NewBoolVar(f"fixed[{mid}]")
        pm.model.Add(pinned == 1)
        pm.y[starts[mid]] = pinned
    live = sorted(pm.y)
    adjacency = neighbours(c, live)
    add_no_overlap(pm, c)
    add_coherency(pm, adjacency, move.rules.coherency_neighbours(len(unit.models)))
    return pm, adjacency


def _classes(move: CloseMove, c: cand.Candidates) -> dict[int, list[str]]:
    """The models that may move, by the index of their base among the candidates' bases."""
    classes: dict[int, list[str]] = {}
    for m in move.unit.models:
        if m.id not in move.fixed:
            classes.setdefault(c.base_keys.index(move.unit.base_of(m)), []).append(m.id)
    return classes


def _empty() -> PlacementModel:
    return PlacementModel(cp_model.CpModel(), {}, {}, {})


def _reaching(c: cand.Candidates, move: CloseMove, spots: np.ndarray) -> int:
    """How many models reach at least one of `spots` within the move: a ceiling on how many
    can stand on such spots at once."""
    return sum(
        1
        for m in move.unit.models
        if ((c.reach[m.id] <= move.limit_in - ROLL_MARGIN_IN) & spots).any()
    )


def objectives(
    move: CloseMove, pm: PlacementModel, c: cand.Candidates, goal: Goal, ceilings: dict[str, int]
):
    """Base contact, models that can fight, (models on the objective in that mode) and a
    movement proxy per position; the proven ceilings (`_ceilings`: base contact and can
    fight) are posted as bounds, so that CP-SAT stops as soon as it meets one (the least any
    model needs to get there; the exact assignment of models then minimises the real
    movement)."""
    contact = cp_model.LinearExpr.Sum([v for p, v in pm.y.items() if c.contact[p]])
    direct, _ = fight_anchors(move, c)
    near = helpers(move, c)
    terms = []
    for p, v in pm.y.items():
        if direct[p]:
            terms.append(v)
            continue
        friends = [pm.y[q] for q in near[p] if q in pm.y]
        if not friends:
            continue
        f = pm.model.NewBoolVar(f"fights[{p}]")
        pm.model.AddImplication(f, v)
        pm.model.AddBoolOr([f.Not(), *friends])
        terms.append(f)
    fighting = cp_model.LinearExpr.Sum(terms)
    nearest = np.min(np.vstack(list(c.reach.values())), axis=0)
    movement = sum(int(np.ceil(min(nearest[p], 1e3) * MOVE_SCALE)) * v for p, v in pm.y.items())
    pm.model.Add(contact <= ceilings["base_contact"])
    pm.model.Add(fighting <= ceilings["can_fight"])
    out = [
        Objective("base_contact", contact, True, ceilings["base_contact"]),
        Objective("can_fight", fighting, True, ceilings["can_fight"]),
    ]
    if goal.marker is not None:
        inside = on_objective(move, c, goal)
        spots = [v for p, v in pm.y.items() if inside[p]]
        if not spots:
            return None
        pm.model.AddBoolOr(spots)
        out.append(Objective("on_objective", cp_model.LinearExpr.Sum(spots), True))
    return [*out, Objective("movement", movement, False, tie_break=True)]


def _ceilings(move: CloseMove, c: cand.Candidates, options: SolveOptions) -> dict[str, int]:
    """Proven upper bounds tried first as feasibility questions: the most models that can
    stand on contact spots at once (the charge's packing relaxation, every coupling rule but
    overlap dropped), and no more than reach one; no more models can fight than reach a spot
    where one could."""
    contact = np.array([bool(t) for t in c.contact], dtype=bool)
    most = _reaching(c, move, contact)
    packed, _ = packing_ceiling(c, move.view, move.limit_in, options, "contact")
    direct, _ = fight_anchors(move, c)
    fightable = direct | np.array([bool(h) for h in helpers(move, c)], dtype=bool)
    return {
        "base_contact": most if packed is None else min(most, packed),
        "can_fight": _reaching(c, move, fightable),
    }


class _Scorer:
    """The objective values of a placement on candidates (model id -> candidate), and the
    spots where a model could fight beside the others of a placement."""

    def __init__(self, move: CloseMove, c: cand.Candidates, goal: Goal) -> None:
        self.c = c
        self.direct, _ = fight_anchors(move, c)
        self.direct_spots = frozenset(np.flatnonzero(self.direct).tolist())
        self.contact_spots = frozenset(p for p, t in enumerate(c.contact) if t)
        self.near = [frozenset(n) for n in helpers(move, c)]
        self.inside = on_objective(move, c, goal) if goal.marker is not None else None

    def counts(self, placed: dict[str, int]) -> dict[str, float]:
        used = set(placed.values())
        values = {
            "base_contact": len(self.contact_spots.intersection(used)),
            "can_fight": sum(
                1 for p in used if p in self.direct_spots or not self.near[p].isdisjoint(used)
            ),
        }
        if self.inside is not None:
            values["on_objective"] = sum(1 for p in used if self.inside[p])
        return values

    def key(self, placed: dict[str, int]) -> tuple[float, ...]:
        """The counts in the objectives' order, to compare placements lexicographically."""
        return tuple(self.counts(placed).values())

    def moving(self, placed: dict[str, int], mid: str) -> Callable[[int], tuple[float, ...]]:
        """`key` of `placed` with model `mid` moved to a spot, for many spots: the others'
        counts are taken once, and a spot only adds itself and the others it lets fight."""
        others = {p for m, p in placed.items() if m != mid}
        contact = len(self.contact_spots.intersection(others))
        alone = [
            p for p in others if p not in self.direct_spots and self.near[p].isdisjoint(others)
        ]
        fighting = len(others) - len(alone)
        inside = None if self.inside is None else sum(1 for p in others if self.inside[p])

        def key(q: int) -> tuple[float, ...]:
            if q in others:
                return self.key({**placed, mid: q})
            near = self.near[q]
            fights = q in self.direct_spots or q in near or not near.isdisjoint(others)
            values = (
                contact + (q in self.contact_spots),
                fighting + fights + sum(1 for p in alone if q in self.near[p]),
            )
            return values if inside is None else (*values, inside + bool(self.inside[q]))

        return key

    def fightable(self, placed: dict[str, int]) -> np.ndarray:
        """Spots where a model can fight with the others of `placed` where they stand."""
        used = set(placed.values())
        beside = np.array([not near.isdisjoint(used) for near in self.near], bool)
        return self.direct | beside


def _local_search(
    move: CloseMove,
    c: cand.Candidates,
    placed: dict[str, int],
    k: int,
    score,
    chains: bool = False,
):
    """A legal placement at least as good as `placed` (None if `placed` breaks a coupled
    rule): the charge's local search moves models one by one onto contact spots, then onto
    engagement spots, then onto spots where they can fight beside a friend, keeping every
    rule, while the counts (in the objectives' order) improve; with `chains`, where no single
    move does, a chain of moves (`close_chains`)."""
    free = move.untargeted
    if not satisfies_all(c, free, placed, k):
        return None
    best = score.key(placed)
    while True:
        trial = improve_count(c, free, placed, move.limit_in, k, c.contact)
        trial = improve_count(c, free, trial, move.limit_in, k, c.engaged)
        trial = improve_count(c, free, trial, move.limit_in, k, score.fightable(trial))
        if chains and score.key(trial) <= best:
            trial = chain_move(move, c, trial, k, score)
        if trial is None or score.key(trial) <= best:
            return placed, score.counts(placed)
        placed, best = trial, score.key(trial)


def _incumbent(
    move: CloseMove, c: cand.Candidates, options: SolveOptions, starts, pinned, k: int, score
):
    """The best of three legal placements improved by local search: everyone where they
    stand, the charge's greedy placement (nearest model first, base contact if it can), and
    the completion of the packing relaxation's contacts (the charge's `best_completion`;
    the relaxation is memoised, solved once for the ceiling)."""
    _, packed = packing_ceiling(c, move.view, move.limit_in, options, "contact")
    tries = [dict(starts)]
    greedy = greedy_assignment(c, move.view, move.limit_in)
    if greedy is not None:
        tries.append({**greedy, **pinned})
    completed = best_completion(c, move.view, move.limit_in, {**packed, **pinned}, k)
    if completed is not None:
        tries.append({**completed, **pinned})
    found = [f for f in (_local_search(move, c, t, k, score) for t in tries) if f is not None]
    return max(found, key=lambda f: tuple(f[1].values()), default=None)


def _shorten(move: CloseMove, c: cand.Candidates, placed: dict[str, int], k: int, score):
    """The least-movement tie break as a local search (the charge's, when its incumbent
    meets every ceiling): move one model at a time, longest move first, to a spot it reaches
    with a shorter move, keeping every rule and every count; then give the spots to the
    models by least total movement (the spots, not the models, decide every rule and count),
    and repeat while that shortens the moves."""
    floor = score.key(placed)
    classes = _classes(move, c)
    pinned = {mid: p for mid, p in placed.items() if mid in move.fixed}

    def longest_first(current: dict[str, int]) -> list[str]:
        return sorted(current, key=lambda mid: -c.reach[mid][current[mid]])

    def shorter(current: dict[str, int], mid: str):
        lengths = c.reach[mid]
        spots = np.flatnonzero(lengths < lengths[current[mid]] - 0.01)
        key = score.moving(current, mid)
        for q in spots[np.argsort(lengths[spots], kind="stable")].tolist():
            if key(q) >= floor:
                yield q

    def moved(current: dict[str, int]) -> float:
        return sum(c.reach[mid][p] for mid, p in current.items())

    while True:
        placed = first_improvement(c, move.untargeted, placed, k, longest_first, shorter)
        matched = assign_models(c, list(placed.values()), classes, pinned, move.limit_in)
        reached = all(
            c.reach[mid][p] <= move.limit_in - ROLL_MARGIN_IN for mid, p in matched.items()
        )
        if not reached or moved(matched) >= moved(placed) - 0.01:
            return placed
        placed = matched


def _settled(
    move: CloseMove, c: cand.Candidates, incumbent, ceilings: dict[str, int], k: int, score
) -> SolveState:
    """The answer when the incumbent meets every proven ceiling: optimal without CP-SAT,
    then the least movement by local search."""
    t0 = time.perf_counter()
    placed = _shorten(move, c, incumbent[0], k, score)
    moved = sum(c.reach[mid][p] for mid, p in placed.items())
    stages = [StageOutcome(n, float(v), float(v), "OPTIMAL", 0.0) for n, v in ceilings.items()]
    stages.append(
        StageOutcome("movement", moved * MOVE_SCALE, 0.0, "LOCAL_SEARCH", time.perf_counter() - t0)
    )
    return SolveState(placed, stages, "OPTIMAL")


def _meets(incumbent, ceilings: dict[str, int]) -> bool:
    """Whether a placement's counts reach every proven ceiling (then it is optimal)."""
    return all(incumbent[1][n] >= v for n, v in ceilings.items())


def _optimised_directly(objs: list[Objective], met: dict[str, float]) -> list[Objective]:
    """The objectives with each ceiling the incumbent does not meet left out of its stage (it
    stays posted as a bound, see `objectives`, and `solve_discrete` reports it): on these
    models CP-SAT reaches or refutes a ceiling faster by optimising than by first asking for
    it as a feasibility question under an assumption (pile-in-v1 p20-two-units without the
    heuristic start: 8.6 s against 4.0 s; p10-wall-10e's can-fight stage: 1.6 s against
    0.5 s). A ceiling the incumbent meets stays, so that its stage is settled without
    CP-SAT."""
    return [
        o if o.ceiling is None or met.get(o.name, -1) >= o.ceiling else replace(o, ceiling=None)
        for o in objs
    ]


def solve_discrete(
    move: CloseMove, options: SolveOptions, goal: Goal, deadline: float
) -> CloseAnswer:
    """The best placement on the candidates, with every model's start as the hint. When a
    heuristic placement meets every proven ceiling (toward the enemy), no CP-SAT model is
    built."""
    c = move.candidates(options, goal)
    starts = move.start_spots(c)
    k = move.rules.coherency_neighbours(len(move.unit.models))
    score = _Scorer(move, c, goal)
    pinned = {m: starts[m] for m in move.fixed}
    ceilings = _ceilings(move, c, options)
    incumbent = None
    if options.use_hint:
        incumbent = _incumbent(move, c, options, starts, pinned, k, score)
    if incumbent is not None and goal.marker is None:
        chained = incumbent
        if not _meets(incumbent, ceilings):
            chained = _local_search(move, c, incumbent[0], k, score, chains=True) or incumbent
        if _meets(chained, ceilings):
            return CloseAnswer(_settled(move, c, chained, ceilings, k, score), c, starts)
    pm, adjacency = build(move, c, starts)
    objs = objectives(move, pm, c, goal, ceilings) if pm else None
    if pm is None or objs is None:
        return CloseAnswer(SolveState(None, [], "INFEASIBLE"), c, starts)
    objs = _optimised_directly(objs, incumbent[1] if incumbent is not None else {})

    def improve(placed: dict[str, int]) -> tuple[dict[str, int], dict[str, float]]:
        placed = {**placed, **pinned}
        return _local_search(move, c, placed, k, score) or (placed, score.counts(placed))

    state = solve_ordered(
        pm,
        c,
        objs,
        adjacency,
        roll=move.limit_in,
        time_limit_s=max(0.05, deadline - clock.now()),
        seed=options.seed,
        workers=REPEATABLE_WORKERS,
        presolve=options.presolve,
        hint=list((incumbent[0] if incumbent else starts).values()),
        need_connected=len(move.unit.models) > 1,
        incumbent=incumbent,
        improve=improve if options.use_hint else None,
    )
    if state.assignment is not None:
        state.assignment = {**state.assignment, **pinned}
    for stage in state.stages:
        if stage.name in ceilings and not stage.bound <= ceilings[stage.name]:
            stage.bound = float(ceilings[stage.name])
    return CloseAnswer(state, c, starts)
