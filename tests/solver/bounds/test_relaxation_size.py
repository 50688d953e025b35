"""The relaxation's size, known before it is built, and the rule that a bound relaxation too
large to settle in time is not run beside a legal placement (the straight-line ceilings stand)."""

from __future__ import annotations

import pytest
from builders import make_scenario

from chargeopt.geometry import Battlefield
from chargeopt.models import Scenario
from chargeopt.models.loading import load_scenario
from chargeopt.solver import solve
from chargeopt.solver.bounds.certify import BOUND_MAX_CHOICES
from chargeopt.solver.bounds.contact_bound import straight_line_ceilings
from chargeopt.solver.bounds.relaxation import build, start_cells, starting_size
from chargeopt.solver.bounds.relaxation_zones import zones

D32 = 32 / 25.4


def _choices(s: Scenario, roll: int) -> tuple[int, int]:
    """`starting_size`, and the count of cell choice variables in the built relaxation."""
    bf = Battlefield.from_scenario(s)
    z = zones(s, bf)
    r = build(z, start_cells(z, roll, bf.width, bf.height), roll)
    names = [v.name for v in r.model.Proto().variables]
    built = sum(1 for name in names if name.startswith(("s[", "x[")))
    return starting_size(z, roll, bf.width, bf.height), built


@pytest.mark.parametrize("roll", [4, 7])
def test_size_counts_the_choices_the_relaxation_builds(roll: int) -> None:
    """Five marines in a line 4" from two cultists: the size announced before building is
    exactly the number of cell choices the built model has."""
    marines = [(10.0 + 1.5 * i, 10.0) for i in range(5)]
    scenario = make_scenario(marines, {"B": [(12.0, 10 + D32 + 4.0), (14.0, 10 + D32 + 4.0)]})
    size, built = _choices(scenario, roll)
    assert size == built
    assert size > 0


def test_a_horde_keeps_the_straight_line_bound(repo_root) -> None:
    """Thirty models (scaling-v1 c30-open-s1): the relaxation has more choices than settle in
    time, so it is not run; the bound is the straight-line ceilings and the answer, though
    proven on the candidates, stays `feasible` where those ceilings sit above it."""
    path = repo_root / "benchmarks" / "layouts" / "scaling-v1" / "c30-open-s1.toml"
    scenario = load_scenario(path)
    result = solve(scenario, time_limit=10)
    relaxation = result.stats["relaxation"]
    assert relaxation["starting_choices"] > BOUND_MAX_CHOICES
    assert relaxation["verdict"].startswith(f"not run: {relaxation['starting_choices']} cell")
    assert result.bound == straight_line_ceilings(scenario, scenario.action.roll)
    assert result.stats["bound_scope"] == "candidates"
    assert result.status.value == "feasible"
