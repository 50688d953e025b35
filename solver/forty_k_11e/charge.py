"""The 11th-edition charge: targets are chosen after the roll, so the answer is, for each set
of enemy units the roll may charge, the best placement (most models within 1" of a target,
then most engaged, then least movement), its minimum roll and chances, or the proof that it
cannot be made; the top-level answer is the best set's."""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from chargeopt.geometry import Battlefield, Footprint, edge_distance
from chargeopt.geometry.terrain_11e import SKIES_LESS_IN, move_allowance_in
from chargeopt.models import (
    IneligibleMoveError,
    Placement,
    Result,
    ResultAction,
    Scenario,
    Status,
)
from chargeopt.solver.bounds.proofs import charge_impossibility
from chargeopt.solver.core import clock
from chargeopt.solver.core.dice import chance_at_least, chance_with_reroll
from chargeopt.solver.core.polish import poses_of
from chargeopt.solver.forty_k.placements import placements_at, stay_put
from chargeopt.solver.forty_k_11e.placing import Placing, candidates_11e, place, refined
from chargeopt.solver.forty_k_11e.proofs import span_impossibility
from chargeopt.solver.forty_k_11e.targets import least_roll, target_sets
from chargeopt.solver.options import SolveOptions

ROLL_PROBE_SHARE = 0.25
"""Share of a set's budget for the rolls below its answer's (the minimum roll's search)."""


@dataclass
class SetAnswer:
    """One set of targets: its verdict at the solved roll, and its minimum roll."""

    targets: tuple[str, ...]
    roll: int | None
    status: Status
    placements: tuple[Placement, ...] = ()
    objective: dict[str, float] = field(default_factory=dict)
    bound: dict[str, int] = field(default_factory=dict)
    proof: str | None = None
    min_roll: int | None = None
    min_roll_proven: bool = False
    min_roll_lower: int | None = None
    candidates: int = 0
    straight_line: dict[str, int] = field(default_factory=dict)

    def rank(self) -> tuple[float, ...]:
        """Best first: an answer before none, then most within 1", most engaged, least moved."""
        if self.status not in (Status.OPTIMAL, Status.FEASIBLE):
            return (1, 0, 0, 0, len(self.targets))
        o = self.objective
        return (0, -o["within_1"], -o["engaged"], o["movement_in"], len(self.targets))

    def as_row(self, dice: int) -> dict[str, object]:
        chance = None if self.min_roll is None else float(chance_at_least(self.min_roll, dice))
        again = None if self.min_roll is None else float(chance_with_reroll(self.min_roll, dice))
        return {
            "targets": list(self.targets),
            "status": self.status.value,
            "roll": self.roll,
            "min_roll": self.min_roll,
            "min_roll_proven": self.min_roll_proven,
            "success_probability": None if chance is None else round(chance, 4),
            "success_probability_reroll": None if again is None else round(again, 4),
            "objective": dict(self.objective),
            "bound": dict(self.bound),
            "straight_line_bound": dict(self.straight_line),
            "proof": self.proof,
            "placements": [p.model_dump(mode="json") for p in self.placements],
        }


