"""A charge against one chosen facing of the target: the reachable initial contacts, then the
best aligned placement keeping one, else the unaligned placement; or the reason none exists."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from chargeopt.geometry.rank_and_file.frame import BlockPose, Segment
from chargeopt.geometry.rank_and_file.moves import pivot_of, wheel_travel
from chargeopt.geometry.rank_and_file.obstacles import Obstacle
from chargeopt.geometry.rank_and_file.slides import facing_bases, flush_pose
from chargeopt.models import Block, RankAndFileScenario
from chargeopt.solver.rank_and_file.align import align
from chargeopt.solver.rank_and_file.approach import Approach, reach
from chargeopt.solver.rank_and_file.ruling import Ruling
from chargeopt.solver.rank_and_file.unaligned import unaligned


@dataclass
class FacingAttempt:
    """The outcome against one facing: the Ruling fields to set (None: impossible, with the
    reason), how many candidate placements were weighed, and extra rulings (the target's)."""

    facing: str
    ruling_update: dict[str, Any] | None
    reason: str
    candidates: int = 0
    extra_rulings: list[Ruling] = field(default_factory=list)

    def rank(self) -> tuple[int, int, int]:
        """Aligned first, then the target's and the charger's models in contact."""
        u = self.ruling_update or {}
        return (int(bool(u.get("aligned"))), u.get("target_models", 0), u.get("charger_models", 0))


def path_steps(approach: Approach, width_in: float, metric: str) -> list[dict[str, Any]]:
    """The Snaking Forward Move as steps: forward, wheel (pivot, outer corner's travel), forward."""
    steps: list[dict[str, Any]] = []
    if approach.d1_in > 0:
        steps.append({"move": "forward", "distance_in": round(approach.d1_in, 3)})
    if approach.wheel_deg != 0:
        steps.append(
            {
                "move": "wheel",
                "angle_deg": round(approach.wheel_deg, 3),
                "pivot": pivot_of(approach.wheel_deg),
                "travel_in": round(wheel_travel(width_in, approach.wheel_deg, metric), 3),
                "metric": metric,
            }
        )
    steps.append({"move": "forward", "distance_in": round(approach.d2_in, 3)})
    return steps


def align_step(arrival: BlockPose, end: BlockPose) -> dict[str, Any]:
    """The Align Move: how far the front-left corner is picked up and put down, and the turn."""
    turn = (end.facing - arrival.facing + 180.0) % 360.0 - 180.0
    return {
        "move": "align",
        "shift_in": round(math.dist((arrival.x, arrival.y), (end.x, end.y)), 3),
        "turn_deg": round(turn, 3),
    }


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
            f"no Snaking Forward Move (forward, at most one wheel, forward; {found.tried} "
            f"paths tried) brings {charger.id}'s front against {target.id}'s {facing_name} "
            f"facing{why}",
        )
    bases = facing_bases(target, target_pose, facing, charger)
    outcome = align(charger, facing, bases, obstacles, contacts)
    metric = scenario.rules.wheel_metric
    if outcome.best is not None:
        choice = outcome.best
        end = flush_pose(charger, facing, choice.slide_in)
        point = _kept_point(contacts, choice.slide_in, charger.width_in)
        witness = found.witness(point)
        assert witness is not None
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


def _kept_point(contacts: list[tuple[float, float]], slide_in: float, width_in: float) -> float:
    """A reachable contact point under the charger's front at `slide_in` (the middle of the
    first overlap)."""
    for lo, hi in contacts:
        a, b = max(lo, slide_in), min(hi, slide_in + width_in)
        if a <= b + 1e-9:
            return (a + min(b, max(a, b))) / 2 if b >= a else a
    raise AssertionError("the slide keeps no contact point")


__all__ = ["FacingAttempt", "Segment", "attempt_facing", "path_steps"]
