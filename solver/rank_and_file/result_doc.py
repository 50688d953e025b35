"""A rank-and-file ruling as the result document: the charging blocks' models as placements,
every block's end pose and reasons in `blocks`, the counts as objective and bound."""

from __future__ import annotations

import time

from chargeopt.geometry.rank_and_file.frame import BlockPose, model_bases
from chargeopt.models import Placement, RankAndFileScenario, Result, ResultAction, Status
from chargeopt.solver.rank_and_file.odds import chance_of_range
from chargeopt.solver.rank_and_file.ruling import Ruling

BOUND_SCOPE = "slides exact; snaking paths sampled: forward-wheel-forward, else two wheels"


def final_poses(scenario: RankAndFileScenario, rulings: list[Ruling]) -> dict[str, BlockPose]:
    """Where every block stands at the end: moved ones from their ruling, others as they are."""
    poses = {u.id: BlockPose.of(u) for u in scenario.units}
    for r in rulings:
        if r.end is not None:
            poses[r.unit] = r.end
    return poses


def placements(scenario: RankAndFileScenario, rulings: list[Ruling]) -> tuple[Placement, ...]:
    """Every model of every charger that moved, with the enemy models its base touches."""
    poses = final_poses(scenario, rulings)
    target = scenario.target
    target_bases = model_bases(target, poses[target.id])
    out = []
    for r in rulings:
        if r.role != "charger" or r.end is None:
            continue
        block = scenario.unit_by_id[r.unit]
        for model_id, _, _, base in model_bases(block, r.end):
            touching = tuple(m for m, _, _, b in target_bases if base.distance(b) <= 0.005)
            c = base.centroid
            out.append(
                Placement(
                    model=model_id,
                    x=round(c.x, 4),
                    y=round(c.y, 4),
                    facing=round(r.end.facing, 4),
                    contact=touching,
                )
            )
    return tuple(out)


def charge_result(
    scenario: RankAndFileScenario,
    rulings: list[Ruling],
    status: Status,
    proof: str | None,
    started: float,
    roll: int | None,
    candidates: int = 0,
    objective: dict[str, int | float] | None = None,
) -> Result:
    """The result of a (combined) charge. A charge no Charge Move reaches (outcome
    "impossible") has no smallest Charge Range and no chance: no roll makes it succeed."""
    first = rulings[0]
    charger = scenario.unit_by_id[first.unit]
    if objective is None and status != Status.INFEASIBLE:
        objective = {
            "aligned": int(bool(first.aligned)),
            "target_models_in_contact": first.target_models or 0,
            "models_in_contact": first.charger_models or 0,
        }
        if not first.aligned:
            objective["angle_deg"] = round(first.angle_deg or 0.0, 3)
    needed = first.range_needed
    chance = None
    if scenario.rules.charge_move != "t9a-roll":
        needed, chance = first.min_roll, first.chance
    elif first.outcome == "impossible":
        needed = None
    elif needed is not None and len(scenario.action.chargers) == 1:
        chance = float(
            chance_of_range(needed, charger.profile.charge_speed, charger.profile.maximised_charge)
        )
    return Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=ResultAction(
            kind="charge", unit=first.unit, targets=scenario.action.targets, roll=roll
        ),
        status=status,
        min_roll=needed if len(scenario.action.chargers) == 1 else None,
        success_probability=None if chance is None else round(chance, 4),
        objective=objective or {},
        bound=dict(objective or {}) if status == Status.OPTIMAL else {},
        placements=placements(scenario, rulings) if status != Status.INFEASIBLE else (),
        blocks=tuple(r.as_dict() for r in rulings),
        proof=proof,
        stats={
            "seconds": round(time.perf_counter() - started, 4),
            "candidates": candidates,
            "bound_scope": BOUND_SCOPE,
        },
    )