def solve_charge_11e(scenario: Scenario, options: SolveOptions) -> Result:
    """Every target set the roll allows (or the named one), each solved at the roll, or at its
    minimum roll when no roll is given; the best set is the answer."""
    t0 = time.perf_counter()
    battlefield = Battlefield.from_scenario(scenario)
    dice = scenario.rules.charge_dice
    roll = options.roll if options.roll is not None else scenario.action.roll
    sets, gaps = target_sets(scenario, roll)
    engaged = [u for u, gap in gaps.items() if gap <= scenario.rules.engagement_range_in]
    if engaged:
        raise IneligibleMoveError(
            f"unit {scenario.action.unit!r} cannot declare a charge: it is engaged with "
            f'{", ".join(engaged)} (within {scenario.rules.engagement_range_in:g}"; '
            f'{gaps[engaged[0]]:.2f}" away edge to edge)'
        )
    end = clock.now() + options.time_limit_s
    answers: list[SetAnswer] = []
    for k, targets in enumerate(sets):
        share = (end - clock.now()) / (len(sets) - k)
        answers.append(_solve_set(scenario, battlefield, targets, roll, options, share, gaps))
    answers.sort(key=SetAnswer.rank)
    if not answers:
        refused = _nothing_in_reach(scenario, roll, gaps, t0)
        if roll is None or not target_sets(scenario, None)[0]:
            return refused
        unrolled = scenario.model_copy(
            update={"action": scenario.action.model_copy(update={"roll": None})}
        )
        later = solve_charge_11e(
            unrolled, replace(options, roll=None, time_limit_s=end - clock.now())
        )
        if later.min_roll is None:
            return refused
        return refused.model_copy(
            update={
                "min_roll": later.min_roll,
                "success_probability": later.success_probability,
                "success_probability_reroll": later.success_probability_reroll,
                "target_sets": later.target_sets,
                "stats": {**refused.stats, "min_roll_proven": later.stats["min_roll_proven"]},
            }
        )
    best = answers[0]
    status = best.status
    if status not in (Status.OPTIMAL, Status.FEASIBLE):
        proven = all(a.status == Status.INFEASIBLE for a in answers)
        status = Status.INFEASIBLE if proven else Status.UNKNOWN
    proof = None
    if status == Status.INFEASIBLE:
        proof = " ".join(f"[{', '.join(a.targets)}] {a.proof}" for a in answers)
        if len(answers) == 1:
            proof = answers[0].proof
    action = ResultAction(
        kind="charge", unit=scenario.action.unit, targets=best.targets, roll=best.roll
    )
    stats = {
        "seconds": round(time.perf_counter() - t0, 3),
        "candidates": best.candidates,
        "bound_scope": "candidates",
        "target_sets_tried": len(answers),
        "unit_distances": {uid: round(gap, 3) for uid, gap in gaps.items()},
        "min_roll_proven": best.min_roll_proven,
        "straight_line_bound": dict(best.straight_line),
    }
    if best.min_roll_lower is not None:
        stats["min_roll_lower"] = best.min_roll_lower
    return Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=action,
        status=status,
        min_roll=best.min_roll,
        success_probability=_chance(chance_at_least, best.min_roll, dice),
        success_probability_reroll=_chance(chance_with_reroll, best.min_roll, dice),
        objective=best.objective,
        bound=best.bound,
        placements=best.placements or stay_put(scenario),
        target_sets=tuple(a.as_row(dice) for a in answers),
        proof=proof,
        stats=stats,
    )


def _chance(fn, roll: int | None, dice: int) -> float | None:
    return None if roll is None else round(float(fn(roll, dice)), 4)


def _nothing_in_reach(
    scenario: Scenario, roll: int | None, gaps: dict[str, float], t0: float
) -> Result:
    """No enemy unit within 12" (or within the roll): no charge target exists; a proof."""
    reach = scenario.rules.charge_declaration_range_in
    nearest = min(gaps.items(), key=lambda kv: kv[1]) if gaps else None
    limit = f'{reach:g}"' if roll is None or roll >= reach else f'the roll of {roll}"'
    if roll is not None and scenario.action.take_to_the_skies:
        allowed = move_allowance_in(scenario, roll)
        if allowed < reach:
            limit = f'{allowed:g}" (the roll of {roll} less 2: it takes to the skies)'
    words = f"no enemy unit is within {limit} of unit {scenario.action.unit}"
    if nearest is not None:
        words += f' (the nearest, {nearest[0]}, is {nearest[1]:.2f}" away edge to edge)'
    return Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=ResultAction(kind="charge", unit=scenario.action.unit, targets=(), roll=roll),
        status=Status.INFEASIBLE,
        placements=stay_put(scenario),
        proof=words + ": it can choose no charge target, so it cannot charge.",
        stats={"seconds": round(time.perf_counter() - t0, 3), "target_sets_tried": 0},
    )


