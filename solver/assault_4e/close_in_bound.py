"""Ceilings on the reinforcement move and consolidation that hold anywhere on the table: a
model's centre ends at most its reach from where it starts (a straight line is never longer
than a legal path), so it can touch only the enemy models whose centres start within its reach
plus both circumradii plus the contact tolerance, and (round bases) only if some spot of that
contact ring within its reach is on the board and out of the terrain that blocks at every
height; each enemy model takes at most the kissing capacity of its base. Other models,
coherency and the order of moves are ignored, and every shape is drawn on the loose side
(`LOOSE_IN`), so both ceilings only loosen."""

from __future__ import annotations

import math

import shapely
from shapely.geometry.base import BaseGeometry

from chargeopt.geometry import Battlefield
from chargeopt.geometry.footprints import BaseShape
from chargeopt.geometry.pose import BLOCKING_KINDS, blocks_at
from chargeopt.models import GameModel, RoundBase, Scenario, Unit
from chargeopt.solver.bounds.contact_bound import kissing_capacity, most_matched

SLACK_IN = 1e-3
"""Added to every reach: more than the checker's slack on a move's length."""
LOOSE_IN = 0.05
"""How much more room than the checker allows the legal-spot test gives (overlap, terrain,
board edges)."""
QUAD_SEGS = 16


def close_in_ceilings(
    scenario: Scenario, battlefield: Battlefield, foes: list[Unit], reach_in: dict[str, float]
) -> dict[str, int]:
    """`base_contact`: most models of the acting unit in base contact with a model of `foes`
    (a matching under the kissing capacities); `enemy_engaged`: most models of `foes` touched.
    `reach_in`: how far each model may move (0: it stays)."""
    unit = scenario.acting_unit
    tolerance = scenario.rules.base_contact_tolerance_in
    bases = [unit.base_of(m) for m in unit.models]
    round_movers = all(isinstance(b, RoundBase) for b in bases)
    smallest = min((b.radius_in for b in bases), default=0.0)
    blocked = _blocked(battlefield, smallest)
    touch: dict[str, set[str]] = {}
    for m, base in zip(unit.models, bases, strict=True):
        reach = reach_in.get(m.id, 0.0) + SLACK_IN
        touch[m.id] = {
            f.id
            for u in foes
            for f in u.models
            if math.hypot(f.x - m.x, f.y - m.y)
            <= reach + tolerance + base.circumradius_in + u.base_of(f).circumradius_in
            and (
                reach <= SLACK_IN
                or _open_contact(battlefield, blocked, m, base, f, u, reach, tolerance)
            )
        }
    capacity = {}
    for u in foes:
        for f in u.models:
            base = u.base_of(f)
            capacity[f.id] = (
                kissing_capacity(
                    base.radius_in, smallest, tolerance, scenario.rules.base_overlap_tolerance_in
                )
                if round_movers and isinstance(base, RoundBase)
                else len(unit.models)
            )
    return {
        "enemy_engaged": len(set().union(*touch.values())),
        "base_contact": most_matched(touch, capacity),
    }


def _blocked(battlefield: Battlefield, radius_in: float) -> BaseGeometry:
    """Centres a round base of `radius_in` surely may not end at: inside a wall, impassable
    area or barricade that blocks at every height a model may stand at (deeper than
    `LOOSE_IN`), drawn inside the true region."""
    grow = radius_in - LOOSE_IN
    ground_only = not battlefield.floors
    pieces = [
        p.shape.buffer(grow, quad_segs=QUAD_SEGS)
        for p in battlefield.of_kind(*BLOCKING_KINDS)
        if p.terrain.height is None or (ground_only and blocks_at(p, 0.0))
    ]
    return shapely.union_all(pieces) if pieces and grow > 0 else shapely.Polygon()


def _open_contact(
    battlefield: Battlefield,
    blocked: BaseGeometry,
    m: GameModel,
    base: BaseShape,
    f: GameModel,
    unit: Unit,
    reach_in: float,
    tolerance_in: float,
) -> bool:
    """Whether some spot in base contact with `f` (within `tolerance_in`) within `reach_in` of
    `m` may be on the board and out of `blocked` (True for bases that are not round)."""
    foe_base = unit.base_of(f)
    if not isinstance(base, RoundBase) or not isinstance(foe_base, RoundBase):
        return True
    ring = base.radius_in + foe_base.radius_in
    out = 1 / math.cos(math.pi / (4 * QUAD_SEGS))
    outer = shapely.Point(f.x, f.y).buffer(
        (ring + tolerance_in + LOOSE_IN) * out, quad_segs=QUAD_SEGS
    )
    inner = shapely.Point(f.x, f.y).buffer(max(ring - LOOSE_IN, 0.0), quad_segs=QUAD_SEGS)
    disc = shapely.Point(m.x, m.y).buffer(reach_in * out, quad_segs=QUAD_SEGS)
    r = base.radius_in - LOOSE_IN
    board = shapely.box(r, r, battlefield.width - r, battlefield.height - r)
    return (
        not outer.difference(inner)
        .intersection(disc)
        .intersection(board)
        .difference(blocked)
        .is_empty
    )
