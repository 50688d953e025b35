"""The Snaking Forward Move, searched over a family of paths: forward d1, one wheel of angle
phi about the inner front corner, forward until the front first touches the target. d1 runs
over a grid (`D1_STEP_IN`), phi over a grid (`PHI_STEP_DEG`) plus the one angle that arrives
flush with the Target Facing. Each path is checked exactly (the wheel's sweep is drawn outside
the true arc, so a path is never let through an obstacle). The answer is the set of initial
contact points on the Target Facing these paths produce, each with a witness path.

Why a family and not a free search: T9A's example charge is exactly this shape, and the
Align Move only needs the reachable contact points; a path with two or more wheels is not
searched (a charge that needs one is reported as having no path with at most one wheel).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from chargeopt.geometry.rank_and_file.frame import BlockPose, Segment, heading_of, wrap_deg
from chargeopt.geometry.rank_and_file.moves import forward, forward_sweep, wheel, wheel_sweep
from chargeopt.geometry.rank_and_file.obstacles import Obstacle
from chargeopt.geometry.rank_and_file.translate import rings_of, travel_until_touch

D1_STEP_IN = 0.5
D1_MAX_STEPS = 12
"""At most this many first forward moves are tried (farther apart than D1_STEP_IN when the
way ahead is long)."""
PHI_STEP_DEG = 5.0
MAX_WHEEL_DEG = 90.0
SECOND_PASS_DEG = 15.0
"""The grid of the two-wheel fallback's wheels (the second also takes the flush angle)."""
ON_LINE_IN = 1e-7
CLEAR_IN = 0.02
"""A first forward move stops this short of whatever is straight ahead."""


Move = tuple[str, float]
"""("forward", inches) or ("wheel", degrees; positive to the right)."""


@dataclass(frozen=True)
class Approach:
    """One Snaking Forward Move, as its moves in order (the last a forward move into
    contact); the initial contact it makes on the facing, as an interval along it (a point
    when lo == hi), and where the block arrives."""

    moves: tuple[Move, ...]
    contact: tuple[float, float]
    arrival: BlockPose

    @property
    def flush(self) -> bool:
        return self.contact[1] > self.contact[0]

    @property
    def steps(self) -> int:
        return sum(1 for _, amount in self.moves if amount != 0)

    @property
    def turning_deg(self) -> float:
        return sum(abs(a) for kind, a in self.moves if kind == "wheel")

    @property
    def travel_in(self) -> float:
        return sum(a for kind, a in self.moves if kind == "forward")

    def simplicity(self) -> tuple[int, float, float]:
        """Fewest moves, then least turning, then least travel."""
        return (self.steps, self.turning_deg, self.travel_in)


@dataclass(frozen=True)
class Reach:
    """All approaches found, and for the failed ones the obstacle met most often."""

    approaches: tuple[Approach, ...]
    blocker: str | None
    tried: int

    def contact_set(self) -> list[tuple[float, float]]:
        """The union of the initial contact intervals, merged."""
        merged: list[list[float]] = []
        for lo, hi in sorted(a.contact for a in self.approaches):
            if merged and lo <= merged[-1][1] + 1e-12:
                merged[-1][1] = max(merged[-1][1], hi)
            else:
                merged.append([lo, hi])
        return [(lo, hi) for lo, hi in merged]

    def witness(self, lo: float, hi: float | None = None) -> tuple[Approach, float] | None:
        """The simplest approach whose initial contact meets [lo, hi] (a point when hi is
        None), and the middle of where they meet: the contact point the owner declares."""
        hi = lo if hi is None else hi
        fits = [
            a for a in self.approaches if a.contact[0] - 1e-9 <= hi and lo <= a.contact[1] + 1e-9
        ]
        best = min(fits, key=Approach.simplicity, default=None)
        if best is None:
            return None
        a, b = max(lo, best.contact[0]), min(hi, best.contact[1])
        return best, (a + b) / 2 if a <= b else a


