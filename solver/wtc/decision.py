"""Whether the WTC walls rule applies to a charge that failed normally, and the distances a
judge needs to see it: to each target with the walls ignored, to the closest normal legal
position, and to the nearest wall (the numbers the seed's examples quote).

Readings: "the roll would suffice with the walls ignored" is a normal charge, solved on the
same table with every ruin wall removed (the seed: "if there was an open battlefield with no
wall or floor in the way"), succeeding with the roll; a wall is then what stops the normal
charge, since only the walls differ. Floors stay: a token needs a vertical wall to touch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import shapely
from shapely.geometry import Point
from shapely.ops import nearest_points

from chargeopt.geometry import Battlefield, Footprint, edge_distance, free_space
from chargeopt.geometry.paths import legal_move_length
from chargeopt.models import Result, Scenario, Status, TerrainKind
from chargeopt.solver.core import clock
from chargeopt.solver.options import SolveOptions

REGION_QUAD_SEGS = 64


@dataclass(frozen=True)
class WallRuleDecision:
    """Which case holds, in words and as numbers (inches)."""

    applies: bool | None
    case: str
    reason: str
    distances: dict[str, object] = field(default_factory=dict)

    def as_stats(self) -> dict[str, object]:
        return {
            "applies": self.applies,
            "case": self.case,
            "reason": self.reason,
            "distances": self.distances,
        }


def without_walls(scenario: Scenario) -> Scenario:
    """The same scenario with every ruin wall taken off the table."""
    kept = tuple(t for t in scenario.terrain if t.kind != TerrainKind.WALL)
    return scenario.model_copy(update={"terrain": kept})


def distances(scenario: Scenario, battlefield: Battlefield, roll_max: float) -> dict[str, object]:
    """to_target_walls_ignored_in (per target, edge to edge, straight), to_normal_position_in
    (per target: the shortest legal move of any charging model to a spot in engagement range
    of it where a base may stand; None if none within `roll_max`), to_wall_in (edge to edge,
    to the nearest wall between the charging unit and its targets (inside the convex hull of
    their bases); None without one) and the wall's id."""
    unit = scenario.acting_unit
    starts = {m.id: Footprint(unit.base_of(m), m.x, m.y, m.z, m.facing) for m in unit.models}
    to_target, to_normal = {}, {}
    for tid in scenario.action.targets:
        target = scenario.unit_by_id[tid]
        feet = [Footprint(target.base_of(t), t.x, t.y, t.z, t.facing) for t in target.models]
        to_target[tid] = round(min(edge_distance(s, f) for s in starts.values() for f in feet), 4)
        best = _closest_normal_position(scenario, battlefield, tid, roll_max)
        to_normal[tid] = None if best is None else round(best, 4)
    hull = shapely.union_all(
        [fp.polygon for fp in starts.values()]
        + [
            Footprint(u.base_of(t), t.x, t.y, t.z, t.facing).polygon
            for u in (scenario.unit_by_id[tid] for tid in scenario.action.targets)
            for t in u.models
        ]
    ).convex_hull
    wall, gap = None, math.inf
    for piece in battlefield.walls:
        between = piece.shape & hull
        if between.is_empty:
            continue
        for fp in starts.values():
            d = float(shapely.distance(fp.polygon, between))
            if d < gap:
                wall, gap = piece.id, d
    return {
        "to_target_walls_ignored_in": to_target,
        "to_normal_position_in": to_normal,
        "to_wall_in": None if wall is None else round(gap, 4),
        "wall": wall,
    }


def _closest_normal_position(
    scenario: Scenario, battlefield: Battlefield, tid: str, roll_max: float
) -> float | None:
    """The shortest legal move of a charging model to a spot in engagement range of target
    `tid` where its base may stand (clear of terrain and other bases, out of engagement range
    of units it does not charge): the nearest point of that region in a straight line, then
    the legal path to it."""
    rules = scenario.rules
    unit = scenario.acting_unit
    er = rules.engagement_range_in
    target = scenario.unit_by_id[tid]
    others = [u for u in scenario.enemies_of(unit) if u.id not in scenario.action.targets]
    avoid = [u.id for u in others]
    best = math.inf
    for level in battlefield.surface_heights():
        if level > 0 and not rules.may_end_on_upper_floor(unit.keyword_set):
            continue
        for m in unit.models:
            r = unit.base_of(m).circumradius_in
            zone = shapely.union_all(
                [
                    Point(t.x, t.y).buffer(
                        target.base_of(t).circumradius_in + r + er, quad_segs=REGION_QUAD_SEGS
                    )
                    for t in target.models
                    if abs(t.z - level) <= rules.engagement_vertical_in
                ]
            )
            if zone.is_empty:
                continue
            region = zone & free_space(scenario, battlefield, m.id, z=level)
            for other in others:
                region = region - shapely.union_all(
                    [
                        Point(o.x, o.y).buffer(
                            other.base_of(o).circumradius_in + r + er, quad_segs=REGION_QUAD_SEGS
                        )
                        for o in other.models
                        if abs(o.z - level) <= rules.engagement_vertical_in
                    ]
                )
            if region.is_empty or region.distance(Point(m.x, m.y)) > roll_max:
                continue
            near = nearest_points(region, Point(m.x, m.y))[0]
            length = legal_move_length(
                scenario, battlefield, m.id, near.x, near.y, level, avoid_engagement_of=avoid
            )
            best = min(best, length)
    return None if math.isinf(best) or best > roll_max else best


