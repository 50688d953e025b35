"""Ceilings on a 40k-assault-4e charge anywhere on the table: the enemy models one packing of
the contact rings can touch, the ring packing's most chargers in base contact (the 40k
charge's own bound, `solver/bounds/ring_packing.py`), the first model kept to the ring of the
enemy model it must touch. Both ignore the rest of the order of moves, the 2" chain and the
preferences, and measure paths by lower bounds with difficult terrain
ignored (the assault range is the longest any path may be), so each only loosens."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from chargeopt.geometry import Battlefield
from chargeopt.models import Scenario
from chargeopt.solver.bounds import cells as cl
from chargeopt.solver.bounds.relaxation_zones import Zones
from chargeopt.solver.bounds.ring_packing import (
    CONTACT_DTIME,
    MAX_CELLS,
    applies,
    contact_reach,
    pack,
)

MAX_PINNED_FIRSTS = 3
"""Tied first models each pinned in turn up to this many (a packing each); more: none pinned."""
CEILING_ARC_IN = 0.05
"""Arc length of the contact rings' sectors here: coarser than the 40k charge's 0.02", so the
packing settles sooner; it still closes the suite's layouts that 0.02" closes."""


def charge_ceilings(
    scenario: Scenario,
    battlefield: Battlefield,
    z: Zones,
    range_in: float,
    first: tuple[str, str] | Sequence[tuple[str, str]],
    found: tuple[int, int],
    deadline: float,
    seed: int = 0,
) -> dict[str, int]:
    """The most enemy models engaged and chargers in base contact any placement reaches,
    each no higher than its trivial ceiling (every target model, every charger), with the
    first model (`first`: it and the enemy model it must touch, or every pair the seed's
    "nearest" ties allow) on the rings of its enemy models only; with up to
    `MAX_PINNED_FIRSTS` tied first models the most over each pinned in turn, with more none
    pinned; a packing is solved only while `found` (the best
    answer's two counts) is below them."""
    pairs = [first] if isinstance(first[0], str) else list(first)
    targets = sum(len(scenario.unit_by_id[t].models) for t in scenario.action.targets)
    n = len(scenario.acting_unit.models)
    out = {"enemy_engaged": targets, "base_contact": n}
    if found == (targets, n) or not applies(scenario, battlefield):
        return out
    firsts = list(dict.fromkeys(a for a, _ in pairs))
    if 1 < len(firsts) <= MAX_PINNED_FIRSTS:
        each = [
            charge_ceilings(
                scenario,
                battlefield,
                z,
                range_in,
                [p for p in pairs if p[0] == a],
                found,
                deadline,
                seed,
            )
            for a in firsts
        ]
        return {k: max(c[k] for c in each) for k in out}
    cells, base_of, allowed = contact_reach(scenario, battlefield, z, range_in, CEILING_ARC_IN)
    ids = [m.id for m in scenario.acting_unit.models]
    if len(firsts) == 1:
        foes = {b for _, b in pairs}
        foe_rings = np.array([z.rings[int(g)].model in foes for g in cells.ring], bool)
        allowed[ids.index(firsts[0])] &= foe_rings
    touches = _touches(z, cells, base_of)
    out["enemy_engaged"] = min(targets, int(touches[allowed.any(axis=0)].any(axis=0).sum()))
    work = (deadline, CONTACT_DTIME, seed)
    if found[0] < out["enemy_engaged"]:
        packed = pack(
            cells, allowed, base_of, z, work, MAX_CELLS, out["enemy_engaged"], touches=touches
        )
        if packed is not None:
            out["enemy_engaged"] = min(out["enemy_engaged"], packed)
    if found[1] < n:
        packed = pack(cells, allowed, base_of, z, work, MAX_CELLS, n)
        if packed is not None:
            out["base_contact"] = min(n, packed)
    return out


def unreachable_targets(
    scenario: Scenario, battlefield: Battlefield, z: Zones, range_in: float
) -> list[str]:
    """The charged units none of whose models any charger can reach base contact with (the
    reach proof: contact rings cut into sectors, each measured against a lower bound on
    every model's path; mates, the order and the 1" no-go ignored, so it only loosens);
    empty where the ring packing does not cover the scenario."""
    if not applies(scenario, battlefield):
        return []
    cells, base_of, allowed = contact_reach(scenario, battlefield, z, range_in, CEILING_ARC_IN)
    touches = _touches(z, cells, base_of)
    models = list(dict.fromkeys(r.model for r in z.rings if r.contact))
    reach = touches[allowed.any(axis=0)].any(axis=0)
    touchable = {models[j] for j in np.flatnonzero(reach)}
    return [
        t
        for t in scenario.action.targets
        if not touchable & {m.id for m in scenario.unit_by_id[t].models}
    ]


def supporters_ceiling(scenario: Scenario, range_in: float) -> int:
    """Chargers that could end within 2" of a unit mate in base contact: a supporter's start
    lies within the assault range, the 2", its own width and two of the widest mate's radii
    of a target model's base (straight lines; paths are never shorter)."""
    unit = scenario.acting_unit
    rules = scenario.rules
    widest = max(unit.base_of(m).circumradius_in for m in unit.models)
    reach = range_in + (rules.fight_support_range_in or 0.0) + rules.base_contact_tolerance_in
    foes = [
        (e.x, e.y, scenario.unit_by_id[t].base_of(e).circumradius_in)
        for t in scenario.action.targets
        for e in scenario.unit_by_id[t].models
    ]
    return sum(
        any(
            math.hypot(m.x - x, m.y - y) <= reach + unit.base_of(m).circumradius_in + 2 * widest + r
            for x, y, r in foes
        )
        for m in unit.models
    )


def _touches(z: Zones, cells: cl.Cells, base_of: np.ndarray) -> np.ndarray:
    """Cells by target models: whether a centre in the cell may be in base contact with it
    (the cell meets the model's contact ring for the cell's base kind)."""
    models = list(dict.fromkeys(r.model for r in z.rings if r.contact))
    out = np.zeros((len(cells), len(models)), bool)
    for r in z.rings:
        if not r.contact:
            continue
        mine = np.flatnonzero(base_of == r.base)
        near = cl.within_of_points(cl.subset(cells, mine), np.array([[r.x, r.y]]), r.rho1)
        out[mine, models.index(r.model)] |= near[:, 0]
    return out
