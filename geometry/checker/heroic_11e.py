"""The 11th edition's heroic intervention (stratagem 15.11), for the checker: who may make it
and which targets its mode allows; the charge it resolves is then judged as the 11th-edition
charge (`charge_11e`, by the judge) at the roll the mode leaves.

Rules and readings:
- The unit is unengaged at the start and within 12" of an enemy unit; a VEHICLE unit only if it
  is also a CHARACTER or WALKER unit. The mode (`action.heroic_mode`) is given.
- Leap to Defend: every target (the named ones, else the units the unit ends engaged with) made
  a charge move this phase (`action.charged_units`).
- Into the Fray: a roll above 6 is judged as 6; every target is within 6" of the unit at the
  start (horizontal edge distance, its closest pair of models)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from chargeopt.geometry.checker.charge_11e import charged_targets, unit_distance_in
from chargeopt.geometry.move_state import MoveState
from chargeopt.geometry.pairs import engagement
from chargeopt.geometry.terrain import Battlefield
from chargeopt.models import (
    ActionKind,
    HeroicMode,
    Placement,
    Scenario,
    Violation,
)

INTO_THE_FRAY_ROLL_CAP = 6
INTO_THE_FRAY_REACH_IN = 6.0
HEROIC_11E_KINDS = ("target_not_allowed",)


def heroic_11e_rules(
    scenario: Scenario,
    placements: Sequence[Placement],
    roll: int | None,
    battlefield: Battlefield,
) -> tuple[list[Violation], Scenario, int | None]:
    """The intervention's own violations, the scenario as the charge it resolves, and the roll
    to judge that charge at."""
    action = scenario.action
    unit = scenario.acting_unit
    roll = action.roll if roll is None else roll
    mode = action.heroic_mode
    found = list(_eligibility(scenario, battlefield))
    if mode == HeroicMode.INTO_THE_FRAY and roll is not None:
        roll = min(roll, INTO_THE_FRAY_ROLL_CAP)
    targets = charged_targets(scenario, placements, battlefield)
    for target in targets:
        if mode == HeroicMode.LEAP_TO_DEFEND and target not in action.charged_units:
            found.append(
                _not_allowed(
                    unit.id,
                    target,
                    "Leap to Defend targets only enemy units that made a "
                    "charge move this phase (action.charged_units)",
                )
            )
        if mode == HeroicMode.INTO_THE_FRAY:
            gap = unit_distance_in(scenario, unit.id, target)
            if gap > INTO_THE_FRAY_REACH_IN + 1e-9:
                found.append(
                    _not_allowed(
                        unit.id,
                        target,
                        f"Into the Fray targets only enemy units within "
                        f'{INTO_THE_FRAY_REACH_IN:g}" (it is {gap:.2f}" away)',
                    )
                )
    charge = action.model_copy(update={"kind": ActionKind.CHARGE, "roll": roll})
    return found, scenario.model_copy(update={"action": charge}), roll


def _not_allowed(unit_id: str, target: str, why: str) -> Violation:
    return Violation(
        kind="target_not_allowed",
        message=f"unit {unit_id!r} charges unit {target!r} in its heroic intervention, but {why}",
    )


def _eligibility(scenario: Scenario, battlefield: Battlefield):
    unit = scenario.acting_unit
    what = f"unit {unit.id!r} cannot make a heroic intervention"
    models = tuple(m.id for m in unit.models)
    if scenario.action.heroic_mode is None:
        yield Violation(
            kind="not_eligible",
            models=models,
            message=f"{what} without its mode (heroic_mode: leap-to-defend or into-the-fray)",
        )
    keywords = unit.keyword_set
    if "VEHICLE" in keywords and not keywords & {"CHARACTER", "WALKER"}:
        yield Violation(
            kind="not_eligible",
            models=models,
            message=f"{what}: it is a VEHICLE unit that is no CHARACTER or WALKER",
        )
    move = MoveState(scenario, battlefield, 0, {})
    enemies = scenario.enemies_of(unit)
    for enemy in enemies:
        reach = engagement(move.start_bases, move.unit_bases(enemy), move.rules, battlefield)
        if np.any(reach.engaged):
            yield Violation(
                kind="not_eligible",
                models=models,
                message=f"{what}: it starts engaged with unit {enemy.id!r}",
            )
            break
    reach_in = scenario.rules.charge_declaration_range_in
    if not any(unit_distance_in(scenario, unit.id, e.id) <= reach_in + 1e-9 for e in enemies):
        yield Violation(
            kind="not_eligible",
            models=models,
            message=f'{what}: no enemy unit is within {reach_in:g}" of it',
        )
