"""A block's pose (front-left corner and facing) and everything drawn from it: its corners, its
Unit Boundary polygon, its four facings and its models' bases.

Unit vectors of facings that are whole multiples of 90 degrees are exact (no 6e-17 from
cos 90), so that a point exactly on an arc line is judged exactly on it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from shapely.geometry import Polygon

from chargeopt.models import Block

Vec = tuple[float, float]
FACINGS = ("front", "right", "rear", "left")


def unit_vector(deg: float) -> Vec:
    """(cos, sin) of an angle in degrees, exact at multiples of 90."""
    quarter = deg / 90.0
    if quarter == round(quarter):
        return ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))[round(quarter) % 4]
    rad = math.radians(deg)
    return (math.cos(rad), math.sin(rad))


def wrap_deg(deg: float) -> float:
    """An angle folded into (-180, 180]."""
    folded = math.fmod(deg, 360.0)
    if folded > 180.0:
        folded -= 360.0
    elif folded <= -180.0:
        folded += 360.0
    return folded


def heading_of(v: Vec) -> float:
    """The facing (degrees, from +x toward +y) of a direction."""
    return math.degrees(math.atan2(v[1], v[0]))


@dataclass(frozen=True)
class Segment:
    """A facing: from `start` to `end` (left to right as seen from outside), outward `normal`."""

    name: str
    start: Vec
    end: Vec
    normal: Vec

    @property
    def length_in(self) -> float:
        return math.dist(self.start, self.end)

    @property
    def direction(self) -> Vec:
        n = self.length_in
        return ((self.end[0] - self.start[0]) / n, (self.end[1] - self.start[1]) / n)

    def point_at(self, s_in: float) -> Vec:
        d = self.direction
        return (self.start[0] + s_in * d[0], self.start[1] + s_in * d[1])

    def along(self, p: Vec) -> float:
        """The distance of p's projection from `start`, along the facing."""
        d = self.direction
        return (p[0] - self.start[0]) * d[0] + (p[1] - self.start[1]) * d[1]

    def out(self, p: Vec) -> float:
        """How far p lies outside the facing's line (negative: on the unit's side)."""
        return (p[0] - self.start[0]) * self.normal[0] + (p[1] - self.start[1]) * self.normal[1]


@dataclass(frozen=True)
class BlockPose:
    """A block's size and where it stands: front-left corner (x, y) and facing in degrees."""

    width_in: float
    depth_in: float
    x: float
    y: float
    facing: float

    @classmethod
    def of(cls, block: Block) -> BlockPose:
        return cls(block.width_in, block.depth_in, block.x, block.y, block.facing)

    def moved(self, x: float, y: float, facing: float) -> BlockPose:
        return BlockPose(self.width_in, self.depth_in, x, y, facing)

    @cached_property
    def forward(self) -> Vec:
        return unit_vector(self.facing)

    @cached_property
    def right(self) -> Vec:
        f = self.forward
        return (-f[1], f[0])

    def at(self, across_in: float, ahead_in: float) -> Vec:
        """The point `across_in` to the right of the front-left corner and `ahead_in` in front
        of the front (negative: behind it, inside the block)."""
        f, r = self.forward, self.right
        return (
            self.x + across_in * r[0] + ahead_in * f[0],
            self.y + across_in * r[1] + ahead_in * f[1],
        )

    def local(self, p: Vec) -> Vec:
        """(across, ahead) of a board point, the inverse of `at`."""
        dx, dy = p[0] - self.x, p[1] - self.y
        f, r = self.forward, self.right
        return (dx * r[0] + dy * r[1], dx * f[0] + dy * f[1])

    @cached_property
    def corners(self) -> dict[str, Vec]:
        w, d = self.width_in, self.depth_in
        return {
            "front-left": self.at(0.0, 0.0),
            "front-right": self.at(w, 0.0),
            "rear-right": self.at(w, -d),
            "rear-left": self.at(0.0, -d),
        }

    @property
    def ring(self) -> list[Vec]:
        """The Unit Boundary's corners, closed (the first repeated last)."""
        c = list(self.corners.values())
        return [*c, c[0]]

    @cached_property
    def polygon(self) -> Polygon:
        """The Unit Boundary."""
        return Polygon(list(self.corners.values()))

    @property
    def front_centre(self) -> Vec:
        return self.at(self.width_in / 2, 0.0)

    def facing_segment(self, name: str) -> Segment:
        """A facing, from its left end to its right end as seen by a unit facing it from
        outside (so a charger flush against it runs from `start` toward `end`)."""
        c = self.corners
        f, r = self.forward, self.right
        ends = {
            "front": (c["front-right"], c["front-left"], f),
            "right": (c["rear-right"], c["front-right"], r),
            "rear": (c["rear-left"], c["rear-right"], (-f[0], -f[1])),
            "left": (c["front-left"], c["rear-left"], (-r[0], -r[1])),
        }
        start, end, normal = ends[name]
        return Segment(name, start, end, normal)


def model_bases(block: Block, pose: BlockPose) -> list[tuple[str, int, int, Polygon]]:
    """(model id, rank, file, base rectangle) of every model of `block` standing at `pose`."""
    w, d = block.base.width_in, block.base.depth_in
    out = []
    for model_id, rank, file in block.model_slots():
        a0, a1 = file * w, (file + 1) * w
        h0, h1 = -rank * d, -(rank + 1) * d
        ring = [pose.at(a0, h0), pose.at(a1, h0), pose.at(a1, h1), pose.at(a0, h1)]
        out.append((model_id, rank, file, Polygon(ring)))
    return out


def model_centre(block: Block, pose: BlockPose, rank: int, file: int) -> Vec:
    """The centre of the base in `rank` and `file` (both from 0)."""
    w, d = block.base.width_in, block.base.depth_in
    return pose.at((file + 0.5) * w, -(rank + 0.5) * d)
