"""A charge under the WTC rule for fighting through walls (seed 000, ruleset modifier
`wtc-walls`): first the normal charge; if it fails and the rule applies, the charge in which
models that can end in a normal legal position do, the rest touch the wall with a token
(2" engagement range across it), and any others make a legal charge move.

Ordered objectives: models in normal engagement range (B2B or 1"), then models with tokens,
then models that can fight (those two plus models in base contact with a unit mate that is in
base contact with a target), then base contact, then the least movement (a tie break)."""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from chargeopt.geometry import Battlefield
from chargeopt.models import Placement, Result, ResultAction, RoundBase, Scenario, Status
from chargeopt.solver.bounds.contact_bound import roll_lower_bound
from chargeopt.solver.core import clock
from chargeopt.solver.core.coherency_constraints import (
    add_coherency,
    add_gapless_layers,
    neighbours,
)
from chargeopt.solver.core.cpsat_blocks import MOVE_SCALE, add_no_overlap, assignment
from chargeopt.solver.core.dice import chance_at_least, chance_with_reroll
from chargeopt.solver.core.lazy_ortools import cp_model
from chargeopt.solver.core.ordered_solve import (
    REPEATABLE_WORKERS,
    Objective,
    SolveState,
    solve_ordered,
)
from chargeopt.solver.core.polish import poses_of
from chargeopt.solver.core.tolerances import TOUCH_IN as TOUCH_MARGIN_IN
from chargeopt.solver.core.written import JSON_DECIMALS, written_pose
from chargeopt.solver.forty_k.charge import solve_charge
from chargeopt.solver.forty_k.charge_packing import packing_ceiling
from chargeopt.solver.options import SolveOptions
from chargeopt.solver.wtc import candidates as wallc
from chargeopt.solver.wtc.decision import WallRuleDecision, decide, normal_charge_at, with_decision

NORMAL_SHARE = 0.25
DECISION_SHARE = 0.15
MAIN_SHARE = 0.8
MIN_SWEEP_SECONDS = 3.0
"""Shares of the time limit: the normal charge, the charge with the walls ignored, and the
charge under the rule (of what is left); the minimum roll under the rule gets the rest, and
at least MIN_SWEEP_SECONDS after a charge the roll cannot make."""
TOUCH_IN = 0.005
"""Two bases touch (fight support) up to this edge distance: the contact tolerance."""


def solve_wtc_charge(scenario: Scenario, options: SolveOptions) -> Result:
    """Solve a charge under `["40k-10e", "wtc-walls"]`: the normal charge when the rule does
    not apply (said in `stats["wtc_walls"]`), else the charge under the rule. Without a roll,
    the smallest roll that charges (normally or under the rule) is solved."""
    t0 = time.perf_counter()
    deadline = clock.now() + options.time_limit_s
    battlefield = Battlefield.from_scenario(scenario)
    lower = max(scenario.rules.charge_dice, roll_lower_bound(scenario))
    given = options.roll if options.roll is not None else scenario.action.roll
    if given is None:
        normal = solve_charge(
            scenario, replace(options, time_limit_s=options.time_limit_s * NORMAL_SHARE)
        )
        top = normal.min_roll - 1 if normal.min_roll is not None else 6 * scenario.rules.charge_dice
        found = _first_roll(scenario, battlefield, options, range(lower, top + 1), deadline)
        if found is None:
            decision = WallRuleDecision(
                False,
                "no_roll",
                f"no roll below the normal minimum roll {normal.min_roll} charges under the "
                "wtc-walls rule"
                if normal.min_roll is not None
                else "no roll up to 12 charges under the wtc-walls rule either",
            )
            return with_decision(normal, decision)
        roll, decision = found
        wc = wallc.generate(scenario, battlefield, roll, options)
        state = charge_under_rule(wc, scenario, roll, options, deadline)
        return _result(scenario, wc, state, roll, roll, decision, t0)
    roll = given
    quick, engaged, _ = normal_charge_at(scenario, roll, options, _at(deadline, NORMAL_SHARE))
    decision = decide(
        scenario, battlefield, roll, engaged, options, _share(deadline, DECISION_SHARE)
    )
    if not decision.applies:
        rest = max(0.5, deadline - clock.now())
        short = decision.case == "roll_too_short"
        normal = solve_charge(scenario, replace(options, time_limit_s=rest * (0.5 if short else 1)))
        if normal.status == Status.INFEASIBLE and short:
            left = max(MIN_SWEEP_SECONDS, deadline - clock.now())
            return _with_rule_min_roll(
                scenario, battlefield, options, normal, decision, given, _after(left)
            )
        return with_decision(normal, decision)
    wc = wallc.generate(scenario, battlefield, roll, options)
    state = charge_under_rule(wc, scenario, roll, options, _at(deadline, MAIN_SHARE))
    earlier = _first_roll(scenario, battlefield, options, range(lower, roll), deadline)
    min_roll = earlier[0] if earlier is not None else roll
    return _result(scenario, wc, state, roll, min_roll, decision, t0, quick)


