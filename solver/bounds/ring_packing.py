"""Ring-packing ceilings on base contacts and engagement: every model that ends touching a target
model has its centre in that model's contact ring, and every engaged model in a target's
engagement band. Cut the rings into short sectors and the bands into small squares, keep the
cells some centre could legally occupy (on the board, not wholly inside a wall, a base or a
non-target's range) and that the model can reach along a legal path, and forbid two models
in cells so close that their bases must overlap. The most models such a packing places is an
upper bound on each term, and unlike the straight-line ceilings it sees that a horde cannot
all squeeze into the front of a target unit or walk through a screen.

Every test loosens: cells are supersets, zones are drawn inside the true ones, overlaps are
judged from the cells' farthest points, and path lengths are lower bounds (see
`path_lower_bounds`). Round charging bases on one level only (elsewhere `None`)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Point

from chargeopt.geometry import Battlefield
from chargeopt.geometry.distance_matrix import pairs_within
from chargeopt.geometry.paths import SAME_LEVEL_IN
from chargeopt.models import RoundBase, Scenario
from chargeopt.solver.bounds import cells as cl
from chargeopt.solver.bounds.cell_reach import reachable, within_straight_reach
from chargeopt.solver.bounds.relaxation_zones import GROW, QUAD_SEGS, Zones
from chargeopt.solver.core import clock
from chargeopt.solver.core.cpsat_blocks import clique_cover
from chargeopt.solver.core.lazy_ortools import cp_model

ARC_IN = 0.02
"""Arc length of a contact ring's sectors."""
FINE_ARCS_IN = (0.01, 0.005)
"""Shorter sectors, tried in turn on a unit of up to `FINE_MAX_MODELS` models while the
contact ceiling stays above the answer: the paths' lower bounds lose the sectors' half width
and their obstacles shrink by it, and where the last model is held out of contact by under a
tenth of an inch that decides it (a random charge of five marines: 3 at 0.02", 2, the answer,
at 0.01", in 0.3 s). On the hordes it changes nothing and costs a second or more; it runs only
where no other ceiling closes the count (curated-v1 k3, closed by the split-unit ceiling, would
spend 7.5 s on it)."""
FINE_MAX_MODELS = 10
MAX_FINE_CELLS = 1_500
"""More reachable shorter sectors than this are not packed: the packing's work grows faster
than its cells (around three target marines all in reach: 1,356 sectors of 0.01" pack in
1.1 s, 2,713 of 0.005" in 4.3 s)."""
SQUARE_IN = 0.1
"""Side of an engagement band's squares."""
MAX_CELLS = 12_000
"""More reachable cells than this are not packed: the conflict matrix is quadratic."""
CONTACT_DTIME = 1.0
"""CP-SAT's deterministic work allowed to the contact packing: every one on the benchmark
suites settles in 0.06 or less (scaling-v1 c30-open-s2 the most), so this leaves 18 times
that, and it stops where the work says, not the clock, so the bound does not depend on the
machine's load."""
BAND_ARC_IN = 0.05
"""Arc length of the engagement band's sectors for a unit of up to `FINE_MAX_MODELS` models.
Where a base is wider than the band is deep (32mm and up against a 1" range), two models in
one sector would overlap, and two sectors exclude each other by their farthest corners, so
around one target model the packing is nearly exact along the band, where squares of 0.1"
lose up to 0.28" on every pair: a random charge of seven marines (9th edition) is proven at
6 engaged with 5 in contact by the sectors, 7 by the squares. But a sector is as deep as the
band, and the paths' lower bounds lose a cell's radius, so behind a screen the squares see
more (curated-v1 k2: 3 by the squares, 5 by the sectors): a small unit gets both packings
and the lower bound. The hordes keep the squares alone: their sectors place every model that
reaches a band, as the squares' reach count already says (RESULTS.md)."""
MAX_BAND_CELLS = 1_000
BAND_DTIME = 0.5
"""An engagement band with more reachable squares than this is not packed, nor with more
deterministic work than `BAND_DTIME` (measured on scaling-v1: bands of 2,000 to 3,500
reachable squares did not settle in 30 s, nor proved less than the reach count; curated-v1
k2's 286 settle at once); the count of models that reach the band at all still bounds
engagement."""

