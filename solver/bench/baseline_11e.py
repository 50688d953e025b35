"""The 40k-11e charge as the public engines make it (their "snap to contact" buttons): the
models nearest the targets first, each snapped to the nearest free spot at 0, 0.25, 0.5 or
0.9" from a target model (the first of those gaps that has one), else engaged (1.5" or 1.9"),
else straight toward its target as far as the roll allows; then a repair pass for the within-1"
duty (each model not within 1" tries every target model's rings again, the others placed).

It proves nothing (never `optimal`) and is judged by the independent checker like any answer.
Targets: the action's, else the nearest enemy unit that may be a target after the roll. A heroic
intervention (11e) charges the same way: Leap to Defend only units that charged, Into the Fray
on a roll capped at 6 and units within 6"."""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass

import shapely

from chargeopt.geometry import Battlefield, Footprint, edge_distance
from chargeopt.geometry.paths import legal_move_length
from chargeopt.geometry.terrain_11e import no_end_zones
from chargeopt.models import (
    ActionKind,
    ChargeoptError,
    GameModel,
    Placement,
    Result,
    ResultAction,
    Scenario,
    Status,
    Unit,
    UnsupportedRuleError,
)

SNAP_GAPS_IN = (0.0, 0.25, 0.5, 0.9)
"""The gaps to a target model the engines snap to, in the order they are tried."""
ENGAGED_GAPS_IN = (1.5, 1.9)
"""The gaps tried when no snap spot is free: engaged, not within 1"."""
ANGLES = 72
"""Spots per ring besides the one straight toward the model's start."""
CONTACT_GAP_IN = 0.003
"""A 'touching' spot's gap (written to 0.001", the bases never overlap)."""
APART_IN = 0.002
"""Two bases never stand closer than this."""
ROLL_KEPT_IN = 0.012
"""Kept inside the roll."""
RANGE_KEPT_IN = 0.016
"""Kept inside 2" of a placed mate; kept beyond 2" of a unit that is not a target."""
INTO_THE_FRAY_CAP = 6
"""Into the Fray: a roll above 6 counts as 6, and only units within 6" may be targets."""
CHARGE_REACH_IN = 12.0
"""A target is within 12" of the charging unit."""
DECIMALS = 3
R32_IN = 32 / 25.4 / 2
"""A 32mm base's radius (0.630")."""


@dataclass(frozen=True)
class _Spot:
    x: float
    y: float
    moved: float


def footprint(unit: Unit, m: GameModel, x: float | None = None, y: float | None = None):
    """A model's base at its start, or at (x, y)."""
    return Footprint(
        unit.base_of(m), m.x if x is None else x, m.y if y is None else y, m.z, m.facing
    )


def unit_gap_in(scenario: Scenario, a: str, b: str) -> float:
    """The edge distance between two units where they stand: their closest pair of models."""
    ua, ub = scenario.unit_by_id[a], scenario.unit_by_id[b]
    return min(
        edge_distance(footprint(ua, m), footprint(ub, n)) for m in ua.models for n in ub.models
    )


def effective_roll(scenario: Scenario, roll: int) -> int:
    """The roll the move uses: Into the Fray caps it at 6."""
    if _heroic_mode(scenario) == "into-the-fray":
        return min(roll, INTO_THE_FRAY_CAP)
    return roll


def baseline_targets(scenario: Scenario, roll: int) -> tuple[str, ...]:
    """The action's targets, else the nearest enemy unit that may be a target on this roll."""
    if scenario.action.targets:
        return scenario.action.targets
    actor = scenario.acting_unit
    reach = min(CHARGE_REACH_IN, float(roll))
    mode = _heroic_mode(scenario)
    if mode == "into-the-fray":
        reach = min(reach, float(INTO_THE_FRAY_CAP))
    allowed = [u for u in scenario.units if u.owner != actor.owner]
    if mode == "leap-to-defend":
        charged = set(getattr(scenario.action, "charged_units", ()) or ())
        allowed = [u for u in allowed if u.id in charged]
    gaps = sorted((unit_gap_in(scenario, actor.id, u.id), u.id) for u in allowed)
    return tuple(uid for gap, uid in gaps[:1] if gap <= reach)


def _heroic_mode(scenario: Scenario) -> str | None:
    if scenario.action.kind != ActionKind.HEROIC_INTERVENTION:
        return None
    mode = getattr(scenario.action, "heroic_mode", None)
    return None if mode is None else str(mode)


