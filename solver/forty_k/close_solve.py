"""A 3" close-combat move solved end to end (each move kind checks eligibility first): the
discrete answer, the 10th edition's all-or-nothing engagement rule and its consolidation toward
an objective marker, continuous polishing, and the result: who touches whom, who is in
engagement range, and whom each model can fight (measured by `chargeopt.geometry.fight`)."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from chargeopt.geometry import Footprint, edge_distance
from chargeopt.geometry.fight import Reading, fight_eligibility
from chargeopt.models import ActionKind, Placement, Result, ResultAction, Scenario, Status
from chargeopt.solver.core import clock, progress
from chargeopt.solver.core.polish import Pose, polish, poses_of
from chargeopt.solver.core.tolerances import KEPT_IN, MARGIN_IN, PAIR_KEPT_IN
from chargeopt.solver.core.written import written_pose
from chargeopt.solver.forty_k.close_fight import CloseAnswer, solve_discrete
from chargeopt.solver.forty_k.close_moves import (
    CLOSER_IN,
    OBJECTIVE_VERTICAL_IN,
    CloseMove,
    Goal,
    marker_footprint,
)
from chargeopt.solver.forty_k.placements import placements_at
from chargeopt.solver.options import SolveOptions

STATUS = {
    "OPTIMAL": Status.OPTIMAL,
    "FEASIBLE": Status.FEASIBLE,
    "INFEASIBLE": Status.INFEASIBLE,
    "UNKNOWN": Status.UNKNOWN,
}


def solve_close(move: CloseMove, options: SolveOptions) -> Result:
    """Solve the move: toward the enemy; in the 10th edition, if the unit cannot end within
    engagement range of an enemy unit, no model moves, except that a consolidation may then
    go toward the closest objective marker."""
    t0 = time.perf_counter()
    deadline = clock.now() + options.time_limit_s
    scenario = move.scenario
    goal = Goal()
    progress.stage("placing")
    answer = solve_discrete(move, options, goal, deadline)
    reason = None
    state = answer.state
    all_or_nothing = scenario.rules.edition == "40k-10e" and scenario.action.kind in (
        ActionKind.PILE_IN,
        ActionKind.CONSOLIDATE,
    )
    if all_or_nothing and state.assignment is not None and not engages(move, answer):
        proven = state.status == "OPTIMAL"
        marker = move.closest_marker() if scenario.action.kind == ActionKind.CONSOLIDATE else None
        words = "no placement on the candidates" if proven else "no placement found in time"
        reason = (
            f"{words} brings unit {move.unit.id!r} within engagement range of an enemy unit, "
            "so (10th edition) "
        )
        if marker is not None:
            goal = Goal(marker)
            progress.stage(f"toward objective marker {marker.id}")
            answer = solve_discrete(move, options, goal, deadline)
            state = answer.state
            if state.assignment is None:
                reason += (
                    f"it may consolidate toward objective marker {marker.id!r}, but no "
                    "placement on the candidates ends within range of it; no model moves"
                )
            else:
                reason += f"it consolidates toward objective marker {marker.id!r}"
        else:
            reason += "no model moves"
        if state.assignment is None or marker is None:
            answer.state.assignment = dict(answer.starts)
            answer.state.status = "OPTIMAL" if proven else "UNKNOWN"
            goal = Goal()
    return _result(move, answer, goal, reason, t0)


def engages(move: CloseMove, answer: CloseAnswer) -> bool:
    """Whether the discrete answer puts a model within engagement range of an enemy unit."""
    assignment = answer.state.assignment or {}
    return any(answer.c.engaged[p] for p in assignment.values())


def _result(
    move: CloseMove, answer: CloseAnswer, goal: Goal, reason: str | None, started: float
) -> Result:
    scenario, state, c = move.scenario, answer.state, answer.c
    proof = None
    if state.assignment is not None:
        status = STATUS.get(state.status, Status.FEASIBLE)
        poses = poses_of(c, state.assignment)
        for mid in move.fixed:
            poses[mid] = _start_pose(scenario, mid)
        poses = polish(move.view, move.battlefield, poses, move.limit_in, _keeps(move, goal, poses))
        placements = _with_fights(move, placements_at(move.view, move.battlefield, poses))
    else:
        status = Status.INFEASIBLE if state.status == "INFEASIBLE" else Status.UNKNOWN
        placements = tuple(
            Placement(model=m.id, x=m.x, y=m.y, z=m.z, moved=0.0) for m in move.unit.models
        )
        if status == Status.INFEASIBLE:
            proof = _proof(move, goal)
    objective, bound = objective_and_bound(move, state, goal, placements)
    return Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=ResultAction.of(scenario.action, None),
        status=status,
        objective=objective,
        bound=bound,
        placements=placements,
        proof=proof,
        stats={
            "seconds": round(time.perf_counter() - started, 3),
            "candidates": len(c),
            "connectivity_cuts": state.cuts,
            "bound_scope": "candidates",
            "stages": [s.__dict__ for s in state.stages],
            "toward": "enemy" if goal.marker is None else f"objective {goal.marker.id}",
            **({"reason": reason} if reason else {}),
        },
    )


def _start_pose(scenario: Scenario, model_id: str) -> Pose:
    m = scenario.model_index[model_id][1]
    return Pose(m.x, m.y, m.z, m.facing, 0.0)


SOLVER_READING = Reading(range_in=KEPT_IN, pair_in=PAIR_KEPT_IN)
"""A fight is claimed only with what a written answer keeps inside its ranges."""


def _with_fights(move: CloseMove, placements: tuple[Placement, ...]) -> tuple[Placement, ...]:
    """Each placement with the enemy units its model can fight, as the geometry measures it
    with the answers' margins (`SOLVER_READING`)."""
    fights = fight_eligibility(
        move.scenario, placements, battlefield=move.battlefield, reading=SOLVER_READING
    )
    return tuple(
        p.model_copy(update={"fights": tuple(fights.get(p.model, ()))}) for p in placements
    )


