"""The 40k-assault-4e greedy baseline: the seed's charge read literally, model by model. The
nearest model moves first into base contact with the nearest enemy model; then the unit's
models in the scenario's order, each taking the first in the list with a spot open, to its
best category (unengaged enemy, engaged enemy, within 2" of an engaged mate, within 2" of a
moved mate), touching most new enemies, then the shortest move. No look-ahead, no bound."""

from __future__ import annotations

import time

from chargeopt.geometry import Battlefield
from chargeopt.models import Result, Scenario, Status
from chargeopt.solver.assault_4e.answer import answer, no_answer
from chargeopt.solver.assault_4e.charge import charge_candidates
from chargeopt.solver.assault_4e.order import first_spot, greedy_from
from chargeopt.solver.assault_4e.sequence import Charge, first_model
from chargeopt.solver.core.polish import Pose
from chargeopt.solver.options import SolveOptions


def solve_literal_charge(scenario: Scenario, options: SolveOptions) -> Result:
    """The literal model-by-model charge; `feasible` when every model found its spot."""
    t0 = time.perf_counter()
    battlefield = Battlefield.from_scenario(scenario)
    charge = Charge.of(scenario, battlefield, charge_candidates(scenario, battlefield, options))
    first, foe = first_model(charge)
    stats: dict[str, object] = {"method": "greedy (literal seed order)"}
    lead = first_spot(charge, first, foe)
    queue = [m.id for m in charge.unit.models if m.id != first]
    if lead is None:
        stats["seconds"] = round(time.perf_counter() - t0, 3)
        return no_answer(scenario, Status.UNKNOWN, None, stats)
    ends, order, done = greedy_from(charge, {first: lead}, [first], queue, best_first=False)
    stats["seconds"] = round(time.perf_counter() - t0, 3)
    if not done:
        stats["stuck_after"] = len(order)
        return no_answer(scenario, Status.UNKNOWN, None, stats)
    poses = {
        mid: Pose(x, y, 0.0, charge.start(mid).facing, moved)
        for mid, (x, y, _, moved) in ends.items()
    }
    return answer(
        scenario, battlefield, poses, status=Status.FEASIBLE, order=order, bound={}, stats=stats
    )
