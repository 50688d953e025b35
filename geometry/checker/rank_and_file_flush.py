"""Where a charger's front stands against its target, measured from the two poses alone: which
facing it touches, how far it is turned and lifted off that facing's line, and the stretch of
the facing both fronts share (where a door can hinge, or an initial contact point can lie)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely.geometry import LineString
from shapely.ops import nearest_points

from chargeopt.geometry.rank_and_file.contact import CONTACT_TOLERANCE_IN
from chargeopt.geometry.rank_and_file.frame import FACINGS, BlockPose, Segment, heading_of, wrap_deg
from chargeopt.geometry.rank_and_file.moves import rotate_about
from chargeopt.geometry.rank_and_file.obstacles import CHECK_DEPTH_IN, Obstacle, overlaps

FLUSH_TOL_DEG = 0.01
"""A front turned less than this (and lifted less than the contact tolerance) lies flush."""
SLIDE_STEP_IN = 0.05


@dataclass(frozen=True)
class FrontOnFacing:
    """A charger's front against one facing of its target."""

    facing: Segment
    gap_in: float
    turn_deg: float
    lift_in: tuple[float, float]

    @property
    def name(self) -> str:
        return self.facing.name

    @property
    def flush(self) -> bool:
        """Turned no more than FLUSH_TOL_DEG and both front corners on the facing's line."""
        return (
            abs(self.turn_deg) <= FLUSH_TOL_DEG
            and max(abs(v) for v in self.lift_in) <= CONTACT_TOLERANCE_IN
        )


def front_on(pose: BlockPose, target: BlockPose, name: str) -> FrontOnFacing:
    """How `pose`'s front stands against `target`'s facing `name`."""
    seg = target.facing_segment(name)
    front = pose.facing_segment("front")
    gap = LineString([front.start, front.end]).distance(LineString([seg.start, seg.end]))
    square = heading_of((-seg.normal[0], -seg.normal[1]))
    return FrontOnFacing(
        seg, gap, wrap_deg(pose.facing - square), (seg.out(front.start), seg.out(front.end))
    )


def touched_facing(pose: BlockPose, target: BlockPose) -> FrontOnFacing | None:
    """The target facing the charger's front touches (the squarest of those it touches), None
    when the front touches none."""
    touching = [
        f for f in (front_on(pose, target, n) for n in FACINGS) if f.gap_in <= CONTACT_TOLERANCE_IN
    ]
    return min(touching, key=lambda f: abs(f.turn_deg), default=None)


def shared_stretch(pose: BlockPose, facing: Segment) -> tuple[float, float] | None:
    """The part of `facing` (distances along it from its start) that a flush front covers;
    None when they share no length."""
    front = pose.facing_segment("front")
    a, b = sorted((facing.along(front.start), facing.along(front.end)))
    lo, hi = max(0.0, a), min(facing.length_in, b)
    return (lo, hi) if hi >= lo - CONTACT_TOLERANCE_IN else None


def flush_keeping_contact(
    pose: BlockPose, target: BlockPose, on: FrontOnFacing, obstacles: list[Obstacle]
) -> BlockPose | None:
    """A clear flush placement on `on`'s facing whose front still covers the point where
    `pose`'s front touches it (sampled every SLIDE_STEP_IN along the facing), or None."""
    seg = on.facing
    front = pose.facing_segment("front")
    point, _ = nearest_points(
        LineString([seg.start, seg.end]), LineString([front.start, front.end])
    )
    c = (point.x, point.y)
    square = rotate_about(pose, c, -on.turn_deg)
    sq = square.facing_segment("front")
    a, b = sorted((seg.along(sq.start), seg.along(sq.end)))
    t = seg.along(c)
    d = seg.direction
    n = max(1, math.ceil((b - a) / SLIDE_STEP_IN))
    for i in range(n + 1):
        s = (t - b) + (b - a) * i / n
        flush = square.moved(square.x + s * d[0], square.y + s * d[1], square.facing)
        if overlaps(flush.polygon, target.polygon, CHECK_DEPTH_IN):
            continue
        if not any(o.blocks(flush.polygon, CHECK_DEPTH_IN) for o in obstacles):
            return flush
    return None
