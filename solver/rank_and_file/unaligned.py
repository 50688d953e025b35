"""The Unaligned Charge: when no fully aligned placement keeps a reachable contact point, the
charger touches the contact point with a front corner, its front turned away from the Target
Facing's line (it may not pass over it) by the least angle that clears every obstacle; then
the target turns about the contact point to close the angle as far as it can.

The least angle is found by a scan of `SCAN_DEG` steps refined by bisection to `TOL_DEG`
(a window narrower than a scan step could be missed: the answer is then `feasible`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chargeopt.geometry.rank_and_file.contact import contact_counts
from chargeopt.geometry.rank_and_file.frame import BlockPose, Segment, heading_of
from chargeopt.geometry.rank_and_file.moves import rotate_about
from chargeopt.geometry.rank_and_file.obstacles import Obstacle, overlaps
from chargeopt.models import Block, RankAndFileScenario
from chargeopt.solver.rank_and_file.approach import Approach, Reach
from chargeopt.solver.rank_and_file.attempt import FacingAttempt, align_step
from chargeopt.solver.rank_and_file.ruling import Ruling

SCAN_DEG = 0.5
TOL_DEG = 1e-4
MAX_ANGLE_DEG = 89.0
MAX_POINTS = 24


def _corner_pose(
    charger: Block, facing: Segment, point: tuple[float, float], corner: str
) -> BlockPose:
    """The charger flush on the facing's line with `corner` (front-left or front-right) on
    `point`."""
    heading = heading_of((-facing.normal[0], -facing.normal[1]))
    pose = BlockPose(charger.width_in, charger.depth_in, point[0], point[1], heading)
    if corner == "front-right":
        r = pose.right
        pose = pose.moved(
            point[0] - charger.width_in * r[0], point[1] - charger.width_in * r[1], heading
        )
    return pose


def _away_sign(pose: BlockPose, facing: Segment, point: tuple[float, float]) -> float:
    """The turn direction (+1 or -1) that lifts the front off the facing's line."""
    probe = rotate_about(pose, point, 1.0)
    far = max(
        probe.corners["front-left"], probe.corners["front-right"], key=lambda p: abs(facing.out(p))
    )
    return 1.0 if facing.out(far) > 0 else -1.0


def _first_change(holds: Callable[[float], bool], limit: float, steps: int) -> float | None:
    """The first angle in (0, limit] where `holds` turns true, scanning `steps` steps and then
    bisecting to TOL_DEG (None if it never does)."""
    prev = 0.0
    for i in range(1, steps + 1):
        angle = limit * i / steps
        if holds(angle):
            lo, hi = prev, angle
            while hi - lo > TOL_DEG:
                mid = (lo + hi) / 2
                lo, hi = (lo, mid) if holds(mid) else (mid, hi)
            return hi
        prev = angle
    return None


def _least_free(free: Callable[[float], bool]) -> float | None:
    """The least angle in (0, MAX_ANGLE_DEG] at which `free` holds."""
    return _first_change(free, MAX_ANGLE_DEG, int(MAX_ANGLE_DEG / SCAN_DEG))


def _most_free(free: Callable[[float], bool], limit: float) -> float:
    """The largest angle in [0, limit] up to which `free` holds throughout (to TOL_DEG)."""
    blocked = _first_change(lambda a: not free(a), limit, max(1, int(limit / SCAN_DEG)))
    return limit if blocked is None else max(0.0, blocked - TOL_DEG)


def _points(found: Reach, limit: int = MAX_POINTS) -> list[float]:
    points = sorted(
        {p for a in found.approaches for p in (a.contact[0], a.contact[1], sum(a.contact) / 2)}
    )
    if len(points) <= limit:
        return points
    step = (len(points) - 1) / (limit - 1)
    return [points[round(i * step)] for i in range(limit)]


