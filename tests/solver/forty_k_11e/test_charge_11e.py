"""The 11th-edition charge on hand-built layouts worked out in closed form.

32mm bases: diameter D = 1.25984", radius R = D / 2. Distances are edge to edge."""

from __future__ import annotations

import math

import pytest
from builders import make_scenario
from click.testing import CliRunner

from chargeopt.geometry import Footprint, edge_distance
from chargeopt.geometry.checker import check_placement
from chargeopt.models import RoundBase, Scenario, Status
from chargeopt.solver import SolveOptions, solve
from chargeopt.solver.api import UnsupportedMove, solver_for
from chargeopt.solver.interface.cli import main
from chargeopt.solver.interface.summary import summarise_result

D = 32 / 25.4
R = D / 2
OPTIONS = SolveOptions(time_limit_s=10.0, roll_table=False)
BASE = RoundBase(diameter_mm=32)


def charge_11e(
    attackers: list[tuple[float, float]],
    defenders: dict[str, list[tuple[float, float]]],
    *,
    targets: tuple[str, ...] = (),
    roll: int | None = None,
) -> Scenario:
    return make_scenario(attackers, defenders, targets=targets, ruleset="40k-11e", roll=roll)


def gap(result, scenario: Scenario, model_id: str, enemy_id: str) -> float:
    p = next(p for p in result.placements if p.model == model_id)
    e = scenario.model_index[enemy_id][1]
    return edge_distance(Footprint(BASE, p.x, p.y), Footprint(BASE, e.x, e.y))


def lone_charger(gap_in: float) -> list[tuple[float, float]]:
    """One marine `gap_in` edge to edge left of B1 at (30, 15)."""
    return [(30.0 - D - gap_in, 15.0)]


def test_a_target_more_than_the_roll_away_is_refused_as_a_target() -> None:
    """B is 7.5" away: on a 7 it cannot be a target (named or not), though the charger could
    end within 2" of it; on an 8 it can, and the least roll is 8 (15 of 36 rolls)."""
    named = charge_11e(lone_charger(7.5), {"B": [(30.0, 15.0)]}, targets=("B",), roll=7)
    result = solve(named, options=OPTIONS)
    assert result.status == Status.INFEASIBLE
    assert 'B is 7.50" away, more than the roll of 7"' in (result.proof or "")
    assert result.min_roll == 8
    unnamed = charge_11e(lone_charger(7.5), {"B": [(30.0, 15.0)]}, roll=7)
    result = solve(unnamed, options=OPTIONS)
    assert result.status == Status.INFEASIBLE
    assert "no enemy unit is within the roll of 7" in (result.proof or "")
    assert result.min_roll == 8
    at_eight = solve(unnamed, roll=8, options=OPTIONS)
    assert at_eight.status == Status.OPTIMAL
    assert at_eight.action.targets == ("B",)
    assert at_eight.objective["within_1"] == 1
    assert at_eight.min_roll == 8 and at_eight.min_roll_proven
    assert at_eight.success_probability == pytest.approx(15 / 36, abs=1e-4)


def test_the_checker_refuses_an_engaged_unit_beyond_the_roll() -> None:
    """A placement engaging B (7.5" away) on a roll of 7 names the refused target."""
    scenario = charge_11e(lone_charger(7.5), {"B": [(30.0, 15.0)]}, roll=7)
    result = solve(scenario, roll=8, options=OPTIONS)
    found = check_placement(scenario, result.placements, roll=7)
    kinds = {v.kind for v in found}
    assert "target_not_eligible" in kinds


def test_a_model_that_reaches_1_inch_but_not_base_contact() -> None:
    """A1 is 6.5" from B1 and A2 7.6" from B2 on a roll of 7: A2 can end within 1" of B2
    (it needs 6.6") but not touch it (7.6"); both end within 1", A2 at least 0.6" away."""
    attackers = [(30.0 - D - 6.5, 15.0), (30.0 - D - 7.6, 17.0)]
    scenario = charge_11e(attackers, {"B": [(30.0, 15.0), (30.0, 17.0)]}, roll=7)
    result = solve(scenario, options=OPTIONS)
    assert result.status == Status.OPTIMAL
    assert result.objective["within_1"] == 2
    assert result.objective["engaged"] == 2
    a2 = next(p for p in result.placements if p.model == "A2")
    assert not a2.contact
    near = min(gap(result, scenario, "A2", b) for b in ("B1", "B2"))
    assert 0.6 - 1e-6 <= near <= 1.0
    assert result.violations == ()


def test_the_checker_asks_for_within_1_where_a_model_can() -> None:
    """Moving A2 of the answer back to 1.5" from B2 (still engaged) breaks the within-1" duty:
    the checker finds the spot it could have taken."""
    attackers = [(30.0 - D - 6.5, 15.0), (30.0 - D - 7.6, 17.0)]
    scenario = charge_11e(attackers, {"B": [(30.0, 15.0), (30.0, 17.0)]}, roll=7)
    result = solve(scenario, options=OPTIONS)
    back = [
        p if p.model != "A2" else p.model_copy(update={"x": 30.0 - D - 1.5, "y": 17.0})
        for p in result.placements
    ]
    found = check_placement(scenario, back, roll=7)
    assert [v.kind for v in found] == ["could_end_within_1"]


def spread_line() -> tuple[list[tuple[float, float]], dict[str, list[tuple[float, float]]]]:
    """Six marines in a row (centres 1.7" apart, 7.24" end to end) with B1 4" left of the
    first and C1 4" right of the last: B1 and C1 are 19.02" apart centre to centre."""
    xs = [16.0 + 1.7 * i for i in range(6)]
    return [(x, 15.0) for x in xs], {
        "B": [(xs[0] - D - 4.0, 15.0)],
        "C": [(xs[-1] + D + 4.0, 15.0)],
    }


