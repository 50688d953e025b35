"""The scenario's facts as the cell relaxation needs them: each base's inner and outer radius,
the zones that forbid a centre (drawn inside the true zone, so a cell found wholly inside is
surely bad), the zones a centre must touch to engage a target (drawn outside the true zone),
and the rings of centres in base contact with each target model."""

from __future__ import annotations

import math
from dataclasses import dataclass

import shapely
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from chargeopt.geometry import Battlefield, Footprint, edge_distance
from chargeopt.geometry.obstacles import climb_in
from chargeopt.models import RoundBase, Scenario, TerrainKind
from chargeopt.solver.bounds.cells import EPS_IN

QUAD_SEGS = 16
GROW = 1 / math.cos(math.pi / (4 * QUAD_SEGS))
"""A buffer's polygon has its corners on the circle; grown by this it contains the circle."""


def inner_radius(base: object) -> float:
    """Radius of a disk about the model's position that lies inside its base."""
    if isinstance(base, RoundBase):
        return base.radius_in
    if hasattr(base, "semi_axes_in"):
        return base.semi_axes_in[1]
    hull = Polygon(base.points)
    return hull.exterior.distance(Point(0.0, 0.0)) if hull.contains(Point(0.0, 0.0)) else 0.0


def _inner_disk(x: float, y: float, r: float) -> BaseGeometry:
    return Point(x, y).buffer(max(r, 0.0), quad_segs=QUAD_SEGS)


def _outer_disk(x: float, y: float, r: float) -> BaseGeometry:
    return Point(x, y).buffer(r * GROW, quad_segs=QUAD_SEGS)


@dataclass(frozen=True)
class Ring:
    """Centres of a base of kind `base` touching (`contact`) or within engagement range of
    (not `contact`) target model `model` of unit `unit` lie between rho0 and rho1 of (x, y);
    `kiss` bounds how many such bases touch it."""

    contact: bool
    base: int
    unit: str
    model: str
    x: float
    y: float
    z: float
    rho0: float
    rho1: float
    kiss: int | None


@dataclass(frozen=True)
class Zones:
    """Everything geometric the relaxation asks about one charge."""

    bases: list[object]
    inner: list[float]
    outer: list[float]
    model_base: dict[str, int]
    starts: dict[str, tuple[float, float]]
    climb: dict[tuple[str, int], float]  # (model, ring) -> climb a contact there needs
    start_gap: dict[tuple[str, str], float]  # (model, target unit) -> edge distance at start
    targets: dict[str, list[tuple[str, float, float, float]]]  # unit -> (model, x, y, outer)
    forbidden: list[dict[str, BaseGeometry]]  # per base: group -> zone wholly bad inside
    board_ok: list[BaseGeometry]  # per base: where a centre may be with the base on the board
    engage: dict[str, BaseGeometry]  # target unit -> centres that may be in engagement range
    rings: list[Ring]
    er_in: float
    coherency_in: float
    k: int
    overlap_in: float  # two of the unit's centres closer than this surely overlap
    tolerance_in: float
    base_overlap_in: float  # how deep two bases may overlap (the rules' epsilon)