PACKING_SEARCH = {
    "cp_model_presolve": False,
    "cp_model_probing_level": 0,
    "use_sat_inprocessing": False,
}
"""As for the packings over the candidates (`forty_k.charge_packing._packing_solver`): one
worker without presolve, probing or inprocessing halves the contact packing's time on the
hordes (0.3 s to 0.15 s, most of it loading the model)."""
MARGIN_IN = 1e-4
"""How far apart a point packing (a placement, not a bound) keeps every two bases."""


@dataclass(frozen=True)
class RingCeilings:
    """The ring packing's ceiling on each term it packed (None where it proved nothing), and
    the charging models that reach no target's engagement band along a legal path (None when
    engagement was not packed)."""

    bounds: dict[str, int | None]
    beyond_reach: tuple[str, ...] | None = None


def ring_packing_ceilings(
    scenario: Scenario,
    battlefield: Battlefield,
    z: Zones,
    roll: float,
    deadline: float,
    seed: int = 0,
    found_contact: int = 0,
    ceilings: dict[str, int] | None = None,
    contact_known: int | None = None,
) -> RingCeilings | None:
    """Upper bounds on base contacts, and on engaged models among placements with at least
    `found_contact` base contacts, at `roll`, for each term of `ceilings` (the bounds known
    so far, which a packing that reaches them stops at; both terms if None). A term is None
    when its packing is too large or proves nothing within its deterministic work or before
    `deadline` (a hard cap); the whole is None when the scenario is outside this bound's
    reach (non-round bases, several levels, floors, the WTC wall rule). `contact_known` is
    the contact term's packing already solved (`contact_ceiling`, same roll and ceiling)."""
    if not applies(scenario, battlefield):
        return None
    cells, base_of, allowed = contact_reach(scenario, battlefield, z, roll)
    n = len(scenario.acting_unit.models)
    known = ceilings if ceilings is not None else {"base_contact": n, "engaged": n}
    out: dict[str, int | None] = {}
    if "base_contact" in known:
        top = known["base_contact"]
        work = (deadline, CONTACT_DTIME, seed)
        out["base_contact"] = (
            pack(cells, allowed, base_of, z, work, MAX_CELLS, top)
            if contact_known is None
            else contact_known
        )
    if "engaged" not in known:
        return RingCeilings(out)
    band, band_base = _band_cells(z)
    near = within_straight_reach(scenario, z, roll, band, band_base)
    ids = [m.id for m in scenario.acting_unit.models]
    if near.any(axis=0).sum() > MAX_BAND_CELLS:
        reaches = reachable(scenario, battlefield, z, roll, band, near, nearest_only=True)
        out["engaged"] = int(reaches.any(axis=1).sum())
        return RingCeilings(out, _beyond(ids, reaches))
    band_allowed = reachable(scenario, battlefield, z, roll, band, near)
    out["engaged"] = int(band_allowed.any(axis=1).sum())
    contact = (cells, allowed, base_of)
    work = (deadline, BAND_DTIME, seed)
    bands = [(band, band_allowed, band_base)]
    if n <= FINE_MAX_MODELS:
        sectors, sector_base = ring_sectors(z, False, BAND_ARC_IN)
        near = within_straight_reach(scenario, z, roll, sectors, sector_base)
        if near.any(axis=0).sum() <= MAX_BAND_CELLS:
            sector_allowed = reachable(scenario, battlefield, z, roll, sectors, near)
            bands.append((sectors, sector_allowed, sector_base))
    for cut in bands:
        packed = _pack_band(
            contact, cut, z, work, min(known["engaged"], out["engaged"]), found_contact
        )
        if packed is not None:
            out["engaged"] = min(out["engaged"], packed)
    return RingCeilings(out, _beyond(ids, band_allowed))


def _pack_band(
    contact: tuple[cl.Cells, np.ndarray, np.ndarray],
    band: tuple[cl.Cells, np.ndarray, np.ndarray],
    z: Zones,
    work: tuple[float, float, int],
    ceiling: int,
    found_contact: int,
) -> int | None:
    """The engagement packing over one cut of the bands (cells, who reaches which, base kinds)
    together with the contact rings, keeping at least `found_contact` models in contact."""
    (cells, allowed, base_of), (band, band_allowed, band_base) = contact, band
    counted = np.arange(len(cells) + len(band)) < len(cells)
    return pack(
        cl.concat([cells, band]),
        np.hstack([allowed, band_allowed]),
        np.concatenate([base_of, band_base]),
        z,
        work,
        MAX_BAND_CELLS,
        ceiling,
        counted,
        found_contact,
    )


