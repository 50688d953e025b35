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
