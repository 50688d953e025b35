"""A single T9A charge's answer judged over every Snaking Forward Move.

The seed's Charge Move is one Snaking Forward Move "with an unlimited distance" once the Charge
Range covers the distance between the units, so length bounds nothing after the roll: every
point of the Target Facing may be the initial contact (a charger already touching the target
has no move to make: its contact is where it touches). The best aligned placement keeping some
point of it (the legal flush slides, exact) is a ceiling on every charge, whatever blocks the
way: `optimal` when the answer meets it. `infeasible` is proven when no roll the dice can give
covers the distance between the units; a charge walled off within range stays a verdict over
the paths searched, and the proof says so.
"""

from __future__ import annotations

import itertools

from shapely.geometry import LineString

from chargeopt.geometry.rank_and_file.frame import FACINGS, BlockPose, Segment
from chargeopt.geometry.rank_and_file.obstacles import Obstacle, table_obstacles
from chargeopt.geometry.rank_and_file.slides import Interval, facing_bases
from chargeopt.models import RankAndFileScenario, Result, Status
from chargeopt.solver.core import clock
from chargeopt.solver.core.lazy_ortools import cp_model
from chargeopt.solver.rank_and_file.align import align, intersect, kept_slides, legal_slides
from chargeopt.solver.rank_and_file.blocked_path import blocked_path
from chargeopt.solver.rank_and_file.combined import Plan, _model, _plan
from chargeopt.solver.rank_and_file.opening import open_ruling
from chargeopt.solver.rank_and_file.ruling import Ruling

TOUCH_IN = 1e-7
"""A charger this close to the target already touches it (and the span it touches is
widened this much: a superset, still a ceiling)."""
CEILING_S = 20.0
"""Each ceiling model's limit on the solver's clock (in CP-SAT's deterministic time, so the
verdict does not depend on the machine's load; these small models are solved in
milliseconds)."""


def ceiling(scenario: RankAndFileScenario, facings: list[str]) -> tuple[int, int, int]:
    """(aligned, target models, charger models) at the best aligned placement keeping some
    point of one of `facings` in contact (where the front already touches it, if it does);
    (0, 0, 0) when no legal aligned slide exists."""
    charger, target = scenario.acting_unit, scenario.target
    pose, start = BlockPose.of(target), BlockPose.of(charger)
    obstacles = table_obstacles(scenario, {charger.id, target.id})
    touching = start.polygon.distance(pose.polygon) <= TOUCH_IN
    best = (0, 0, 0)
    for name in facings:
        facing = pose.facing_segment(name)
        span = (touched(start, facing) if touching else None) or (0.0, facing.length_in)
        bases = facing_bases(target, pose, facing, charger, scenario.rules.fight_over_gaps)
        choice = align(charger, facing, bases, obstacles, [span]).best
        if choice is not None:
            best = max(best, (1, choice.target_models, choice.charger_models))
    return best


def touched(start: BlockPose, facing: Segment) -> Interval | None:
    """Where a charger already touching the target touches `facing` with its front (widened
    by `TOUCH_IN`): its initial contact, since it has no move to make first."""
    front = LineString([start.corners["front-left"], start.corners["front-right"]])
    line = LineString([facing.start, facing.end])
    part = line.intersection(front.buffer(TOUCH_IN))
    if part.is_empty:
        return None
    alongs = [facing.along(p) for p in _coords(part)]
    return max(0.0, min(alongs) - TOUCH_IN), min(facing.length_in, max(alongs) + TOUCH_IN)


def _coords(geom) -> list[tuple[float, float]]:
    if hasattr(geom, "geoms"):
        return [p for g in geom.geoms for p in _coords(g)]
    return list(geom.coords)


def most_range(scenario: RankAndFileScenario) -> float:
    """The highest Charge Range the dice can give: 6 + 4 + Charge Speed."""
    return 10.0 + (scenario.acting_unit.profile.charge_speed or 0.0)


def judged_over_every_path(scenario: RankAndFileScenario, result: Result) -> Result:
    """The result with its status and proof judged over every Snaking Forward Move."""
    if len(scenario.action.chargers) != 1 or not result.blocks:
        return result
    block = result.blocks[0]
    if result.status == Status.INFEASIBLE:
        return (
            _impossible(scenario, result, block) if block.get("outcome") == "impossible" else result
        )
    if result.status != Status.OPTIMAL:
        return result
    facings = list(FACINGS) if block.get("blocked_path") else [block.get("target_facing")]
    best = ceiling(scenario, [f for f in facings if f])
    answer = (
        int(bool(block.get("aligned"))),
        block.get("target_models_in_contact", 0),
        block.get("models_in_contact", 0),
    )
    charger, target = scenario.acting_unit.id, scenario.target.id
    start, pose = BlockPose.of(scenario.acting_unit), BlockPose.of(scenario.target)
    if start.polygon.distance(pose.polygon) <= TOUCH_IN:
        where = f"where {charger} already touches {target}"
    elif block.get("blocked_path"):
        where = f"a point of any facing of {target} (Blocked Path)"
    else:
        where = f"a point of {target}'s {block.get('target_facing')}"
    if answer >= best:
        proof = (
            "proven over every Snaking Forward Move (unlimited in distance): no aligned "
            f"placement keeping {where} has more in contact"
        )
        if block.get("unaligned"):
            proof = (
                "proven over every Snaking Forward Move (unlimited in distance): no aligned "
                f"placement keeps {where}; the Unaligned Charge's least angle is found by a "
                "0.5-degree scan bisected to 0.0001 degree (not over every angle)"
            )
        stats = {**result.stats, "bound_scope": "every Snaking Forward Move"}
        return result.model_copy(update={"proof": proof, "stats": stats})
    proof = (
        "best over the paths searched (forward-wheel-forward, else two wheels) and the slides "
        f"keeping their contact points; an aligned placement keeping {where} with {best[1]} of "
        f"{target}'s models and {best[2]} of {charger}'s in contact is legal where it stands, "
        "and no path to it is ruled out"
    )
    stats = {**result.stats, "bound_scope": "every point of the Target Facing (every path)"}
    bound = dict(
        zip(("aligned", "target_models_in_contact", "models_in_contact"), best, strict=True)
    )
    return result.model_copy(
        update={"status": Status.FEASIBLE, "proof": proof, "stats": stats, "bound": bound}
    )


