"""Single-model impossibility reasons, found exactly with shapely before any solver runs.

Regions are built conservatively: what a model may reach or stand in is over-approximated
(circumscribed polygons, straight-line reach), what is forbidden is under-approximated
(inscribed polygons), so an empty region is a proof for the continuous board.
"""

from __future__ import annotations

import math

import shapely
from shapely.geometry import Point, box
from shapely.geometry.base import BaseGeometry

from chargeopt.geometry import Battlefield, Footprint, edge_distance
from chargeopt.models import Scenario, TerrainKind

QUAD_SEGS = 16
_GROW = 1 / math.cos(math.pi / (4 * QUAD_SEGS))


def _disk_outer(x: float, y: float, r: float) -> BaseGeometry:
    return Point(x, y).buffer(r * _GROW, quad_segs=QUAD_SEGS)


def _disk_inner(x: float, y: float, r: float) -> BaseGeometry:
    return Point(x, y).buffer(r, quad_segs=QUAD_SEGS)


def _ground_bases(scenario: Scenario, battlefield: Battlefield, r_in: float) -> BaseGeometry:
    """Where a base of inradius `r_in` would overlap a model of another unit standing on the
    ground by more than the base contact tolerance (inscribed disks), minus every floor's area
    (a model might stand on the floor)."""
    unit = scenario.acting_unit
    tolerance = scenario.rules.base_contact_tolerance_in
    disks = [
        _disk_inner(m.x, m.y, other.base_of(m).inradius_in + r_in - tolerance)
        for other in scenario.units
        if other.id != unit.id
        for m in other.models
        if m.z < 0.01
    ]
    blocked = shapely.union_all(disks) if disks else Point().buffer(0)
    floors = [f.shape.buffer(r_in) for f in battlefield.floors]
    return blocked - shapely.union_all(floors) if floors else blocked


def charge_impossibility(scenario: Scenario, battlefield: Battlefield, roll: float) -> str | None:
    """A reason in words why no model of the charging unit can end within engagement range of
    some target with this roll, or None if every target has some spot a model might take."""
    rules = scenario.rules
    unit = scenario.acting_unit
    er = rules.engagement_range_in
    surfaces = battlefield.surface_heights()
    for tid in scenario.action.targets:
        target = scenario.unit_by_id[tid]
        reasons = []
        for base in dict.fromkeys(unit.base_of(m) for m in unit.models):
            movers = [m for m in unit.models if unit.base_of(m) == base]
            r_in = base.inradius_in
            r_out = base.circumradius_in
            zone = shapely.union_all(
                [
                    _disk_outer(
                        t.x,
                        t.y,
                        target.base_of(t).circumradius_in
                        + r_out
                        + rules.barricade_engagement_range_in
                        if battlefield.barricades
                        else target.base_of(t).circumradius_in + r_out + er,
                    )
                    for t in target.models
                ]
            )
            reach = shapely.union_all([_disk_outer(m.x, m.y, roll) for m in movers])
            board = box(r_in, r_in, battlefield.width - r_in, battlefield.height - r_in)
            region = zone & reach & board
            if region.is_empty:
                gaps = [
                    edge_distance(
                        Footprint(base, m.x, m.y, m.z, m.facing),
                        Footprint(target.base_of(t), t.x, t.y, t.z, t.facing),
                    )
                    for m in movers
                    for t in target.models
                ]
                reasons.append(
                    f'{tid} is {min(gaps):.2f}" away edge to edge; the roll allows {roll:.2f}" '
                    f'plus {er:g}" engagement range'
                )
                continue
            screens = []
            for enemy in scenario.enemies_of(unit):
                if enemy.id in scenario.action.targets:
                    continue
                if not all(
                    abs(e.z - s) <= rules.engagement_vertical_in
                    for e in enemy.models
                    for s in surfaces
                ):
                    continue
                blocked = shapely.union_all(
                    [
                        _disk_inner(e.x, e.y, enemy.base_of(e).inradius_in + r_in + er)
                        for e in enemy.models
                    ]
                )
                if blocked.intersects(region):
                    screens.append(enemy.id)
                region = region - blocked
            if region.is_empty:
                reasons.append(
                    f'every spot within {er:g}" of {tid} that a model can reach is within '
                    f'{er:g}" of non-target {", ".join(screens)}'
                )
                continue
            for piece in battlefield.of_kind(
                TerrainKind.WALL, TerrainKind.IMPASSABLE, TerrainKind.BARRICADE
            ):
                region = region - piece.shape.buffer(r_in * 0.999, quad_segs=QUAD_SEGS)
            if region.is_empty:
                reasons.append(
                    f'every spot within {er:g}" of {tid} that a model can reach is inside terrain'
                )
                continue
            region = region - _ground_bases(scenario, battlefield, r_in)
            if region.is_empty:
                reasons.append(
                    f'every spot within {er:g}" of {tid} that a model can reach is inside '
                    "terrain or overlaps another unit's model"
                )
        if reasons and len(reasons) == len(set(unit.base_of(m) for m in unit.models)):
            return (
                f"No model of {unit.id} can end within engagement range of {tid}: "
                + "; ".join(reasons)
                + "."
            )
    return None
