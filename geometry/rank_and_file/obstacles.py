"""What a charging block must keep clear of: impassable terrain and the board's edge (no
overlap; touching is fine), friendly units (no overlap) and enemy units other than its target
(not even touching)."""

from __future__ import annotations

from dataclasses import dataclass

from shapely.geometry import Polygon, box

from chargeopt.geometry.rank_and_file.contact import CONTACT_TOLERANCE_IN
from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.models import RankAndFileScenario

BOARD_EDGE = "the board edge"
OVERLAP_DEPTH_IN = 0.001
"""Shapes overlapping by less than this (positions written to 0.000001") only touch."""


@dataclass(frozen=True)
class Obstacle:
    """A named shape and how close a charger may come: `clearance_in` 0 allows touching."""

    name: str
    kind: str
    shape: Polygon
    clearance_in: float

    def blocks(self, shape: Polygon) -> bool:
        """Whether `shape` overlaps this obstacle, or comes within its clearance."""
        if self.clearance_in > 0:
            return shape.distance(self.shape) <= self.clearance_in
        return overlaps(shape, self.shape)


def overlaps(shape: Polygon, other: Polygon) -> bool:
    """Whether two shapes overlap deeper than OVERLAP_DEPTH_IN."""
    if not shape.intersects(other):
        return False
    return shape.buffer(-OVERLAP_DEPTH_IN, join_style="mitre").intersects(other)


def board_outside(scenario: RankAndFileScenario) -> Polygon:
    """Everything beyond the board's edge, as one big frame."""
    w, h = scenario.board.width, scenario.board.height
    return box(-1e4, -1e4, w + 1e4, h + 1e4).difference(box(0, 0, w, h))


def table_obstacles(
    scenario: RankAndFileScenario,
    skip: set[str],
    poses: dict[str, BlockPose] | None = None,
) -> list[Obstacle]:
    """The obstacles around a charge: terrain, the board edge and every unit not in `skip`
    (at `poses` when given, else where it starts)."""
    enemy_clearance = 2 * CONTACT_TOLERANCE_IN
    side = scenario.unit_by_id[scenario.action.chargers[0]].owner
    out = [Obstacle(BOARD_EDGE, "board", board_outside(scenario), 0.0)]
    out += [Obstacle(t.id, "terrain", Polygon(t.path).buffer(0), 0.0) for t in scenario.terrain]
    for unit in scenario.units:
        if unit.id in skip:
            continue
        pose = (poses or {}).get(unit.id) or BlockPose.of(unit)
        enemy = unit.owner != side
        out.append(
            Obstacle(
                unit.id,
                "enemy" if enemy else "friend",
                pose.polygon,
                enemy_clearance if enemy else 0.0,
            )
        )
    return out
