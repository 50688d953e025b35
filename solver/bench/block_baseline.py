"""The baseline for rank-and-file charges: what community tools do. The charger moves
straight ahead until it first touches the target, whatever facing that is and whatever arc it
stands in, then "closes the door": it turns about the touching corner until flush with the
edge it touched (kept as is when it arrived flush). No wheel, no Align Move priorities, no
unaligned rules, no Blocked Path; a placement that overlaps something, or (whfb-6e, tow) lies
beyond the charge move, is reported as no charge. The checker then judges it like any answer."""

from __future__ import annotations

import time

from chargeopt.geometry.rank_and_file.frame import FACINGS, BlockPose
from chargeopt.geometry.rank_and_file.moves import forward
from chargeopt.geometry.rank_and_file.obstacles import table_obstacles
from chargeopt.geometry.rank_and_file.slides import facing_bases, flush_pose
from chargeopt.geometry.rank_and_file.translate import travel_until_touch
from chargeopt.models import RankAndFileScenario, Result, Status
from chargeopt.solver.options import SolveOptions
from chargeopt.solver.rank_and_file.opening import open_ruling
from chargeopt.solver.rank_and_file.result_doc import charge_result
from chargeopt.solver.rank_and_file.wheel_charge import charge_move_of


def solve_straight_in(scenario: RankAndFileScenario, options: SolveOptions) -> Result:
    """Straight in and close the door, for each charger in turn (a combined charge in the
    order given)."""
    started = time.perf_counter()
    target = scenario.target
    tpose = BlockPose.of(target)
    poses: dict[str, BlockPose] = {}
    rulings = []
    for uid in scenario.action.chargers:
        roll = options.roll if options.roll is not None else scenario.action.roll_of(uid)
        ruling = open_ruling(scenario, uid, roll)
        rulings.append(ruling)
        if ruling.outcome == "fails":
            continue
        block = scenario.unit_by_id[uid]
        hit = travel_until_touch(ruling.start.polygon, ruling.start.forward, tpose.polygon)
        obstacles = table_obstacles(scenario, {uid, target.id}, poses)
        one_wheel = scenario.rules.charge_move != "t9a-roll"
        if hit is None or (one_wheel and hit[0] > charge_move_of(scenario, roll) + 1e-9):
            ruling.outcome = "impossible"
            continue
        arrival = forward(ruling.start, hit[0])
        facing = _edge_touched(tpose, hit[1])
        if facing is None:
            ruling.outcome = "impossible"
            continue
        across = min(max(arrival.local(hit[1])[0], 0.0), block.width_in)
        slide = facing.along(hit[1]) - across  # the touching point stays where it touched
        end = flush_pose(block, facing, slide)
        if any(o.blocks(end.polygon) for o in obstacles):
            ruling.outcome = "impossible"
            continue
        gaps = scenario.rules.fight_over_gaps
        t, c = facing_bases(target, tpose, facing, block, gaps).counts(slide)
        ruling.end, ruling.target_facing, ruling.aligned, ruling.angle_deg = (
            end,
            facing.name,
            True,
            0.0,
        )
        ruling.initial_contact, ruling.slide_in = hit[1], slide
        ruling.target_models, ruling.charger_models = t, c
        ruling.path = [{"move": "forward", "distance_in": round(hit[0], 3)}]
        poses[uid] = end
    placed = [r for r in rulings if r.outcome == "charges"]
    status = Status.FEASIBLE if placed else Status.INFEASIBLE
    objective = {
        "charges": len(placed),
        "target_models_in_contact": sum(r.target_models or 0 for r in placed),
        "models_in_contact": sum(r.charger_models or 0 for r in placed),
    }
    proof = None if placed else "straight ahead, no charger reaches a place it can close the door"
    result = charge_result(
        scenario, rulings, status, proof, started, options.roll, objective=objective
    )
    return result.model_copy(update={"stats": {**result.stats, "method": "straight-in"}})


def _edge_touched(tpose: BlockPose, point: tuple[float, float]):
    """The target's facing through the touching point (the nearest one at a corner)."""
    best = min(FACINGS, key=lambda n: abs(tpose.facing_segment(n).out(point)))
    segment = tpose.facing_segment(best)
    return segment if abs(segment.out(point)) <= 1e-6 else None