def flush_wheel(start: BlockPose, facing: Segment) -> float:
    """The wheel that turns the charger to face the facing squarely."""
    return wrap_deg(heading_of((-facing.normal[0], -facing.normal[1])) - start.facing)


def reach(start: BlockPose, target: BlockPose, facing: Segment, obstacles: list[Obstacle]) -> Reach:
    """Every approach of the family that ends with the front against `facing`."""
    found: list[Approach] = []
    blockers: dict[str, int] = {}
    tried = 0
    straight = _first_block(start, obstacles, target)
    ahead = min(straight, math.dist(start.front_centre, target.front_centre) + target.depth_in)
    step = max(D1_STEP_IN, ahead / D1_MAX_STEPS)
    d1s = [i * step for i in range(int(max(ahead, 0.0) / step) + 1)]
    rings = _Rings(target.ring, [(o, rings_of(o.shape)) for o in obstacles])
    n = int(MAX_WHEEL_DEG / PHI_STEP_DEG)
    phis = sorted({i * PHI_STEP_DEG for i in range(-n, n + 1)} | {flush_wheel(start, facing)})
    phis = [p for p in phis if abs(p) <= 180.0 - 1e-9]
    for d1 in d1s:
        if d1 > 0 and d1 >= straight - CLEAR_IN:
            break
        moved = forward(start, d1)
        for phi in phis:
            if d1 > 0 and phi == 0:
                continue  # the same as d1 = 0 with a longer final move
            tried += 1
            outcome = _try(moved, phi, target, facing, rings)
            if isinstance(outcome, str):
                blockers[outcome] = blockers.get(outcome, 0) + 1
            elif outcome is not None:
                d2, contact, arrival = outcome
                found.append(
                    Approach((("forward", d1), ("wheel", phi), ("forward", d2)), contact, arrival)
                )
    if not found:
        tried += _two_wheels(start, target, facing, rings, ahead, found, blockers)
    blocker = max(blockers, key=blockers.__getitem__) if blockers else None
    return Reach(tuple(found), blocker, tried)


def _two_wheels(
    start: BlockPose,
    target: BlockPose,
    facing: Segment,
    rings: _Rings,
    ahead_in: float,
    found: list[Approach],
    blockers: dict[str, int],
) -> int:
    """The fallback when one wheel is not enough: wheel, forward, wheel (to face the facing
    squarely, or on the grid), forward into contact. Returns how many paths it tried."""
    tried = 0
    firsts = [a for a in range(-90, 91, int(SECOND_PASS_DEG)) if a != 0]
    reach_in = max(ahead_in, math.dist(start.front_centre, target.front_centre)) + target.width_in
    for phi1 in firsts:
        turned, sweep = wheel(start, phi1), wheel_sweep(start, phi1)
        if sweep.distance(target.polygon) <= 1e-9 or any(
            o.blocks(sweep) for o, _ in rings.obstacles
        ):
            continue
        room = min(
            (
                hit[0]
                for _, outline in rings.obstacles
                if (hit := travel_until_touch([turned.ring], turned.forward, outline)) is not None
            ),
            default=math.inf,
        )
        into = travel_until_touch([turned.ring], turned.forward, [rings.target])
        room = min(room, into[0] if into else math.inf) - CLEAR_IN
        steps = max(1, int(min(room, reach_in) / max(D1_STEP_IN, reach_in / D1_MAX_STEPS)))
        for k in range(1, steps + 1):
            d = min(room, reach_in) * k / steps
            moved = forward(turned, d)
            for phi2 in sorted({flush_wheel(moved, facing), *firsts}):
                if phi2 == 0 or abs(phi2) > 180.0 - 1e-9:
                    continue
                tried += 1
                outcome = _try(moved, phi2, target, facing, rings)
                if isinstance(outcome, str):
                    blockers[outcome] = blockers.get(outcome, 0) + 1
                elif outcome is not None:
                    d2, contact, arrival = outcome
                    moves = (("wheel", phi1), ("forward", d), ("wheel", phi2), ("forward", d2))
                    found.append(Approach(moves, contact, arrival))
    return tried


