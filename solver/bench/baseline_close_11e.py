"""The 40k-11e pile in and consolidation as the public engines' "auto pile-in" buttons make
them: the mode the rules name first (pile in: the enemy units engaged, else the nearest within
5"; consolidation: ongoing, engaging the nearest unit within 3", or the nearest objective within
3"), models in base contact left where they stand, every other model (nearest first) snapped to
the nearest free spot 0, 0.25, 0.5 or 0.9" from its closest selected enemy model within 3", else
engaged, else straight toward it; toward an objective, onto the marker. It proves nothing and
is judged by the checker like any answer."""

from __future__ import annotations

import math
import time

import shapely

from chargeopt.geometry import edge_distance
from chargeopt.models import (
    ActionKind,
    GameModel,
    Result,
    ResultAction,
    Scenario,
    Status,
    UnsupportedRuleError,
)
from chargeopt.solver.bench.baseline_11e import (
    APART_IN,
    ENGAGED_GAPS_IN,
    ROLL_KEPT_IN,
    SNAP_GAPS_IN,
    _placements,
    _Spot,
    _Table,
    best_spot,
    footprint,
    straight_on,
    unit_gap_in,
)

CLOSE_MOVE_IN = 3
"""A pile in or consolidation moves up to 3"."""
PILE_IN_REACH_IN = 5.0
"""Unengaged, a pile in selects units within 5"."""
CONSOLIDATION_REACH_IN = 3.0
"""Engaging and objective consolidation apply within 3"."""
TOUCH_IN = 0.005
"""A base this close to an enemy base touches it (base contact: it may not move)."""
MARKER_RADIUS_KEPT_IN = 0.05
"""A spot on a marker overlaps it by this much."""


def selection(scenario: Scenario) -> tuple[str, tuple[str, ...], str | None]:
    """(mode, the selected enemy units, the objective id) the rules name first."""
    actor = scenario.acting_unit
    engagement = scenario.rules.engagement_range_in
    gaps = {
        u.id: unit_gap_in(scenario, actor.id, u.id)
        for u in scenario.units
        if u.owner != actor.owner
    }
    engaged = tuple(uid for uid, gap in gaps.items() if gap <= engagement)
    nearest = sorted((gap, uid) for uid, gap in gaps.items())
    if scenario.action.kind == ActionKind.PILE_IN:
        if engaged:
            return "pile-in", engaged, None
        return "pile-in", tuple(u for g, u in nearest[:1] if g <= PILE_IN_REACH_IN), None
    if engaged:
        return "ongoing", engaged, None
    if nearest and nearest[0][0] <= CONSOLIDATION_REACH_IN:
        return "engaging", (nearest[0][1],), None
    start = [footprint(actor, m) for m in actor.models]
    markers = sorted(
        (
            min(math.hypot(f.x - o.x, f.y - o.y) - f.base.circumradius_in for f in start) - _r(o),
            o.id,
        )
        for o in scenario.objectives
    )
    if markers and markers[0][0] <= CONSOLIDATION_REACH_IN:
        return "objective", (), markers[0][1]
    return "none", (), None


def _r(marker) -> float:
    return marker.diameter_mm / 25.4 / 2


def solve_baseline_close_11e(scenario: Scenario) -> Result:
    """The engines' 11e pile in or consolidation: `feasible` with its placements, or `unknown`
    with the reason in stats."""
    t0 = time.perf_counter()
    if not scenario.rules.charge_targets_after_roll or scenario.action.kind not in (
        ActionKind.PILE_IN,
        ActionKind.CONSOLIDATE,
    ):
        raise UnsupportedRuleError("the close-move baseline piles in or consolidates under 40k-11e")
    mode, units, objective_id = selection(scenario)
    table = _Table(scenario, CLOSE_MOVE_IN, units)
    table.non_targets = []
    frozen = _frozen(table)
    for m in table.actor.models:
        if m.id in frozen or (not units and objective_id is None):
            table.ends[m.id], table.moved[m.id] = table.start(m), 0.0
    reason = None if mode != "none" else 'neither an enemy unit nor an objective is within 3"'
    moving = [m for m in table.actor.models if m.id not in table.ends]
    if units:
        moving.sort(key=lambda m: table.nearest_target_gap(table.start(m)))
    for m in moving:
        spot = _spot(table, m, scenario, objective_id)
        if spot is None:
            table.ends[m.id], table.moved[m.id] = table.start(m), 0.0
        else:
            table.ends[m.id] = footprint(table.actor, m, spot.x, spot.y)
            table.moved[m.id] = spot.moved
    placements = _placements(table)
    return Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=ResultAction.of(scenario.action, None),
        status=Status.UNKNOWN if reason else Status.FEASIBLE,
        objective={} if reason else _objective(table, objective_id),
        bound={},
        placements=placements,
        stats={
            "method": "baseline-11e",
            "mode": mode,
            "seconds": round(time.perf_counter() - t0, 3),
            **({"reason": reason} if reason else {}),
        },
    )


