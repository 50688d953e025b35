"""A 40k move's answer as placements: each model's final pose with the target models it touches and
the target units it engages, and the objective counted from them."""

from __future__ import annotations

import numpy as np

from chargeopt.geometry import Battlefield, Footprint, edge_distance
from chargeopt.models import Placement, RoundBase, Scenario
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core.exact_limits import margin
from chargeopt.solver.core.ordered_solve import SolveState
from chargeopt.solver.core.polish import Pose, poses_of
from chargeopt.solver.core.tolerances import KEPT_IN
from chargeopt.solver.core.written import JSON_DECIMALS, written_pose


def placements_of(
    scenario: Scenario, c: cand.Candidates, placed: dict[str, int]
) -> tuple[Placement, ...]:
    """The placements of a discrete answer (model -> candidate) as they stand, unpolished."""
    return placements_at(scenario, Battlefield.from_scenario(scenario), poses_of(c, placed))


def placements_at(
    scenario: Scenario, battlefield: Battlefield, poses: dict[str, Pose]
) -> tuple[Placement, ...]:
    """One placement per model as the result writes it (`written_pose`: rounded to the JSON's
    grid), with the target models it touches and the target units it engages (`KEPT_IN`
    inside the range: a pose engaged with the candidates' `MARGIN_IN` is, once written),
    measured where it is written."""
    out = []
    rules = scenario.rules
    around = cand.surroundings(scenario)
    for m in scenario.acting_unit.models:
        base = scenario.acting_unit.base_of(m)
        pose = written_pose(m, poses[m.id], base.circumradius_in)
        end = Footprint(base, pose.x, pose.y, pose.z, pose.facing)
        limits = cand.engagement_limits(
            np.array([pose.x]), np.array([pose.y]), around.targets, battlefield, rules
        )[0]
        touching, engaged = [], set()
        for (uid, tid), t, limit in zip(around.target_ids, around.targets, limits, strict=True):
            gap = edge_distance(end, t)
            if gap <= rules.base_contact_tolerance_in and abs(t.z - pose.z) < 0.01:
                touching.append(tid)
            if gap <= limit - margin(KEPT_IN) and abs(t.z - pose.z) <= rules.engagement_vertical_in:
                engaged.add(uid)
        out.append(
            Placement(
                model=m.id,
                x=pose.x,
                y=pose.y,
                z=pose.z,
                facing=None if isinstance(base, RoundBase) else pose.facing,
                moved=round(pose.moved, JSON_DECIMALS),
                contact=tuple(touching),
                engaged=tuple(sorted(engaged)),
            )
        )
    return tuple(out)


def stay_put(scenario: Scenario) -> tuple[Placement, ...]:
    return tuple(
        Placement(model=m.id, x=m.x, y=m.y, z=m.z, moved=0.0) for m in scenario.acting_unit.models
    )


def objective_and_bound(state: SolveState, placements) -> tuple[dict[str, float], dict[str, float]]:
    if state.assignment is None:
        return {}, {}
    objective = objective_of(placements)
    bound = {}
    for s in state.stages:
        if s.name != "movement" and np.isfinite(s.bound):
            bound[s.name] = int(np.floor(s.bound + 1e-9))
    return objective, bound


def objective_of(placements: tuple[Placement, ...]) -> dict[str, float]:
    """Models in base contact, models engaged and the inches moved in all."""
    return {
        "base_contact": sum(1 for p in placements if p.contact),
        "engaged": sum(1 for p in placements if p.engaged),
        "movement_in": round(sum(p.moved or 0.0 for p in placements), 3),
    }
