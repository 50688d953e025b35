"""The split-unit ceiling on base contacts: when the targets stand so far apart that models
touching one group of target models can never be within coherency of models touching
another, and no such group is within engagement range of every target, a unit with every
model in base contact would either split or leave a target unengaged. So at least one model
stays out of base contact, whatever the positions: the ceiling is the unit's size less one.

It only loosens: contact rings are taken at their outer radius (the contact tolerance
included), bases at their circumradius, heights are ignored and engagement is the longest
range on the table. The candidates' contact stage starts from it and the certificate states
it; it does not depend on the roll."""

from __future__ import annotations

import math
from dataclasses import dataclass

from chargeopt.models import Scenario
from chargeopt.solver.bounds.cells import EPS_IN
from chargeopt.solver.bounds.contact_bound import engagement_reach_in


@dataclass(frozen=True)
class ContactRing:
    """Centres of the unit's bases of circumradius `mover_in` touching target model `model`
    of unit `unit` lie within `rho_in` of (x, y)."""

    unit: str
    model: str
    x: float
    y: float
    rho_in: float
    mover_in: float

    @property
    def span_in(self) -> float:
        """How far a touching base reaches from the target model's centre."""
        return self.rho_in + self.mover_in


@dataclass(frozen=True)
class SplitCeiling:
    """`base_contact` is proven; `groups` are the target models whose touching models stay out
    of coherency with each other's; `reason` says so in words."""

    base_contact: int
    groups: tuple[tuple[str, ...], ...]
    reason: str


def split_contact_ceiling(scenario: Scenario) -> SplitCeiling | None:
    """n - 1 for a unit of n (n >= 2) that cannot be all in base contact, with why; None when
    some group of linked contact rings may be within engagement range of every target (or the
    WTC wall rule, which engages through walls, applies)."""
    unit, rules = scenario.acting_unit, scenario.rules
    n = len(unit.models)
    if n < 2 or rules.wtc_walls:
        return None
    rings = _contact_rings(scenario)
    groups = _linked_groups(rings, rules.coherency_range_in)
    reach = engagement_reach_in(scenario)
    targets = list(scenario.action.targets)
    for members in groups:
        if all(any(_may_engage(rings[i], u, scenario, reach) for i in members) for u in targets):
            return None
    named = tuple(tuple(dict.fromkeys(rings[i].model for i in members)) for members in groups)
    apart = _closest_between(rings, groups)
    listing = "; ".join(", ".join(g) for g in named)
    return SplitCeiling(
        n - 1,
        named,
        f"Not all {n} models of {unit.id} can end in base contact: the models touching each of "
        f'these groups of target models ({listing}) stand at least {apart:.2f}" apart centre '
        "to centre from those touching another group, more than coherency allows "
        f'({rules.coherency_range_in:g}" between bases), and no group is within engagement '
        f"range of every target ({', '.join(targets)}); so a unit all in base contact would "
        "split or leave a target unengaged, and at least one model stays out of base contact.",
    )


def _contact_rings(scenario: Scenario) -> list[ContactRing]:
    """One ring per target model and base size of the unit, loosened by the contact tolerance."""
    unit = scenario.acting_unit
    slack = scenario.rules.base_contact_tolerance_in + EPS_IN
    movers = sorted({unit.base_of(m).circumradius_in for m in unit.models})
    return [
        ContactRing(tid, t.id, t.x, t.y, mover + target.base_of(t).circumradius_in + slack, mover)
        for tid in scenario.action.targets
        for target in [scenario.unit_by_id[tid]]
        for t in target.models
        for mover in movers
    ]


def _linked_groups(rings: list[ContactRing], coherency_in: float) -> list[list[int]]:
    """Rings whose models may stand within coherency of each other, joined transitively."""
    parent = list(range(len(rings)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(rings):
        for j in range(i + 1, len(rings)):
            b = rings[j]
            if math.hypot(a.x - b.x, a.y - b.y) <= a.span_in + b.span_in + coherency_in + EPS_IN:
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(len(rings)):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def _may_engage(r: ContactRing, unit_id: str, scenario: Scenario, reach: float) -> bool:
    """Whether a model on ring `r` may be within engagement range of unit `unit_id`."""
    if r.unit == unit_id:
        return True
    target = scenario.unit_by_id[unit_id]
    return any(
        math.hypot(r.x - t.x, r.y - t.y)
        <= r.span_in + target.base_of(t).circumradius_in + reach + EPS_IN
        for t in target.models
    )


def _closest_between(rings: list[ContactRing], groups: list[list[int]]) -> float:
    """The least centre distance between models on rings of different groups."""
    of = {i: g for g, members in enumerate(groups) for i in members}
    return min(
        math.hypot(a.x - b.x, a.y - b.y) - a.rho_in - b.rho_in
        for i, a in enumerate(rings)
        for j, b in enumerate(rings)
        if of[i] < of[j]
    )
