"""Ceilings on the reinforcement move and consolidation that hold anywhere on the table: a
model's centre ends at most its reach from where it starts (a straight line is never longer
than a legal path), so it can touch only the enemy models whose centres start within its reach
plus both circumradii plus the contact tolerance; each enemy model takes at most the kissing
capacity of its base. Terrain, other models, coherency and the order of moves are ignored, so
both ceilings only loosen."""

from __future__ import annotations

import math

from chargeopt.models import RoundBase, Scenario, Unit
from chargeopt.solver.bounds.contact_bound import kissing_capacity, most_matched

SLACK_IN = 1e-3
"""Added to every reach: more than the checker's slack on a move's length."""


def close_in_ceilings(
    scenario: Scenario, foes: list[Unit], reach_in: dict[str, float]
) -> dict[str, int]:
    """`base_contact`: most models of the acting unit in base contact with a model of `foes`
    (a matching under the kissing capacities); `enemy_engaged`: most models of `foes` touched.
    `reach_in`: how far each model may move (0: it stays)."""
    unit = scenario.acting_unit
    tolerance = scenario.rules.base_contact_tolerance_in
    bases = [unit.base_of(m) for m in unit.models]
    round_movers = all(isinstance(b, RoundBase) for b in bases)
    smallest = min((b.radius_in for b in bases), default=0.0)
    touch: dict[str, set[str]] = {}
    for m, base in zip(unit.models, bases, strict=True):
        reach = reach_in.get(m.id, 0.0) + SLACK_IN + tolerance
        touch[m.id] = {
            f.id
            for u in foes
            for f in u.models
            if math.hypot(f.x - m.x, f.y - m.y)
            <= reach + base.circumradius_in + u.base_of(f).circumradius_in
        }
    capacity = {}
    for u in foes:
        for f in u.models:
            base = u.base_of(f)
            capacity[f.id] = (
                kissing_capacity(
                    base.radius_in, smallest, tolerance, scenario.rules.base_overlap_tolerance_in
                )
                if round_movers and isinstance(base, RoundBase)
                else len(unit.models)
            )
    return {
        "enemy_engaged": len(set().union(*touch.values())),
        "base_contact": most_matched(touch, capacity),
    }
