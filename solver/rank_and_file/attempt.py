"""The outcome of a charge against one facing, and the move's steps as the result says them."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.geometry.rank_and_file.moves import pivot_of, wheel_travel
from chargeopt.solver.rank_and_file.approach import Approach
from chargeopt.solver.rank_and_file.ruling import Ruling


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
    """The Snaking Forward Move as steps: forward, wheel (pivot, outer corner's travel), ..."""
    steps: list[dict[str, Any]] = []
    for n, (kind, amount) in enumerate(approach.moves):
        last = n == len(approach.moves) - 1
        if kind == "forward" and (amount > 0 or last):
            steps.append({"move": "forward", "distance_in": round(amount, 3)})
        elif kind == "wheel" and amount != 0:
            steps.append(
                {
                    "move": "wheel",
                    "angle_deg": round(amount, 3),
                    "pivot": pivot_of(amount),
                    "travel_in": round(wheel_travel(width_in, amount, metric), 3),
                    "metric": metric,
                }
            )
    return steps


def align_step(arrival: BlockPose, end: BlockPose) -> dict[str, Any]:
    """The Align Move: how far the front-left corner is picked up and put down, and the turn."""
    turn = (end.facing - arrival.facing + 180.0) % 360.0 - 180.0
    return {
        "move": "align",
        "shift_in": round(math.dist((arrival.x, arrival.y), (end.x, end.y)), 3),
        "turn_deg": round(turn, 3),
    }
