"""The charge's continuous repair step: where an answer is not proven best on engagement and time
is left, hand it to the repair (engaged_repair) and keep what the checker passes."""

from __future__ import annotations

import time

from chargeopt.geometry import Battlefield
from chargeopt.geometry.checker import check_placement
from chargeopt.models import Placement, Result, Scenario, Status
from chargeopt.solver.core import clock, progress
from chargeopt.solver.core.polish import Pose, polish
from chargeopt.solver.core.tolerances import SUMMARY_STEP_IN
from chargeopt.solver.core.written import printed
from chargeopt.solver.forty_k.placements import objective_of, placements_at
from chargeopt.solver.options import SolveOptions

REPAIR_MIN_S = 0.5
"""No continuous repair starts with less time left than this."""

REPAIR_SHARE = 0.4
"""The continuous repair stops after this share of the time limit (4 s of the benchmarks' 10,
8 s of the CLI's 20): one model at a time takes up to 0.6 s where it adds one on scaling-v1,
and each repacking of the front (`engaged_repair._repack`) about a second."""


def repaired(
    result: Result,
    scenario: Scenario,
    battlefield: Battlefield,
    options: SolveOptions,
    t0: float,
    c0: float,
) -> Result:
    """The answer with models added within engagement range by the continuous repair
    (`engaged_repair`, at most REPAIR_SHARE of the time limit) where it is not proven best on
    engagement and time is left; its status becomes `optimal` where the repaired counts meet
    the bound. `t0` is when the solve began on the wall (for its timings), `c0` on the
    solver's clock (for its budget). The repair is opt-in: its modules load only when it runs."""
    found, top = result.objective.get("engaged"), result.bound.get("engaged")
    end = c0 + options.time_limit_s
    if (
        not options.repair
        or result.status != Status.FEASIBLE
        or "repair" in result.stats
        or found is None
        or top is None
        or found >= top
        or end - clock.now() < REPAIR_MIN_S
    ):
        return result
    from chargeopt.solver.forty_k.engaged_repair import applies_to, repair_engaged

    if not applies_to(scenario, battlefield):
        return result
    progress.stage("repair")
    started = time.perf_counter()
    roll = result.action.roll
    contacts = int(result.objective["base_contact"])
    poses = {
        p.model: Pose(p.x, p.y, p.z, p.facing or 0.0, p.moved or 0.0) for p in result.placements
    }

    def legal(placements: tuple[Placement, ...], engaged_at_least: int) -> bool:
        """Enough contacts and engaged models, legal as written and as the summary prints it
        (judged at its precision): the repair's rows keep the margins, the checker confirms."""
        return (
            sum(1 for p in placements if p.contact) >= contacts
            and sum(1 for p in placements if p.engaged) >= engaged_at_least
            and not check_placement(scenario, placements, roll=roll, battlefield=battlefield)
            and not check_placement(
                scenario,
                printed(placements),
                roll=roll,
                battlefield=battlefield,
                precision_in=SUMMARY_STEP_IN,
            )
        )

    repair = repair_engaged(
        scenario,
        battlefield,
        poses,
        {p.model for p in result.placements if p.engaged},
        {p.model: p.contact[0] for p in result.placements if p.contact},
        roll,
        int(top),
        min(end, clock.now() + REPAIR_SHARE * options.time_limit_s),
        lambda trial, at_least: legal(placements_at(scenario, battlefield, trial), at_least),
    )
    stats = dict(result.stats)
    stats["repair"] = {
        "added": list(repair.added) if repair else [],
        "seconds": round(time.perf_counter() - started, 3),
    }
    stats["seconds"] = round(time.perf_counter() - t0, 3)
    if repair is None:
        return result.model_copy(update={"stats": stats})
    placements = placements_at(scenario, battlefield, repair.poses)
    shorter = placements_at(
        scenario, battlefield, polish(scenario, battlefield, repair.poses, roll)
    )
    if legal(shorter, sum(1 for p in placements if p.engaged)):
        placements = shorter
    objective = objective_of(placements)
    closed = all(objective[t] >= result.bound[t] for t in ("base_contact", "engaged"))
    stats["repair"]["engaged"] = {"candidates": int(found), "repaired": objective["engaged"]}
    now_engaged = {p.model for p in placements if p.engaged}
    stats["repair"]["left"] = [
        p.model for p in result.placements if p.engaged and p.model not in now_engaged
    ]
    stats["seconds"] = round(time.perf_counter() - t0, 3)
    if closed:
        stats["bound_scope"] = "continuous"
    return result.model_copy(
        update={
            "placements": placements,
            "objective": objective,
            "status": Status.OPTIMAL if closed else Status.FEASIBLE,
            "stats": stats,
        }
    )
