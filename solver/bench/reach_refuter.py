"""An independent search that tries to refute the rank-and-file checker's `unreachable`: drive
random 6e/tow charges forward (forward d1, one wheel, forward until the front touches the
target, the door turned about the contact point until flush), and compare each path's length
with the least length the checker derives for the end it reached. The checker refuses only
when its least is over the charge move, so a forward path shorter than that least refutes it."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from shapely.ops import nearest_points

from chargeopt.geometry.checker.rank_and_file_door import approaches
from chargeopt.geometry.checker.rank_and_file_flush import touched_facing
from chargeopt.geometry.checker.rank_and_file_reach_end import hinges_of
from chargeopt.geometry.rank_and_file.frame import BlockPose, heading_of, wrap_deg
from chargeopt.geometry.rank_and_file.moves import (
    first_hit_ahead,
    forward,
    rotate_about,
    wheel,
    wheel_travel,
)

INCH_25MM = 25 / 25.4
TARGET = BlockPose(5 * INCH_25MM, 3 * INCH_25MM, 30.0, 10.0, 90.0)
"""B: its front on y = 10 from x = 30 leftwards, its ranks above."""


@dataclass(frozen=True)
class Refutation:
    """How the search went: charges driven, the largest excess of the checker's least length
    over a driven path's length (> 0 refutes), and that charge."""

    charges: int
    worst_excess_in: float
    worst: tuple[float, ...] | None


def drive(rng: random.Random, metric: str) -> tuple[BlockPose, BlockPose, float] | None:
    """One random charge driven forward: (start, end, length), None when it misses."""
    width = rng.randint(2, 6) * INCH_25MM
    start = BlockPose(
        width, 3 * INCH_25MM, rng.uniform(18, 34), rng.uniform(14, 24), rng.uniform(-130, -50)
    )
    if start.polygon.distance(TARGET.polygon) < 0.5:
        return None
    d1, angle = rng.uniform(0, 4), rng.uniform(-60, 60)
    turned = wheel(forward(start, d1), angle)
    if turned.polygon.distance(TARGET.polygon) < 1e-6:
        return None
    hit = first_hit_ahead(turned, {"B": TARGET.polygon})
    if hit is None:
        return None
    before = forward(turned, hit[1])
    if before.polygon.intersection(TARGET.polygon).area > 1e-9:
        return None
    c, _ = nearest_points(TARGET.polygon.exterior, before.polygon)
    seg = TARGET.facing_segment("front")
    door = wrap_deg(heading_of((-seg.normal[0], -seg.normal[1])) - before.facing)
    end = rotate_about(before, (c.x, c.y), door)
    if end.polygon.intersection(TARGET.polygon).area > 1e-7:
        return None
    on = touched_facing(end, TARGET)
    if on is None or on.name != "front" or not on.flush:
        return None
    return start, end, d1 + wheel_travel(width, angle, metric) + hit[1]


def refute(samples: int, seed: int = 0, metric: str = "arc") -> Refutation:
    """Drive `samples` random charges; the worst excess of the checker's least length."""
    rng = random.Random(seed)
    worst, where, driven = 0.0, None, 0
    for _ in range(samples):
        charge = drive(rng, metric)
        if charge is None:
            continue
        start, end, length = charge
        found = approaches(start, end, hinges_of(end, TARGET), TARGET.polygon, metric, 0.1)
        least = found[0].length_in if found else math.inf
        driven += 1
        if least - length > worst:
            worst, where = least - length, (start.x, start.y, start.facing, end.x, end.y)
    return Refutation(driven, worst, where)
