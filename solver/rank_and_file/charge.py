"""A single T9A charge: arc and Target Facing, Charge Range, Snaking Forward Move, Align Move
(aligned, else unaligned with the target's rotation), Blocked Path; the answer as a Result."""

from __future__ import annotations

import time

from chargeopt.geometry.rank_and_file.declaration import check_declarations, declared_sight
from chargeopt.geometry.rank_and_file.frame import FACINGS, BlockPose
from chargeopt.geometry.rank_and_file.obstacles import table_obstacles
from chargeopt.models import RankAndFileScenario, Result, Status
from chargeopt.solver.options import SolveOptions
from chargeopt.solver.rank_and_file.attempt import FacingAttempt
from chargeopt.solver.rank_and_file.blocked_path import blocked_path
from chargeopt.solver.rank_and_file.facing_charge import attempt_facing
from chargeopt.solver.rank_and_file.opening import open_ruling, short_range_reason
from chargeopt.solver.rank_and_file.result_doc import charge_result
from chargeopt.solver.rank_and_file.t9a_failed_move import place_failed_move
from chargeopt.solver.rank_and_file.t9a_reach import judged_combined, judged_over_every_path


def solve_t9a_charge(scenario: RankAndFileScenario, options: SolveOptions) -> Result:
    """Solve a T9A charge by one block (several chargers: see combined.py)."""
    check_declarations(scenario, scenario.name or "<scenario>")
    if len(scenario.action.chargers) > 1:
        from chargeopt.solver.rank_and_file.combined import solve_combined_charge

        return judged_combined(scenario, solve_combined_charge(scenario, options))
    return judged_over_every_path(scenario, _solve_single(scenario, options))


def _solve_single(scenario: RankAndFileScenario, options: SolveOptions) -> Result:
    """The charge over the paths searched (`t9a_reach.py` then judges it over every path)."""
    started = time.perf_counter()
    charger = scenario.acting_unit
    target = scenario.target
    start, target_pose = BlockPose.of(charger), BlockPose.of(target)
    roll = options.roll if options.roll is not None else scenario.action.roll
    ruling = open_ruling(scenario, charger.id, roll)
    ruling.line_of_sight = declared_sight(scenario, charger.id)
    if ruling.outcome == "fails":
        proof = short_range_reason(ruling, target.id)
        proof += place_failed_move(scenario, ruling, BlockPose.of(target))
        return charge_result(scenario, [ruling], Status.INFEASIBLE, proof, started, roll)
    arc = ruling.arc
    assert arc is not None
    obstacles = table_obstacles(scenario, {charger.id, target.id})
    attempt = attempt_facing(scenario, charger, start, target, target_pose, arc, obstacles)
    if attempt.ruling_update is None:
        blocked = blocked_path(scenario, start, target.id, obstacles, target_pose)
        if blocked:
            tries = [
                attempt_facing(scenario, charger, start, target, target_pose, f, obstacles)
                for f in FACINGS
                if f != arc
            ]
            done = [t for t in tries if t.ruling_update is not None]
            if done:
                attempt = max(done, key=FacingAttempt.rank)
                ruling.blocked_path = True
                ruling.target_facing = attempt.facing
            else:
                attempt = FacingAttempt(
                    arc,
                    None,
                    attempt.reason + "; Blocked Path applies (the first "
                    f"obstacle straight ahead is {target.id}) but no facing of it can be reached",
                    attempt.candidates,
                )
    if attempt.ruling_update is None:
        ruling.outcome = "impossible"
        reason = attempt.reason + place_failed_move(scenario, ruling, target_pose)
        return charge_result(
            scenario,
            [ruling],
            Status.INFEASIBLE,
            reason,
            started,
            roll,
            candidates=attempt.candidates,
        )
    for key, value in attempt.ruling_update.items():
        setattr(ruling, key, value)
    rulings = [ruling, *attempt.extra_rulings]
    return charge_result(
        scenario, rulings, Status.OPTIMAL, None, started, roll, candidates=attempt.candidates
    )
