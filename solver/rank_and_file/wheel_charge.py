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
    if kind == "double-move":
        ruling.min_roll = max(0, math.ceil(need / 2 - 1e-6))
    else:
        ruling.min_roll = max(math.ceil(need - 1e-6), math.floor(movement) + 1)
    chance = chance_of_charge(kind, movement, need)
    ruling.chance, ruling.chance_fraction = float(chance), str(chance)


def _with_min_roll_proof(result: Result, plan: WheelPlan, scenario: RankAndFileScenario) -> Result:
    """The least Move or roll is proven when the straight charge covers just the gap; in any
    case no smaller one than the gap's reaches (`stats.min_roll_lower`)."""
    gap = plan.start.polygon.distance(plan.target_pose.polygon)
    movement = plan.charger.profile.movement or 0.0
    if scenario.rules.charge_move == "double-move":
        lower = max(0, math.ceil(gap / 2 - 1e-6))
    else:
        lower = max(math.ceil(gap - 1e-6), math.floor(movement) + 1)
    stats = {**result.stats, "min_roll_proven": plan.family.straight, "min_roll_lower": lower}
    return result.model_copy(update={"stats": stats})


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
    scope = plan.family.scope()
    shortest = plan.shortest()
    if shortest is None:
        return (
            f"no path ({scope}) brings {plan.charger.id}'s front against {target}'s "
            f"{plan.facing.name} facing with room to close the door"
        )
    return (
        f'the charge move of {reach_in:g}" is short: the shortest path ({scope}) needs '
        f'{shortest.total_in:.3f}"'
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
    proven = plan.bound is not None and (both, charge.charger_models) >= plan.bound
    family = plan.family
    if proven:
        status = Status.OPTIMAL
        proof = (
            f"no flush placement on {plan.target.id}'s {plan.facing.name} has more in contact "
            "(exact over its slides); "
            + (
                "straight ahead covers just the gap between the units: nothing moves less"
                if family.straight
                else "the least movement is over the sampled paths"
            )
        )
    else:
        status = Status.FEASIBLE
        best_t = plan.bound[0] if plan.bound else 0
        proof = (
            f"best of the sampled paths; a flush placement with {best_t} models in contact "
            "exists but none of them reaches it within the charge move"
        )
    if redirected_why:
        proof = f"{redirected_why}; redirected (once) to {plan.target.id}: {proof}"
    result = charge_result(
        scenario, [ruling], status, proof, started, roll, family.tried, objective
    )
    scope = f"flush slides exact; paths sampled: {family.scope()}, door closed about the contact"
    result = _with_min_roll_proof(result, plan, scenario)
    result = result.model_copy(update={"stats": {**result.stats, "bound_scope": scope}})
    if plan.bound is not None:
        both_bound, charger_bound = plan.bound
        bound = {
            "models_in_contact_both_sides": both_bound,
            "target_models_in_contact": both_bound - charger_bound,
            "models_in_contact": charger_bound,
        }
        result = result.model_copy(update={"bound": bound})
    return result
