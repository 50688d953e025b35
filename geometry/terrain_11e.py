"""The 11th edition's terrain categories as shapes and movement facts: which areas block which
models, where no model may end (partway through a wall; through an enclosed solid block 3"
high or less), and what climbing a tall section costs a model that cannot cross it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import shapely
from shapely.geometry import LineString
from shapely.geometry.base import BaseGeometry

from chargeopt.geometry.terrain import MITRE_LIMIT, Battlefield, TerrainPiece
from chargeopt.models import RuleSet, Scenario, Terrain, TerrainKind
from chargeopt.models.scenario import CATEGORY_KINDS

CATEGORY_WORDS = {
    TerrainKind.DENSE: "dense terrain",
    TerrainKind.LIGHT: "light terrain",
    TerrainKind.EXPOSED: "exposed terrain",
}


@dataclass(frozen=True)
class NoEndZone:
    """A shape no part of a base may end inside, with its terrain id and why."""

    terrain_id: str
    shape: BaseGeometry
    why: str


def category_pieces(battlefield: Battlefield) -> tuple[TerrainPiece, ...]:
    """The dense, light and exposed areas on the table."""
    return battlefield.of_kind(*CATEGORY_KINDS)


def wall_shapes(piece: Terrain) -> tuple[BaseGeometry, ...]:
    """The walls of an area as thick lines (flat ends, mitred corners), like ruin walls."""
    shapes = []
    for wall in piece.walls:
        line = LineString(wall)
        shapes.append(
            line.buffer(
                piece.wall_thickness_in / 2,
                cap_style="flat",
                join_style="mitre",
                mitre_limit=MITRE_LIMIT,
            )
        )
    return tuple(shapes)


def crosses_horizontally(rules: RuleSet, keywords: frozenset[str], piece: Terrain) -> bool:
    """Whether a model with these keywords may move horizontally through the area: exposed and
    light always; dense for INFANTRY, BEASTS, SWARM and MOBILE, and for any model where the
    area is 2" high or less (its tallest section bounds every section it would cross)."""
    if piece.kind != TerrainKind.DENSE:
        return True
    if rules.moves_through_dense(keywords):
        return True
    return (piece.height_in or 0.0) <= rules.dense_low_height_in


def movement_blockers(
    rules: RuleSet, keywords: frozenset[str], battlefield: Battlefield, flying: bool = False
) -> Iterable[tuple[str, BaseGeometry]]:
    """(terrain id, shape) of every area a model with these keywords may not cross on the
    ground: the dense areas taller than 2" for a model that does not move through dense
    terrain. Such a model may still climb over, up and down its height (`climb_over_in`,
    `geometry.climb_11e`). A model taking to the skies crosses everything."""
    if flying:
        return
    for piece in category_pieces(battlefield):
        if not crosses_horizontally(rules, keywords, piece.terrain):
            yield piece.id, piece.shape


def climb_over_in(piece: Terrain) -> float:
    """What crossing a tall section by climbing adds to a move: up and down its height."""
    return 2.0 * (piece.height_in or 0.0)


@dataclass(frozen=True)
class Climb:
    """A dense area a model may not cross on the ground, and what climbing over it costs."""

    terrain_id: str
    shape: BaseGeometry
    cost_in: float


def climbs(rules: RuleSet, keywords: frozenset[str], battlefield: Battlefield) -> tuple[Climb, ...]:
    """The areas of `movement_blockers`, each with its climb (up and down its height)."""
    pieces = {p.id: p.terrain for p in category_pieces(battlefield)}
    return tuple(
        Climb(terrain_id, shape, climb_over_in(pieces[terrain_id]))
        for terrain_id, shape in movement_blockers(rules, keywords, battlefield)
    )


SKIES_LESS_IN = 2.0
"""Taking to the skies takes this much off the move's maximum distance (21.03)."""


def takes_to_the_skies(scenario: Scenario, unit_id: str) -> bool:
    """Whether this unit's models move taking to the skies: the acting unit, when declared."""
    return bool(scenario.action.take_to_the_skies) and unit_id == scenario.action.unit


def move_allowance_in(scenario: Scenario, roll: float) -> float:
    """How far each model may move on this roll: 2" less when the unit takes to the skies."""
    if scenario.action.take_to_the_skies:
        return max(0.0, roll - SKIES_LESS_IN)
    return float(roll)


def no_end_zones(rules: RuleSet, battlefield: Battlefield) -> tuple[NoEndZone, ...]:
    """Where no base may end: partway through any area's wall, and through an enclosed dense
    block (its parts up to 3" above the ground, the Solid rule's height, are enclosed whatever
    its height; the charge solver's models stand on the ground)."""
    zones: list[NoEndZone] = []
    for piece in category_pieces(battlefield):
        for i, shape in enumerate(wall_shapes(piece.terrain)):
            zones.append(NoEndZone(piece.id, shape, f"partway through wall {i + 1} of"))
        if piece.kind == TerrainKind.DENSE and piece.terrain.enclosed:
            zones.append(NoEndZone(piece.id, piece.shape, "through the enclosed solid block"))
    for zone in zones:
        shapely.prepare(zone.shape)
    return tuple(zones)
