"""Two enemy units in reach and no targets named (benchmarks/layouts/examples/
marines-charge-11e.toml): five marines at a roll of 8 against three cultists B in the open and
two gunners C in a walled ruin. Every set is settled, not cut short: B alone holds all five
within 1"; C's spots within 1" all lie inside the ruin, and no coherent unit joins them to B's,
so any set with C keeps one model out of 1" (a proof over the candidates)."""

from __future__ import annotations

from chargeopt.geometry.checker import check_placement
from chargeopt.models import Placement, Status, load_scenario
from chargeopt.solver import SolveOptions, solve

OPTIONS = SolveOptions(time_limit_s=20.0, roll_table=False)


def test_every_target_set_is_proven_with_its_counts(examples_dir) -> None:
    scenario = load_scenario(examples_dir / "marines-charge-11e.toml")
    result = solve(scenario, options=OPTIONS)
    rows = {tuple(row["targets"]): row for row in result.target_sets}
    assert list(rows) == [("B",), ("C", "B"), ("C",)]
    expected = {("B",): (5, 5), ("C", "B"): (4, 5), ("C",): (4, 5)}
    for targets, (within_1, engaged) in expected.items():
        row = rows[targets]
        assert row["status"] == "optimal"
        assert (row["objective"]["within_1"], row["objective"]["engaged"]) == (within_1, engaged)
        assert row["bound"] == {"within_1": within_1, "engaged": engaged}
        assert (row["min_roll"], row["min_roll_proven"]) == (6, True)
    assert result.status == Status.OPTIMAL
    assert result.action.targets == ("B",)
    assert "wall_clock_safety" not in result.stats
    assert result.violations == ()
    for targets, row in rows.items():
        action = scenario.action.model_copy(update={"targets": targets})
        chosen = scenario.model_copy(update={"action": action})
        placements = [Placement.model_validate(p) for p in row["placements"]]
        assert check_placement(chosen, placements, roll=8) == []
