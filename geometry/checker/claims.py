"""What a placement claims about engagement and fighting after a close-combat move: every unit a
placement lists under `engaged` must be an enemy unit one of whose models is within engagement
range of that model, and every unit under `fights` one that `fight_eligibility` confirms.
Units missing from a claim are not a broken rule."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from chargeopt.geometry.fight import Reading, engaged_pairs, fighters
from chargeopt.geometry.move_state import MoveState
from chargeopt.geometry.pairs import engagement
from chargeopt.models import Violation


def claim_violations(move: MoveState) -> Iterable[Violation]:
    """false_engaged and false_fight, one per claimed unit that does not hold."""
    scenario = move.scenario
    enemies = {u.id for u in scenario.enemies_of(move.unit)}
    unit_of = {m.id: u.id for u in scenario.units for m in u.models}
    engaged = engaged_pairs(scenario, move.placements, move.battlefield)
    error = move.error_in
    reading = Reading(touch_in=error, pair_touch_in=2 * error)
    can = fighters(scenario, move.placements, move.battlefield, reading)
    for model_id, placement in move.placements.items():
        reached = {unit_of[e] for a, e in engaged if a == model_id}
        for claimed in placement.engaged:
            if claimed not in reached:
                yield _false("false_engaged", move, model_id, claimed, enemies, "is engaged with")
        for claimed in placement.fights:
            if claimed not in can[model_id]:
                yield _false("false_fight", move, model_id, claimed, enemies, "can fight")


def _false(
    kind: str, move: MoveState, model_id: str, claimed: str, enemies: set[str], verb: str
) -> Violation:
    head = f"model {model_id!r} claims it {verb} unit {claimed!r}"
    if claimed not in enemies:
        return Violation(
            kind=kind, models=(model_id,), message=f"{head}, which is no enemy unit of it"
        )
    unit = move.scenario.unit_by_id[claimed]
    i = move.ids.index(model_id)
    reach = engagement(move.end_bases, move.unit_bases(unit), move.rules, move.battlefield)
    j = int(np.argmin(reach.distance[i]))
    distance, range_in = float(reach.distance[i, j]), float(reach.range_in[i, j])
    rise = abs(move.end[model_id].z - unit.models[j].z)
    where = f'{distance:.2f}" from {unit.models[j].id!r}, its nearest model'
    if rise > move.rules.engagement_vertical_in:
        where += f' ({rise:.2f}" apart in height)'
    why = f'but it is {where} (engagement range {range_in:g}")'
    if kind == "false_fight":
        support = move.rules.fight_support_range_in
        why += (
            f' and no unit mate within {support:g}" of it is within {support:g}" of that unit'
            if support is not None
            else " and it touches no unit mate that touches a model of that unit"
        )
    return Violation(
        kind=kind,
        models=(model_id, unit.models[j].id),
        distance_in=distance,
        limit_in=range_in,
        message=f"{head}, {why}",
    )
