"""T9A's Blocked Path test: the first obstacle (another unit or impassable terrain) a straight
forward move of the charger would hit is the target."""

from __future__ import annotations

from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.geometry.rank_and_file.moves import first_hit_ahead
from chargeopt.geometry.rank_and_file.obstacles import Obstacle
from chargeopt.models import RankAndFileScenario


def blocked_path(
    scenario: RankAndFileScenario,
    start: BlockPose,
    target_id: str,
    obstacles: list[Obstacle],
    target_pose: BlockPose,
) -> bool:
    """Whether the first obstacle a straight forward move would hit is the target."""
    shapes = {o.name: o.shape for o in obstacles if o.kind != "board"}
    shapes[target_id] = target_pose.polygon
    hit = first_hit_ahead(start, shapes)
    return hit is not None and hit[0] == target_id
