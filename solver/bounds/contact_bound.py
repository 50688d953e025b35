"""Closed-form ceilings on base contacts and engagement: no more round bases of radius r can
touch a round base of radius R than floor(pi / asin(r / (R + r))), and a model touches only
target models it can reach. A bipartite flow of models to target models under those
capacities bounds every legal placement's base contact count from above, in milliseconds.
Measured with straight lines instead of the candidates' paths, the same ceilings hold
anywhere on the table."""

from __future__ import annotations

import math

import numpy as np

from chargeopt.geometry import Footprint, edge_distance
from chargeopt.models import RoundBase, Scenario, TerrainKind
from chargeopt.solver.core.candidates import Candidates
from chargeopt.solver.core.exact_limits import margin
from chargeopt.solver.core.tolerances import ROLL_MARGIN_IN


def kissing_capacity(
    target_radius_in: float, mover_radius_in: float, tolerance_in: float, overlap_in: float
) -> int:
    """Most bases of radius `mover_radius_in` that can touch one of radius `target_radius_in`
    without overlapping, loosened by the contact tolerance and the overlap the checker allows
    so it stays an upper bound of what the checker accepts."""
    ring = target_radius_in + mover_radius_in + tolerance_in
    half = max(mover_radius_in - overlap_in / 2, 1e-9)
    if half >= ring:
        return 1
    return math.floor(math.pi / math.asin(half / ring) + 1e-9)


def contact_capacity_ceiling(c: Candidates, scenario: Scenario, roll: float) -> int:
    """Upper bound on the models of the acting unit that can end in base contact at `roll`
    on the candidates."""
    reachable: dict[str, set[str]] = {}
    for m in scenario.acting_unit.models:
        spots = np.flatnonzero(c.reach[m.id] <= roll - margin(ROLL_MARGIN_IN))
        reachable[m.id] = {t for p in spots for t in c.contact[p]}
    return _capacity_flow(scenario, reachable)


def straight_line_ceilings(scenario: Scenario, roll: float) -> dict[str, int]:
    """Upper bounds on the models of the acting unit that can end in base contact and within
    engagement range of a target model at `roll`, anywhere on the table: a model's centre
    moves no further than the roll, so it can touch a target model only if their centres
    start within the roll plus both circumradii plus the contact tolerance apart
    (horizontally), and come within engagement range only if they start within that plus the
    range. Walls, floors and every coupled rule are ignored, so both stay upper bounds."""
    engaged = len(scenario.acting_unit.models) - len(beyond_straight_reach(scenario, roll))
    return {
        "base_contact": _capacity_flow(scenario, straight_touch(scenario, roll)),
        "engaged": engaged,
    }


def straight_touch(scenario: Scenario, roll: float) -> dict[str, set[str]]:
    """Per charging model, the target models it may touch moving `roll` in a straight line
    (a superset of those it can touch along legal paths)."""
    return {
        mid: {t for t, gap in gaps.items() if gap <= roll}
        for mid, gaps in _straight_gaps(scenario).items()
    }


def beyond_straight_reach(scenario: Scenario, roll: float) -> tuple[str, ...]:
    """The charging models that start farther from every target model, in a straight line,
    than the roll plus engagement range (edge to edge, horizontally): none of them can end
    within engagement range of a target, whatever path it takes."""
    reach = roll + engagement_reach_in(scenario)
    return tuple(
        mid
        for mid, gaps in _straight_gaps(scenario).items()
        if all(gap > reach for gap in gaps.values())
    )


def _straight_gaps(scenario: Scenario) -> dict[str, dict[str, float]]:
    """Per charging model, per target model: the horizontal edge-to-edge gap measured from
    the circumradii (never more than the true gap), less the contact tolerance and a hair,
    so that comparing it with a reach loosens."""
    unit = scenario.acting_unit
    slack = scenario.rules.base_contact_tolerance_in + 1e-6
    targets = [
        (t, u.base_of(t).circumradius_in)
        for tid in scenario.action.targets
        for u in [scenario.unit_by_id[tid]]
        for t in u.models
    ]
    return {
        m.id: {
            t.id: math.hypot(t.x - m.x, t.y - m.y) - unit.base_of(m).circumradius_in - r - slack
            for t, r in targets
        }
        for m in unit.models
    }


def _capacity_flow(scenario: Scenario, reachable: dict[str, set[str]]) -> int:
    """Most models matched to target models they reach, each target model taking no more
    than the kissing capacity of its base (round bases only; others are not capped)."""
    unit = scenario.acting_unit
    movers = [unit.base_of(m) for m in unit.models]
    all_round = all(isinstance(b, RoundBase) for b in movers)
    smallest = min((b.radius_in for b in movers), default=0.0) if all_round else 0.0
    tolerance = scenario.rules.base_contact_tolerance_in
    capacity: dict[str, int] = {}
    for t in {t for touched in reachable.values() for t in touched}:
        owner, model = scenario.model_index[t]
        base = owner.base_of(model)
        capacity[t] = (
            kissing_capacity(
                base.radius_in, smallest, tolerance, scenario.rules.base_overlap_tolerance_in
            )
            if all_round and isinstance(base, RoundBase)
            else len(unit.models)
        )
    return most_matched(reachable, capacity)


def most_matched(reachable: dict[str, set[str]], capacity: dict[str, int]) -> int:
    """The largest matching of models to target models they reach, target t taking at most
    `capacity[t]` models (the maximum flow of that network), by augmenting paths."""
    held: dict[str, list[str]] = {t: [] for t in capacity}

    def place(mid: str, seen: set[str]) -> bool:
        for t in sorted(reachable[mid]):
            if t in seen:
                continue
            seen.add(t)
            if len(held[t]) < capacity[t]:
                held[t].append(mid)
                return True
            for i, other in enumerate(held[t]):
                if place(other, seen):
                    held[t][i] = mid
                    return True
        return False

    return sum(place(mid, set()) for mid in sorted(reachable) if reachable[mid])


def farthest_target(scenario: Scenario) -> tuple[str, float]:
    """The target unit farthest from the charging unit, and its distance: the smallest edge
    to edge distance (horizontal, straight line) between one of its models and a charging
    model."""
    unit = scenario.acting_unit
    gaps = {
        tid: min(
            edge_distance(
                Footprint(unit.base_of(m), m.x, m.y, m.z, m.facing),
                Footprint(target.base_of(t), t.x, t.y, t.z, t.facing),
            )
            for m in unit.models
            for t in target.models
        )
        for tid in scenario.action.targets
        for target in [scenario.unit_by_id[tid]]
    }
    tid = max(gaps, key=lambda t: (gaps[t], t))
    return tid, gaps[tid]


def roll_lower_bound(scenario: Scenario) -> int:
    """No roll below this can succeed: some target is farther (edge to edge, straight line)
    from every charging model than the roll plus engagement range."""
    _, gap = farthest_target(scenario)
    return max(0, math.ceil(gap - engagement_reach_in(scenario) - 1e-9))


def engagement_reach_in(scenario: Scenario) -> float:
    """The longest engagement range that can apply: the barricade range (across a barricade)
    when the table has one, else the engagement range."""
    rules = scenario.rules
    if any(piece.kind == TerrainKind.BARRICADE for piece in scenario.terrain):
        return max(rules.engagement_range_in, rules.barricade_engagement_range_in)
    return rules.engagement_range_in
