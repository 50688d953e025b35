"""T9A answers judged over every Snaking Forward Move (issue 41): the move is unlimited in
distance, so the ceiling is the best aligned placement keeping any point of the facing."""

from __future__ import annotations

from repo_paths import REPO_ROOT

from chargeopt.models import Status
from chargeopt.solver import load_scenario, solve

SUITE = REPO_ROOT / "benchmarks/rank-and-file-v1"


def test_the_seed_example_is_proven_over_every_path() -> None:
    """f2 (the seed's own wheel): 5 and 5, the whole front: nothing anywhere has more."""
    result = solve(load_scenario(SUITE / "f2-front-seed-wheel.toml"))
    assert result.status == Status.OPTIMAL
    assert "proven over every Snaking Forward Move" in (result.proof or "")


def test_a_contact_at_the_corner_is_not_a_proof() -> None:
    """f7: A (4 files) reaches only B's front-left end (the corner at (30, 10)), so keeping it
    brings 5 of B's 10-wide front and 4 of A's. A slide on a base edge, A's two end corners on
    two more of B's bases, touches 4 + 2 = 6: no path to such a contact point is ruled out
    (the move is unlimited), so the answer is `feasible` with that ceiling."""
    result = solve(load_scenario(SUITE / "f7-wide-target.toml"))
    block = result.blocks[0]
    assert (block["target_models_in_contact"], block["models_in_contact"]) == (5, 4)
    assert result.status == Status.FEASIBLE
    assert result.bound == {"aligned": 1, "target_models_in_contact": 6, "models_in_contact": 4}
    assert not result.violations


def test_a_combined_charge_is_proven_over_every_path() -> None:
    """c2: two chargers side by side; with any contact points the combined model finds no
    more charges or models in contact than the answer."""
    result = solve(load_scenario(SUITE / "c2-two-side-by-side.toml"))
    assert result.status == Status.OPTIMAL
    assert "proven over every Snaking Forward Move" in (result.proof or "")
    assert result.objective["charges"] == 2


def test_the_ceiling_counts_over_the_gaps() -> None:
    """RULES.md's Fighting Over Gaps example (B: 13 models, its third rank 3 at the left,
    charged flush in the rear by a 5-wide block): the ceiling counts 5 target models, as the
    answer and the checker do, not the 3 bases on the rear (a ceiling below the answer's own
    count would prove nothing)."""
    from t9a_builders import block, table

    from chargeopt.solver.rank_and_file.t9a_reach import ceiling

    scenario = table(
        [
            block("A", "attacker", 20.0, 26.0, -90.0),
            block("B", "defender", 20.0, 20.0, -90.0, ranks=None, models=13),
        ],
        roll=12,
    )
    assert ceiling(scenario, ["rear"]) == (1, 5, 5)


def test_a_blocked_path_charger_of_a_combined_charge_is_bounded_on_every_facing() -> None:
    """The b1 table with A2 in B's right arc (test_raf_rules.py): A's own facing (B's left) is
    walled off and B is first straight ahead, so its ceiling plans are every facing with room
    (front, right, rear); A2's only its right. A's roll short of the distance: A2 alone."""
    from t9a_builders import block, table

    from chargeopt.solver.rank_and_file.t9a_reach import _free_choices

    def combined(roll_a: int):
        return table(
            [
                block("A", "attacker", 38.663726, 21.261936, -150.0),
                block("B", "defender", 30.0, 10.0, 90.0),
                block("A2", "attacker", 18.0, 7.0, 0.0, files=3),
            ],
            terrain=[[(30, 3), (36, 3), (36, 10.2), (30, 10.2)]],
            chargers=("A", "A2"),
            rolls={"A": roll_a, "A2": 12},
        )

    def facings(roll_a: int) -> list[list[tuple[str, str]]]:
        return [
            [(p.ruling.unit, p.facing.name) for p in plans]
            for plans in _free_choices(combined(roll_a))
        ]

    assert facings(14) == [[("A", "front"), ("A", "right"), ("A", "rear")], [("A2", "right")]]
    assert facings(12) == [[("A2", "right")]]
    result = solve(combined(14))
    assert result.status == Status.OPTIMAL and "any facing under Blocked Path" in result.proof
