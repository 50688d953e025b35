"""A charge against one chosen facing of the target: the reachable initial contacts, then the
best aligned placement keeping one, else the unaligned placement; or the reason none exists."""

from __future__ import annotations

from chargeopt.geometry.rank_and_file.frame import BlockPose, Segment
from chargeopt.geometry.rank_and_file.obstacles import Obstacle
from chargeopt.geometry.rank_and_file.slides import facing_bases, flush_pose
from chargeopt.models import Block, RankAndFileScenario
from chargeopt.solver.rank_and_file.align import align
from chargeopt.solver.rank_and_file.approach import reach
from chargeopt.solver.rank_and_file.attempt import FacingAttempt, align_step, path_steps
from chargeopt.solver.rank_and_file.unaligned import unaligned


def attempt_facing(
    scenario: RankAndFileScenario,
    charger: Block,
    start: BlockPose,
    target: Block,
    target_pose: BlockPose,
    facing_name: str,
    obstacles: list[Obstacle],
) -> FacingAttempt:
    """The best charge of `charger` against `target`'s `facing_name` facing."""
    facing = target_pose.facing_segment(facing_name)
    found = reach(start, target_pose, facing, obstacles)
    contacts = found.contact_set()
    if not contacts:
        why = f": the paths toward it are blocked by {found.blocker}" if found.blocker else ""
        return FacingAttempt(
            facing_name,
            None,
            f"no Snaking Forward Move (forward, wheel, forward; or wheel, forward, wheel, "
            f"forward; {found.tried} "
            f"paths tried) brings {charger.id}'s front against {target.id}'s {facing_name} "
            f"facing{why}",
        )
    bases = facing_bases(target, target_pose, facing, charger, scenario.rules.fight_over_gaps)
    outcome = align(charger, facing, bases, obstacles, contacts)
    metric = scenario.rules.wheel_metric
    if outcome.best is not None:
        choice = outcome.best
        end = flush_pose(charger, facing, choice.slide_in)
        kept = found.witness(choice.slide_in, choice.slide_in + charger.width_in)
        assert kept is not None
        witness, point = kept
        anywhere = outcome.best_anywhere
        update = {
            "end": end,
            "target_facing": facing_name,
            "path": [
                *path_steps(witness, charger.width_in, metric),
                align_step(witness.arrival, end),
            ],
            "initial_contact": facing.point_at(point),
            "aligned": True,
            "angle_deg": 0.0,
            "slide_in": choice.slide_in,
            "target_models": choice.target_models,
            "charger_models": choice.charger_models,
            "most_possible": (anywhere.target_models, anywhere.charger_models)
            if anywhere
            else None,
        }
        return FacingAttempt(facing_name, update, "", outcome.candidates)
    return unaligned(
        scenario,
        charger,
        target,
        target_pose,
        facing,
        found,
        obstacles,
        outcome.blockers,
        lambda approach: path_steps(approach, charger.width_in, metric),
    )


__all__ = ["FacingAttempt", "Segment", "attempt_facing"]
