"""Single-model impossibility reasons, found exactly with shapely before any solver runs: the
straight line first, then every model's end region and the legal paths into it.

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
from chargeopt.solver.bounds.cell_reach import ROLL_SLACK_IN, Reach, path_lower_bounds
from chargeopt.solver.bounds.relaxation_zones import screen_zone, zones

QUAD_SEGS = 16
_GROW = 1 / math.cos(math.pi / (4 * QUAD_SEGS))


def _disk_outer(x: float, y: float, r: float) -> BaseGeometry:
    return Point(x, y).buffer(r * _GROW, quad_segs=QUAD_SEGS)


def _disk_inner(x: float, y: float, r: float) -> BaseGeometry:
    return Point(x, y).buffer(r, quad_segs=QUAD_SEGS)


def _ground_bases(scenario: Scenario, battlefield: Battlefield, r_in: float) -> BaseGeometry:
    """Where a base of inradius `r_in` would overlap a model of another unit standing on the
    ground by more than the overlap tolerance (inscribed disks), minus every floor's area
    (a model might stand on the floor)."""
    unit = scenario.acting_unit
    tolerance = scenario.rules.base_overlap_tolerance_in
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
    upper = rules.may_end_on_upper_floor(unit.keyword_set) and bool(battlefield.floors)
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
                zones_ = [
                    screen_zone(
                        _disk_inner(e.x, e.y, enemy.base_of(e).inradius_in + r_in + er),
                        e.z,
                        battlefield,
                        rules.engagement_vertical_in,
                        r_in,
                        upper,
                    )
                    for e in enemy.models
                ]
                zones_ = [g for g in zones_ if g is not None]
                if not zones_:
                    continue
                blocked = shapely.union_all(zones_)
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
    return no_model_reaches_engagement(scenario, battlefield, roll)


PATH_STEP_IN = 0.02
"""Half the spacing of the points that stand for the edge of a model's end region: the lower
bounds on the legal path are taken to each point less this (`cell_reach.path_lower_bounds`)."""


def no_model_reaches_engagement(
    scenario: Scenario, battlefield: Battlefield, roll: float
) -> str | None:
    """A reason in words why no model of the charging unit has a legal path of at most `roll`
    to a spot where it may end within engagement range of some target, or None. Each model's
    end region is exact up to loosening: within engagement range of the target (outer disks),
    on the board, and outside every wall, impassable area, other unit's base and the 1" zone
    of every non-target unit (inscribed disks); its paths avoid what the charge may not cross,
    non-targets' engagement range included, measured by lower bounds. A path to a spot of the
    region enters it through its edge, so the least lower bound over points along the edge
    (`PATH_STEP_IN` apart) bounds every such path from below."""
    if scenario.rules.wtc_walls or scenario.rules.charge_targets_after_roll:
        return None  # 11th edition: a charge may pass through other units' range
    z = zones(scenario, battlefield)
    reach = path_lower_bounds(scenario, battlefield, z, PATH_STEP_IN)
    unit = scenario.acting_unit
    for tid in scenario.action.targets:
        needs: dict[str, float] = {}
        screens: set[str] = set()
        for b in range(len(z.bases)):
            region = z.engage[tid] & z.board_ok[b]
            for group, zone in z.forbidden[b].items():
                if zone.intersects(region):
                    screens.add(group)
                region = region - zone
            movers = [m for m in unit.models if z.model_base[m.id] == b]
            for m in movers:
                needs[m.id] = _least_path_into(region, reach[m.id], (m.x, m.y))
        if all(need > roll + ROLL_SLACK_IN for need in needs.values()):
            return _unreachable_words(unit.id, tid, roll, z.er_in, needs, screens)
    return None


def _least_path_into(region: BaseGeometry, reach: Reach, start: tuple[float, float]) -> float:
    """A lower bound on the legal path from `start` to any point of `region` (inf if empty)."""
    if region.is_empty:
        return math.inf
    if region.contains(Point(start)):
        return 0.0
    edge = shapely.segmentize(region.boundary, 2 * PATH_STEP_IN)
    points = shapely.get_coordinates(edge)
    return float(max(0.0, reach(points).min()))


def _unreachable_words(
    unit_id: str, tid: str, roll: float, er: float, needs: dict[str, float], screens: set[str]
) -> str:
    """Why no model reaches: the least legal path each model would need, and what the spots
    within engagement range it could reach in a straight line are taken by."""
    nearest = sorted(needs.items(), key=lambda kv: (kv[1], kv[0]))
    paths = ", ".join(
        f'{mid} {need:.2f}"' if math.isfinite(need) else f"{mid} none" for mid, need in nearest[:3]
    )
    more = f" (and {len(nearest) - 3} more)" if len(nearest) > 3 else ""
    kinds = {"non-target": [], "terrain": [], "bases": []}
    for group in sorted(screens):
        kind, name = group.split(":", 1)
        if name != tid:
            kinds.setdefault(kind, []).append(name)
    taken = []
    if kinds["non-target"]:
        taken.append(f'within {er:g}" of non-target {", ".join(kinds["non-target"])}')
    if kinds["terrain"]:
        taken.append(f"inside terrain {', '.join(kinds['terrain'])}")
    if kinds["bases"]:
        taken.append(f"on the bases of {', '.join(kinds['bases'])}")
    where = f" (the spots nearer are {', or '.join(taken)})" if taken else ""
    return (
        f"No model of {unit_id} can end within engagement range of {tid}: the shortest legal "
        f'path to a spot within {er:g}" of {tid} where a model may end is longer than the roll '
        f'of {roll:g}" for every model: {paths}{more}{where}; paths may not cross within '
        f'{er:g}" of a unit that is not a target.'
    )