def targeting(scenario: Scenario, targets: tuple[str, ...]) -> Scenario:
    """The scenario with these targets chosen (ids known: no re-validation)."""
    action = scenario.action.model_copy(update={"targets": tuple(targets)})
    return scenario.model_copy(update={"action": action})


def _solve_set(
    scenario: Scenario,
    battlefield: Battlefield,
    targets: tuple[str, ...],
    roll: int | None,
    options: SolveOptions,
    seconds: float,
    gaps: dict[str, float],
) -> SetAnswer:
    """One set: refused by the rules (a target beyond 12" or the roll), else solved at the roll
    (or the least roll that works), with the minimum roll searched below it."""
    dice, top = scenario.rules.charge_dice, 6 * scenario.rules.charge_dice
    reach = scenario.rules.charge_declaration_range_in
    sub = targeting(scenario, targets)
    far = [t for t in targets if gaps[t] > reach]
    if far:
        words = "; ".join(f'{t} is {gaps[t]:.2f}" away' for t in far)
        return SetAnswer(
            targets,
            roll,
            Status.INFEASIBLE,
            proof=f'{words}, more than {reach:g}": a unit that far cannot be a charge target.',
        )
    lift = SKIES_LESS_IN if scenario.action.take_to_the_skies else 0.0
    least = least_roll(max(gaps[t] for t in targets) + lift, dice)
    end = clock.now() + seconds
    if roll is not None and roll < least:
        allowed = move_allowance_in(scenario, roll)
        far = [t for t in targets if gaps[t] > allowed]
        words = "; ".join(f'{t} is {gaps[t]:.2f}" away' for t in far)
        limit = f'the roll of {roll}"' if not lift else f'{allowed:g}" (the roll of {roll} less 2)'
        answer = SetAnswer(
            targets,
            roll,
            Status.INFEASIBLE,
            proof=f"{words}, more than {limit}: a unit beyond the roll cannot be a charge target.",
        )
        shared: dict[str, object] = {"upto": top}
        _minimum_roll(answer, sub, battlefield, options, least, top, end, None, shared)
        return answer
    if roll is None:
        return _at_least_roll(sub, battlefield, targets, options, least, top, end)
    shared: dict[str, object] = {"upto": roll}
    answer = _at_roll(sub, battlefield, targets, roll, options, (end - clock.now()) * 0.7, shared)
    solved = roll if answer.status in (Status.OPTIMAL, Status.FEASIBLE) else None
    _minimum_roll(answer, sub, battlefield, options, least, top, end, solved, shared)
    return answer


def _at_roll(
    sub: Scenario,
    battlefield: Battlefield,
    targets: tuple[str, ...],
    roll: int,
    options: SolveOptions,
    seconds: float,
    shared: dict[str, object] | None = None,
    feasibility: bool = False,
) -> SetAnswer:
    """The set solved at one roll: a placement, a proof, or neither (unknown). `shared`
    holds the set's candidates, built once for its largest roll (`candidates` and `upto`).
    A unit taking to the skies moves 2" less than the roll (`move`)."""
    move = int(move_allowance_in(sub, roll))
    ceiling = straight_line_ceiling(sub, move)
    reason = span_impossibility(sub) or charge_impossibility(sub, battlefield, move)
    if reason is not None:
        return SetAnswer(targets, roll, Status.INFEASIBLE, proof=reason, straight_line=ceiling)
    if shared is not None and "candidates" in shared and int(shared["upto"]) >= roll:
        c = shared["candidates"]
        reach = int(move_allowance_in(sub, int(shared["upto"])))
    else:
        upto = int(shared["upto"]) if shared is not None else roll
        reach = int(move_allowance_in(sub, max(upto, roll)))
        c = candidates_11e(sub, battlefield, reach, options)
        if shared is not None:
            shared["candidates"], shared["upto"] = c, max(upto, roll)
    placing = place(c, sub, move, options, seconds, ceiling, feasibility)
    answer = SetAnswer(targets, roll, Status.UNKNOWN, candidates=len(c), straight_line=ceiling)
    if placing.placed is None:
        return answer
    if not feasibility:
        c, placing.placed = refined(c, placing.placed, sub, battlefield, reach, options, move)
    placements = placements_at(sub, battlefield, poses_of(c, placing.placed))
    answer.status = Status.OPTIMAL if placing.status == "OPTIMAL" else Status.FEASIBLE
    if feasibility:
        answer.status = Status.FEASIBLE
    answer.placements = placements
    answer.objective = {
        "within_1": placing.within_1,
        "engaged": placing.engaged,
        "movement_in": round(sum(p.moved or 0.0 for p in placements), 3),
    }
    answer.bound = _bound(placing, ceiling)
    return answer