def _beyond(ids: list[str], allowed: np.ndarray) -> tuple[str, ...]:
    return tuple(m for m, ok in zip(ids, allowed.any(axis=1), strict=True) if not ok)


def contact_ceiling(
    scenario: Scenario,
    battlefield: Battlefield,
    z: Zones,
    roll: float,
    deadline: float,
    seed: int,
    top: int,
    arc_in: float = ARC_IN,
    max_cells: int = MAX_CELLS,
) -> int | None:
    """The contact term of `ring_packing_ceilings` alone, on sectors `arc_in` long (None where
    it proves nothing, has more than `max_cells` reachable sectors or does not apply)."""
    if not applies(scenario, battlefield):
        return None
    cells, base_of, allowed = contact_reach(scenario, battlefield, z, roll, arc_in)
    return pack(cells, allowed, base_of, z, (deadline, CONTACT_DTIME, seed), max_cells, top)


def finer_contact_ceiling(
    scenario: Scenario,
    battlefield: Battlefield,
    z: Zones,
    roll: float,
    deadline: float,
    seed: int,
    ceiling: int,
    found: int,
) -> int | None:
    """The contact ceiling packed again on shorter sectors (`FINE_ARCS_IN`) while it is above
    `found`, for a unit of up to `FINE_MAX_MODELS` models with no more than `MAX_FINE_CELLS`
    reachable sectors: the lowest proven, or None where it does not apply."""
    if len(scenario.acting_unit.models) > FINE_MAX_MODELS or not applies(scenario, battlefield):
        return None
    for arc in FINE_ARCS_IN:
        if ceiling <= found or clock.now() >= deadline:
            break
        packed = contact_ceiling(
            scenario, battlefield, z, roll, deadline, seed, ceiling, arc, MAX_FINE_CELLS
        )
        if packed is None:
            break
        ceiling = min(ceiling, packed)
    return ceiling


def contact_reach(
    scenario: Scenario, battlefield: Battlefield, z: Zones, roll: float, arc_in: float = ARC_IN
) -> tuple[cl.Cells, np.ndarray, np.ndarray]:
    """The contact rings' sectors (`arc_in` long), each one's base kind, and which models reach
    which."""
    cells, base_of = ring_sectors(z, True, arc_in)
    near = within_straight_reach(scenario, z, roll, cells, base_of)
    return cells, base_of, reachable(scenario, battlefield, z, roll, cells, near)


def applies(scenario: Scenario, battlefield: Battlefield) -> bool:
    """Whether the ring packing covers the scenario: round bases on one level, no floors, not
    the WTC wall rule."""
    rules = scenario.rules
    if rules.wtc_walls or battlefield.floors:
        return False
    if any(abs(m.z) >= SAME_LEVEL_IN for u in scenario.units for m in u.models):
        return False
    unit = scenario.acting_unit
    targets = [scenario.unit_by_id[t] for t in scenario.action.targets]
    return all(isinstance(u.base_of(m), RoundBase) for u in (unit, *targets) for m in u.models)


def ring_sectors(z: Zones, contact: bool, arc_in: float) -> tuple[cl.Cells, np.ndarray]:
    """Sectors `arc_in` long of every contact ring (`contact`) or engagement band (each the
    whole depth of its ring) that a centre may legally occupy, with each one's base kind."""
    parts, bases = [], []
    for g, r in enumerate(z.rings):
        if r.contact != contact:
            continue
        count = max(8, math.ceil(2 * math.pi * r.rho1 / arc_in))
        s = cl.sectors((r.x, r.y), r.rho0, r.rho1, count, g)
        keep = _open(s.polygons, z, r.base)
        parts.append(cl.subset(s, keep))
        bases.append(np.full(int(keep.sum()), r.base))
    return cl.concat(parts), _join(bases)