def zones(scenario: Scenario, battlefield: Battlefield) -> Zones:
    """The relaxation's facts for the scenario's charging unit (every zone loosened)."""
    rules = scenario.rules
    unit = scenario.acting_unit
    bases = list(dict.fromkeys(unit.base_of(m) for m in unit.models))
    inner = [inner_radius(b) for b in bases]
    outer = [b.circumradius_in for b in bases]
    tol = rules.base_contact_tolerance_in
    sink = rules.base_overlap_tolerance_in
    er = rules.engagement_range_in
    er_far = rules.barricade_engagement_range_in if battlefield.barricades else er
    upper = rules.may_end_on_upper_floor(unit.keyword_set) and bool(battlefield.floors)
    tids = set(scenario.action.targets)
    forbidden: list[dict[str, BaseGeometry]] = []
    for r_in in inner:
        groups: dict[str, BaseGeometry] = {}
        if not upper:
            for piece in battlefield.of_kind(
                TerrainKind.WALL, TerrainKind.IMPASSABLE, TerrainKind.BARRICADE
            ):
                grow = r_in - tol - EPS_IN
                if grow > 0:
                    groups[f"terrain:{piece.id}"] = piece.shape.buffer(grow, quad_segs=QUAD_SEGS)
            for other in scenario.units:
                if other.id == unit.id:
                    continue
                disks = [
                    _inner_disk(m.x, m.y, r_in + inner_radius(other.base_of(m)) - sink - EPS_IN)
                    for m in other.models
                    if abs(m.z) < 0.01
                ]
                if disks:
                    groups[f"bases:{other.id}"] = shapely.union_all(disks)
        for enemy in scenario.enemies_of(unit):
            if enemy.id in tids:
                continue
            disks = [
                screened
                for e in enemy.models
                for screened in [
                    screen_zone(
                        _inner_disk(e.x, e.y, r_in + inner_radius(enemy.base_of(e)) + er - EPS_IN),
                        e.z,
                        battlefield,
                        rules.engagement_vertical_in,
                        r_in,
                        upper,
                    )
                ]
                if screened is not None
            ]
            if disks:
                groups[f"non-target:{enemy.id}"] = shapely.union_all(disks)
        forbidden.append(groups)
    board_ok = [
        box(r - EPS_IN, r - EPS_IN, battlefield.width - r + EPS_IN, battlefield.height - r + EPS_IN)
        for r in inner
    ]
    targets: dict[str, list[tuple[str, float, float, float]]] = {}
    engage: dict[str, BaseGeometry] = {}
    rings: list[Ring] = []
    for tid in scenario.action.targets:
        target = scenario.unit_by_id[tid]
        targets[tid] = [(m.id, m.x, m.y, target.base_of(m).circumradius_in) for m in target.models]
        engage[tid] = shapely.union_all(
            [_outer_disk(x, y, max(outer) + r + er_far + EPS_IN) for _, x, y, r in targets[tid]]
        )
        for m in target.models:
            t_base = target.base_of(m)
            for b, base in enumerate(bases):
                rho0 = max(0.0, inner[b] + inner_radius(t_base) - tol - EPS_IN)
                rho1 = outer[b] + t_base.circumradius_in + tol + EPS_IN
                kiss = _kiss(base, t_base, tol, sink)
                rings.append(Ring(True, b, tid, m.id, m.x, m.y, m.z, rho0, rho1, kiss))
                rho1 = outer[b] + t_base.circumradius_in + er_far + EPS_IN
                rings.append(Ring(False, b, tid, m.id, m.x, m.y, m.z, rho0, rho1, None))
    start_gap = {}
    for m in unit.models:
        here = Footprint(unit.base_of(m), m.x, m.y, m.z, m.facing)
        for tid in scenario.action.targets:
            target = scenario.unit_by_id[tid]
            start_gap[(m.id, tid)] = min(
                edge_distance(here, Footprint(target.base_of(t), t.x, t.y, t.z, t.facing))
                for t in target.models
            )
    climb = {
        (m.id, g): climb_in(rules, m.z, ring.z)
        for m in unit.models
        for g, ring in enumerate(rings)
        if ring.contact
    }
    return Zones(
        climb=climb,
        bases=bases,
        inner=inner,
        outer=outer,
        model_base={m.id: bases.index(unit.base_of(m)) for m in unit.models},
        starts={m.id: (m.x, m.y) for m in unit.models},
        start_gap=start_gap,
        targets=targets,
        forbidden=forbidden,
        board_ok=board_ok,
        engage=engage,
        rings=rings,
        er_in=er_far,
        coherency_in=rules.coherency_range_in,
        k=rules.coherency_neighbours(len(unit.models)),
        overlap_in=2 * min(inner) - sink - EPS_IN,
        tolerance_in=tol,
        base_overlap_in=sink,
    )


def screen_zone(
    disk: BaseGeometry,
    enemy_z: float,
    battlefield: Battlefield,
    vertical_in: float,
    r_in: float,
    upper: bool,
) -> BaseGeometry | None:
    """Where a centre is surely within engagement range of an enemy model standing at
    `enemy_z`: its `disk`, less the footprint (grown by `r_in`) of every floor the mover may
    stand on that is out of the enemy's vertical engagement range; None when the ground itself
    is out of that range."""
    if abs(enemy_z) > vertical_in:
        return None
    far = [
        f.shape.buffer(r_in)
        for f in battlefield.floors
        if upper and abs(enemy_z - f.height) > vertical_in
    ]
    return disk - shapely.union_all(far) if far else disk


def _kiss(base: object, target: object, tol: float, sink: float) -> int | None:
    """Most round bases of radius r touching a round base of radius R: their centres lie
    within R + r + tol of its centre and at least 2r - sink apart (sink: the overlap allowed),
    so consecutive ones are at least 2 asin((2r - sink) / (2 (R + r + tol))) apart in angle.
    None unless both are round."""
    if not (isinstance(base, RoundBase) and isinstance(target, RoundBase)):
        return None
    r, big = base.radius_in, target.radius_in
    rho = big + r + tol + EPS_IN
    half = (2 * r - sink - EPS_IN) / (2 * rho)
    return math.floor(math.pi / math.asin(min(1.0, half)) + 1e-9)