def _as_placements(
    scenario: Scenario, poses: dict[str, Pose], memo: dict[tuple, Placement] | None = None
) -> list[Placement]:
    """The poses as the result will write them (`written_pose`, as `placements_at` does), so
    that a model polished to the very edge of a fight range is measured as it will be
    reported. `memo`, when given, keeps each placement made under the values it was made
    from."""
    out = []
    for mid, p in poses.items():
        key = (mid, p.x, p.y, p.z, p.facing)
        placed = memo.get(key) if memo is not None else None
        if placed is None:
            w = written_pose(scenario.model_index[mid][1], p)
            placed = Placement(model=mid, x=w.x, y=w.y, z=w.z, facing=w.facing)
            if memo is not None:
                memo[key] = placed
        out.append(placed)
    return out


def _keeps(move: CloseMove, goal: Goal, poses: dict[str, Pose]) -> Callable[..., bool]:
    """Polishing's end rule for these moves: a model that moved ends strictly closer to its
    goal, and neither the models that can fight nor those on the objective get fewer."""
    scenario = move.scenario
    index = {m.id: i for i, m in enumerate(move.unit.models)}

    placed: dict[tuple, Placement] = {}

    def fighting(now: dict[str, Pose]) -> int:
        fights = fight_eligibility(
            scenario,
            _as_placements(scenario, now, placed),
            battlefield=move.battlefield,
            reading=SOLVER_READING,
        )
        return sum(1 for f in fights.values() if f)

    fighters = fighting(poses)
    on_marker = _on_marker(move, goal, poses)

    def keeps(now: dict[str, Pose], mid: str) -> bool:
        model = scenario.model_index[mid][1]
        pose = now[mid]
        if abs(pose.x - model.x) > 1e-9 or abs(pose.y - model.y) > 1e-9:
            end = Footprint(move.unit.base_of(model), pose.x, pose.y, pose.z, pose.facing)
            if goal.marker is None:
                toward, before = move.closest(index[mid])
            else:
                toward = [marker_footprint(goal.marker)]
                before = edge_distance(move.footprint(model), toward[0])
            if not any(edge_distance(end, t) < before - CLOSER_IN for t in toward):
                return False
        return _on_marker(move, goal, now) >= on_marker and fighting(now) >= fighters

    return keeps


def _on_marker(
    move: CloseMove, goal: Goal, poses: dict[str, Pose], margin_in: float = MARGIN_IN
) -> int:
    """Models within range of the goal's objective marker, `margin_in` inside it (0 without
    one): the candidates' margin for poses, `KEPT_IN` for written placements."""
    if goal.marker is None:
        return 0
    marker = marker_footprint(goal.marker)
    count = 0
    for mid, pose in poses.items():
        base = move.unit.base_of(move.scenario.model_index[mid][1])
        gap = edge_distance(Footprint(base, pose.x, pose.y, pose.z, pose.facing), marker)
        count += (
            gap <= move.rules.objective_range_in - margin_in
            and abs(pose.z - marker.z) <= OBJECTIVE_VERTICAL_IN
        )
    return count


def objective_and_bound(move: CloseMove, state, goal: Goal, placements) -> tuple[dict, dict]:
    if state.assignment is None:
        return {}, {}
    fighters = sum(1 for p in placements if p.fights)
    objective: dict[str, int | float] = {
        "base_contact": sum(1 for p in placements if p.contact),
        "can_fight": fighters,
    }
    if goal.marker is not None:
        poses = {p.model: Pose(p.x, p.y, p.z, p.facing or 0.0, 0.0) for p in placements}
        objective["on_objective"] = _on_marker(move, goal, poses, KEPT_IN)
    objective["movement_in"] = round(sum(p.moved or 0.0 for p in placements), 3)
    n = len(placements)
    bound = {
        s.name: min(n, int(np.floor(s.bound + 1e-9)))
        for s in state.stages
        if s.name != "movement" and np.isfinite(s.bound)
    }
    return objective, bound


def _proof(move: CloseMove, goal: Goal) -> str:
    rules, unit = move.rules, move.unit
    k = rules.coherency_neighbours(len(unit.models))
    toward = (
        "the enemy model that was closest to it"
        if goal.marker is None
        else f"objective marker {goal.marker.id!r}"
    )
    return (
        f"No placement on the solver's candidate positions keeps unit {unit.id!r} in coherency "
        f'(each model within {rules.coherency_range_in:g}" of {k} other model'
        f"{'s' if k != 1 else ''} of the unit, all in one group) while each model that moves "
        f'goes at most {move.limit_in:g}" and ends closer to {toward}. A unit must end every '
        "move in coherency, so this move cannot be made and no model moves."
    )
