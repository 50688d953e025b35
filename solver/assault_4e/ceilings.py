"""Ceilings on a 40k-assault-4e charge anywhere on the table: the enemy models whose contact
ring some charger reaches, and the ring packing's most chargers in base contact (the 40k
charge's own bound, `solver/bounds/ring_packing.py`), the first model kept to the ring of the
enemy model it must touch. Both ignore the rest of the order of moves, the 2" chain and the
preferences, and measure paths by lower bounds with difficult terrain
ignored (the assault range is the longest any path may be), so each only loosens."""

from __future__ import annotations

import numpy as np

from chargeopt.geometry import Battlefield
from chargeopt.models import Scenario
from chargeopt.solver.bounds.relaxation_zones import Zones
from chargeopt.solver.bounds.ring_packing import (
    CONTACT_DTIME,
    MAX_CELLS,
    applies,
    contact_reach,
    pack,
)

CEILING_ARC_IN = 0.05
"""Arc length of the contact rings' sectors here: coarser than the 40k charge's 0.02", so the
packing settles sooner; it still closes the suite's layouts that 0.02" closes."""


def charge_ceilings(
    scenario: Scenario,
    battlefield: Battlefield,
    z: Zones,
    range_in: float,
    first: tuple[str, str],
    found: tuple[int, int],
    deadline: float,
    seed: int = 0,
) -> dict[str, int]:
    """The most enemy models engaged and chargers in base contact any placement reaches,
    each no higher than its trivial ceiling (every target model, every charger), with the
    first model (`first`: it and the enemy model it must touch) on that model's ring only; a
    packing is solved only while `found` (the best answer's two counts) is below them."""
    targets = sum(len(scenario.unit_by_id[t].models) for t in scenario.action.targets)
    n = len(scenario.acting_unit.models)
    out = {"enemy_engaged": targets, "base_contact": n}
    if found == (targets, n) or not applies(scenario, battlefield):
        return out
    cells, base_of, allowed = contact_reach(scenario, battlefield, z, range_in, CEILING_ARC_IN)
    ids = [m.id for m in scenario.acting_unit.models]
    foe_rings = np.array([z.rings[int(g)].model == first[1] for g in cells.ring], bool)
    allowed[ids.index(first[0])] &= foe_rings
    reached = allowed.any(axis=0)
    rings = {int(g) for g in cells.ring[reached]}
    out["enemy_engaged"] = min(targets, len({z.rings[g].model for g in rings}))
    if found[1] < n:
        packed = pack(cells, allowed, base_of, z, (deadline, CONTACT_DTIME, seed), MAX_CELLS, n)
        if packed is not None:
            out["base_contact"] = min(n, packed)
    return out
