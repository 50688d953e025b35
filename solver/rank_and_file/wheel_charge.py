"""A WHFB 6e or TOW charge: the best one-wheel path within the charge move, the door closed;
the least Move (6e) or Charge Range (TOW) that succeeds and its chance; a failed charge's
redirect (once) or its normal Move towards the target (6e)."""

from __future__ import annotations

import math
import time

from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.geometry.rank_and_file.moves import wheel_travel
from chargeopt.geometry.rank_and_file.slides import flush_pose
from chargeopt.models import ChargeoptError, RankAndFileScenario, Result, Status
from chargeopt.solver.options import SolveOptions
from chargeopt.solver.rank_and_file.approach import Approach
from chargeopt.solver.rank_and_file.attempt import align_step, path_steps
from chargeopt.solver.rank_and_file.failed_move import failed_distance_in, failed_move
from chargeopt.solver.rank_and_file.odds import chance_of_charge
from chargeopt.solver.rank_and_file.one_wheel import WheelCharge
from chargeopt.solver.rank_and_file.result_doc import charge_result
from chargeopt.solver.rank_and_file.ruling import Ruling
from chargeopt.solver.rank_and_file.wheel_plan import WheelPlan, plan_charge


def charge_move_of(scenario: RankAndFileScenario, roll: int | None) -> float:
    """How far the charge may go: 2 x Move (6e); the roll, else Movement + 6 (TOW)."""
    movement = scenario.acting_unit.profile.movement or 0.0
    if scenario.rules.charge_move == "double-move":
        return 2 * movement
    return float(roll) if roll is not None else movement + 6


def solve_wheel_charge(scenario: RankAndFileScenario, options: SolveOptions) -> Result:
    """Solve a whfb-6e or tow charge by one block."""
    started = time.perf_counter()
    rules = scenario.rules
    roll = options.roll if options.roll is not None else scenario.action.roll
    if rules.charge_move == "double-move" and roll is not None:
        raise ChargeoptError(
            "whfb-6e rolls no dice (the charge move is twice the Move): drop --roll"
        )
    reach_in = charge_move_of(scenario, roll)
    fled = scenario.action.fled
    if fled and rules.redirect:
        redirect = _redirect(scenario, roll, reach_in)
        if redirect is not None:
            why = f"{scenario.target.id} fled out of reach: the charge fails"
            return _redirected(scenario, redirect, reach_in, roll, started, why)
    gap = BlockPose.of(scenario.acting_unit).polygon.distance(BlockPose.of(scenario.target).polygon)
    plan = plan_charge(scenario, roll, reach_in if gap <= reach_in else math.inf)
    best = None if fled else plan.best_within(reach_in)
    if plan.shortest() is None and gap <= reach_in:
        plan = plan_charge(scenario, roll)
    _odds(plan, scenario)
    if best is not None:
        return _charged(scenario, plan, best, reach_in, roll, started)
    why = _why_failed(scenario, plan, reach_in)
    if rules.redirect and not fled:
        redirect = _redirect(scenario, roll, reach_in)
        if redirect is not None:
            return _redirected(scenario, redirect, reach_in, roll, started, why)
    ruling = plan.ruling
    ruling.outcome = "fails"
    ruling.charge_move_in = reach_in
    ruling.reason = why
    if rules.failed_move:
        shortest = plan.shortest()
        movement = failed_distance_in(scenario, roll)
        end, moves = failed_move(
            plan.start,
            shortest.moves if shortest else None,
            movement,
            rules.wheel_metric,
            plan.target_pose,
            plan.obstacles,
        )
        ruling.end = end
        ruling.path = path_steps(
            Approach(moves, (0.0, 0.0), end), plan.charger.width_in, rules.wheel_metric
        )
        ruling.moved_in = _moved(moves, plan.charger.width_in, rules.wheel_metric)
        ruling.failed_move_in = movement
        ruling.failed_move = rules.failed_charge
        kind = (
            "makes its normal Move"
            if rules.failed_charge == "normal-move"
            else "moves its higher charge die"
        )
        why += f'; {plan.charger.id} {kind} of {movement:g}" towards {plan.target.id}'
    ruling.wheel_metric = rules.wheel_metric
    result = charge_result(
        scenario, [ruling], Status.INFEASIBLE, why, started, roll, plan.family.tried
    )
    return _with_min_roll_proof(result, plan, scenario)


