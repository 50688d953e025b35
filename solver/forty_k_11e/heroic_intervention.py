"""Heroic intervention (40k 11th edition, stratagem 15.11): an unengaged unit within 12" of an
enemy unit (a VEHICLE only if CHARACTER or WALKER) resolves a charge in the mode chosen before
the roll: Leap to Defend (targets only among the enemy units that made a charge move this
phase, `action.charged_units`) or Into the Fray (a roll above 6 counts as 6; targets within
6"). Solved as the 11th-edition charge (`charge.solve_charge_11e`) of each target set the mode
allows, the best set's answer kept."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from chargeopt.geometry import Battlefield
from chargeopt.models import (
    HeroicMode,
    IneligibleMoveError,
    Result,
    ResultAction,
    Scenario,
    Status,
    UnsupportedRuleError,
)
from chargeopt.solver.core import clock
from chargeopt.solver.forty_k.close_moves import CloseMove
from chargeopt.solver.forty_k.placements import stay_put
from chargeopt.solver.forty_k_11e.charge import solve_charge_11e
from chargeopt.solver.forty_k_11e.fights import fights_of
from chargeopt.solver.forty_k_11e.targets import MOST_TARGET_UNITS, unit_gap_in
from chargeopt.solver.options import SolveOptions

INTO_THE_FRAY_ROLL_CAP = 6
INTO_THE_FRAY_REACH_IN = 6.0
VEHICLE_EXCEPTIONS = frozenset({"CHARACTER", "WALKER"})


def solve_heroic_intervention_11e(scenario: Scenario, options: SolveOptions) -> Result:
    """The best heroic intervention in the scenario's mode: for each set of targets the mode
    allows, the 11th-edition charge; the best set's placement (most within 1", most engaged,
    least movement). Raises IneligibleMoveError when the unit or the mode allows none."""
    mode = _mode(scenario)
    allowed = allowed_targets(scenario, mode)
    roll = options.roll if options.roll is not None else scenario.action.roll
    rolled = roll
    if mode == HeroicMode.INTO_THE_FRAY and roll is not None:
        roll = min(roll, INTO_THE_FRAY_ROLL_CAP)
    named = scenario.action.targets
    if named:
        wrong = [t for t in named if t not in allowed]
        if wrong:
            raise IneligibleMoveError(
                f"unit {wrong[0]!r} cannot be a target of this heroic intervention "
                f"({_mode_words(mode)}); it may target {', '.join(allowed) or 'no unit'}"
            )
        sets = [tuple(named)]
    else:
        units = sorted(allowed, key=lambda u: allowed[u])
        if len(units) > MOST_TARGET_UNITS:
            raise UnsupportedRuleError(
                f"{len(units)} enemy units may be targets ({', '.join(units)}): name the "
                f'heroic intervention\'s targets, e.g. targets = ["{units[0]}"]',
                "action.targets",
            )
        sets = [c for k in range(1, len(units) + 1) for c in combinations(units, k)]
    end = clock.now() + options.time_limit_s
    answers = []
    for k, targets in enumerate(sets):
        share = max(0.05, (end - clock.now()) / (len(sets) - k))
        charge = _as_charge(scenario, targets, roll)
        answers.append(solve_charge_11e(charge, _with(options, roll, share)))
    return _best(scenario, mode, answers, roll, rolled)


def _mode(scenario: Scenario) -> HeroicMode:
    mode = scenario.action.heroic_mode
    if mode is None:
        raise IneligibleMoveError(
            "a 40k-11e heroic intervention needs its mode, chosen before the roll: add "
            'heroic_mode = "leap-to-defend" or "into-the-fray" to [action]'
        )
    return mode


def _mode_words(mode: HeroicMode) -> str:
    if mode == HeroicMode.LEAP_TO_DEFEND:
        return "Leap to Defend: only enemy units that made a charge move this phase"
    return f'Into the Fray: enemy units within {INTO_THE_FRAY_REACH_IN:g}"'


def allowed_targets(scenario: Scenario, mode: HeroicMode) -> dict[str, float]:
    """The enemy units the mode lets the unit target (before the roll's own limit), with their
    distances; raises IneligibleMoveError when the unit may not intervene."""
    unit = scenario.acting_unit
    keywords = unit.keyword_set
    what = f"unit {unit.id!r} cannot make a heroic intervention"
    if "VEHICLE" in keywords and not keywords & VEHICLE_EXCEPTIONS:
        raise IneligibleMoveError(f"{what}: it is a VEHICLE unit that is no CHARACTER or WALKER")
    engaged = CloseMove(scenario, Battlefield.from_scenario(scenario)).engaged_at_start()
    if engaged:
        raise IneligibleMoveError(f"{what}: it is engaged (with unit {engaged[0]!r})")
    gaps = {u.id: unit_gap_in(scenario, u.id) for u in scenario.enemies_of(unit)}
    reach = scenario.rules.charge_declaration_range_in
    if not any(g <= reach for g in gaps.values()):
        raise IneligibleMoveError(f'{what}: no enemy unit is within {reach:g}" of it')
    if mode == HeroicMode.LEAP_TO_DEFEND:
        unknown = [u for u in scenario.action.charged_units if u not in gaps]
        if unknown:
            raise IneligibleMoveError(
                f"charged_units names {unknown[0]!r}, which is no enemy unit of {unit.id!r}"
            )
        allowed = {u: gaps[u] for u in scenario.action.charged_units if gaps[u] <= reach}
        if not allowed:
            raise IneligibleMoveError(
                f"{what} in Leap to Defend: no enemy unit that made a charge move this phase is "
                f'within {reach:g}" (list them in charged_units = [...] under [action])'
            )
        return allowed
    allowed = {u: g for u, g in gaps.items() if g <= INTO_THE_FRAY_REACH_IN}
    if not allowed:
        raise IneligibleMoveError(
            f'{what} Into the Fray: no enemy unit is within {INTO_THE_FRAY_REACH_IN:g}" of it'
        )
    return allowed


def _as_charge(scenario: Scenario, targets: tuple[str, ...], roll: int | None) -> Scenario:
    action = scenario.action.model_copy(update={"kind": "charge", "targets": targets, "roll": roll})
    return scenario.model_copy(update={"action": action})


def _with(options: SolveOptions, roll: int | None, seconds: float) -> SolveOptions:
    return replace(options, roll=roll, time_limit_s=seconds)


def _rank(result: Result) -> tuple[float, ...]:
    if result.status not in (Status.OPTIMAL, Status.FEASIBLE):
        return (1.0, 0.0, 0.0, 0.0)
    o = result.objective
    return (0.0, -o["within_1"], -o["engaged"], o["movement_in"])


def _best(
    scenario: Scenario, mode: HeroicMode, answers: list[Result], roll: int | None, rolled
) -> Result:
    """The best set's result as a heroic intervention; under Into the Fray without a roll, a
    set whose minimum roll is above 6 cannot be made."""
    if mode == HeroicMode.INTO_THE_FRAY and roll is None:
        answers = [_capped(scenario, a) for a in answers]
    best = min(answers, key=_rank)
    proven = all(a.status in (Status.OPTIMAL, Status.INFEASIBLE) for a in answers)
    status = best.status
    proof = None
    if status not in (Status.OPTIMAL, Status.FEASIBLE):
        status = Status.INFEASIBLE if proven else Status.UNKNOWN
        if status == Status.INFEASIBLE:
            proof = (
                " ".join(
                    f"[{', '.join(a.action.targets) if a.action else ''}] {a.proof}"
                    for a in answers
                )
                if len(answers) > 1
                else answers[0].proof
            )
    elif status == Status.OPTIMAL and not proven:
        status = Status.FEASIBLE
    assert best.action is not None
    action = ResultAction(
        kind="heroic-intervention",
        unit=scenario.action.unit,
        targets=best.action.targets,
        roll=best.action.roll,
    )
    rows = tuple(row for a in answers for row in a.target_sets)
    placements = best.placements
    if status in (Status.OPTIMAL, Status.FEASIBLE):
        fights = fights_of(scenario, placements, Battlefield.from_scenario(scenario))
        placements = tuple(p.model_copy(update={"fights": fights[p.model]}) for p in placements)
    stats = {
        **best.stats,
        "heroic_mode": mode.value,
        **({"roll_rolled": rolled} if rolled is not None and rolled != roll else {}),
        "target_sets_tried": len(rows),
    }
    return best.model_copy(
        update={
            "action": action,
            "placements": placements,
            "status": status,
            "proof": proof,
            "target_sets": rows,
            "stats": stats,
        }
    )


def _capped(scenario: Scenario, result: Result) -> Result:
    """Into the Fray: a roll above 6 counts as 6, so a charge that needs more cannot be made."""
    need = result.action.roll if result.action is not None else None
    if result.status not in (Status.OPTIMAL, Status.FEASIBLE) or need is None:
        return result
    if need <= INTO_THE_FRAY_ROLL_CAP:
        return result
    targets = ", ".join(result.action.targets) if result.action else ""
    if not result.stats.get("min_roll_proven"):
        return result.model_copy(
            update={
                "placements": stay_put(scenario),
                "status": Status.UNKNOWN,
                "objective": {},
                "bound": {},
                "min_roll": None,
            }
        )
    return result.model_copy(
        update={
            "placements": stay_put(scenario),
            "status": Status.INFEASIBLE,
            "objective": {},
            "bound": {},
            "proof": f"charging {targets} needs a roll of {need}, and Into the Fray counts any "
            f"roll above {INTO_THE_FRAY_ROLL_CAP} as {INTO_THE_FRAY_ROLL_CAP}: it cannot be made.",
            "min_roll": None,
        }
    )