def _with_rule_min_roll(scenario, battlefield, options, normal, decision, given, deadline):
    """The failed normal answer, with the smallest larger roll that charges, normally or under
    the rule (the rule may apply at rolls above the one given)."""
    result = with_decision(normal, decision)
    found = _smallest_roll(scenario, battlefield, options, given + 1, deadline)
    if found is None or (normal.min_roll is not None and normal.min_roll <= found):
        return result
    dice = scenario.rules.charge_dice
    basis = (
        f"{result.stats.get('min_roll_basis', '')}; under the wtc-walls rule a roll of "
        f"{found} charges (the rule applies there)"
    )
    return result.model_copy(
        update={
            "min_roll": found,
            "success_probability": round(float(chance_at_least(found, dice)), 4),
            "success_probability_reroll": round(float(chance_with_reroll(found, dice)), 4),
            "stats": {**result.stats, "min_roll_basis": basis.lstrip("; ")},
        }
    )


def _smallest_roll(scenario, battlefield, options, first: int, deadline: float) -> int | None:
    """The smallest roll from `first` up to the dice's top at which a charge succeeds,
    normally or under the rule (None if none, or out of time)."""
    top = 6 * scenario.rules.charge_dice
    rolls = range(max(first, roll_lower_bound(scenario)), top + 1)
    for roll in rolls:
        left = deadline - clock.now()
        if left <= 0.05:
            return None
        quick, _, _ = normal_charge_at(scenario, roll, options, _after(left / 3))
        if quick == "charges":
            return roll
        if _first_roll(scenario, battlefield, options, range(roll, roll + 1), deadline):
            return roll
    return None


def _after(seconds: float) -> float:
    return clock.now() + seconds


def _share(deadline: float, fraction: float) -> float:
    return max(0.5, (deadline - clock.now()) * fraction)


def _at(deadline: float, fraction: float) -> float:
    return clock.now() + (deadline - clock.now()) * fraction


def _first_roll(scenario, battlefield, options, rolls: range, deadline: float):
    """The smallest roll in `rolls` (all below the normal minimum roll, so no normal charge
    succeeds) at which the rule applies and a placement under it exists on the candidates,
    with the decision; None if none (or out of time)."""
    for i, roll in enumerate(rolls):
        share = (deadline - clock.now()) / (len(rolls) - i)
        if share <= 0.05:
            return None
        decision = decide(scenario, battlefield, roll, None, options, share / 2)
        if not decision.applies:
            continue
        wc = wallc.generate(scenario, battlefield, roll, options)
        state = charge_under_rule(
            wc, scenario, roll, options, clock.now() + share / 2, feasibility=True
        )
        if state.assignment is not None:
            return roll, decision
    return None


def _classes(c, scenario: Scenario) -> dict[int, list[str]]:
    unit = scenario.acting_unit
    classes: dict[int, list[str]] = {}
    for m in unit.models:
        classes.setdefault(c.base_keys.index(unit.base_of(m)), []).append(m.id)
    return classes


def supporting_pairs(c, live: list[int], tolerance_in: float) -> dict[int, list[int]]:
    """For each live candidate, the live candidates in base contact with a target whose round
    base would touch it (a unit mate it could fight through, in the 10th edition)."""
    out: dict[int, list[int]] = {}
    alive = set(live)
    for i, j in c.coherent:
        i, j = int(i), int(j)
        if i not in alive or j not in alive:
            continue
        a, b = c.base_keys[c.base_of[i]], c.base_keys[c.base_of[j]]
        if not (isinstance(a, RoundBase) and isinstance(b, RoundBase)):
            continue
        gap = np.hypot(c.x[i] - c.x[j], c.y[i] - c.y[j]) - a.radius_in - b.radius_in
        if gap > tolerance_in - TOUCH_MARGIN_IN or abs(c.z[i] - c.z[j]) >= 0.01:
            continue
        if c.contact[j]:
            out.setdefault(i, []).append(j)
        if c.contact[i]:
            out.setdefault(j, []).append(i)
    return out


