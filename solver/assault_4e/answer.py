"""A 40k-assault-4e answer as a Result: the written placements, who fights (full attacks in base
contact, one attack within 2" of an engaged unit mate) and the objective counted from them."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from chargeopt.geometry import Battlefield, Footprint
from chargeopt.geometry.distance_matrix import edge_distances
from chargeopt.models import Placement, Result, ResultAction, Scenario, Status
from chargeopt.solver.core.polish import Pose
from chargeopt.solver.forty_k.placements import placements_at


def fighters(scenario: Scenario, placements: tuple[Placement, ...]) -> dict[str, tuple[str, ...]]:
    """`full`: the models in base contact with an enemy model; `one_attack`: the others within
    2" (the support range) of a unit mate in base contact."""
    unit = scenario.acting_unit
    full = [p.model for p in placements if p.contact]
    support = scenario.rules.fight_support_range_in or 0.0
    engaged = [
        Footprint(unit.base_of(scenario.model_index[p.model][1]), p.x, p.y, p.z, 0.0)
        for p in placements
        if p.contact
    ]
    one = []
    for p in placements:
        if p.contact or not engaged:
            continue
        base = unit.base_of(scenario.model_index[p.model][1])
        gaps = edge_distances(base, np.array([p.x]), np.array([p.y]), np.array([0.0]), engaged)
        if (gaps <= support).any():
            one.append(p.model)
    return {"full": tuple(full), "one_attack": tuple(one)}


def counted(
    placements: tuple[Placement, ...], fight: dict[str, tuple[str, ...]]
) -> dict[str, int | float]:
    """Enemy models engaged, models in base contact, one-attack supporters, inches moved."""
    return {
        "enemy_engaged": len({e for p in placements for e in p.contact}),
        "base_contact": len(fight["full"]),
        "one_attack": len(fight["one_attack"]),
        "movement_in": round(sum(p.moved or 0.0 for p in placements), 3),
    }


def answer(
    scenario: Scenario,
    battlefield: Battlefield,
    poses: dict[str, Pose],
    *,
    status: Status,
    order: list[str],
    bound: dict[str, int | float],
    stats: dict[str, object],
    contacts: Callable[[Placement], tuple[str, ...]] | None = None,
) -> Result:
    """The Result of a 40k-assault-4e move whose models end at `poses`, moved in `order`;
    `contacts` names the enemy models a written placement touches when the move has no
    targets (reinforcement, consolidation)."""
    placements = placements_at(scenario, battlefield, poses)
    if contacts is not None:
        placements = tuple(p.model_copy(update={"contact": contacts(p)}) for p in placements)
    fight = fighters(scenario, placements)
    return Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=ResultAction.of(scenario.action, None),
        status=status,
        objective=counted(placements, fight),
        bound=bound,
        placements=placements,
        order=tuple(order),
        fighters=fight,
        stats=stats,
    )


def no_answer(scenario: Scenario, status: Status, proof: str | None, stats: dict) -> Result:
    """A Result without placements: infeasible with its proof, or unknown."""
    return Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=ResultAction.of(scenario.action, None),
        status=status,
        proof=proof,
        stats=stats,
    )
