"""How an answer is written down. The result JSON gives each moved model's centre rounded to
`JSON_STEP_IN` and its facing to `FACING_DECIMALS`; a model that does not move is written exactly
where it started. The summary prints the JSON's x and y rounded to `SUMMARY_STEP_IN`. The
answer's margins (`tolerances`) keep both legal: the JSON as written, and the summary's
positions when the checker judges them as measured to that precision."""

from __future__ import annotations

import math
from collections.abc import Iterable

from chargeopt.models import GameModel, Placement
from chargeopt.solver.core.polish import Pose
from chargeopt.solver.core.tolerances import FACING_DECIMALS, JSON_DECIMALS, SUMMARY_STEP_IN

SUMMARY_DECIMALS = round(-math.log10(SUMMARY_STEP_IN))
STAYS_IN = 1e-9
"""A pose this close to the start (and at its height and facing) is the start."""


def stays(model: GameModel, pose: Pose) -> bool:
    """Whether the pose is the model's start: it does not move."""
    return (
        abs(pose.x - model.x) <= STAYS_IN
        and abs(pose.y - model.y) <= STAYS_IN
        and abs(pose.z - model.z) <= STAYS_IN
        and abs(pose.facing - model.facing) <= STAYS_IN
    )


def written_pose(model: GameModel, pose: Pose, circumradius_in: float = 0.0) -> Pose:
    """The pose as the JSON writes it: the start itself for a model that does not move, else
    x and y rounded to `JSON_STEP_IN` and the facing (if it turned) to `FACING_DECIMALS`. Its
    `moved` adds the rounding's step (and the turn it adds to a base of `circumradius_in`) to
    the solver's path, so it is the length of a path to the written pose."""
    if stays(model, pose):
        return Pose(model.x, model.y, model.z, model.facing, 0.0)
    x, y = round(pose.x, JSON_DECIMALS), round(pose.y, JSON_DECIMALS)
    facing = pose.facing
    if abs(facing - model.facing) > STAYS_IN:
        facing = round(facing, FACING_DECIMALS)
    turn = circumradius_in * math.radians(abs(facing - pose.facing))
    return Pose(x, y, pose.z, facing, pose.moved + math.hypot(x - pose.x, y - pose.y) + turn)


def printed_value(value: float) -> str:
    """A coordinate as the summary prints it."""
    return f"{value:.{SUMMARY_DECIMALS}f}"


def printed(placements: Iterable[Placement]) -> tuple[Placement, ...]:
    """The placements as a judge reads them off the summary: x and y as printed (to
    `SUMMARY_STEP_IN`), z and the facing as written."""
    return tuple(
        p.model_copy(update={"x": float(printed_value(p.x)), "y": float(printed_value(p.y))})
        for p in placements
    )