def _first_block(start: BlockPose, obstacles: list[Obstacle], target: BlockPose) -> float:
    best = math.inf
    for shape in [o.shape for o in obstacles] + [target.polygon]:
        hit = travel_until_touch(start.polygon, start.forward, shape)
        if hit is not None:
            best = min(best, hit[0])
    return best


@dataclass(frozen=True)
class _Rings:
    """The target's and the obstacles' outlines, read once for the ray casts."""

    target: list[tuple[float, float]]
    obstacles: list[tuple[Obstacle, list[list[tuple[float, float]]]]]


def _try(
    moved: BlockPose, phi: float, target: BlockPose, facing: Segment, rings: _Rings
) -> tuple[float, tuple[float, float], BlockPose] | str | None:
    """(d2, contact interval, arrival) of one path, the name of what blocks it, or None when
    its front would not meet the facing."""
    met = first_contact(moved, phi, rings.target, facing)
    if met is None:
        return None
    turned, d2, _, contact, arrival = met
    for obstacle, outline in rings.obstacles:
        gap = travel_until_touch([turned.ring], turned.forward, outline)
        if (
            gap is not None
            and gap[0] <= d2 + obstacle.clearance_in
            and obstacle.blocks(forward_sweep(turned, d2))
        ):
            return obstacle.name
    if phi != 0:
        sweep = wheel_sweep(moved, phi)
        if target.polygon.distance(sweep) <= 1e-9:
            return "the target itself"
        for obstacle, _ in rings.obstacles:
            if obstacle.blocks(sweep):
                return obstacle.name
    return d2, contact, arrival


def first_contact(
    moved: BlockPose, phi: float, target_ring: list[tuple[float, float]], facing: Segment
) -> tuple[BlockPose, float, tuple[float, float], tuple[float, float], BlockPose] | None:
    """After a wheel of `phi`, the straight move into the target: (the wheeled pose, d2, the
    touching point, the initial contact on the facing, the arrival); None when the front does
    not meet the facing."""
    turned = wheel(moved, phi)
    hit = travel_until_touch([turned.ring], turned.forward, [target_ring])
    if hit is None:
        return None
    d2, point = hit
    arrival = forward(turned, d2)
    contact = contact_on_facing(arrival, facing, point)
    if contact is None:
        return None
    return turned, d2, point, contact, arrival


def contact_on_facing(
    arrival: BlockPose, facing: Segment, point: tuple[float, float]
) -> tuple[float, float] | None:
    """The initial contact along the facing, if the arrival's front touches the facing there:
    a whole interval when the front lies flush on the facing's line, else one point."""
    length = facing.length_in
    fl, fr = arrival.corners["front-left"], arrival.corners["front-right"]
    if abs(facing.out(fl)) <= ON_LINE_IN and abs(facing.out(fr)) <= ON_LINE_IN:
        lo = max(0.0, min(facing.along(fl), facing.along(fr)))
        hi = min(length, max(facing.along(fl), facing.along(fr)))
        return (lo, hi) if lo <= hi + 1e-12 else None
    if abs(arrival.local(point)[1]) > ON_LINE_IN or abs(facing.out(point)) > ON_LINE_IN:
        return None
    s = facing.along(point)
    if -ON_LINE_IN <= s <= length + ON_LINE_IN:
        s = min(max(s, 0.0), length)
        return (s, s)
    return None


def swept_area(start: BlockPose, approach: Approach) -> BaseGeometry:
    """Everything the block covers on its way (the Align Move lifts it, so not that)."""
    parts, pose = [], start
    for kind, amount in approach.moves:
        if kind == "forward":
            parts.append(forward_sweep(pose, amount))
            pose = forward(pose, amount)
        elif amount:
            parts.append(wheel_sweep(pose, amount))
            pose = wheel(pose, amount)
    return unary_union(parts)
