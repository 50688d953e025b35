"""The 11th edition's close moves settled by the construction (greedy + local search meeting
the proven per-model ceilings) without CP-SAT, on layouts worked out by hand. 32mm bases:
D = 1.25984" across; engaged means centres within D + 2" = 3.26" here."""

from __future__ import annotations

from builders import make_scenario

from chargeopt.geometry.checker import check_placement
from chargeopt.solver import SolveOptions, solve

D = 32 / 25.4
OPTIONS = SolveOptions(time_limit_s=10.0)
FRONT = [(10.0 + 1.9 * i, 10.0) for i in range(5)]
REAR = [(10.0 + 1.9 * i, 8.1) for i in range(5)]
ENEMY = [(10.0 + 1.9 * i, 16.0) for i in range(5)]


def two_ranks(**enemies: list[tuple[float, float]]):
    return make_scenario(
        FRONT + REAR,
        {"B": ENEMY, **enemies},
        ruleset="40k-11e",
        base="32mm",
        enemy_base="32mm",
        action={"kind": "pile-in", "unit": "A", "charged": True},
    )


def test_a_ten_model_pile_in_is_settled_by_the_construction() -> None:
    """Two ranks of five, 6" (centres) and 7.9" from a line of five: the front rank is 4.74"
    away edge to edge (a pile-in target within 5"), engages at y >= 16 - 3.26 = 12.74 (2.74"
    straight ahead, within 3"); the rear rank would need y >= 12.74 too, 4.64" away, more than
    3" whatever the path. So at most 5 engaged, and a placement engages 5: optimal with no
    CP-SAT stage (a ceiling met, then the movement by local search)."""
    scenario = two_ranks()
    result = solve(scenario, options=OPTIONS)
    assert result.status == "optimal"
    assert result.objective["engaged_closest"] == 5
    assert result.objective["engaged"] == 5
    assert result.bound == {"engaged_closest": 5, "engaged": 5}
    stages = result.stats["stages"]
    assert [(s["name"], s["status"]) for s in stages] == [
        ("engaged_closest", "OPTIMAL"),
        ("movement", "LOCAL_SEARCH"),
    ]
    assert stages[0]["value"] == stages[0]["bound"] == 5
    assert result.objective["movement_in"] >= 5 * (12.74 - 10.0)
    assert not check_placement(scenario, list(result.placements))


def test_a_selection_that_cannot_beat_the_best_is_not_solved() -> None:
    """As above with a second unit C of one model far to the right (x 30, 5" from the front
    rank's A5 edge to edge): toward B alone the front rank engages 5 (the ceiling); toward C
    alone only A5 reaches C's band (ceiling 1 < 5): that selection is proven dominated, not
    solved, and the answer stays optimal."""
    a5 = FRONT[-1]
    scenario = two_ranks(C=[(a5[0] + D + 5.0 - 0.01, a5[1])])
    result = solve(scenario, options=OPTIONS)
    assert result.status == "optimal"
    assert result.objective["engaged_closest"] == 5
    assert result.stats["selections_dominated"] == ["pile in toward 'C'"]
