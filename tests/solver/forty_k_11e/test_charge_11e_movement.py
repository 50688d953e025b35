"""The 11th-edition charge's least-movement tie break on layouts whose least movement is known
in closed form: each model's nearest spot within 1" of a target lies straight toward it, 1"
(less the printing margin) from its edge.

32mm bases: diameter D = 1.25984"; distances are edge to edge."""

from __future__ import annotations

import math
from pathlib import Path

from builders import make_scenario
from hypothesis import HealthCheck, Phase, assume, given, note, settings
from test_charge_11e_properties import charges_11e

from chargeopt.geometry import Battlefield
from chargeopt.geometry.checker import check_placement
from chargeopt.models import Scenario, Status
from chargeopt.models.loading import load_scenario
from chargeopt.solver import SolveOptions, solve
from chargeopt.solver.core.tolerances import MARGIN_IN
from chargeopt.solver.forty_k_11e.heuristic import greedy_11e, legal
from chargeopt.solver.forty_k_11e.least_movement_11e import shortest
from chargeopt.solver.forty_k_11e.placing import candidates_11e, charge_rules, within_one

D = 32 / 25.4
OPTIONS = SolveOptions(time_limit_s=10.0, roll_table=False)


def test_a_lone_charger_moves_straight_to_the_edge_of_the_1_inch_band() -> None:
    """A marine 5" from B1 on a roll of 8: within 1" and engaged (both ceilings 1), and the
    least movement is 5 - 1 = 4" (plus the margin that keeps the printed spot within 1")."""
    scenario = make_scenario(
        [(30.0 - D - 5.0, 15.0)], {"B": [(30.0, 15.0)]}, targets=("B",), ruleset="40k-11e", roll=8
    )
    result = solve(scenario, options=OPTIONS)
    assert result.status == Status.OPTIMAL
    assert result.objective["within_1"] == 1
    assert abs(result.objective["movement_in"] - (4.0 + MARGIN_IN)) <= 0.01
    assert check_placement(scenario, result.placements) == []


def test_two_chargers_each_move_straight_to_the_target_in_front() -> None:
    """Two marines side by side (0.5" apart), each 5" in front of its own enemy model: each
    moves 4" straight ahead (a swap or a sidestep only moves more), 8" in all."""
    pitch = D + 0.5
    scenario = make_scenario(
        [(30.0 - D - 5.0, 15.0), (30.0 - D - 5.0, 15.0 + pitch)],
        {"B": [(30.0, 15.0), (30.0, 15.0 + pitch)]},
        targets=("B",),
        ruleset="40k-11e",
        roll=8,
    )
    result = solve(scenario, options=OPTIONS)
    assert result.status == Status.OPTIMAL
    assert (result.objective["within_1"], result.objective["engaged"]) == (2, 2)
    assert abs(result.objective["movement_in"] - 2 * (4.0 + MARGIN_IN)) <= 0.01
    assert check_placement(scenario, result.placements) == []


def test_a_corner_beside_dense_terrain_is_found_between_the_rings() -> None:
    """forty-k-11e-v1 c05: a 60mm INFANTRY model at (12, 9.5) charges a 32mm model at (12,
    16.5) through a 5" enclosed container (x 8-16, y 12-14) it may cross but not end on. The
    least movement ends at the corner of the container's edge (centre y >= 14 + R60 + margin)
    and base contact (centres R60 + R32 + margins apart), 5.832" away in a straight line; the
    duty rings step 10 degrees, the refinement's fine spots 1 degree (within 0.02")."""
    path = Path(__file__).parents[3] / "benchmarks/forty-k-11e-v1/c05-dense-infantry-through.toml"
    scenario = load_scenario(path)
    r60, r32 = 30 / 25.4, 16 / 25.4
    y = 14.0 + r60 + MARGIN_IN
    dy = 16.5 - y
    dx = math.sqrt((r60 + r32 + MARGIN_IN + 1e-4) ** 2 - dy**2)
    least = math.hypot(dx, y - 9.5)
    result = solve(scenario, options=OPTIONS)
    assert result.status == Status.OPTIMAL
    assert (result.objective["within_1"], result.objective["engaged"]) == (1, 1)
    assert least - 0.002 <= result.objective["movement_in"] <= least + 0.02
    assert check_placement(scenario, result.placements) == []


@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    phases=(Phase.explicit, Phase.generate),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(charges_11e())
def test_the_least_movement_search_keeps_every_count_and_rule(scenario: Scenario) -> None:
    """On random small charges, the greedy's placement through `shortest`: still legal, as
    many within 1" and engaged (a model may trade its spot with a mate on its base), never
    more movement."""
    note(scenario.model_dump_json(exclude_defaults=True))
    assume(scenario.action.targets)
    roll = int(scenario.action.roll or 0)
    c = candidates_11e(scenario, Battlefield.from_scenario(scenario), roll, SolveOptions())
    near = within_one(c, scenario)
    found = greedy_11e(c, scenario, roll, near)
    assume(found is not None)
    placed = found[0]
    rules = charge_rules(c, scenario, roll, near)
    shorter = shortest(rules, placed)
    assert legal(c, scenario, roll, shorter)
    assert rules.key(shorter) == rules.key(placed)
    assert rules.moved(shorter) <= rules.moved(placed) + 1e-9
