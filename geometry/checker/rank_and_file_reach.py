"""The one-wheel charges of WHFB 6e and TOW, judged: the path's length (forward moves plus each
wheel's outer-corner travel by the ruleset's metric) within the charge move (2 x Move; the
Charge Range rolled, Movement + 6 at most), at most the wheels the ruleset allows; a failed
charge's move within the normal Move, clear of everything, touching no other enemy, ending
where its path ends and not in contact with the target (unless it started so); a redirect
only where the ruleset has one, against an enemy."""

from __future__ import annotations

import math
from typing import Any

from chargeopt.geometry.rank_and_file.contact import CONTACT_TOLERANCE_IN
from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.geometry.rank_and_file.moves import (
    forward,
    forward_sweep,
    wheel,
    wheel_sweep,
    wheel_travel,
)
from chargeopt.geometry.rank_and_file.obstacles import CHECK_DEPTH_IN, Obstacle
from chargeopt.models import RankAndFileScenario, Violation

LENGTH_TOL_IN = 0.002
"""Each step is written to 0.001": three of them may add this much."""
POSE_TOL_IN = 0.002


def charge_move_limit(scenario: RankAndFileScenario, uid: str, roll: int | None) -> float | None:
    """How far `uid` may charge under a one-wheel ruleset (None: a T9A Charge Range)."""
    rules = scenario.rules
    movement = scenario.unit_by_id[uid].profile.movement or 0.0
    if rules.charge_move == "double-move":
        return 2 * movement
    if rules.charge_move == "move-plus-high-d6":
        given = roll if roll is not None else scenario.action.roll_of(uid)
        return float(given) if given is not None else movement + 6
    return None


def path_length(steps: list[dict[str, Any]], width_in: float, metric: str) -> tuple[float, int]:
    """(inches the path counts, wheels in it)."""
    length, wheels = 0.0, 0
    for step in steps:
        if step.get("move") == "forward":
            length += float(step["distance_in"])
        elif step.get("move") == "wheel" and float(step["angle_deg"]) != 0:
            wheels += 1
            length += wheel_travel(width_in, float(step["angle_deg"]), metric)
    return length, wheels


def check_reach(
    scenario: RankAndFileScenario, uid: str, entry: dict[str, Any], limit_in: float
) -> list[Violation]:
    """A charging entry's path against the charge move and the wheels allowed."""
    rules = scenario.rules
    width = scenario.unit_by_id[uid].width_in
    steps = entry.get("path") or []
    length, wheels = path_length(steps, width, rules.wheel_metric)
    out = []
    if length > limit_in + LENGTH_TOL_IN:
        out.append(
            _v(
                "out_of_range",
                f"{uid}'s path counts {length:.3f}\" ({rules.wheel_metric} wheels), more than its "
                f'charge move of {limit_in:g}"',
                uid,
            )
        )
    if rules.wheels is not None and wheels > rules.wheels:
        out.append(
            _v("too_many_wheels", f"{uid} wheels {wheels} times (at most {rules.wheels})", uid)
        )
    return out


def check_failed_move(
    scenario: RankAndFileScenario,
    uid: str,
    entry: dict[str, Any],
    start: BlockPose,
    obstacles: list[Obstacle],
    target: BlockPose,
) -> list[Violation]:
    """A failed charge placed by its normal Move: length, clearances, end pose."""
    block = scenario.unit_by_id[uid]
    steps = entry.get("path") or []
    out: list[Violation] = []
    if not scenario.rules.failed_move:
        return [_v("failed_move_placed", f"{scenario.rules.edition} places no failed move", uid)]
    movement = block.profile.movement or 0.0
    length, wheels = path_length(steps, block.width_in, scenario.rules.wheel_metric)
    if length > movement + LENGTH_TOL_IN or wheels > 1:
        out.append(
            _v(
                "failed_move_too_long",
                f"{uid}'s failed charge moves {length:.3f}\" with {wheels} wheels; its Move "
                f'is {movement:g}"',
                uid,
            )
        )
    pose = start
    for n, step in enumerate(steps, 1):
        if step.get("move") == "forward":
            area = forward_sweep(pose, float(step["distance_in"]))
            pose = forward(pose, float(step["distance_in"]))
        elif step.get("move") == "wheel":
            area = wheel_sweep(pose, float(step["angle_deg"]))
            pose = wheel(pose, float(step["angle_deg"]))
        else:
            continue
        for o in obstacles:
            if o.blocks(area, CHECK_DEPTH_IN):
                out.append(_v("illegal_path", f"{uid}'s failed move step {n} meets {o.name}", uid))
    touching = pose.polygon.distance(target.polygon) <= CONTACT_TOLERANCE_IN
    if touching and start.polygon.distance(target.polygon) > CONTACT_TOLERANCE_IN:
        out.append(
            _v("illegal_path", f"{uid}'s failed move ends touching {scenario.target.id}", uid)
        )
    end = (float(entry["x"]), float(entry["y"]))
    if math.dist(end, (pose.x, pose.y)) > POSE_TOL_IN:
        out.append(_v("illegal_path", f"{uid} does not stand where its failed move ends", uid))
    return out


def check_redirect(scenario: RankAndFileScenario, uid: str, new_target: str) -> list[Violation]:
    """A redirected charge: allowed by the ruleset, against an enemy unit."""
    unit = scenario.unit_by_id.get(new_target)
    if not scenario.rules.redirect:
        return [_v("no_redirect", f"{scenario.rules.edition} redirects no charge", uid)]
    if unit is None or unit.owner == scenario.unit_by_id[uid].owner:
        return [_v("no_redirect", f"{uid} redirects against {new_target!r}, not an enemy", uid)]
    return []


def _v(kind: str, message: str, unit: str) -> Violation:
    return Violation(kind=kind, message=message, models=(unit,))
