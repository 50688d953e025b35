"""The model-by-model move into base contact shared by the reinforcement move and consolidation:
nearest model first, each to the shortest spot in base contact (an enemy model not yet engaged
before an engaged one) that keeps the unit in coherency; with `approach` (the reinforcement
move), a model that cannot reach contact moves as close as it can (`approach.py`). Passes
repeat until none moves (a model out of contact may move again from its start as mates move).

Spots are dense rings (`RING_STEP_DEG`) at `CONTACT_GAP_IN` around each enemy model, kept on
the board, `MARGIN_IN` off terrain and `APART_IN` off every other base."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from chargeopt.geometry import Battlefield, Footprint
from chargeopt.geometry.distance_matrix import edge_distances
from chargeopt.models import Placement, Result, RoundBase, Scenario, Status, Unit
from chargeopt.solver.assault_4e.answer import answer
from chargeopt.solver.assault_4e.approach import closest_spot, keeps_coherency, open_ground
from chargeopt.solver.assault_4e.close_in_bound import close_in_ceilings
from chargeopt.solver.core.coherency_constraints import one_group
from chargeopt.solver.core.exact_limits import PRINTED, Margins
from chargeopt.solver.core.polish import Pose
from chargeopt.solver.core.tolerances import (
    APART_IN,
    CONTACT_GAP_IN,
    JSON_DECIMALS,
    PAIR_KEPT_IN,
)

RING_STEP_DEG = 1.0
MAX_PASSES = 12
Lengths = Callable[[str, np.ndarray, np.ndarray], np.ndarray]
"""Move lengths of a model to ends (x, y); inf where it cannot go."""
Around = Callable[[str, dict[str, Footprint], np.ndarray, np.ndarray], np.ndarray]
"""Move lengths of a model to ends (x, y) round the unit mates standing (by id)."""


def close_in(
    scenario: Scenario,
    battlefield: Battlefield,
    foes: list[Unit],
    movers: list[str],
    lengths: Lengths,
    limit_in: float,
    stats: dict[str, object],
    *,
    reach_in: dict[str, float],
    approach: bool = False,
    around: Around | None = None,
    margins: Margins = PRINTED,
) -> Result:
    """Moves `movers` (nearest to `foes` first) into base contact within `limit_in` where they
    can; the others stay, or with `approach` get as close as they can. `optimal` where the
    answer meets the ceilings of `close_in_bound.py` (`reach_in`: how far each model may
    move under the rules). `around`: lengths along paths round the unit mates standing at
    that moment (consolidation; a reinforcement move passes through models). `margins`: kept
    inside the move and coherency (`exact_limits.py`)."""
    t0 = time.perf_counter()
    unit = scenario.acting_unit
    pos = {m.id: Footprint(unit.base_of(m), m.x, m.y, m.z, m.facing) for m in unit.models}
    start = {mid: (fp.x, fp.y) for mid, fp in pos.items()}
    foe_fps = [Footprint(u.base_of(m), m.x, m.y, m.z, m.facing) for u in foes for m in u.models]
    foe_ids = [m.id for u in foes for m in u.models]
    others = [
        Footprint(u.base_of(m), m.x, m.y, m.z, m.facing)
        for u in scenario.units
        if u.id != unit.id
        for m in u.models
    ]
    moved: dict[str, float] = {}
    engaged = {e for mid in pos for e in _touching(pos[mid], foe_fps, foe_ids, scenario)}
    coherent_at_start = _coherent(scenario, pos)
    waiting = sorted(movers, key=lambda mid: _gap_to(pos[mid], foe_fps))
    order: list[str] = []
    progress = True
    passes = 0
    while progress and waiting and foe_fps and passes < MAX_PASSES:
        progress = False
        passes += 1
        for mid in list(waiting):
            spot = _best_spot(
                scenario,
                battlefield,
                mid,
                pos,
                others,
                foe_fps,
                foe_ids,
                engaged,
                lengths,
                limit_in,
                coherent_at_start,
                around,
                margins,
            )
            if spot is not None:
                x, y, length, touched = spot
                engaged |= set(touched)
                waiting.remove(mid)
            elif approach:
                near = closest_spot(
                    scenario,
                    battlefield,
                    mid,
                    start[mid],
                    pos,
                    others,
                    foe_fps,
                    lambda xs, ys, mid=mid: lengths(mid, xs, ys),
                    limit_in,
                    coherent_at_start,
                )
                if near is None:
                    continue
                x, y, length, _ = near
            else:
                continue
            pos[mid] = Footprint(pos[mid].base, x, y, pos[mid].z, pos[mid].facing)
            moved[mid] = length
            if mid not in order:
                order.append(mid)
            progress = True
    poses = {mid: Pose(fp.x, fp.y, fp.z, fp.facing, moved.get(mid, 0.0)) for mid, fp in pos.items()}
    stats["stayed"] = [m for m in waiting if m not in moved]
    stats["out_of_contact"] = list(waiting)
    stats["seconds"] = round(time.perf_counter() - t0, 3)

    def contacts(p: Placement) -> tuple[str, ...]:
        fp = Footprint(pos[p.model].base, p.x, p.y, p.z, pos[p.model].facing)
        return _touching(fp, foe_fps, foe_ids, scenario)

    ceilings = close_in_ceilings(scenario, battlefield, foes, reach_in)
    stats["bound_scope"] = "continuous"
    result = answer(
        scenario,
        battlefield,
        poses,
        status=Status.FEASIBLE,
        order=order,
        bound=dict(ceilings),
        stats=stats,
        contacts=contacts,
    )
    if all(result.objective.get(k, 0) >= v for k, v in ceilings.items()):
        return result.model_copy(update={"status": Status.OPTIMAL})
    return result


def _best_spot(
    scenario: Scenario,
    battlefield: Battlefield,
    mid: str,
    pos: dict[str, Footprint],
    others: list[Footprint],
    foe_fps: list[Footprint],
    foe_ids: list[str],
    engaged: set[str],
    lengths: Lengths,
    limit_in: float,
    coherent_at_start: bool,
    around: Around | None = None,
    margins: Margins = PRINTED,
) -> tuple[float, float, float, tuple[str, ...]] | None:
    """The shortest legal contact spot of `mid`, preferring an enemy model not yet engaged."""
    fp = pos[mid]
    if not isinstance(fp.base, RoundBase):
        return None
    angles = np.radians(np.arange(0.0, 360.0, RING_STEP_DEG))
    best: tuple[tuple[int, float], tuple[float, float, float, tuple[str, ...]]] | None = None
    mates = [p for m, p in pos.items() if m != mid]
    for foe, foe_id in zip(foe_fps, foe_ids, strict=True):
        if not foe.is_round:
            continue
        d = fp.base.radius_in + foe.radius_in + CONTACT_GAP_IN
        xs = np.round(foe.x + d * np.cos(angles), JSON_DECIMALS)
        ys = np.round(foe.y + d * np.sin(angles), JSON_DECIMALS)
        length = lengths(mid, xs, ys)
        ok = (length <= limit_in - margins.one_in) & open_ground(scenario, battlefield, mid, xs, ys)
        blockers = [o for o in [*others, *mates] if o is not foe]
        if blockers and ok.any():
            facing = np.full(len(xs), fp.facing)
            ok &= (edge_distances(fp.base, xs, ys, facing, blockers) >= APART_IN).all(axis=1)
        if coherent_at_start and mates and ok.any():
            facing = np.full(int(ok.sum()), fp.facing)
            link = scenario.rules.coherency_range_in - margins.pair_in
            to_mates = edge_distances(fp.base, xs[ok], ys[ok], facing, mates) <= link
            ok[ok] = keeps_coherency(scenario, mates, to_mates, link)
        if around is not None and ok.any():
            standing = {m: p for m, p in pos.items() if m != mid}
            length = length.copy()
            length[ok] = around(mid, standing, xs[ok], ys[ok])
            ok &= length <= limit_in - margins.one_in
        if not ok.any():
            continue
        k = int(np.flatnonzero(ok)[np.argmin(length[ok])])
        rank = (0 if foe_id not in engaged else 1, float(length[k]))
        if best is None or rank < best[0]:
            end = Footprint(fp.base, float(xs[k]), float(ys[k]), fp.z, fp.facing)
            touched = _touching(end, foe_fps, foe_ids, scenario)
            best = (rank, (end.x, end.y, float(length[k]), touched))
    return None if best is None else best[1]


def _touching(
    fp: Footprint, foe_fps: list[Footprint], foe_ids: list[str], scenario: Scenario
) -> tuple[str, ...]:
    """The foe models a base touches (within the base contact tolerance)."""
    if not foe_fps:
        return ()
    gaps = edge_distances(
        fp.base, np.array([fp.x]), np.array([fp.y]), np.array([fp.facing]), foe_fps
    )
    tol = scenario.rules.base_contact_tolerance_in - 0.001
    return tuple(foe_ids[j] for j in np.flatnonzero(gaps[0] <= tol))


def _gap_to(fp: Footprint, foe_fps: list[Footprint]) -> float:
    if not foe_fps:
        return 0.0
    gaps = edge_distances(
        fp.base, np.array([fp.x]), np.array([fp.y]), np.array([fp.facing]), foe_fps
    )
    return float(gaps.min())


def _coherent(scenario: Scenario, pos: dict[str, Footprint]) -> bool:
    """Every model has its neighbours within coherency (with `PAIR_KEPT_IN` to spare) and the
    unit is one group."""
    fps = list(pos.values())
    if len(fps) < 2:
        return True
    rules = scenario.rules
    gaps = np.vstack(
        [
            edge_distances(f.base, np.array([f.x]), np.array([f.y]), np.array([f.facing]), fps)[0]
            for f in fps
        ]
    )
    np.fill_diagonal(gaps, np.inf)
    links = gaps <= rules.coherency_range_in - PAIR_KEPT_IN
    if (links.sum(axis=1) < rules.coherency_neighbours(len(fps))).any():
        return False
    return one_group(links)


def in_contact_with(scenario: Scenario, model_id: str, foes: list[Unit]) -> bool:
    """Whether the acting unit's model `model_id` starts in base contact with a model of `foes`."""
    unit, m = scenario.model_index[model_id]
    fp = Footprint(unit.base_of(m), m.x, m.y, m.z, m.facing)
    foe_fps = [Footprint(u.base_of(f), f.x, f.y, f.z, f.facing) for u in foes for f in u.models]
    return bool(_touching(fp, foe_fps, [f.id for u in foes for f in u.models], scenario))