def _band_cells(z: Zones) -> tuple[cl.Cells, np.ndarray]:
    """Squares meeting some target model's engagement band (of a base kind) that a centre may
    legally occupy, with each one's base kind."""
    parts, bases = [], []
    for b in range(len(z.bases)):
        band = shapely.union_all(
            [
                Point(r.x, r.y).buffer(r.rho1 * GROW, quad_segs=QUAD_SEGS)
                for r in z.rings
                if not r.contact and r.base == b
            ]
        )
        if band.is_empty:
            continue
        x0, y0, x1, y1 = band.bounds
        s = cl.squares(x0, y0, x1, y1, SQUARE_IN)
        polys = s.polygons
        keep = shapely.intersects(polys, band) & _open(polys, z, b)
        parts.append(cl.subset(s, keep))
        bases.append(np.full(int(keep.sum()), b))
    return cl.concat(parts), _join(bases)


def _open(polys: np.ndarray, z: Zones, b: int) -> np.ndarray:
    """Cells that meet the board's allowed area and are not wholly inside a forbidden zone."""
    keep = shapely.intersects(polys, z.board_ok[b])
    for zone in z.forbidden[b].values():
        keep &= ~shapely.covered_by(polys, zone)
    return keep


def _join(parts: list[np.ndarray]) -> np.ndarray:
    return np.concatenate(parts) if parts else np.empty(0, int)


def pack(
    cells: cl.Cells,
    allowed: np.ndarray,
    base_of: np.ndarray,
    z: Zones,
    work: tuple[float, float, int],
    max_cells: int,
    ceiling: int,
    counted: np.ndarray | None = None,
    at_least: int = 0,
    touches: np.ndarray | None = None,
) -> int | None:
    """Most models placed one per cell they are `allowed`, no two in cells whose points are
    all closer than their bases allow (maximal cliques of such cells, at most one each), at
    least `at_least` of them in `counted` cells, up to `ceiling` (known already, so reaching
    it ends the search): CP-SAT's proven bound, or None if it proves nothing within `work`
    (deadline, deterministic time, seed) or more than `max_cells` cells are reachable. Cells
    that the same models reach form one class, and models are assigned to classes rather
    than cells (the same packings, far fewer variables). With `touches` (cells by target
    models a centre in the cell may touch) it counts the target models touched instead, one
    model possibly several."""
    if not allowed.any():
        return 0
    limits = {
        "max_cells": max_cells,
        "ceiling": ceiling,
        "overlap_in": z.base_overlap_in + cl.EPS_IN,
    }
    solved = _solve_packing(
        cells, allowed, base_of, z, work, counted, at_least, touches=touches, **limits
    )
    if solved is None:
        return None
    solver, _, _ = solved
    return math.floor(solver.BestObjectiveBound() + 1e-6)


def pack_points(
    points: cl.Cells,
    allowed: np.ndarray,
    base_of: np.ndarray,
    z: Zones,
    work: tuple[float, float, int],
    ceiling: int,
    at_least: int,
    *,
    counted: np.ndarray | None = None,
    counted_at_least: int = 0,
    overlap_in: float = -MARGIN_IN,
    max_points: int | None = None,
    touches: np.ndarray | None = None,
    touch_weight: int = 0,
) -> np.ndarray | None:
    """The points (cells of no extent) of the largest packing found with at least `at_least`
    models, up to `ceiling`, at least `counted_at_least` of them on `counted` points, where no
    two bases overlap by more than `overlap_in` (by default they stay apart): indices into
    `points`, or None if none is found within `work` or more than `max_points` are reachable.
    A placement (or, with an overlap, a start for one), not a bound. `touches` and
    `touch_weight` score it as `_solve_packing` says (`ceiling` then bounds the score)."""
    limits = {
        "max_cells": len(points) if max_points is None else max_points,
        "ceiling": ceiling,
        "overlap_in": overlap_in,
    }
    solved = _solve_packing(
        points,
        allowed,
        base_of,
        z,
        work,
        counted,
        counted_at_least,
        at_least_total=at_least,
        touches=touches,
        touch_weight=touch_weight,
        **limits,
    )
    if solved is None:
        return None
    solver, y, used = solved
    return used[[k for k, v in enumerate(y) if solver.Value(v) > 0]]