def _frozen(table: _Table) -> set[str]:
    """The models in base contact with an enemy model: they may not move."""
    enemies = [
        footprint(u, n)
        for u in table.scenario.units
        if u.owner != table.actor.owner
        for n in u.models
    ]
    return {
        m.id
        for m in table.actor.models
        if any(edge_distance(table.start(m), e) <= TOUCH_IN for e in enemies)
    }


def _spot(table: _Table, m: GameModel, scenario: Scenario, objective_id: str | None):
    """The engines' spot for a model that may move."""
    if objective_id is not None:
        return _onto_marker(table, m, scenario, objective_id)
    start = table.start(m)
    closest_unit = min(
        {uid for uid, _, _ in table.targets},
        key=lambda uid: min(edge_distance(start, f) for u, _, f in table.targets if u == uid),
    )
    mine = sorted(
        (f for uid, _, f in table.targets if uid == closest_unit),
        key=lambda f: edge_distance(start, f),
    )
    return (
        best_spot(table, m, mine[:1], SNAP_GAPS_IN)
        or best_spot(table, m, mine[:1], ENGAGED_GAPS_IN)
        or straight_on(table, m)
    )


def _onto_marker(table: _Table, m: GameModel, scenario: Scenario, objective_id: str):
    """The nearest free spot whose base overlaps the marker, else straight toward it."""
    marker = next(o for o in scenario.objectives if o.id == objective_id)
    start = table.start(m)
    reach = _r(marker) + start.base.circumradius_in - MARKER_RADIUS_KEPT_IN
    toward = math.atan2(start.y - marker.y, start.x - marker.x)
    spots = []
    for k in range(72):
        a = toward + 2 * math.pi * k / 72
        for r in (reach, reach / 2, 0.0):
            spots.append(
                (round(marker.x + r * math.cos(a), 3), round(marker.y + r * math.sin(a), 3))
            )
    spots.sort(key=lambda p: math.hypot(p[0] - start.x, p[1] - start.y))
    for x, y in spots:
        if math.hypot(x - start.x, y - start.y) > table.roll:
            break
        end = footprint(table.actor, m, x, y)
        if not _free_end(table, m, end):
            continue
        moved = table.reach(m, x, y)
        if moved <= table.roll - ROLL_KEPT_IN:
            return _Spot(x, y, moved)
    return None


def _free_end(table: _Table, m: GameModel, end) -> bool:
    """On the board, off every base standing, off walls and enclosed blocks."""
    board = table.battlefield
    r = end.base.circumradius_in
    if not (r <= end.x <= board.width - r and r <= end.y <= board.height - r):
        return False
    standing = [t for _, t in table.others]
    standing += [table.ends.get(o.id, table.start(o)) for o in table.actor.models if o.id != m.id]
    if any(edge_distance(end, s) < APART_IN for s in standing):
        return False
    return not any(shapely.intersection(end.polygon, z).area > 1e-9 for z in table.zones)


def _objective(table: _Table, objective_id: str | None) -> dict[str, float]:
    engagement = table.scenario.rules.engagement_range_in
    ends = [table.ends[m.id] for m in table.actor.models]
    engaged = sum(table.nearest_target_gap(e) <= engagement for e in ends) if table.targets else 0
    out: dict[str, float] = {}
    if objective_id is not None:
        marker = next(o for o in table.scenario.objectives if o.id == objective_id)
        out["on_objective"] = sum(
            math.hypot(e.x - marker.x, e.y - marker.y) <= _r(marker) + e.base.circumradius_in
            for e in ends
        )
    else:
        out["engaged_closest"] = engaged
    out["engaged"] = engaged
    out["movement_in"] = round(sum(table.moved.values()), 3)
    return out
