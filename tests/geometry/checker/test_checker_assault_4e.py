"""The 40k-assault-4e charge's order rules in the checker, on a hand-made layout: marines
(32mm, radius 0.63") in a line at x = 10, 8, 6; orks at (14, 10) and (14, 12)."""

from __future__ import annotations

from chargeopt.geometry.checker import check_placement
from chargeopt.models import Placement, Scenario

LAYOUT = {
    "ruleset": "40k-assault-4e",
    "board": {"width": 30.0, "height": 20.0},
    "units": [
        {
            "id": "A",
            "owner": "attacker",
            "base": "32mm",
            "models": [
                {"id": "A1", "x": 10.0, "y": 10.0},
                {"id": "A2", "x": 8.0, "y": 10.0},
                {"id": "A3", "x": 6.0, "y": 10.0},
            ],
        },
        {
            "id": "B",
            "owner": "defender",
            "base": "32mm",
            "models": [{"id": "B1", "x": 14.0, "y": 10.0}, {"id": "B2", "x": 14.0, "y": 12.0}],
        },
    ],
    "action": {"kind": "charge", "unit": "A", "targets": ["B"]},
}
SCENARIO = Scenario.model_validate(LAYOUT)
CONTACT = Placement(model="A1", x=12.74, y=10.0)  # 14 - 1.26: base contact with B1


def kinds(order: list[str], *placements: Placement) -> set[str]:
    return {v.kind for v in check_placement(SCENARIO, [CONTACT, *placements], order=order)}


def test_an_order_is_needed() -> None:
    """Without the order of moves the charge cannot be judged."""
    assert "order_missing" in kinds([])


def test_the_nearest_model_moves_first() -> None:
    """A1 is 2.74" from B1, A2 4.74": A2 may not move first."""
    assert "first_model_not_nearest" in kinds(["A2", "A1", "A3"])


def test_the_2_inch_chain() -> None:
    """A2 left at x = 8 is 3.48" from A1's end (more than 2"): the chain breaks at step 2."""
    assert "chain_broken" in kinds(["A1", "A2", "A3"])


def test_a_skipped_preference_needs_a_witness() -> None:
    """A2 ends beside A1 touching no one, while B2 (not yet engaged) is about 5" away: the
    checker names a spot in base contact with B2 it could have taken."""
    a2 = Placement(model="A2", x=11.0, y=10.0)
    a3 = Placement(model="A3", x=9.5, y=10.0)
    assert "preference_skipped" in kinds(["A1", "A2", "A3"], a2, a3)
