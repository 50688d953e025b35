"""More models in base contact than the candidates hold, found where the ring-packing ceiling
leaves room for them: a packing of exact spots on the target models' contact rings, 0.015"
apart (finer than the candidates' rings), with true distances between bases and the legal
path lengths the candidates use. Its spots join the candidates before the solve, which, like
the checker after it, still decides what is legal: a primal heuristic, never a bound. Round
bases on one level only, as for the ring packing."""

from __future__ import annotations

import math

import numpy as np
import shapely

from chargeopt.geometry import Battlefield
from chargeopt.geometry.paths import obstacle_map
from chargeopt.models import Scenario
from chargeopt.solver.bounds import cells as cl
from chargeopt.solver.bounds.relaxation_zones import Zones, inner_radius
from chargeopt.solver.bounds.ring_packing import applies, pack_points
from chargeopt.solver.core.exact_limits import margin
from chargeopt.solver.core.tolerances import CONTACT_GAP_IN, ROLL_MARGIN_IN

SPOT_ARC_IN = 0.015
"""Arc between two spots of a contact ring. The candidates' 3 degree steps (0.05" to 0.07"
around 25mm and 32mm bases) miss packings that need a finer position (scaling-v1 c40-open-s2:
14 bases touch with spots 0.01" apart, 13 with 0.05")."""
REACH_MARGIN_IN = ROLL_MARGIN_IN
"""Kept inside the roll, as the candidates keep theirs."""
WITNESS_DTIME = 1.0
"""CP-SAT's deterministic work allowed to the search for a packing with one more contact."""


def contact_spots(
    scenario: Scenario,
    battlefield: Battlefield,
    z: Zones,
    roll: float,
    found_contact: int,
    ceiling: int | None,
    deadline: float,
    seed: int = 0,
) -> dict[int, np.ndarray] | None:
    """Per base kind of the acting unit (index into its bases in order), the centres (k, 2)
    of a packing with more models touching target models than `found_contact`, or None when
    the ring-packing `ceiling` (`contact_ceiling`) allows no more, the scenario is outside
    its reach, or no such packing is found before `deadline`."""
    if ceiling is None or ceiling <= found_contact or not applies(scenario, battlefield):
        return None
    spots, base_of = _ring_spots(scenario, z)
    allowed = _reachable(scenario, battlefield, z, roll, spots, base_of)
    work = (deadline, WITNESS_DTIME, seed)
    chosen = pack_points(spots, allowed, base_of, z, work, ceiling, found_contact + 1)
    if chosen is None:
        return None
    centres = spots.centres[chosen]
    return {b: centres[base_of[chosen] == b] for b in np.unique(base_of[chosen]).tolist()}


def _ring_spots(scenario: Scenario, z: Zones) -> tuple[cl.Cells, np.ndarray]:
    """Spots `CONTACT_GAP_IN` off each target model's edge (as the candidates' contact rings
    stand), `SPOT_ARC_IN` apart, where a centre may stand, with each one's base kind."""
    xs, ys, bases = [], [], []
    for r in z.rings:
        if not r.contact:
            continue
        target = scenario.unit_by_id[r.unit]
        model = next(m for m in target.models if m.id == r.model)
        radius = z.inner[r.base] + inner_radius(target.base_of(model)) + CONTACT_GAP_IN
        count = max(8, math.ceil(2 * math.pi * radius / SPOT_ARC_IN))
        angles = np.arange(count) * (2 * math.pi / count)
        x, y = r.x + radius * np.cos(angles), r.y + radius * np.sin(angles)
        where = shapely.points(x, y)
        keep = shapely.intersects(where, z.board_ok[r.base])
        for zone in z.forbidden[r.base].values():
            keep &= ~shapely.intersects(where, zone)
        xs.append(x[keep])
        ys.append(y[keep])
        bases.append(np.full(int(keep.sum()), r.base))
    if not xs:
        return cl.points(np.empty(0), np.empty(0)), np.empty(0, int)
    return cl.points(np.concatenate(xs), np.concatenate(ys)), np.concatenate(bases)


def _reachable(
    scenario: Scenario,
    battlefield: Battlefield,
    z: Zones,
    roll: float,
    spots: cl.Cells,
    base_of: np.ndarray,
) -> np.ndarray:
    """Models (rows) by spots (columns): the model's base kind, and a legal path within the
    roll (measured as the candidates measure theirs, so a spot packed is a spot reached)."""
    unit = scenario.acting_unit
    avoid = [u.id for u in scenario.enemies_of(unit) if u.id not in scenario.action.targets]
    centres = spots.centres
    allowed = np.zeros((len(unit.models), len(spots)), bool)
    for i, m in enumerate(unit.models):
        mine = np.flatnonzero(base_of == z.model_base[m.id])
        near = mine[np.hypot(*(centres[mine] - (m.x, m.y)).T) <= roll]
        if not len(near):
            continue
        paths = obstacle_map(scenario, battlefield, m.id, avoid_engagement_of=avoid).path_field(
            (m.x, m.y), within_in=roll
        )
        allowed[i, near] = (
            paths.lengths_to(centres[near, 0], centres[near, 1]) <= roll - margin(REACH_MARGIN_IN)
        )
    return allowed
