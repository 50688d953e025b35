"""Pile in and consolidation under the WTC walls rule (seed 000, steps 6 to 8), on the 3" move
model of `close_fight` with the token rules added:

- A token model that can make its move into a normal legal position (normal engagement range
  or base contact of an enemy model) either moves there, losing its token, or stays. In a pile
  in, staying then costs the token; at consolidation the token stays on a model that does not
  move. A token model that cannot reach such a position stays where it is, keeping its token
  (seed: a model already as close as possible because of a wall "may elect to stay still and
  still count as having made a pile in").
- A unit never gives up its last token unless one of its models ends in normal engagement
  range.
- A model of any unit can fight from a spot within 2" across a wall of an enemy token model
  whose unit charged its unit, or, for a kept token, of the models its unit charged
  (`geometry.token_engagement` measures the same pairs for the result).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import shapely
from shapely.geometry import LineString

from chargeopt.geometry import Battlefield, Footprint, edge_distance
from chargeopt.geometry.fight import fight_eligibility
from chargeopt.geometry.token_engagement import charged_by, token_pairs, tokens_now
from chargeopt.models import ActionKind, Result, Scenario
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core import clock
from chargeopt.solver.core.ordered_solve import REPEATABLE_WORKERS, SolveState, solve_ordered
from chargeopt.solver.core.tolerances import MARGIN_IN, ROLL_MARGIN_IN
from chargeopt.solver.forty_k.close_fight import CloseAnswer, _ceilings, build, objectives
from chargeopt.solver.forty_k.close_moves import CloseMove, Goal, require_pile_in
from chargeopt.solver.forty_k.close_solve import SOLVER_READING, _result
from chargeopt.solver.forty_k.consolidate import solve_consolidate
from chargeopt.solver.forty_k.pile_in import solve_pile_in
from chargeopt.solver.options import SolveOptions


def has_tokens(scenario: Scenario) -> bool:
    """Whether any model on the table holds a token (then the rule shapes this move)."""
    return scenario.rules.wtc_walls and any(m.token for u in scenario.units for m in u.models)


def solve_wtc_close(
    scenario: Scenario, options: SolveOptions, plain: Callable[[Scenario, SolveOptions], Result]
) -> Result:
    """A pile in or consolidation with tokens on the table; `plain` solves it without them."""
    battlefield = Battlefield.from_scenario(scenario)
    if not tokens_now(scenario, {}, battlefield):
        return plain(scenario, options)
    t0 = time.perf_counter()
    deadline = clock.now() + options.time_limit_s
    move = CloseMove(scenario, battlefield)
    if scenario.action.kind == ActionKind.PILE_IN and not token_pairs(scenario, {}, battlefield):
        require_pile_in(move)
    c = move.candidates(options, Goal())
    starts = move.start_spots(c)
    normal, kept, choosing = _restrict(move, c, starts)
    _mark_token_fights(move, c, kept | choosing)
    pm, adjacency = build(move, c, starts)
    objs = objectives(move, pm, c, Goal(), _ceilings(move, c, options)) if pm else None
    if pm is None or objs is None:
        state = SolveState(None, [], "INFEASIBLE")
    else:
        for mid in kept:
            pm.model.Add(pm.y[starts[mid]] == 1)
        if choosing and not kept:
            keepers = [] if scenario.action.kind == ActionKind.PILE_IN else sorted(choosing)
            engaging = [v for p, v in pm.y.items() if normal[p]]
            pm.model.AddBoolOr(engaging + [pm.y[starts[m]] for m in keepers])
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
            hint=list(starts.values()),
            need_connected=len(move.unit.models) > 1,
        )
    answer = CloseAnswer(state, c, starts)
    result = _result(move, answer, Goal(), None, t0)
    return _with_tokens(scenario, result, kept, choosing)


def _restrict(move: CloseMove, c: cand.Candidates, starts: dict[str, int]):
    """Which spots are normal legal positions (engagement range of an enemy unit), and the
    token models of the acting unit: those that can reach one may go there or stay
    (`choosing`); the rest stay (`kept`, with their tokens). No other model ends on a token
    model's start."""
    scenario = move.scenario
    normal = np.array([bool(e) for e in c.engaged], dtype=bool)
    mine = {
        t.model for t in tokens_now(scenario, {}, move.battlefield) if t.unit.id == move.unit.id
    }
    kept, choosing = set(), set()
    for mid in sorted(mine):
        reach = c.reach[mid]
        ok = np.isfinite(reach) & (reach <= move.limit_in - ROLL_MARGIN_IN) & normal
        allowed = ok.copy()
        allowed[starts[mid]] = True
        c.reach[mid] = np.where(allowed, reach, np.inf)
        (choosing if ok.any() else kept).add(mid)
        for other in move.unit.models:
            if other.id != mid:
                c.reach[other.id][starts[mid]] = np.inf
    return normal, kept, choosing


