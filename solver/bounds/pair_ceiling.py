"""A ceiling on engagement from pairs of models: each charging model can end within engagement
range only inside its exact region (`engagement_regions`); two models whose regions are nowhere
farther apart than their bases need cannot both be engaged. The most models no two of which
clash is then a ceiling anywhere on the table. It settles charges where the few models that
reach engagement range reach it only in slivers, thinner than any cell of the relaxation."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely

from chargeopt.geometry import Battlefield
from chargeopt.models import Scenario
from chargeopt.solver.bounds.engagement_regions import MARGIN_IN, engagement_regions
from chargeopt.solver.bounds.ring_packing import applies
from chargeopt.solver.core import clock
from chargeopt.solver.core.lazy_ortools import cp_model

SECONDS = 1.0
"""Cap on the independent-set solve; stopped early, its proven bound still holds."""


@dataclass(frozen=True)
class Clash:
    """Two models whose engagement regions are at most `farthest_in` apart, centre to centre,
    where their bases need `needed_in`."""

    first: str
    second: str
    farthest_in: float
    needed_in: float


@dataclass(frozen=True)
class PairCeiling:
    """The ceiling on engaged models, the models that can reach engagement range at all, and
    the pairs that cannot both be there."""

    engaged: int
    capable: tuple[str, ...]
    clashes: tuple[Clash, ...]


def pair_ceiling(
    scenario: Scenario, battlefield: Battlefield, roll: float, seed: int = 0
) -> PairCeiling | None:
    """The pairwise ceiling on engaged models at `roll`; None outside the ring packing's scope
    (round bases on one level, no floors, not the WTC wall rule)."""
    if not applies(scenario, battlefield):
        return None
    tolerance = scenario.rules.base_overlap_tolerance_in
    regions = engagement_regions(scenario, roll, outer=True)
    capable = tuple(regions)
    hulls = {
        mid: np.asarray(shapely.get_coordinates(g.area.convex_hull)) for mid, g in regions.items()
    }
    clashes = []
    for i, a in enumerate(capable):
        for b in capable[i + 1 :]:
            needed = regions[a].radius_in + regions[b].radius_in - tolerance
            farthest = _farthest(hulls[a], hulls[b], needed - MARGIN_IN)
            if farthest is not None:
                clashes.append(Clash(a, b, farthest, needed))
    return PairCeiling(_most_apart(capable, clashes, seed), capable, tuple(clashes))


def _farthest(a: np.ndarray, b: np.ndarray, needed: float) -> float | None:
    """The largest distance between corners of the two hulls (that of the regions) when it is
    below `needed`; None when two points of theirs are at least that far apart."""
    if np.hypot(*(a - b[0]).T).max() >= needed or np.hypot(*(b - a[0]).T).max() >= needed:
        return None
    farthest = float(np.sqrt(((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=2)).max())
    return farthest if farthest < needed else None


def _most_apart(capable: tuple[str, ...], clashes: list[Clash], seed: int) -> int:
    """The most capable models with no clashing pair among them (CP-SAT; its proven bound if
    it stops early)."""
    if not clashes:
        return len(capable)
    model = cp_model.CpModel()
    x = {mid: model.NewBoolVar(mid) for mid in capable}
    for c in clashes:
        model.AddBoolOr([x[c.first].Not(), x[c.second].Not()])
    model.Maximize(sum(x.values()))
    solver = cp_model.CpSolver()
    status = clock.run(solver, model, SECONDS, seed=seed, where="pair ceiling")
    if solver.StatusName(status) not in ("OPTIMAL", "FEASIBLE"):
        return len(capable)
    return min(len(capable), math.floor(solver.BestObjectiveBound() + 1e-9))