def _moved(moves, width_in: float, metric: str) -> float:
    return sum(a if k == "forward" else wheel_travel(width_in, a, metric) for k, a in moves)


def _odds(plan: WheelPlan, scenario: RankAndFileScenario) -> None:
    """The least Move (6e) or Charge Range (TOW) that reaches, and its chance."""
    ruling = plan.ruling
    movement = plan.charger.profile.movement or 0.0
    shortest = plan.shortest()
    if shortest is None:
        ruling.min_roll, ruling.chance, ruling.chance_fraction = None, 0.0, "0"
        return
    need = shortest.total_in
    kind = scenario.rules.charge_move
    ruling.min_roll = _roll_for(need, plan, scenario)
    chance = chance_of_charge(kind, movement, need)
    ruling.chance, ruling.chance_fraction = float(chance), str(chance)


def _with_min_roll_proof(result: Result, plan: WheelPlan, scenario: RankAndFileScenario) -> Result:
    """No Move or roll smaller than the least path length over every path reaches
    (`stats.min_roll_lower`); the reported one is proven when the shortest path found needs
    no more."""
    shortest = plan.shortest()
    least = plan.least_lower()
    gap = plan.start.polygon.distance(plan.target_pose.polygon)
    lower = _roll_for(max(least, gap), plan, scenario)
    proven = shortest is not None and _roll_for(shortest.total_in, plan, scenario) == lower
    stats = {**result.stats, "min_roll_proven": proven, "min_roll_lower": lower}
    return result.model_copy(update={"stats": stats})


def _roll_for(length_in: float, plan: WheelPlan, scenario: RankAndFileScenario) -> int | None:
    """The least Move (6e) or Charge Range (TOW) that covers `length_in` (None: infinite)."""
    if length_in == math.inf:
        return None
    movement = plan.charger.profile.movement or 0.0
    if scenario.rules.charge_move == "double-move":
        return max(0, math.ceil(length_in / 2 - 1e-6))
    return max(math.ceil(length_in - 1e-6), math.floor(movement) + 1)


def _verdict(plan: WheelPlan, charge: WheelCharge, reach_in: float) -> tuple[Status, str]:
    """Optimal when no path of at most the charge move reaches an end slide with more in
    contact (the least path length over every path, `wheel_reach.py`); else feasible."""
    key = charge.key()[:2]
    ceiling = plan.path_bound(reach_in)
    if ceiling is None or key < ceiling:
        t = 0 if ceiling is None else ceiling[0] - ceiling[1]
        return Status.FEASIBLE, (
            f'best path found; in open ground a path of at most {reach_in:g}" may reach a flush '
            f"placement with {t} models of {plan.target.id} in contact (the least path length "
            "over every path), but no path found there is clear"
        )
    more = plan.least_lower(key, strict=True)
    if plan.bound is None or key >= plan.bound:
        words = (
            f"no flush placement on {plan.target.id}'s {plan.facing.name} has more in contact "
            "(exact over its slides)"
        )
    elif more == math.inf:
        words = (
            "no one-wheel path (forward, a wheel of at most 90 degrees, forward, the door "
            "closed) ends at a flush placement with more in contact"
        )
    else:
        words = (
            f'every flush placement with more in contact needs a path of at least {more:.3f}" '
            f"(least over every one-wheel path, in open ground) against a charge move of "
            f'{reach_in:g}"'
        )
    least = plan.least_lower(key)
    if plan.family.straight:
        moved = "straight ahead covers just the gap between the units: nothing moves less"
    elif charge.total_in <= least + 1e-3:
        moved = f'nothing bringing as many moves less (least {least:.3f}")'
    else:
        moved = f'a path bringing as many may move less (at least {least:.3f}")'
    return Status.OPTIMAL, f"{words}; {moved}"