def _bound(placing: Placing, ceiling: dict[str, int]) -> dict[str, int]:
    """The proven ceilings: over the candidates where CP-SAT proved its stage, never above
    the straight line's ceiling on the whole table."""
    out = {}
    for name in ("within_1", "engaged"):
        if name in placing.bound:
            out[name] = min(placing.bound[name], ceiling[name])
        else:
            out[name] = ceiling[name]
    return out


def straight_line_ceiling(sub: Scenario, roll: int) -> dict[str, int]:
    """Models that could end within 1" of (or engaged with) a target by moving the roll in a
    straight line: a ceiling anywhere on the table (a path is never shorter)."""
    unit = sub.acting_unit
    rules = sub.rules
    out = {"within_1": 0, "engaged": 0}
    for m in unit.models:
        here = Footprint(unit.base_of(m), m.x, m.y, m.z, m.facing)
        gap = min(
            edge_distance(here, Footprint(t.base_of(n), n.x, n.y, n.z, n.facing))
            for t in (sub.unit_by_id[i] for i in sub.action.targets)
            for n in t.models
        )
        out["within_1"] += gap <= roll + (rules.within_one_in or 1.0)
        out["engaged"] += gap <= roll + rules.engagement_range_in
    return out


def _at_least_roll(
    sub: Scenario,
    battlefield: Battlefield,
    targets: tuple[str, ...],
    options: SolveOptions,
    least: int,
    top: int,
    end: float,
) -> SetAnswer:
    """No roll given: the set solved at the smallest roll from `least` up that has a
    placement; every roll below `least` fails by the rules, below that others by proof."""
    proven_below = True
    shared: dict[str, object] = {"upto": top}
    for r in range(least, top + 1):
        left = end - clock.now()
        if left <= 0:
            break
        answer = _at_roll(sub, battlefield, targets, r, options, left * 0.5, shared)
        if answer.status in (Status.OPTIMAL, Status.FEASIBLE):
            answer.min_roll = r
            answer.min_roll_proven = proven_below
            answer.min_roll_lower = least
            return answer
        proven_below &= answer.status == Status.INFEASIBLE
    answer = _at_roll(sub, battlefield, targets, top, options, 0.0, shared)
    if answer.status != Status.INFEASIBLE:
        answer.status = Status.UNKNOWN
    return answer


def _minimum_roll(
    answer: SetAnswer,
    sub: Scenario,
    battlefield: Battlefield,
    options: SolveOptions,
    least: int,
    top: int,
    end: float,
    solved: int | None,
    shared: dict[str, object],
) -> None:
    """The set's minimum roll: the least roll from `least` with a placement (up to the solved
    roll, which has one), proven where every smaller roll is (`least` by the rules)."""
    upto = solved if solved is not None else top
    proven = True
    for r in range(least, upto + 1):
        if r == solved:
            answer.min_roll, answer.min_roll_proven = r, proven
            answer.min_roll_lower = least
            return
        left = end - clock.now()
        if left <= 0:
            break
        probe = _at_roll(
            sub, battlefield, answer.targets, r, options, left * ROLL_PROBE_SHARE, shared, True
        )
        if probe.status in (Status.OPTIMAL, Status.FEASIBLE):
            answer.min_roll, answer.min_roll_proven = r, proven
            answer.min_roll_lower = least
            return
        proven &= probe.status == Status.INFEASIBLE
