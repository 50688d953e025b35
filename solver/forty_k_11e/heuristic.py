"""A quick legal placement over the candidates for the 11th-edition charge: models nearest the
targets first, each on the best free spot beside a placed mate (within 1" of a target, else
engaged, else nearest the targets, then the shortest move), within the 9" span of every
placed mate; a few seeded restarts. Used as CP-SAT's incumbent, and as the answer when it
meets the ceilings (then nothing better exists)."""

from __future__ import annotations

import random

import numpy as np

from chargeopt.models import RoundBase, Scenario
from chargeopt.solver.core.candidates import Candidates
from chargeopt.solver.core.tolerances import PAIR_MARGIN_IN, ROLL_MARGIN_IN

RESTARTS = 12


def greedy_11e(
    c: Candidates, scenario: Scenario, roll: int, near: np.ndarray, seed: int = 0
) -> tuple[dict[str, int], dict[str, float]] | None:
    """The best legal placement the greedy finds over `RESTARTS` orders, with its counts."""
    engaged = np.array([bool(e) for e in c.engaged], dtype=bool)
    target_gap = _target_gap(c, scenario)
    models = list(scenario.acting_unit.models)
    rng = random.Random(seed)
    best = None
    for k in range(RESTARTS):
        order = sorted(models, key=lambda m: _start_gap(c, m.id, target_gap))
        if k:
            rng.shuffle(order)
        placed = _one_pass(c, scenario, roll, order, near, engaged, target_gap, first_best=k % 2)
        if placed is None or not legal(c, scenario, roll, placed):
            continue
        counts = {
            "within_1": float(sum(near[p] for p in placed.values())),
            "engaged": float(sum(engaged[p] for p in placed.values())),
        }
        moved = sum(float(c.reach[m][p]) for m, p in placed.items())
        key = (counts["within_1"], counts["engaged"], -moved)
        if best is None or key > best[0]:
            best = (key, placed, counts)
    return None if best is None else (best[1], best[2])


def _target_gap(c: Candidates, scenario: Scenario) -> np.ndarray:
    """A proxy of each candidate's distance to the nearest target model (centre to centre)."""
    centres = [
        (m.x, m.y) for uid in scenario.action.targets for m in scenario.unit_by_id[uid].models
    ]
    tx, ty = np.array(centres).T
    return np.min(np.hypot(c.x[:, None] - tx, c.y[:, None] - ty), axis=1)


def _start_gap(c: Candidates, model_id: str, target_gap: np.ndarray) -> float:
    lengths = c.reach[model_id]
    ok = np.isfinite(lengths)
    return float(np.min(target_gap[ok])) if ok.any() else float("inf")


def _one_pass(c, scenario, roll, order, near, engaged, target_gap, first_best: int):
    taken: dict[str, int] = {}
    blocked = np.zeros(len(c), bool)
    beside = np.zeros(len(c), bool)
    conflicts = c.conflict_lists
    coherent = c.coherent_lists
    span = scenario.rules.coherency_unit_span_in
    for m in order:
        lengths = c.reach[m.id]
        ok = (lengths <= roll - ROLL_MARGIN_IN) & ~blocked
        if taken:
            ok &= beside
            if span is not None:
                for p in taken.values():
                    ok &= _gaps_from(c, p) <= span - PAIR_MARGIN_IN
        idx = np.flatnonzero(ok)
        if not len(idx):
            return None
        score = np.lexsort((lengths[idx], target_gap[idx], ~engaged[idx], ~near[idx]))
        p = int(idx[score[0]])
        taken[m.id] = p
        blocked[p] = True
        blocked[conflicts[p]] = True
        beside[coherent[p]] = True
    return taken


def _gaps_from(c: Candidates, p: int) -> np.ndarray:
    """Edge distance from candidate p to every candidate: exact between round bases, else the
    centres' distance (an upper bound of the gap: conservative for the span)."""
    radius = np.array([c.base_keys[int(b)].circumradius_in for b in c.base_of])
    centre = np.hypot(c.x - c.x[p], c.y - c.y[p])
    if all(isinstance(b, RoundBase) for b in c.base_keys):
        return centre - radius - radius[p]
    return centre


def legal(c: Candidates, scenario: Scenario, roll: int, placed: dict[str, int]) -> bool:
    """Every rule the CP-SAT model posts: each model reaches its spot, no two overlap, each
    beside a mate, one group, every pair within the span, every target engaged."""
    spots = list(placed.values())
    if len(set(spots)) != len(spots):
        return False
    if any(not c.reach[m][p] <= roll - ROLL_MARGIN_IN for m, p in placed.items()):
        return False
    chosen = set(spots)
    for p in spots:
        if chosen & set(c.conflict_lists[p].tolist()):
            return False
    if len(spots) > 1:
        links = {p: chosen & set(c.coherent_lists[p].tolist()) for p in spots}
        if any(not v for v in links.values()):
            return False
        seen, stack = {spots[0]}, [spots[0]]
        while stack:
            for q in links[stack.pop()]:
                if q not in seen:
                    seen.add(q)
                    stack.append(q)
        if len(seen) != len(spots):
            return False
        span = scenario.rules.coherency_unit_span_in
        if span is not None:
            for p in spots:
                if (_gaps_from(c, p)[spots] > span - PAIR_MARGIN_IN).any():
                    return False
    return all(any(target in c.engaged[p] for p in spots) for target in scenario.action.targets)
