"""Straight-line ceilings on base contact and engagement, worked out by hand: 32mm bases
(radius 0.63"), a 0.005" contact tolerance and a 1" engagement range."""

from __future__ import annotations

from builders import eight_around_one, make_scenario

from chargeopt.solver.bounds.contact_bound import roll_lower_bound, straight_line_ceilings

D32 = 32 / 25.4


def test_reach_by_edge_distance() -> None:
    """A1 starts 6.0" from B1 edge to edge, A2 8.5": with 7" only A1 can touch B1 and only A1
    can reach engagement range (8.5 > 7 + 1); with 8", A2 reaches engagement range (8.5 <= 9)
    but still not base contact."""
    scenario = make_scenario(
        [(20 - D32 - 6.0, 10.0), (20.0, 10 - D32 - 8.5)], {"B": [(20.0, 10.0)]}
    )
    assert straight_line_ceilings(scenario, 7) == {"base_contact": 1, "engaged": 1}
    assert straight_line_ceilings(scenario, 8) == {"base_contact": 1, "engaged": 2}
    assert straight_line_ceilings(scenario, 9) == {"base_contact": 2, "engaged": 2}


def test_kissing_capacity_caps_contacts_around_one_model() -> None:
    """Eight marines 3" from one marine: with 4" all eight can reach it, but no more than six
    equal round bases touch one; all eight can end in engagement range. With 2" none touches
    and all eight just reach engagement range (2 + 1 = 3); with 1", none does."""
    scenario = eight_around_one()
    assert straight_line_ceilings(scenario, 4) == {"base_contact": 6, "engaged": 8}
    assert straight_line_ceilings(scenario, 2) == {"base_contact": 0, "engaged": 8}
    assert straight_line_ceilings(scenario, 1) == {"base_contact": 0, "engaged": 0}


def test_solver_bound_from_straight_lines(example_scenario) -> None:
    """The README's example: 3 marines can reach base contact and 5 engagement range with a
    roll of 7 (two are farther than 7" from every cultist edge to edge), so the answer is
    optimal on the straight-line ceilings alone and the relaxation is not needed."""
    from chargeopt.solver import solve

    result = solve(example_scenario, roll=7, time_limit=10)
    assert result.stats["straight_line_bound"] == {"base_contact": 3, "engaged": 5}
    assert result.bound == {"base_contact": 3, "engaged": 5}
    assert result.status.value == "optimal"
    assert result.stats["bound_scope"] == "continuous"
    assert result.stats["relaxation"]["verdict"].startswith("not run")


def test_a_barricade_lengthens_the_reach_to_two_inches() -> None:
    """A1 8.5" from B1 with a barricade on the table: across a barricade engagement range is
    2", so with 7" A1 may end within range (8.5 <= 7 + 2), and the straight-line lower bound
    on the roll drops from 8 (8.5 - 1 = 7.5, rounded up) to 7 (8.5 - 2 = 6.5)."""
    barricade = {"id": "bar", "kind": "barricade", "path": [[18.5, 5.0], [18.5, 15.0]]}
    a = [(20 - D32 - 8.5, 10.0)]
    plain = make_scenario(a, {"B": [(20.0, 10.0)]})
    walled = make_scenario(a, {"B": [(20.0, 10.0)]}, terrain=[{**barricade, "thickness": 0.25}])
    assert straight_line_ceilings(plain, 7) == {"base_contact": 0, "engaged": 0}
    assert straight_line_ceilings(walled, 7) == {"base_contact": 0, "engaged": 1}
    assert (roll_lower_bound(plain), roll_lower_bound(walled)) == (8, 7)
