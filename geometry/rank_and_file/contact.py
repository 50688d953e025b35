"""Contact between Unit Boundaries and the models in contact on each side.

Two boundaries touch when they are at most `tolerance_in` apart; a model is in contact when its
base touches the other unit's boundary (corner to corner counts). Fighting Over Gaps is not
modelled: models count only when their own bases touch.
"""

from __future__ import annotations

from shapely.geometry import Polygon

from chargeopt.geometry.rank_and_file.frame import BlockPose, model_bases
from chargeopt.models import Block

CONTACT_TOLERANCE_IN = 0.005


def touching(a: Polygon, b: Polygon, tolerance_in: float = CONTACT_TOLERANCE_IN) -> bool:
    return a.distance(b) <= tolerance_in


def overlap_area(a: Polygon, b: Polygon) -> float:
    """The area two shapes share (0 when they only touch)."""
    return a.intersection(b).area if a.intersects(b) else 0.0


def models_in_contact(
    block: Block, pose: BlockPose, other: Polygon, tolerance_in: float = CONTACT_TOLERANCE_IN
) -> list[str]:
    """The ids of `block`'s models (at `pose`) whose bases touch the polygon `other`."""
    return [
        mid for mid, _, _, base in model_bases(block, pose) if touching(base, other, tolerance_in)
    ]


def distance_between(a: BlockPose, b: BlockPose) -> float:
    """The shortest distance between two Unit Boundaries (0 when they touch or overlap)."""
    return a.polygon.distance(b.polygon)
