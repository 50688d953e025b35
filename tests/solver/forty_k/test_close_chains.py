"""Chains of moves in the close moves' local search (issue 45 item 2): pile-in-v1's two-unit
pile in, whose front is full once 13 models touch, gets all 20 models able to fight without
CP-SAT's search (which ran out of time on it once overlaps were forbidden)."""

from __future__ import annotations

from repo_paths import LAYOUTS

from chargeopt.models import Status
from chargeopt.solver import load_scenario, solve
from chargeopt.solver.options import SolveOptions
from chargeopt.solver.verify import verified

TWO_UNITS = LAYOUTS / "pile-in-v1" / "p20-two-units-10e.toml"


def test_two_unit_pile_in_is_settled_by_the_local_search() -> None:
    """13 in base contact (the packing's ceiling) and all 20 can fight (the whole unit, the
    suite's hand value), proven by the ceilings alone: both stages settled without a search,
    and the checker finds nothing."""
    scenario = load_scenario(TWO_UNITS)
    result = verified(scenario, solve(scenario, options=SolveOptions(workers=1)))
    assert result.status == Status.OPTIMAL
    assert result.violations == ()
    assert (result.objective["base_contact"], result.objective["can_fight"]) == (13, 20)
    assert dict(result.bound) == {"base_contact": 13, "can_fight": 20}
    settled = {s["name"]: s for s in result.stats["stages"]}
    assert settled["can_fight"]["status"] == "OPTIMAL"
    assert settled["can_fight"]["seconds"] == 0.0
