"""Contact between Unit Boundaries and the models in contact on each side.

Two boundaries touch when they are at most `tolerance_in` apart; a model is in contact when its
base touches the other unit's boundary (corner to corner counts). T9A's Fighting Over Gaps
(`over_gaps`): a model also fights across the empty slots of its own incomplete rank, so each
model has contact faces, the stretches of its own Unit Boundary it reaches through empty slots,
and two models are in contact when a face of one touches a face of the other (symmetric).
"""

from __future__ import annotations

from shapely.geometry import LineString, Polygon

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


def contact_faces(block: Block, pose: BlockPose) -> list[tuple[str, list[LineString]]]:
    """Each model's contact faces: the edge of the Unit Boundary (front, rear, left or right)
    straight out from its base, when every slot between its base and that edge is empty (its
    own base edge when it stands on the boundary)."""
    w, d = block.base.width_in, block.base.depth_in
    ranks, files = block.rank_count, block.files
    taken = {(rank, file) for _, rank, file in block.model_slots()}
    out = []
    for model_id, rank, file in block.model_slots():
        faces = []
        if all((r, file) not in taken for r in range(rank)):
            faces.append(((file * w, 0.0), ((file + 1) * w, 0.0)))
        if all((r, file) not in taken for r in range(rank + 1, ranks)):
            faces.append(((file * w, -ranks * d), ((file + 1) * w, -ranks * d)))
        if all((rank, f) not in taken for f in range(file)):
            faces.append(((0.0, -rank * d), (0.0, -(rank + 1) * d)))
        if all((rank, f) not in taken for f in range(file + 1, files)):
            faces.append(((files * w, -rank * d), (files * w, -(rank + 1) * d)))
        out.append((model_id, [LineString([pose.at(*a), pose.at(*b)]) for a, b in faces]))
    return out


def models_in_contact_over_gaps(
    block: Block,
    pose: BlockPose,
    other: Block,
    other_pose: BlockPose,
    tolerance_in: float = CONTACT_TOLERANCE_IN,
) -> list[str]:
    """The ids of `block`'s models in contact with some model of `other`, Fighting Over Gaps:
    a contact face of the one touches a contact face of the other."""
    theirs = [f for _, faces in contact_faces(other, other_pose) for f in faces]
    return [
        mid
        for mid, faces in contact_faces(block, pose)
        if any(a.distance(b) <= tolerance_in for a in faces for b in theirs)
    ]


def contact_counts(
    target: Block,
    target_pose: BlockPose,
    charger: Block,
    charger_pose: BlockPose,
    over_gaps: bool,
    tolerance_in: float = CONTACT_TOLERANCE_IN,
) -> tuple[list[str], list[str]]:
    """(target's models, charger's models) in contact, by the ruleset's reading: across gaps
    (T9A) or by bases touching the other unit's boundary (6e, tow)."""
    if over_gaps:
        return (
            models_in_contact_over_gaps(target, target_pose, charger, charger_pose, tolerance_in),
            models_in_contact_over_gaps(charger, charger_pose, target, target_pose, tolerance_in),
        )
    return (
        models_in_contact(target, target_pose, charger_pose.polygon, tolerance_in),
        models_in_contact(charger, charger_pose, target_pose.polygon, tolerance_in),
    )


def distance_between(a: BlockPose, b: BlockPose) -> float:
    """The shortest distance between two Unit Boundaries (0 when they touch or overlap)."""
    return a.polygon.distance(b.polygon)
