"""What blocks a moving model, drawn conservatively: every obstacle is a core (a base centre, a
base polygon, a terrain shape) grown by the mover's clearance and drawn as a polygon that
circumscribes the true grown shape (see paths.py for the margins this costs). Also who blocks
whom, the mover's clearance and the height climbed."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from chargeopt.geometry.footprints import Footprint
from chargeopt.models import ChargeoptError, GameModel, OvalBase, RoundBase, RuleSet, Scenario, Unit
from chargeopt.models.rulesets import BIG_MODEL_KEYWORDS

ARC_QUAD_SEGS = 16
"""Quarter-circle segments of the polygons drawn around grown round shapes (see paths.py)."""

Point2 = tuple[float, float]


class PathError(ChargeoptError):
    """A path query naming a model or unit the scenario does not have."""


@dataclass(frozen=True)
class MoverProfile:
    """What a moving model may cross: its clearance (round: radius; oval and hull: inradius,
    a lower bound on the passage it needs) and where it starts."""

    model_id: str
    clearance_in: float
    start: Point2
    start_z: float


def mover_profile(scenario: Scenario, model_id: str) -> MoverProfile:
    """The moving model's clearance and start, from the scenario."""
    unit, model = find_model(scenario, model_id)
    return MoverProfile(model_id, unit.base_of(model).inradius_in, (model.x, model.y), model.z)


def climb_in(rules: RuleSet, start_z: float, end_z: float) -> float:
    """Vertical distance a move counts: the height change if it exceeds the free climb, else 0."""
    rise = abs(end_z - start_z)
    return rise if rise > rules.free_climb_in else 0.0


def climbs_in(rules: RuleSet, start_z: float, end_z: np.ndarray) -> np.ndarray:
    """`climb_in` to each of many end heights at once."""
    rise = np.abs(end_z - start_z)
    return np.where(rise > rules.free_climb_in, rise, 0.0)


@dataclass(frozen=True)
class Obstacle:
    """Every point closer than `grow_in` to `core` (what a centre may not enter), and the
    conservative polygon drawn around it. `id` is a terrain id, a model id or
    'engagement:<unit>'."""

    id: str
    core: BaseGeometry
    grow_in: float
    shape: Polygon


def grown_obstacle(obstacle_id: str, core: BaseGeometry, grow_in: float) -> Obstacle:
    """An obstacle whose polygon circumscribes core grown by grow_in: arcs drawn at
    grow_in / cos(pi / (4 * ARC_QUAD_SEGS)), widened until the boundary is measured at least
    grow_in from the core (GEOS may draw a short fillet with fewer, longer chords)."""
    distance = grow_in / math.cos(math.pi / (4 * ARC_QUAD_SEGS))
    shape = core.buffer(distance, quad_segs=ARC_QUAD_SEGS)
    for _ in range(4):
        reach = float(shapely.distance(core, shape.boundary))
        if reach >= grow_in:
            break
        distance *= grow_in / reach * (1 + 1e-9)
        shape = core.buffer(distance, quad_segs=ARC_QUAD_SEGS)
    return Obstacle(obstacle_id, core, grow_in, shape)


def find_model(scenario: Scenario, model_id: str) -> tuple[Unit, GameModel]:
    if model_id not in scenario.model_index:
        raise PathError(f"no model {model_id!r} in the scenario")
    return scenario.model_index[model_id]


def blocks_path(rules: RuleSet, mover: Unit, other: Unit) -> bool:
    """Whether `other`'s bases block `mover`'s path (unit mates never do)."""
    if other.id == mover.id:
        return False
    if other.owner != mover.owner or not rules.crosses_friendly_bases:
        return True
    big = BIG_MODEL_KEYWORDS
    return bool(mover.keyword_set & big) and bool(other.keyword_set & big)


def base_obstacle(obstacle_id: str, unit: Unit, model: GameModel, grow_in: float) -> Obstacle:
    """A base grown by grow_in: a round base as its centre grown by radius + grow_in; an oval
    by its exact support function; a hull as its exact polygon."""
    base = unit.base_of(model)
    if isinstance(base, RoundBase):
        return grown_obstacle(obstacle_id, Point(model.x, model.y), base.radius_in + grow_in)
    footprint = Footprint(base, model.x, model.y, model.z, model.facing)
    if isinstance(base, OvalBase):
        return _grown_oval(obstacle_id, base, footprint, grow_in)
    return grown_obstacle(obstacle_id, footprint.polygon, grow_in)


def _grown_oval(obstacle_id: str, base: OvalBase, footprint: Footprint, grow_in: float) -> Obstacle:
    """An ellipse grown by grow_in, circumscribed by 4 * ARC_QUAD_SEGS tangent lines at equal
    steps of the normal's angle (the grown ellipse's support function is
    sqrt(a^2 cos^2 + b^2 sin^2) + grow). Its core for exact tests is the footprint's
    inscribed polygon (within `OVAL_ERROR_IN`-like drawing error of the ellipse)."""
    a, b = base.semi_axes_in
    theta = np.linspace(0.0, 2 * math.pi, 4 * ARC_QUAD_SEGS, endpoint=False)
    h = np.hypot(a * np.cos(theta), b * np.sin(theta)) + grow_in
    t1, h1 = np.roll(theta, -1), np.roll(h, -1)
    step = math.sin(theta[1])
    x = (h * np.sin(t1) - h1 * np.sin(theta)) / step
    y = (h1 * np.cos(theta) - h * np.cos(t1)) / step
    c, s = math.cos(math.radians(footprint.facing)), math.sin(math.radians(footprint.facing))
    shape = Polygon(np.column_stack((footprint.x + c * x - s * y, footprint.y + s * x + c * y)))
    return Obstacle(obstacle_id, footprint.polygon, grow_in, shape)