def _solve_packing(
    cells: cl.Cells,
    allowed: np.ndarray,
    base_of: np.ndarray,
    z: Zones,
    work: tuple[float, float, int],
    counted: np.ndarray | None = None,
    at_least: int = 0,
    *,
    max_cells: int,
    ceiling: int,
    overlap_in: float,
    at_least_total: int = 0,
    touches: np.ndarray | None = None,
    touch_weight: int = 0,
) -> tuple[cp_model.CpSolver, list, np.ndarray] | None:
    """The packing of `pack` with bases allowed to overlap by `overlap_in` (negative: kept
    that far apart), solved: (solver, occupancy per used cell, the used cells' indices), or
    None when it is too large, out of time, or finds nothing. With `touches` (cells by
    groups) it counts the groups some occupied cell touches instead of the models, or with a
    `touch_weight` that many times the groups plus the models."""
    used = np.flatnonzero(allowed.any(axis=0))
    deadline, dtime, seed = work
    seconds = deadline - clock.now()
    if len(used) > max_cells or seconds <= 0 or len(used) < at_least_total:
        return None
    sub, bases = cl.subset(cells, used), base_of[used]
    inner = np.asarray(z.inner)
    model = cp_model.CpModel()
    n = allowed.shape[0]
    alone = sub.diameter_in < 2 * inner[bases] - overlap_in
    y = [
        model.NewBoolVar(f"y{k}") if alone[k] else model.NewIntVar(0, n, f"y{k}")
        for k in range(len(sub))
    ]
    signatures, cls = np.unique(allowed[:, used].T, axis=0, return_inverse=True)
    cls = cls.ravel()
    per_model: dict[int, list] = {}
    for s_id, reached_by in enumerate(signatures):
        f = {int(i): model.NewBoolVar(f"f{i}_{s_id}") for i in np.flatnonzero(reached_by)}
        members = np.flatnonzero(cls == s_id)
        model.Add(cp_model.LinearExpr.Sum(list(f.values())) == _total(y, members))
        for i, v in f.items():
            per_model.setdefault(i, []).append(v)
    for vs in per_model.values():
        model.AddAtMostOne(vs)
    centres = sub.centres
    pairs = pairs_within(centres[:, 0], centres[:, 1], 2 * float(inner.max()) + MARGIN_IN)
    pairs = pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))]
    if len(pairs):
        limit = inner[bases[pairs[:, 0]]] + inner[bases[pairs[:, 1]]] - overlap_in
        pairs = pairs[cl.closer_than(sub, pairs[:, 0], pairs[:, 1], limit)]
    for members in clique_cover(pairs, len(sub), centres[:, 0], centres[:, 1]):
        if alone[members].all():
            model.AddAtMostOne([y[int(k)] for k in members])
        else:
            model.Add(_total(y, members) <= 1)
    if counted is not None and at_least:
        model.Add(_total(y, np.flatnonzero(counted[used])) >= at_least)
    if at_least_total:
        model.Add(cp_model.LinearExpr.Sum(y) >= at_least_total)
    score = cp_model.LinearExpr.Sum(y)
    if touches is not None:
        touched = _touched(model, y, touches[used])
        score = touched if not touch_weight else touch_weight * touched + score
    model.Add(score <= ceiling)
    model.Maximize(score)
    solver = cp_model.CpSolver()
    for name, value in PACKING_SEARCH.items():
        setattr(solver.parameters, name, value)
    status = clock.run(solver, model, seconds, seed=seed, dtime=dtime, where="ring packing")
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return solver, y, used


def _touched(model: cp_model.CpModel, y: list, touches: np.ndarray) -> cp_model.LinearExpr:
    """The count of groups (columns of `touches`) that some occupied cell touches."""
    hit = []
    for g in range(touches.shape[1]):
        members = np.flatnonzero(touches[:, g])
        if len(members):
            z = model.NewBoolVar(f"touched{g}")
            model.Add(z <= _total(y, members))
            hit.append(z)
    return cp_model.LinearExpr.Sum(hit)


def _total(y: list, members: np.ndarray) -> cp_model.LinearExpr:
    return cp_model.LinearExpr.Sum([y[int(k)] for k in members])