def _why_failed(scenario: RankAndFileScenario, plan: WheelPlan, reach_in: float) -> str:
    target = plan.target.id
    if scenario.action.fled:
        return f"{target} fled out of reach: the charge fails"
    gap = plan.start.polygon.distance(plan.target_pose.polygon)
    if gap > reach_in:
        return (
            f'the charge move of {reach_in:g}" is short of the {gap:.3f}" between '
            f"{plan.charger.id} and {target} (proven: no point of the front moves farther than "
            "the path counts)"
        )
    least = plan.least_lower()
    facing = f"{target}'s {plan.facing.name} facing"
    if least == math.inf:
        return (
            f"proven over every path: no forward-wheel-forward path with the door closed ends "
            f"flush on {facing} at a legal slide"
        )
    if least > reach_in + 1e-9:
        return (
            f'the charge move of {reach_in:g}" is short: proven over every path, the least '
            f'one-wheel path to a flush placement on {facing} is {least:.3f}" (in open ground)'
        )
    shortest = plan.shortest()
    scope = f"{plan.family.scope()}; and the least path to every end slide"
    found = (
        f'the shortest clear path found needs {shortest.total_in:.3f}"'
        if shortest is not None
        else f"no path found ({scope}) is clear to close the door on {facing}"
    )
    return (
        f'{found}; not proven over every path: in open ground a path of {least:.3f}" '
        f"reaches {facing}, and what blocks it is judged only on the paths searched"
    )


def _redirected(scenario, redirect, reach_in: float, roll, started: float, why: str) -> Result:
    """The result of the charge redirected (once) against another unit."""
    other, plan, charge = redirect
    plan.ruling.redirected_from = scenario.target.id
    _odds(plan, other)
    return _charged(other, plan, charge, reach_in, roll, started, why)


def _redirect(scenario: RankAndFileScenario, roll: int | None, reach_in: float):
    """The best charge against another enemy unit in reach: (scenario, plan, path)."""
    side = scenario.acting_unit.owner
    best = None
    for unit in scenario.units:
        if unit.owner == side or unit.id == scenario.target.id:
            continue
        start = BlockPose.of(scenario.acting_unit)
        if start.polygon.distance(BlockPose.of(unit).polygon) > reach_in:
            continue
        other = scenario.retargeted(unit.id)
        plan = plan_charge(other, roll, reach_in)
        charge = plan.best_within(reach_in)
        if charge is not None and (best is None or charge.key() > best[2].key()):
            best = (other, plan, charge)
    return best


def _charged(
    scenario: RankAndFileScenario,
    plan: WheelPlan,
    charge: WheelCharge,
    reach_in: float,
    roll: int | None,
    started: float,
    redirected_why: str | None = None,
) -> Result:
    """The result of a charge that reaches."""
    metric = scenario.rules.wheel_metric
    ruling: Ruling = plan.ruling
    end = flush_pose(plan.charger, plan.facing, charge.slide_in)
    approach = Approach(charge.moves, (0.0, 0.0), charge.arrival)
    ruling.end = end
    ruling.target_facing = plan.facing.name
    ruling.path = [
        *path_steps(approach, plan.charger.width_in, metric),
        align_step(charge.arrival, end),
    ]
    ruling.initial_contact = charge.point
    ruling.aligned, ruling.angle_deg, ruling.slide_in = True, 0.0, charge.slide_in
    ruling.target_models, ruling.charger_models = charge.target_models, charge.charger_models
    if plan.bound is not None:
        ruling.most_possible = (plan.bound[0] - plan.bound[1], plan.bound[1])
    ruling.charge_move_in, ruling.moved_in, ruling.wheel_metric = reach_in, charge.total_in, metric
    both = charge.target_models + charge.charger_models
    objective = {
        "models_in_contact_both_sides": both,
        "target_models_in_contact": charge.target_models,
        "models_in_contact": charge.charger_models,
        "moved_in": round(charge.total_in, 3),
    }
    status, proof = _verdict(plan, charge, reach_in)
    if redirected_why:
        proof = f"{redirected_why}; redirected (once) to {plan.target.id}: {proof}"
    result = charge_result(
        scenario, [ruling], status, proof, started, roll, plan.family.tried, objective
    )
    scope = (
        "every path: forward, one wheel (0 to 90 degrees) about a front corner, forward into "
        "contact, the door closed; least path length per end slide by a certified branch and "
        "bound, in open ground (a ceiling anywhere on the table)"
    )
    result = _with_min_roll_proof(result, plan, scenario)
    result = result.model_copy(update={"stats": {**result.stats, "bound_scope": scope}})
    ceiling = plan.path_bound(reach_in)
    if ceiling is not None:
        both_bound, charger_bound = ceiling
        bound = {
            "models_in_contact_both_sides": both_bound,
            "target_models_in_contact": both_bound - charger_bound,
            "models_in_contact": charger_bound,
        }
        result = result.model_copy(update={"bound": bound})
    return result
