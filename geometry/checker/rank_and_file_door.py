"""The charge paths that end at a given placement, solved backwards from it (the checker's own,
no solver search): the poses where the front may first touch the target (the end turned about
a contact point: 6e/tow's door, T9A's Align Move), and the one-wheel path (forward d1, one
wheel about the inner front corner, forward d2) from the start to each, in closed form.

For a pose P reached from start S by forward d1, wheel a, forward d2, the wheel's pivot corner
K obeys K(P) - K(S) = d1 f(S) + d2 f(P): two linear equations in d1 and d2, so each first-touch
pose has exactly one such path (or none: a negative distance, |a| > 90 degrees).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from shapely.geometry import Polygon
from shapely.ops import unary_union

from chargeopt.geometry.rank_and_file.frame import BlockPose, Vec, wrap_deg
from chargeopt.geometry.rank_and_file.moves import (
    forward,
    forward_sweep,
    pivot_of,
    rotate_about,
    wheel,
    wheel_sweep,
    wheel_travel,
)
from chargeopt.geometry.rank_and_file.obstacles import CHECK_DEPTH_IN, Obstacle, overlaps

STRAIGHT_TOL_IN = 0.002
"""A pose this close to straight ahead of the start is reached by a forward move alone."""
MAX_DOOR_DEG = 90.0
TOUCH_TOL_IN = 0.002
"""A wheel from the start straight into the first touch is met to within this (the end is
written to 1e-6"; as a written path's end, `POSE_TOL_IN`)."""


@dataclass(frozen=True)
class OneWheel:
    """Forward `d1_in`, wheel `angle_deg` (0: none), forward `d2_in`; `length_in` counts the
    wheel's outer corner by the ruleset's metric."""

    d1_in: float
    angle_deg: float
    d2_in: float
    length_in: float

    def steps(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{"move": "forward", "distance_in": self.d1_in}]
        if self.angle_deg:
            out += [
                {"move": "wheel", "angle_deg": self.angle_deg},
                {"move": "forward", "distance_in": self.d2_in},
            ]
        return out


def one_wheel_to(
    start: BlockPose, before: BlockPose, metric: str, max_wheel_deg: float = 90.0
) -> OneWheel | None:
    """The one path of forward, one wheel (at most `max_wheel_deg` either way), forward from
    `start` to `before` (None: none)."""
    a = wrap_deg(before.facing - start.facing)
    if abs(a) > max_wheel_deg + 1e-9 or abs(abs(a) - 180.0) < 1e-6:
        return None
    if abs(a) < 1e-6:
        across, ahead = start.local((before.x, before.y))
        if abs(across) > STRAIGHT_TOL_IN or ahead < -1e-9:
            return None
        return OneWheel(max(ahead, 0.0), 0.0, 0.0, max(ahead, 0.0))
    corner = pivot_of(a)
    k0, k1 = start.corners[corner], before.corners[corner]
    dx, dy = k1[0] - k0[0], k1[1] - k0[1]
    f0, f1 = start.forward, before.forward
    det = f0[0] * f1[1] - f0[1] * f1[0]
    d1 = (dx * f1[1] - dy * f1[0]) / det
    d2 = (f0[0] * dy - f0[1] * dx) / det
    if d1 < -1e-9 or d2 < -1e-9:
        return None
    d1, d2 = max(d1, 0.0), max(d2, 0.0)
    return OneWheel(d1, a, d2, d1 + d2 + wheel_travel(start.width_in, a, metric))


@dataclass(frozen=True)
class Approach:
    """A first-touch pose `before`, turned `door_deg` about `hinge` onto the end, and the
    one-wheel path from the start to it."""

    before: BlockPose
    hinge: Vec
    door_deg: float
    path: OneWheel

    @property
    def length_in(self) -> float:
        return self.path.length_in


def hinged_poses(
    end: BlockPose, hinges: list[Vec], target: Polygon, step_deg: float
) -> Iterator[tuple[Vec, float, BlockPose]]:
    """(hinge, door angle, first-touch pose): the end turned about each hinge, each way that
    lifts the front off the target, every `step_deg` up to 90 degrees (and 0: the end itself)."""
    yield (hinges[0] if hinges else (end.x, end.y)), 0.0, end
    for hinge in hinges:
        for sign in (1.0, -1.0):
            if _overlap(rotate_about(end, hinge, sign * min(1.0, step_deg)), target):
                continue
            n = round(MAX_DOOR_DEG / step_deg)
            for i in range(1, n + 1):
                yield hinge, sign * i * step_deg, rotate_about(end, hinge, sign * i * step_deg)


def wheeled_into_touch(
    start: BlockPose, end: BlockPose, hinges: list[Vec], metric: str, max_wheel_deg: float = 90.0
) -> list[Approach]:
    """The approaches where the wheel from the start, with no forward move, ends touching at a
    hinge the door turns onto `end` (the block halts on reaching the enemy). Closed form: an
    isolated pose (d1 and d2 both 0 at a double root of d1), which door-angle sampling misses."""
    out = []
    for hinge in hinges:
        across = end.local(hinge)[0]
        for sign in (1.0, -1.0):
            pivot = start.corners[pivot_of(sign)]
            point = start.at(across, 0.0)
            arm = math.dist(point, pivot)
            if arm < 1e-9 or abs(math.dist(hinge, pivot) - arm) > TOUCH_TOL_IN:
                continue
            a = wrap_deg(_bearing(pivot, hinge) - _bearing(pivot, point))
            if a * sign <= 0 or abs(a) > max_wheel_deg + 1e-9:
                continue
            before = wheel(start, a)
            door = wrap_deg(end.facing - before.facing)
            if abs(door) > MAX_DOOR_DEG + 1e-9:
                continue
            closed = rotate_about(before, hinge, door)
            if (
                max(math.dist(closed.corners[k], end.corners[k]) for k in end.corners)
                > TOUCH_TOL_IN
            ):
                continue
            path = OneWheel(0.0, a, 0.0, wheel_travel(start.width_in, a, metric))
            out.append(Approach(before, hinge, door, path))
    return out


def _bearing(origin: Vec, p: Vec) -> float:
    return math.degrees(math.atan2(p[1] - origin[1], p[0] - origin[0]))


def _overlap(pose: BlockPose, target: Polygon) -> bool:
    return pose.polygon.intersection(target).area > 1e-7


def approaches(
    start: BlockPose,
    end: BlockPose,
    hinges: list[Vec],
    target: Polygon,
    metric: str,
    step_deg: float,
    max_wheel_deg: float = 90.0,
) -> list[Approach]:
    """Every sampled approach to `end`, shortest first, the best of each run refined."""
    found: list[Approach] = []
    for hinge, door, before in hinged_poses(end, hinges, target, step_deg):
        path = one_wheel_to(start, before, metric, max_wheel_deg)
        if path is not None:
            found.append(Approach(before, hinge, -door, path))
    found += _refined(start, end, found, metric, step_deg, max_wheel_deg)
    return sorted(found, key=lambda a: a.length_in)


def _refined(
    start: BlockPose,
    end: BlockPose,
    found: list[Approach],
    metric: str,
    step_deg: float,
    max_wheel_deg: float,
) -> list[Approach]:
    """Golden-section refinement of the door angle around each sampled local least length."""
    out = []
    by_hinge: dict[tuple[Vec, bool], list[Approach]] = {}
    for a in found:
        by_hinge.setdefault((a.hinge, a.door_deg <= 0), []).append(a)
    for (hinge, _), run in by_hinge.items():
        run.sort(key=lambda a: abs(a.door_deg))
        for i, a in enumerate(run):
            left = run[i - 1].length_in if i > 0 else math.inf
            right = run[i + 1].length_in if i + 1 < len(run) else math.inf
            if a.length_in <= left and a.length_in <= right:
                best = _golden(start, end, hinge, -a.door_deg, step_deg, metric, max_wheel_deg)
                if best is not None:
                    out.append(best)
    return out


def _golden(
    start: BlockPose,
    end: BlockPose,
    hinge: Vec,
    door: float,
    step_deg: float,
    metric: str,
    max_wheel_deg: float,
) -> Approach | None:
    def at(beta: float) -> Approach | None:
        before = rotate_about(end, hinge, beta)
        path = one_wheel_to(start, before, metric, max_wheel_deg)
        return Approach(before, hinge, -beta, path) if path is not None else None

    def length(beta: float) -> float:
        a = at(beta)
        return a.length_in if a is not None else math.inf

    lo, hi = door - step_deg, door + step_deg
    if door == 0:
        lo, hi = (0.0, step_deg) if length(step_deg) <= length(-step_deg) else (-step_deg, 0.0)
    g = (math.sqrt(5) - 1) / 2
    c, d = hi - g * (hi - lo), lo + g * (hi - lo)
    for _ in range(60):
        if length(c) <= length(d):
            hi, d = d, c
            c = hi - g * (hi - lo)
        else:
            lo, c = c, d
            d = lo + g * (hi - lo)
    return at((lo + hi) / 2)


def first_clash(
    start: BlockPose,
    approach: Approach,
    obstacles: list[Obstacle],
    target: Polygon,
    door: bool = True,
) -> str | None:
    """What the approach's moves run into (None: clear): obstacles all the way, the target
    before the last move (a wheel that ends touching is the last: the block halts there), or
    deeper than the checker's overlap at its end. The door's turn
    (6e/tow; T9A's Align Move places the block) lifts the front off the target, so only the
    obstacles are checked against it, with each step's hull (conservative near the hinge)."""
    path = approach.path
    areas: list[tuple[Polygon, bool]] = []
    pose = start
    moves = [("forward", path.d1_in), ("wheel", path.angle_deg), ("forward", path.d2_in)]
    moves = [(m, v) for m, v in moves if v] or [("forward", 0.0)]
    for n, (move, amount) in enumerate(moves, 1):
        last = n == len(moves)
        if move == "forward":
            areas.append((forward_sweep(pose, amount), last))
            pose = forward(pose, amount)
        else:
            areas.append((wheel_sweep(pose, amount), last))
            pose = wheel(pose, amount)
    if door and approach.door_deg:
        sweep = _door_sweep(approach.before, approach.hinge, approach.door_deg)
        for o in obstacles:
            if o.blocks(sweep, CHECK_DEPTH_IN):
                return o.name
    for area, may_touch in areas:
        for o in obstacles:
            if o.blocks(area, CHECK_DEPTH_IN):
                return o.name
        if not may_touch and area.distance(target) <= 1e-9:
            return "the target, before the last move"
        if overlaps(area, target, CHECK_DEPTH_IN):
            return "the target"
    return None


def _door_sweep(before: BlockPose, hinge: Vec, door_deg: float) -> Polygon:
    """The area the door's turn covers, sampled every degree and hulled pairwise."""
    if door_deg == 0:
        return before.polygon
    n = max(1, math.ceil(abs(door_deg)))
    poses = [rotate_about(before, hinge, door_deg * i / n).polygon for i in range(n + 1)]
    return unary_union([unary_union([a, b]).convex_hull for a, b in pairwise(poses)])