def unaligned(
    scenario: RankAndFileScenario,
    charger: Block,
    target: Block,
    target_pose: BlockPose,
    facing: Segment,
    found: Reach,
    obstacles: list[Obstacle],
    blockers: tuple[str, ...],
    steps: Callable[[Approach], list[dict[str, Any]]],
) -> FacingAttempt:
    """The best unaligned placement (least angle, then models in contact) with the target's
    rotation, as a FacingAttempt."""

    def free(pose: BlockPose) -> bool:
        shape = pose.polygon
        return not overlaps(shape, target_pose.polygon) and not any(
            o.blocks(shape) for o in obstacles
        )

    gaps = scenario.rules.fight_over_gaps
    best: tuple[tuple[float, int, int], BlockPose, float, tuple[float, float]] | None = None
    tried = 0
    for s in _points(found):
        point = facing.point_at(s)
        for corner in ("front-left", "front-right"):
            flat = _corner_pose(charger, facing, point, corner)
            sign = _away_sign(flat, facing, point)
            tried += 1
            angle = _least_free(
                lambda a, f=flat, sg=sign, p=point: free(rotate_about(f, p, sg * a))
            )
            if angle is None:
                continue
            pose = rotate_about(flat, point, sign * angle)
            t_in, c_in = contact_counts(target, target_pose, charger, pose, gaps)
            t, c = len(t_in), len(c_in)
            key = (angle, -t, -c)
            if best is None or key < best[0]:
                best = (key, pose, s, point)
    named = ", ".join(blockers) if blockers else "the table's edge"
    if best is None:
        return FacingAttempt(
            facing.name,
            None,
            f"every fully aligned placement of {charger.id} keeping a reachable contact point "
            f"on {target.id}'s {facing.name} facing is blocked (by {named}), and so is every "
            f"unaligned one (its front turned up to {MAX_ANGLE_DEG:g} degrees)",
            tried,
        )
    (angle, _, _), end, s, point = best
    rotated, turn = _target_turn(scenario, target, target_pose, end, point, angle, facing)
    kept = found.witness(s)
    assert kept is not None
    witness = kept[0]
    t_ids, c_ids = contact_counts(target, rotated, charger, end, gaps)
    update = {
        "end": end,
        "target_facing": facing.name,
        "path": [*steps(witness), align_step(witness.arrival, end)],
        "initial_contact": point,
        "aligned": abs(angle - abs(turn)) <= TOL_DEG,
        "unaligned": True,
        "angle_deg": max(0.0, angle - abs(turn)),
        "target_rotation_deg": turn,
        "target_models": len(t_ids),
        "charger_models": len(c_ids),
    }
    extra = []
    if turn:
        extra.append(
            Ruling(
                target.id,
                "target",
                target_pose,
                end=rotated,
                outcome="rotates",
                target_rotation_deg=turn,
                initial_contact=point,
            )
        )
    return FacingAttempt(facing.name, update, "", tried, extra)


def _target_turn(
    scenario: RankAndFileScenario,
    target: Block,
    target_pose: BlockPose,
    charger_end: BlockPose,
    point: tuple[float, float],
    angle: float,
    facing: Segment,
) -> tuple[BlockPose, float]:
    """The target's special Align Move: turned about the contact point toward the charger's
    front, as far as terrain, other units and the board allow (at most the angle between)."""
    from chargeopt.geometry.rank_and_file.obstacles import table_obstacles

    around = table_obstacles(scenario, {target.id, *scenario.action.chargers})
    sign = 1.0
    probe = rotate_about(target_pose, point, 1.0).facing_segment(facing.name)
    cf = charger_end.facing_segment("front")
    if abs(_angle_between(probe, cf)) > abs(_angle_between(facing, cf)):
        sign = -1.0

    def free(a: float) -> bool:
        shape = rotate_about(target_pose, point, sign * a).polygon
        if overlaps(shape, charger_end.polygon):
            return False
        return not any(overlaps(shape, o.shape) for o in around)

    turn = _most_free(free, angle)
    return rotate_about(target_pose, point, sign * turn), sign * turn


def _angle_between(a: Segment, b: Segment) -> float:
    """The angle between two facings' lines, in degrees (0 when parallel)."""
    import math

    da, db = a.direction, b.direction
    cross = da[0] * db[1] - da[1] * db[0]
    dot = da[0] * db[0] + da[1] * db[1]
    return math.degrees(math.atan2(abs(cross), abs(dot)))
