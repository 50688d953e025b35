"""Property: every placement the solver gives under `["40k-10e", "wtc-walls"]` passes the
independent checker, tokens included, on random layouts of a unit charging a unit that stands
close behind a ruin wall."""

from __future__ import annotations

from builders import make_scenario
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from chargeopt.geometry.checker import check_placement
from chargeopt.models import Scenario, Status
from chargeopt.solver import solve

R32 = 32 / 25.4 / 2
TIME_LIMIT_S = 4.0


def _tenths(lo: float, hi: float) -> st.SearchStrategy[float]:
    return st.integers(round(lo * 10), round(hi * 10)).map(lambda v: v / 10)


@st.composite
def walled_charges(draw: st.DrawFn) -> Scenario:
    """A vertical wall at x = 16 (0.3" to 0.6" thick); 1-3 defenders in a column behind it,
    their edges 1.1" to 1.8" from its near face (out of normal engagement range of a model
    touching it, within 2", with at most 1.2" left behind the wall, less than a 32mm base);
    1-4 attackers 2" to 7" in front of it; a roll of 4 to 10."""
    thickness = draw(_tenths(0.3, 0.6))
    face = 16.0 + thickness / 2
    gap = draw(_tenths(1.1 - thickness, 1.2))
    y0 = draw(_tenths(8.0, 12.0))
    defenders = [(face + gap + R32, y0 + 1.4 * i) for i in range(draw(st.integers(1, 3)))]
    front = 16.0 - thickness / 2 - draw(_tenths(2.0, 7.0)) - R32
    ya = y0 + draw(_tenths(-2.0, 2.0))
    count = draw(st.integers(1, 4))
    attackers = [(front - 1.5 * (i // 2), ya + 1.4 * (i % 2)) for i in range(count)]
    wall = {
        "id": "wall",
        "kind": "wall",
        "path": [[16.0, 3.0], [16.0, 20.0]],
        "thickness": thickness,
        "height": 5.0,
    }
    return make_scenario(
        attackers,
        {"B": defenders},
        roll=draw(st.integers(4, 10)),
        terrain=[wall],
        ruleset=["40k-10e", "wtc-walls"],  # type: ignore[arg-type]
    )


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(walled_charges())
def test_every_placement_under_the_rule_passes_the_checker(s: Scenario) -> None:
    """What the solver calls legal (with or without tokens) the checker finds legal."""
    result = solve(s, time_limit=TIME_LIMIT_S)
    note(f"{result.status} {result.stats.get('wtc_walls')} {result.placements}")
    tokens = sum(p.token for p in result.placements)
    case = (result.stats.get("wtc_walls") or {}).get("case")
    event(f"{result.status.value}, {case}, {'with' if tokens else 'no'} tokens")
    assert not result.stats.get("checker_rejected"), result.violations
    if result.status in (Status.OPTIMAL, Status.FEASIBLE):
        assert check_placement(s, result.placements) == []
        assert all(p.wall for p in result.placements if p.token)