def _mark_token_fights(move: CloseMove, c: cand.Candidates, own: set[str]) -> None:
    """Spots from which a model fights across a wall: the starts of the acting unit's token
    models that keep them (a pile in keeps only `kept`; the caller passes those that may keep
    one), and spots within 2" across a wall of an enemy token model whose unit charged the
    acting unit. They count as engaged for the fight objective (after normal spots were
    recorded)."""
    scenario = move.scenario
    rules = scenario.rules
    tokens = tokens_now(scenario, {}, move.battlefield)
    shapes = {p.id: p.shape for p in move.battlefield.pieces}
    keep_at_start = own if scenario.action.kind == ActionKind.CONSOLIDATE else set()
    for t in tokens:
        if t.unit.id == move.unit.id:
            if t.model in keep_at_start or _pinned(c, t.model):
                p = int(np.flatnonzero(c.reach[t.model] == 0.0)[0])
                c.engaged[p] = c.engaged[p] | frozenset(charged_by(scenario, t.unit))
            continue
        if move.unit.id not in charged_by(scenario, t.unit):
            continue
        for p in range(len(c)):
            base = c.base_keys[c.base_of[p]]
            fp = Footprint(base, float(c.x[p]), float(c.y[p]), float(c.z[p]), float(c.facing[p]))
            if abs(fp.z - t.footprint.z) > rules.engagement_vertical_in:
                continue
            if edge_distance(fp, t.footprint) > rules.barricade_engagement_range_in - MARGIN_IN:
                continue
            line = LineString([(fp.x, fp.y), (t.footprint.x, t.footprint.y)])
            if shapely.intersects(shapes[t.wall], line):
                c.engaged[p] = c.engaged[p] | frozenset({t.unit.id})


def _pinned(c: cand.Candidates, model_id: str) -> bool:
    return int(np.isfinite(c.reach[model_id]).sum()) == 1


def _with_tokens(scenario: Scenario, result: Result, kept: set[str], choosing: set[str]) -> Result:
    """Tokens on the result: a token model that did not move keeps its token (in a pile in,
    only one that could not reach a normal legal position); whom each model can fight is
    measured again with them."""
    starts = {m.id: m for m in scenario.acting_unit.models}
    consolidating = scenario.action.kind == ActionKind.CONSOLIDATE
    placements = []
    for p in result.placements:
        m = starts[p.model]
        stayed = abs(p.x - m.x) < 1e-5 and abs(p.y - m.y) < 1e-5
        keeps = stayed and (p.model in kept or (consolidating and p.model in choosing))
        where = {"x": m.x, "y": m.y, "z": m.z, "moved": 0.0} if stayed else {}
        placements.append(
            p.model_copy(update={"token": keeps, "wall": m.token_wall if keeps else None, **where})
        )
    fights = fight_eligibility(scenario, placements, reading=SOLVER_READING)
    placements = [p.model_copy(update={"fights": fights.get(p.model, ())}) for p in placements]
    objective = dict(result.objective)
    if "can_fight" in objective:
        objective["can_fight"] = sum(1 for p in placements if p.fights)
    objective["tokens"] = sum(1 for p in placements if p.token)
    return result.model_copy(update={"placements": tuple(placements), "objective": objective})


def solve_wtc_pile_in(scenario: Scenario, options: SolveOptions) -> Result:
    """A pile in under the WTC walls rule: shaped by the rule where a model holds a token,
    the 40k pile in otherwise."""
    if not has_tokens(scenario):
        return solve_pile_in(scenario, options)
    return solve_wtc_close(scenario, options, solve_pile_in)


def solve_wtc_consolidate(scenario: Scenario, options: SolveOptions) -> Result:
    """A consolidation under the WTC walls rule: shaped by the rule where a model holds a
    token, the 40k consolidation otherwise."""
    if not has_tokens(scenario):
        return solve_consolidate(scenario, options)
    return solve_wtc_close(scenario, options, solve_consolidate)