def decide(
    scenario: Scenario,
    battlefield: Battlefield,
    roll: int,
    normal_engaged: int | None,
    options: SolveOptions,
    time_limit_s: float,
) -> WallRuleDecision:
    """Whether the rule applies at `roll`. `normal_engaged`: how many models the best normal
    charge at this roll puts in engagement range (None if no normal charge succeeds). The
    rule applies when a wall keeps some model from a legal position that it would take on an
    open battlefield (the seed's examples 1A and 2): the charge with the walls ignored
    succeeds and engages more models than the normal charge does."""
    rules = scenario.rules
    unit = scenario.acting_unit
    allowed = ", ".join(sorted(rules.wtc_wall_keywords))
    if not unit.keyword_set & rules.wtc_wall_keywords:
        return WallRuleDecision(
            False, "keywords", f"unit {unit.id} has none of the keywords {allowed}"
        )
    if not battlefield.walls:
        return WallRuleDecision(False, "no_wall", "there is no ruin wall on the table")
    dist = distances(scenario, battlefield, 6 * rules.charge_dice)
    words = _distance_words(scenario, dist)
    open_field, in_the_open, proof = normal_charge_at(
        without_walls(scenario), roll, options, clock.now() + time_limit_s
    )
    if open_field == "impossible":
        return WallRuleDecision(
            False,
            "roll_too_short",
            f"even with the walls ignored no charge succeeds with a roll of {roll}: "
            f"{proof} ({words})",
            dist,
        )
    if open_field == "unknown":
        return WallRuleDecision(
            None,
            "undecided",
            "the charge with the walls ignored was not settled within the time limit, so "
            f"whether the rule applies is unknown ({words})",
            dist,
        )
    dist = {**dist, "engaged_walls_ignored": in_the_open, "engaged_normal": normal_engaged}
    if normal_engaged is not None and normal_engaged >= in_the_open:
        return WallRuleDecision(
            False,
            "normal_charge",
            f"a normal charge with a roll of {roll} puts {normal_engaged} models in engagement "
            f"range, as many as with the walls ignored ({in_the_open}), so the wtc-walls rule "
            f"does not apply ({words})",
            dist,
        )
    normally = (
        f"a normal charge puts only {normal_engaged} there"
        if normal_engaged is not None
        else "no normal charge succeeds"
    )
    return WallRuleDecision(
        True,
        "applies",
        f"the wtc-walls rule applies: with a roll of {roll} and the walls ignored, "
        f"{in_the_open} models would end in engagement range; {normally}, because a wall "
        f"keeps the others from a legal position ({words})",
        dist,
    )


def normal_charge_at(
    scenario: Scenario, roll: int, options: SolveOptions, deadline: float
) -> tuple[str, int | None, str | None]:
    """The normal charge at one roll, without the minimum roll, roll table or certificate:
    ("charges", models in engagement range of the best placement, None), ("impossible",
    None, why: a proof, or no placement on the candidates), or ("unknown", None, None)."""
    from chargeopt.solver.bounds.proofs import charge_impossibility
    from chargeopt.solver.core import candidates as cand
    from chargeopt.solver.forty_k.charge_roll import solve_at

    battlefield = Battlefield.from_scenario(scenario)
    reason = charge_impossibility(scenario, battlefield, roll)
    if reason is not None:
        return "impossible", None, reason
    c = cand.generate(scenario, battlefield, roll, options)
    state = solve_at(c, scenario, roll, options, full=True, deadline=deadline)
    if state.assignment is not None:
        return "charges", sum(1 for p in state.assignment.values() if c.engaged[p]), None
    if state.status == "INFEASIBLE":
        return "impossible", None, "no placement on the solver's candidate positions"
    return "unknown", None, None


def _distance_words(scenario: Scenario, dist: dict[str, object]) -> str:
    unit = scenario.acting_unit.id
    er = scenario.rules.engagement_range_in
    parts = []
    to_target: dict[str, float] = dist["to_target_walls_ignored_in"]  # type: ignore[assignment]
    to_normal: dict[str, float | None] = dist["to_normal_position_in"]  # type: ignore[assignment]
    for tid, gap in to_target.items():
        need = max(0, math.ceil(gap - er - 1e-9))
        parts.append(f'{unit} is {gap:.2f}" from {tid} with the walls ignored ({_a(need)}" charge)')
        normal = to_normal[tid]
        parts.append(
            f'the closest normal legal position by {tid} is {normal:.2f}" away '
            f'({_a(math.ceil(normal - 1e-9))}" charge)'
            if normal is not None
            else f'no normal legal position by {tid} is within 12"'
        )
    if dist["wall"] is not None:
        parts.append(f'the wall {dist["wall"]} is {dist["to_wall_in"]:.2f}" away')
    return "; ".join(parts)


def _a(roll: int) -> str:
    """'a 7' or 'an 8' (and 'an 11')."""
    return f"{'an' if roll in (8, 11, 18) else 'a'} {roll}"


def with_decision(result: Result, decision: WallRuleDecision) -> Result:
    """The result with the decision in its stats (and in the proof when the charge fails)."""
    stats = {**result.stats, "wtc_walls": decision.as_stats()}
    proof = result.proof
    if result.status == Status.INFEASIBLE and decision.applies is False:
        proof = f"{proof or ''} The wtc-walls rule does not help: {decision.reason}.".strip()
    return result.model_copy(update={"stats": stats, "proof": proof})
