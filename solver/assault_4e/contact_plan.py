"""Where the chargers should end to engage the most enemy models, then put the most of them in
base contact, the order of moves aside: a packing (CP-SAT) of the models' own contact spots,
each model on a spot it reaches, no two bases closer than the steps keep them. The guided order
(`guided.py`) then walks toward it; the packing is a plan, never a bound (its spots are
samples)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from chargeopt.solver.assault_4e.sequence import Charge
from chargeopt.solver.bounds import cells as cl
from chargeopt.solver.bounds.relaxation_zones import Zones
from chargeopt.solver.bounds.ring_packing import pack_points
from chargeopt.solver.core import clock
from chargeopt.solver.core.tolerances import APART_IN

PLAN_DTIME = 0.3
"""CP-SAT's deterministic work for the plan's packing (a plan, so cut short is fine)."""
MAX_PLAN_SPOTS = 400
"""More contact spots than this are thinned to every second, third, ... one before packing
(a plan needs no 1-degree spots: a4-ten packs its 10 planned contacts in 0.06 s from 600
spots against 0.24 s from all 1,800)."""


@dataclass(frozen=True)
class ContactPlan:
    """The planned contact spots (x, y), and for each model the static spot index (into its
    `Charge.spots`) of every planned spot it reaches."""

    x: np.ndarray
    y: np.ndarray
    reach: dict[str, dict[int, int]]

    def __len__(self) -> int:
        return len(self.x)


def contact_plan(
    charge: Charge, z: Zones, first: str, foe: str, deadline: float, seed: int = 0
) -> ContactPlan | None:
    """The most enemy models engaged, then base contacts, the packing finds over the models'
    contact spots, the first model kept to spots touching `foe` (None if it finds none in
    its work)."""
    ids = [m.id for m in charge.unit.models]
    where: dict[tuple[float, float], int] = {}
    xs: list[float] = []
    ys: list[float] = []
    touched: list[tuple[str, ...]] = []
    owns: list[dict[int, int]] = []
    for mid in ids:
        sp = charge.spots[mid]
        mine: dict[int, int] = {}
        for i, touches in enumerate(sp.touches):
            if not touches or (mid == first and foe not in touches):
                continue
            key = (round(float(sp.x[i]), 4), round(float(sp.y[i]), 4))
            if key not in where:
                where[key] = len(xs)
                xs.append(key[0])
                ys.append(key[1])
                touched.append(touches)
            mine.setdefault(where[key], i)
        owns.append(mine)
    if not xs:
        return None
    allowed = np.zeros((len(ids), len(xs)), bool)
    for row, mine in enumerate(owns):
        allowed[row, list(mine)] = True
    stride = -(-len(xs) // MAX_PLAN_SPOTS)
    if stride > 1:
        allowed[:, np.arange(len(xs)) % stride != 0] = False
    base_of = np.array([z.model_base[mid] for mid in ids])
    inner = np.array(z.inner)
    widest = np.where(allowed, inner[base_of][:, None], -1.0)
    spot_base = base_of[widest.argmax(axis=0)]
    foes = sorted({e for t in touched for e in t})
    touches = np.array([[e in t for e in foes] for t in touched], bool).reshape(len(xs), len(foes))
    weight = len(ids) + 1
    work = (min(deadline, clock.now() + 5.0), PLAN_DTIME, seed)
    chosen = pack_points(
        cl.points(np.array(xs), np.array(ys)),
        allowed,
        spot_base,
        z,
        work,
        weight * len(foes) + len(ids),
        1,
        overlap_in=-APART_IN,
        touches=touches,
        touch_weight=weight,
    )
    if chosen is None or not len(chosen):
        return None
    keep = set(int(q) for q in chosen)
    order = sorted(keep)
    index = {q: k for k, q in enumerate(order)}
    reach = {
        mid: {index[q]: i for q, i in mine.items() if q in keep and allowed[row, q]}
        for row, (mid, mine) in enumerate(zip(ids, owns, strict=True))
    }
    return ContactPlan(np.array(xs)[order], np.array(ys)[order], reach)