class _Table:
    """The charge's fixed facts and the models placed so far."""

    def __init__(self, scenario: Scenario, roll: int, targets: tuple[str, ...]) -> None:
        self.scenario = scenario
        self.roll = roll
        self.battlefield = Battlefield.from_scenario(scenario)
        self.actor = scenario.acting_unit
        self.targets = [
            (u.id, n.id, footprint(u, n))
            for u in scenario.units
            if u.id in targets
            for n in u.models
        ]
        self.others = [
            (u.id, footprint(u, n))
            for u in scenario.units
            if u.id != self.actor.id
            for n in u.models
        ]
        self.non_targets = [
            f
            for uid, f in self.others
            if uid not in targets and scenario.unit_by_id[uid].owner != self.actor.owner
        ]
        self.zones = [z.shape for z in no_end_zones(scenario.rules, self.battlefield)]
        self.ends: dict[str, Footprint] = {}
        self.moved: dict[str, float] = {}

    def start(self, m: GameModel) -> Footprint:
        return footprint(self.actor, m)

    def nearest_target_gap(self, f: Footprint) -> float:
        return min(edge_distance(f, t) for _, _, t in self.targets)

    def free(self, m: GameModel, f: Footprint) -> bool:
        """Whether model m may end at f: on the board, off every base standing (mates at their
        ends, or their starts if not yet moved), off walls and enclosed blocks, beyond 2" of
        enemy units that are not targets, and closer to a target than it started."""
        board = self.battlefield
        r = f.base.circumradius_in
        if not (r <= f.x <= board.width - r and r <= f.y <= board.height - r):
            return False
        standing = [t for _, t in self.others]
        standing += [self.ends.get(o.id, self.start(o)) for o in self.actor.models if o.id != m.id]
        if any(edge_distance(f, s) < APART_IN for s in standing):
            return False
        engagement = self.scenario.rules.engagement_range_in
        if any(edge_distance(f, s) <= engagement + RANGE_KEPT_IN for s in self.non_targets):
            return False
        if self.zones:
            poly = f.polygon
            if any(shapely.intersection(poly, z).area > 1e-9 for z in self.zones):
                return False
        return self.nearest_target_gap(f) < self.nearest_target_gap(self.start(m)) - 1e-6

    def near_mate(self, m: GameModel, f: Footprint) -> bool:
        coherency = self.scenario.rules.coherency_range_in - RANGE_KEPT_IN
        return any(edge_distance(f, e) <= coherency for mid, e in self.ends.items() if mid != m.id)

    def reach(self, m: GameModel, x: float, y: float) -> float:
        return legal_move_length(self.scenario, self.battlefield, m.id, x, y, m.z)


def ring(
    table: _Table, m: GameModel, target: Footprint, gap_in: float
) -> list[tuple[float, float]]:
    """Spots at `gap_in` from a round target model around it, the one facing m's start first."""
    start = table.start(m)
    centre = target.base.circumradius_in + start.base.circumradius_in + max(gap_in, CONTACT_GAP_IN)
    toward = math.atan2(start.y - target.y, start.x - target.x)
    angles = [toward] + [toward + 2 * math.pi * k / ANGLES for k in range(1, ANGLES)]
    return [
        (
            round(target.x + centre * math.cos(a), DECIMALS),
            round(target.y + centre * math.sin(a), DECIMALS),
        )
        for a in angles
    ]


def best_spot(
    table: _Table, m: GameModel, targets: Iterable[Footprint], gaps: tuple[float, ...]
) -> _Spot | None:
    """The nearest free reachable spot at the first gap that has one (near a placed mate if
    any spot is, else any)."""
    start = table.start(m)
    for gap in gaps:
        spots = {xy for t in targets for xy in ring(table, m, t, gap)}
        ranked = sorted(spots, key=lambda p: math.hypot(p[0] - start.x, p[1] - start.y))
        found: list[_Spot] = []
        for x, y in ranked:
            if math.hypot(x - start.x, y - start.y) > table.roll - ROLL_KEPT_IN:
                break
            end = footprint(table.actor, m, x, y)
            if not table.free(m, end):
                continue
            moved = table.reach(m, x, y)
            if moved > table.roll - ROLL_KEPT_IN:
                continue
            spot = _Spot(x, y, moved)
            if not table.ends or table.near_mate(m, end):
                return spot
            found.append(spot)
        if found:
            return found[0]
    return None


def straight_on(table: _Table, m: GameModel) -> _Spot | None:
    """Straight toward the nearest target model as far as the roll allows, on a free spot."""
    start = table.start(m)
    t = min((f for _, _, f in table.targets), key=lambda f: edge_distance(start, f))
    dx, dy = t.x - start.x, t.y - start.y
    length = math.hypot(dx, dy)
    for k in range(40, 0, -1):
        step = min(table.roll - ROLL_KEPT_IN, length) * k / 40
        x = round(start.x + dx / length * step, DECIMALS)
        y = round(start.y + dy / length * step, DECIMALS)
        if table.free(m, footprint(table.actor, m, x, y)):
            moved = table.reach(m, x, y)
            if moved <= table.roll - ROLL_KEPT_IN:
                return _Spot(x, y, moved)
    return None


