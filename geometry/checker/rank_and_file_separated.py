"""A proof that no charge move of any kind reaches a placement: the block's centre carries a
disc of radius half its smaller side (the disc lies inside the block), so the centre stays
that far from every obstacle and the board's edge. When the free space so left for the centre
has the start and the end in different pieces, no continuous move (forward, wheels, door,
Align Move) joins them: a wall across the board, a closed ring of rocks."""

from __future__ import annotations

from shapely.geometry import Point, Polygon, box
from shapely.ops import unary_union

from chargeopt.geometry.rank_and_file.contact import CONTACT_TOLERANCE_IN
from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.geometry.rank_and_file.obstacles import Obstacle

QUAD_SEGS = 4
"""The discs' outlines are drawn inside the true circles: the obstacles grow less than they
should, so a separation found is a separation of the true free space."""


def _centre(pose: BlockPose) -> Point:
    return Point(pose.at(pose.width_in / 2, -pose.depth_in / 2))


def separated(
    start: BlockPose,
    end: BlockPose,
    board: tuple[float, float],
    obstacles: list[Obstacle],
    target: Polygon,
) -> bool:
    """True when the block's centre cannot travel from `start` to `end` at all."""
    radius = min(start.width_in, start.depth_in) / 2 - 2 * CONTACT_TOLERANCE_IN
    if radius <= 0:
        return False
    width, height = board
    room = box(radius, radius, width - radius, height - radius)
    shapes = [o.shape for o in obstacles if o.kind != "board"] + [target]
    grown = unary_union([s.buffer(radius, quad_segs=QUAD_SEGS) for s in shapes])
    free = room.difference(grown)
    a, b = _centre(start), _centre(end)
    pieces = list(getattr(free, "geoms", [free]))
    home = [p for p in pieces if p.buffer(1e-9).covers(a)]
    if not home or not any(p.buffer(1e-9).covers(b) for p in pieces):
        return False
    return not any(p.buffer(1e-9).covers(b) for p in home)
