"""A rank-and-file table is refused before solving when a block starts off the board, on
impassable terrain or overlapping another block (touching is allowed)."""

from __future__ import annotations

from shapely.geometry import Polygon

from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.geometry.rank_and_file.obstacles import CHECK_DEPTH_IN, board_outside, overlaps
from chargeopt.models import RankAndFileScenario, ScenarioError


def check_block_layout(scenario: RankAndFileScenario, file: str = "<scenario>") -> None:
    """Raise ScenarioError (one line per problem: key path, what, the fix) for a start layout
    no table could hold."""
    problems: list[tuple[str, str, str]] = []
    poses = [(i, u, BlockPose.of(u)) for i, u in enumerate(scenario.units)]
    outside = board_outside(scenario)
    terrain = [(t.id, Polygon(t.path).buffer(0)) for t in scenario.terrain]
    for i, unit, pose in poses:
        where = f"units[{i}]"
        if overlaps(pose.polygon, outside, CHECK_DEPTH_IN):
            problems.append(
                (where, f"block {unit.id!r} stands partly off the board", "move x, y or facing")
            )
        for name, shape in terrain:
            if overlaps(pose.polygon, shape, CHECK_DEPTH_IN):
                problems.append(
                    (
                        where,
                        f"block {unit.id!r} stands on impassable terrain {name!r}",
                        "move it clear of the terrain (x, y is its front-left corner)",
                    )
                )
        for j, other, other_pose in poses[:i]:
            if overlaps(pose.polygon, other_pose.polygon, CHECK_DEPTH_IN):
                problems.append(
                    (
                        where,
                        f"block {unit.id!r} overlaps block {other.id!r} (units[{j}])",
                        "move one of them (x, y is the front-left corner; facing turns it)",
                    )
                )
    if problems:
        raise ScenarioError(file, problems[:1])
