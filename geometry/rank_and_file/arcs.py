"""The four arcs of a block, cut by the lines drawn at 45 degrees outward from each corner (135
degrees to both facings meeting there), not by the diagonals: they agree only for a square
block. A point exactly on a line is in the Flank arc (T9A). A charger straddling a line is in
the arc its ruleset reads (`charger_arc`)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely.geometry import Polygon

from chargeopt.geometry.rank_and_file.frame import BlockPose, Vec, model_centre
from chargeopt.models import Block

ARC_LINES: dict[str, tuple[str, str]] = {
    "front": ("front-left", "front-right"),
    "right": ("front-right", "rear-right"),
    "rear": ("rear-right", "rear-left"),
    "left": ("rear-left", "front-left"),
}
"""Each arc and the two corners whose 45-degree lines bound it."""
_OUTWARD = {
    "front-left": (-1, 1),
    "front-right": (1, 1),
    "rear-right": (1, -1),
    "rear-left": (-1, -1),
}
"""(across, ahead) direction of each corner's line, before normalising."""


@dataclass(frozen=True)
class ArcVerdict:
    """Which arc a point is in, and by how much: the smaller angle (at the corner) and the
    shorter distance to the two lines bounding that arc (0: exactly on a line)."""

    arc: str
    margin_deg: float
    margin_in: float


def arc_line(pose: BlockPose, corner: str, length_in: float) -> tuple[Vec, Vec]:
    """The 45-degree line from `corner`, drawn `length_in` long (for pictures)."""
    du, dv = _OUTWARD[corner]
    start = pose.corners[corner]
    u, v = pose.local(start)
    k = length_in / math.sqrt(2)
    return start, pose.at(u + du * k, v + dv * k)


def arc_of(pose: BlockPose, p: Vec) -> ArcVerdict:
    """The arc of the block at `pose` holding point `p` (on a line: the Flank). The lines are
    rays from the corners: behind a wide block the two front lines cross, so the front arc
    also needs the point ahead of the front (and the rear arc behind the rear)."""
    u, v = pose.local(p)
    w, d = pose.width_in, pose.depth_in
    if v > 0 and v > -u and v > u - w:
        arc = "front"
    elif v < -d and v < u - d and v < w - d - u:
        arc = "rear"
    else:
        arc = "left" if u <= w / 2 else "right"
    return ArcVerdict(arc, *_margins(pose, arc, u, v))


def _margins(pose: BlockPose, arc: str, u: float, v: float) -> tuple[float, float]:
    degrees, inches = [], []
    for corner in ARC_LINES[arc]:
        cu, cv = pose.local(pose.corners[corner])
        du, dv = _OUTWARD[corner]
        ru, rv = u - cu, v - cv
        inches.append(abs(ru * dv - rv * du) / math.sqrt(2))
        norm = math.hypot(ru, rv)
        cos = (ru * du + rv * dv) / (norm * math.sqrt(2)) if norm else 1.0
        degrees.append(math.degrees(math.acos(max(-1.0, min(1.0, cos)))))
    return min(degrees), min(inches)


FAR_IN = 1000.0
"""How far the drawn arc regions reach (past any board)."""


def arc_regions(pose: BlockPose) -> dict[str, Polygon]:
    """The four arcs of the block at `pose` as polygons (cut `FAR_IN` out), the same split as
    `arc_of`: front and rear between their corners' 45-degree lines, the flanks the rest on
    either side of the block's centre line."""
    w, d, r = pose.width_in, pose.depth_in, FAR_IN

    def ring(points: list[Vec]) -> Polygon:
        return Polygon([pose.at(u, v) for u, v in points])

    front = ring([(0, 0), (-r, r), (w + r, r), (w, 0)])
    rear = ring([(0, -d), (-r, -d - r), (w + r, -d - r), (w, -d)])
    ends = front.union(rear)
    left = ring([(-r, r), (w / 2, r), (w / 2, -d - r), (-r, -d - r)]).difference(ends)
    right = ring([(w / 2, r), (w + r, r), (w + r, -d - r), (w / 2, -d - r)]).difference(ends)
    return {"front": front, "right": right, "rear": rear, "left": left}


def charger_arc(target: BlockPose, block: Block, charger: BlockPose, rule: str) -> ArcVerdict:
    """The target's arc a charger is in: by its front's centre ("front-centre", T9A), by where
    most of its Unit Boundary stands ("most-of-unit", WHFB 6e) or where most of its front
    rank's models stand ("front-rank-majority", TOW: their bases' centres). A tie
    falls back to the front's centre; the margins are the front centre's."""
    by_centre = arc_of(target, charger.front_centre)
    if rule == "most-of-unit":
        regions = arc_regions(target)
        shares = {a: regions[a].intersection(charger.polygon).area for a in ARC_LINES}
    elif rule == "front-rank-majority":
        shares = {a: 0.0 for a in ARC_LINES}
        for f in range(block.files):
            p = model_centre(block, charger, 0, f)
            shares[arc_of(target, p).arc] += 1.0
    else:
        return by_centre
    top = max(shares.values())
    leaders = [a for a in ARC_LINES if shares[a] >= top - 1e-9]
    arc = by_centre.arc if by_centre.arc in leaders else leaders[0]
    if arc == by_centre.arc:
        return by_centre
    u, v = target.local(charger.front_centre)
    return ArcVerdict(arc, *_margins(target, arc, u, v))