def _impossible(scenario: RankAndFileScenario, result: Result, block: dict) -> Result:
    """The proof of a charge no path was found for: proven when no roll covers the distance."""
    distance = block.get("distance_in") or 0.0
    top = most_range(scenario)
    if distance > top:
        extra = (
            f'; proven: no Charge Range the dice can give (at most {top:g}") covers the '
            f'{distance:.2f}" between the units'
        )
    else:
        extra = (
            "; a verdict over the paths searched, not proven over every Snaking Forward Move "
            "(a path with more wheels, or through a gap narrower than the grids, is not tried)"
        )
    return result.model_copy(update={"proof": (result.proof or "") + extra})


def judged_combined(scenario: RankAndFileScenario, result: Result) -> Result:
    """A combined charge judged over every Snaking Forward Move: the combined model (one
    CP-SAT model, `combined.py`) re-solved with every charger whose roll covers the distance
    free to keep any point of its Target Facing (where it touches, if it already does; any
    facing for a charger Blocked Path may allow), the chargers' paths and order ignored, over
    every choice of facings: a ceiling on (charges, models in contact)."""
    if result.status != Status.OPTIMAL:
        return result
    choices = _free_choices(scenario)
    if not choices:
        return result
    ceiling = (0, 0)
    for combo in itertools.product(*choices):
        plans = list(combo)
        model, _, _, score, _ = _model(plans, scenario.target, None, False)
        solver = cp_model.CpSolver()
        model.maximize(score)
        if clock.run(solver, model, CEILING_S, where="T9A reach ceiling") != cp_model.OPTIMAL:
            return _not_proven(result, "the ceiling's model was not solved to optimality")
        big = scenario.target.model_count + sum(p.block.files for p in plans) + 1
        best = round(solver.objective_value)
        ceiling = max(ceiling, (best // big, best % big))
    got = result.objective
    answer = (got["charges"], got["target_models_in_contact"] + got["models_in_contact"])
    if answer >= ceiling:
        proof = (
            "proven over every Snaking Forward Move (unlimited in distance): with every charger "
            "whose roll covers the distance free to keep any point of the Target Facing (of "
            "any facing under Blocked Path, or where it touches), no combined placement has "
            "more charges or more in contact"
        )
        return result.model_copy(update={"proof": proof})
    return _not_proven(
        result,
        f"with any contact points, {ceiling[0]} charges and {ceiling[1]} models in contact are "
        "not ruled out",
        {"charges": ceiling[0], "models_in_contact_both_sides": ceiling[1]},
    )


def _free_choices(scenario: RankAndFileScenario) -> list[list[Plan]]:
    """Each charger whose roll covers the distance: its free plans, one per facing it may
    take (its Target Facing; every facing when no searched path completes a Charge Move
    against it and the target is the first thing straight ahead, Blocked Path's test)."""
    target = scenario.target
    pose = BlockPose.of(target)
    choices = []
    for uid in scenario.action.chargers:
        roll = scenario.action.roll_of(uid)
        ruling = open_ruling(scenario, uid, roll)
        if ruling.outcome == "fails" or ruling.arc is None:
            continue
        around = table_obstacles(scenario, {uid, target.id})
        facings = [ruling.arc]
        if _plan(scenario, uid, roll).reason and blocked_path(
            scenario, ruling.start, target.id, around, pose
        ):
            facings = list(FACINGS)
        plans = [p for f in facings if (p := _free_plan(scenario, ruling, f, around))]
        if plans:
            choices.append(plans)
    return choices


def _free_plan(
    scenario: RankAndFileScenario, ruling: Ruling, facing_name: str, around: list[Obstacle]
) -> Plan | None:
    """The charger's legal slides on one facing keeping any point of it (or where it already
    touches), other chargers not in the way; None when it has none."""
    target, uid = scenario.target, ruling.unit
    pose = BlockPose.of(target)
    block = scenario.unit_by_id[uid]
    facing = pose.facing_segment(facing_name)
    fixed = [o for o in around if o.name not in scenario.action.chargers]
    allowed, _ = legal_slides(block, facing, fixed)
    start = BlockPose.of(block)
    span = touched(start, facing) if start.polygon.distance(pose.polygon) <= TOUCH_IN else None
    if span is not None:
        allowed = intersect(allowed, kept_slides(block, [span]))
    if not allowed:
        return None
    bases = facing_bases(target, pose, facing, block, scenario.rules.fight_over_gaps)
    return Plan(ruling, block, facing, None, bases, allowed)


def _not_proven(result: Result, why: str, bound: dict | None = None) -> Result:
    proof = f"best over the paths searched and the slides keeping their contact points; {why}"
    update: dict = {"status": Status.FEASIBLE, "proof": proof}
    if bound is not None:
        update["bound"] = bound
    return result.model_copy(update=update)
