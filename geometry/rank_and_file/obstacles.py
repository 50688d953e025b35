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
CHECK_DEPTH_IN = 0.001
"""The checker lets shapes overlap this deep and still only touch (positions are written to
0.000001", and a judge's tape is coarser still)."""
SOLVE_DEPTH_IN = 1e-6
"""The solvers allow only float rounding: their answers keep well inside the checker's."""


@dataclass(frozen=True)
class Obstacle:
    """A named shape and how close a charger may come: `clearance_in` 0 allows touching."""

    name: str
    kind: str
    shape: Polygon
    clearance_in: float

    def blocks(self, shape: Polygon, depth_in: float = SOLVE_DEPTH_IN) -> bool:
        """Whether `shape` overlaps this obstacle deeper than `depth_in`, or comes within its
        clearance."""
        if self.clearance_in > 0:
            return shape.distance(self.shape) <= self.clearance_in
        return overlaps(shape, self.shape, depth_in)


def overlaps(shape: Polygon, other: Polygon, depth_in: float = SOLVE_DEPTH_IN) -> bool:
    """Whether two shapes overlap deeper than `depth_in`."""
    if not shape.intersects(other):
        return False
    return shape.buffer(-depth_in, join_style="mitre").intersects(other)


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