def charge_under_rule(
    wc: wallc.WallCandidates,
    scenario: Scenario,
    roll: int,
    options: SolveOptions,
    deadline: float,
    *,
    feasibility: bool = False,
) -> SolveState:
    """The best placement under the rule on the candidates (any legal one with
    `feasibility`): every model on a spot it reaches, no overlap, coherency, every target
    engaged normally or by a token model across a wall."""
    c = wc.c
    n = len(scenario.acting_unit.models)
    pm = assignment(c, roll, _classes(c, scenario))
    if pm is None:
        return SolveState(None, [], "INFEASIBLE")
    live = sorted(pm.y)
    adjacency = neighbours(c, live)
    add_no_overlap(pm, c)
    add_coherency(pm, adjacency, scenario.rules.coherency_neighbours(n))
    token = wc.is_token
    engaging: set[int] = set()
    for tid in scenario.action.targets:
        spots = [p for p in live if tid in c.engaged[p] or tid in wc.token_targets[p]]
        if not spots:
            return SolveState(None, [], "INFEASIBLE")
        pm.model.AddBoolOr([pm.y[p] for p in spots])
        engaging.update(spots)
    if n > 1:
        add_gapless_layers(pm, adjacency, sorted(engaging), sources_used=True)
    total = cp_model.LinearExpr.Sum
    normal = total([pm.y[p] for p in live if c.engaged[p]])
    tokens = total([pm.y[p] for p in live if token[p]])
    support = []
    for p, mates in supporting_pairs(c, live, TOUCH_IN).items():
        if c.engaged[p] or token[p]:
            continue
        s = pm.model.NewBoolVar(f"supports[{p}]")
        pm.model.AddImplication(s, pm.y[p])
        pm.model.AddBoolOr([pm.y[q] for q in mates]).OnlyEnforceIf(s)
        support.append(s)
    contact = total([pm.y[p] for p in live if c.contact[p]])
    nearest = np.min(np.vstack(list(c.reach.values())), axis=0)
    movement = total([int(np.ceil(min(nearest[p], 1e3) * MOVE_SCALE)) * pm.y[p] for p in live])
    engaged_ceiling, token_ceiling = ceilings(wc, scenario, roll, options)
    objectives = [
        Objective("engaged", normal, True, engaged_ceiling),
        Objective("tokens", tokens, True, token_ceiling),
        Objective("can_fight", total([normal, tokens, *support]), True, n),
        Objective("base_contact", contact, True),
        Objective("movement", movement, False, tie_break=True),
    ]
    if feasibility:
        objectives = [Objective("engaged", normal, True, 0)]
    return solve_ordered(
        pm,
        c,
        objectives,
        adjacency,
        roll=roll,
        time_limit_s=max(0.05, deadline - clock.now()),
        seed=options.seed,
        workers=REPEATABLE_WORKERS,
        presolve=options.presolve,
        need_connected=n > 1,
    )


def ceilings(
    wc: wallc.WallCandidates, scenario: Scenario, roll: int, options: SolveOptions
) -> tuple[int, int]:
    """Upper bounds on models in normal engagement range and on tokens: the most models that
    can stand at once on such spots, each on one it reaches, no two overlapping (the charge's
    packing relaxation; every other rule ignored). Stopped early, the bound still holds."""
    n = len(scenario.acting_unit.models)
    engaged = packing_ceiling(wc.c, scenario, roll, options, "engaged")[0]
    as_engaged = [frozenset({"token"}) if t else frozenset() for t in wc.is_token]
    tokens_only = replace(wc.c, engaged=as_engaged, memo={})
    tokens = packing_ceiling(tokens_only, scenario, roll, options, "engaged")[0]
    return (n if engaged is None else engaged), (n if tokens is None else tokens)


