"""Impossibility proofs of the 11th edition's own, in words, beside the shared single-model
ones (`solver.bounds.proofs`): two targets too far apart for one unit inside its 9" span."""

from __future__ import annotations

import math
from itertools import combinations

from chargeopt.models import Scenario


def span_impossibility(scenario: Scenario) -> str | None:
    """Why no placement engages every target within the 9" span, or None. A model engaged
    with a model t stands with its centre within the engagement range plus both circumradii
    of t's centre; so two models engaging t1 and t2 are at least |t1 t2| minus twice the range,
    both targets' circumradii and twice each charger's, apart edge to edge."""
    rules = scenario.rules
    span = rules.coherency_unit_span_in
    unit = scenario.acting_unit
    if span is None or len(unit.models) < 2 or len(scenario.action.targets) < 2:
        return None
    widest = max(unit.base_of(m).circumradius_in for m in unit.models)
    er = rules.engagement_range_in
    for first, second in combinations(scenario.action.targets, 2):
        a, b = scenario.unit_by_id[first], scenario.unit_by_id[second]
        least = min(
            math.hypot(s.x - t.x, s.y - t.y)
            - 2 * er
            - a.base_of(s).circumradius_in
            - b.base_of(t).circumradius_in
            - 4 * widest
            for s in a.models
            for t in b.models
        )
        if least > span:
            return (
                f"a model engaged with {first} and one engaged with {second} would be at least "
                f'{least:.2f}" apart edge to edge, more than the {span:g}" every model of '
                f"{unit.id} must stay within of every other: the unit cannot engage both."
            )
    return None