def test_the_9_inch_span_binds_a_spread_unit() -> None:
    """Engaging B1 and C1 needs two models at least 19.02 - 2 x 2 - 2R - 4R = 11.24" apart
    edge to edge: more than 9". A 2" chain of six could stretch that far, so the span alone
    rules [B, C] out; the answer charges one of them."""
    attackers, defenders = spread_line()
    scenario = charge_11e(attackers, defenders, roll=8)
    result = solve(scenario, options=OPTIONS)
    rows = {tuple(r["targets"]): r for r in result.target_sets}
    assert set(rows) == {("B",), ("C",), ("B", "C")}
    both = rows[("B", "C")]
    assert both["status"] == "infeasible"
    expected = 19.02 - 4.0 - 6 * R
    assert f'{expected:.2f}" apart' in both["proof"]
    assert '9"' in both["proof"]
    assert result.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert len(result.action.targets) == 1
    assert result.violations == ()
    text = summarise_result(result)
    assert "Target sets (targets are chosen after the roll), best first:" in text
    assert "  B, C: infeasible; a model engaged with B and one engaged with C" in text
    assert 'Within 1" of a target: ' in text


def test_solve_and_check_from_the_command_line(tmp_path) -> None:
    """`chargeopt solve` writes a result that `chargeopt check` accepts as it is."""
    (a1x, a1y), (a2x, a2y) = (30.0 - D - 6.5, 15.0), (30.0 - D - 7.6, 17.0)
    path = tmp_path / "c.toml"
    path.write_text(
        'ruleset = "40k-11e"\n[board]\nwidth = 44.0\nheight = 30.0\n'
        '[[units]]\nid = "A"\nowner = "attacker"\nkeywords = ["INFANTRY"]\nbase = "32mm"\n'
        f'models = [{{ id = "A1", x = {a1x!r}, y = {a1y!r} }}, '
        f'{{ id = "A2", x = {a2x!r}, y = {a2y!r} }}]\n'
        '[[units]]\nid = "B"\nowner = "defender"\nbase = "32mm"\n'
        'models = [{ id = "B1", x = 30.0, y = 15.0 }, { id = "B2", x = 30.0, y = 17.0 }]\n'
        '[action]\nkind = "charge"\nunit = "A"\nroll = 7\n'
    )
    out = tmp_path / "r.json"
    runner = CliRunner()
    solved = runner.invoke(main, ["solve", str(path), "-o", str(out), "--time-limit", "10"])
    assert solved.exit_code == 0, solved.output
    assert solved.output.startswith("OPTIMAL: A charges B with a roll of 7")
    assert 'Within 1" of a target: 2 of 2 models (most possible: 2)' in solved.output
    checked = runner.invoke(main, ["check", str(path), str(out)])
    assert checked.exit_code == 0, checked.output
    assert "OK: no violations" in checked.output


def test_the_checker_refuses_a_chain_longer_than_9_inches() -> None:
    """The six marines stretched into a 2" chain whose ends are 9.5" apart: coherent by the
    2" rule, not by the 9" span."""
    attackers, defenders = spread_line()
    scenario = charge_11e(attackers, defenders, roll=8)
    step = (9.5 + D) / 5
    placements = [{"model": f"A{i + 1}", "x": 16.0 + step * i, "y": 15.0} for i in range(6)]
    from chargeopt.models import Placement

    found = check_placement(scenario, [Placement(**p) for p in placements], roll=8)
    spans = [v for v in found if v.kind == "coherency_span"]
    assert len(spans) == 1
    assert spans[0].models == ("A1", "A6")
    assert spans[0].distance_in == pytest.approx(9.5, abs=1e-6)


def test_other_moves_are_refused_under_11e() -> None:
    """Fall back is not built for the 11th edition: refused, never solved with 10th rules."""
    scenario = make_scenario(
        [(10.0, 15.0)],
        {"B": [(10.0 + D + 1.0, 15.0)]},
        ruleset="40k-11e",
        action={"kind": "fall-back", "unit": "A", "table_edge": "bottom", "roll": 7},
    )
    with pytest.raises(UnsupportedMove, match="40k-11e"):
        solver_for(scenario)


def test_a_vehicle_goes_around_tall_dense_terrain_and_infantry_through() -> None:
    """A 5" dense block stands between the charger and B: INFANTRY crosses it (the straight
    5.5"), a VEHICLE must go round (more than the roll of 6)."""
    block = {
        "id": "ruin",
        "kind": "dense",
        "path": [[12.0, 10.0], [15.0, 10.0], [15.0, 20.0], [12.0, 20.0]],
        "height_in": 5.0,
    }
    attackers = [(10.0, 15.0)]
    defenders = {"B": [(10.0 + D + 5.5, 15.0)]}
    foot = make_scenario(
        attackers, defenders, targets=(), ruleset="40k-11e", roll=6, terrain=[block]
    )
    assert solve(foot, options=OPTIONS).status == Status.OPTIMAL
    tank = make_scenario(
        attackers,
        defenders,
        targets=(),
        ruleset="40k-11e",
        roll=6,
        terrain=[block],
        keywords=("VEHICLE",),
    )
    result = solve(tank, options=OPTIONS)
    assert result.status not in (Status.OPTIMAL, Status.FEASIBLE)
    assert math.isfinite(result.stats.get("seconds", 0.0))