def placements(
    scenario: Scenario, wc: wallc.WallCandidates, placed: dict[str, int]
) -> tuple[Placement, ...]:
    """One placement per model, as the result writes it (`written_pose`): where it ends, what
    it touches, the target units it engages (across the wall for a token model), and its
    token and wall. The candidates' facts hold where it is written: contact within the
    tolerance, the ranges with the margins they keep."""
    c = wc.c
    out = []
    poses = poses_of(c, placed)
    for m in scenario.acting_unit.models:
        p = placed[m.id]
        base = scenario.acting_unit.base_of(m)
        pose = written_pose(m, poses[m.id], base.circumradius_in)
        wall = wc.token_wall[p]
        engaged = set(c.engaged[p]) | (set(wc.token_targets[p]) if wall else set())
        out.append(
            Placement(
                model=m.id,
                x=pose.x,
                y=pose.y,
                z=pose.z,
                facing=None if isinstance(base, RoundBase) else pose.facing,
                moved=round(pose.moved, JSON_DECIMALS),
                contact=tuple(c.contact[p]),
                engaged=tuple(sorted(engaged)),
                token=wall is not None,
                wall=wall,
            )
        )
    return tuple(out)


def can_fight(scenario: Scenario, placed: tuple[Placement, ...]) -> int:
    """Models that can fight: in engagement range (a token's across its wall included), or in
    base contact with a unit mate that is in base contact with a target model."""
    unit = scenario.acting_unit
    radius = {m.id: unit.base_of(m).circumradius_in for m in unit.models}
    touching = [p for p in placed if p.contact]
    count = 0
    for p in placed:
        if p.engaged:
            count += 1
            continue
        count += any(
            abs(q.z - p.z) < 0.01
            and np.hypot(q.x - p.x, q.y - p.y) - radius[q.model] - radius[p.model] <= TOUCH_IN
            for q in touching
            if q.model != p.model
        )
    return count


def _result(
    scenario: Scenario,
    wc: wallc.WallCandidates,
    state: SolveState,
    roll: int,
    min_roll: int,
    decision: WallRuleDecision,
    t0: float,
    normal: str = "impossible",
) -> Result:
    dice = scenario.rules.charge_dice
    stats = {
        "seconds": round(time.perf_counter() - t0, 3),
        "candidates": len(wc.c),
        "token_spots": int(wc.is_token.sum()),
        "bound_scope": "candidates",
        "stages": [s.__dict__ for s in state.stages],
        "normal_charge": normal,
        "min_roll_basis": "the smallest roll at which the wtc-walls rule applies and a placement "
        "under it exists on the candidates (no normal charge succeeds below the roll solved)",
        "wtc_walls": decision.as_stats(),
    }
    if state.assignment is None:
        stats["reason"] = (
            "The wtc-walls rule applies, but no placement under it was found on the "
            "candidate positions" + (" in the time limit" if state.status != "INFEASIBLE" else "")
        )
        return Result(
            scenario=scenario.name,
            ruleset=scenario.ruleset,
            action=ResultAction.of(scenario.action, roll),
            status=Status.UNKNOWN,
            placements=tuple(
                Placement(model=m.id, x=m.x, y=m.y, z=m.z, moved=0.0)
                for m in scenario.acting_unit.models
            ),
            stats=stats,
        )
    placed = placements(scenario, wc, state.assignment)
    objective = {
        "engaged": sum(1 for p in placed if not p.token and p.engaged),
        "tokens": sum(1 for p in placed if p.token),
        "can_fight": can_fight(scenario, placed),
        "base_contact": sum(1 for p in placed if p.contact),
        "movement_in": round(sum(p.moved or 0.0 for p in placed), 3),
    }
    bound = {
        s.name: int(np.floor(s.bound + 1e-9))
        for s in state.stages
        if s.name != "movement" and np.isfinite(s.bound)
    }
    return Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=ResultAction.of(scenario.action, roll),
        status=Status.OPTIMAL if state.status == "OPTIMAL" else Status.FEASIBLE,
        min_roll=min_roll,
        success_probability=round(float(chance_at_least(min_roll, dice)), 4),
        success_probability_reroll=round(float(chance_with_reroll(min_roll, dice)), 4),
        objective=objective,
        bound=bound,
        placements=placed,
        stats=stats,
    )