def within_one(table: _Table, f: Footprint) -> bool:
    return table.nearest_target_gap(f) <= 1.0


def solve_baseline_11e(scenario: Scenario, roll: int | None) -> Result:
    """The engines' charge at `roll`: `feasible` with its placements (judged later by the
    checker), or `unknown` with the models where they started and the reason in stats."""
    t0 = time.perf_counter()
    if not scenario.rules.charge_targets_after_roll:
        raise UnsupportedRuleError("the baseline-11e method charges under 40k-11e only")
    if scenario.action.kind not in (ActionKind.CHARGE, ActionKind.HEROIC_INTERVENTION):
        raise UnsupportedRuleError(
            f"the baseline-11e method charges (or intervenes), not '{scenario.action.kind}'"
        )
    if roll is None:
        raise ChargeoptError("the baseline-11e method needs a roll: set action.roll")
    used = effective_roll(scenario, roll)
    targets = baseline_targets(scenario, used)
    reason = None if targets else f"no enemy unit may be a target on a roll of {used}"
    table = _Table(scenario, used, targets)
    if targets:
        reason = _place_all(table)
    placements = _placements(table) if reason is None else _stay(scenario)
    objective = {} if reason else _objective(table)
    stats: dict[str, object] = {
        "method": "baseline-11e",
        "seconds": round(time.perf_counter() - t0, 3),
        "targets": list(targets),
    }
    if reason:
        stats["reason"] = reason
    return Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=ResultAction.of(scenario.action, roll),
        status=Status.UNKNOWN if reason else Status.FEASIBLE,
        objective=objective,
        bound={},
        placements=placements,
        stats=stats,
    )


def _place_all(table: _Table) -> str | None:
    """Nearest models first, then the within-1" repair pass; the reason when one is stuck."""
    models = sorted(table.actor.models, key=lambda m: table.nearest_target_gap(table.start(m)))
    for m in models:
        start = table.start(m)
        nearest = sorted((f for _, _, f in table.targets), key=lambda f: edge_distance(start, f))
        spot = (
            best_spot(table, m, nearest[:1], SNAP_GAPS_IN)
            or best_spot(table, m, nearest[:1], ENGAGED_GAPS_IN)
            or straight_on(table, m)
        )
        if spot is None:
            return f"{m.id} found no free spot closer to its target within the roll"
        table.ends[m.id] = footprint(table.actor, m, spot.x, spot.y)
        table.moved[m.id] = spot.moved
    everyone = [f for _, _, f in table.targets]
    for m in models:
        if within_one(table, table.ends[m.id]):
            continue
        old, moved = table.ends.pop(m.id), table.moved.pop(m.id)
        spot = best_spot(table, m, everyone, SNAP_GAPS_IN)
        if spot is None:
            table.ends[m.id], table.moved[m.id] = old, moved
        else:
            table.ends[m.id] = footprint(table.actor, m, spot.x, spot.y)
            table.moved[m.id] = spot.moved
    return None


def _placements(table: _Table) -> tuple[Placement, ...]:
    out = []
    touch = table.scenario.rules.base_contact_tolerance_in
    reach = table.scenario.rules.engagement_range_in
    for m in table.actor.models:
        end = table.ends[m.id]
        contact = tuple(tid for _, tid, t in table.targets if edge_distance(end, t) <= touch)
        engaged = sorted({uid for uid, _, t in table.targets if edge_distance(end, t) <= reach})
        out.append(
            Placement(
                model=m.id,
                x=end.x,
                y=end.y,
                z=m.z,
                moved=round(table.moved[m.id], DECIMALS),
                contact=contact,
                engaged=tuple(engaged),
            )
        )
    return tuple(out)


def _objective(table: _Table) -> dict[str, float]:
    """Counted from the ends: models within 1" of a target, engaged, and the movement."""
    reach = table.scenario.rules.engagement_range_in
    ends = [table.ends[m.id] for m in table.actor.models]
    return {
        "within_1": sum(within_one(table, e) for e in ends),
        "engaged": sum(table.nearest_target_gap(e) <= reach for e in ends),
        "movement_in": round(sum(table.moved.values()), DECIMALS),
    }


def _stay(scenario: Scenario) -> tuple[Placement, ...]:
    return tuple(
        Placement(model=m.id, x=m.x, y=m.y, z=m.z, moved=0.0) for m in scenario.acting_unit.models
    )
