"""Pile in and consolidation with tokens of the WTC walls rule (seed 000, steps 6 to 8), and
the checker's token rules for those moves.

After A's charge through the wall (x = 16.05, 0.6" thick, outside face at 15.75), A1 and A2
touch the outside face with tokens (centres at x = 15.119079), B's seven models stand in a
column at x = 17.979921, y = 7.1 to 14.9 (1.3" apart, 1.0" from the inside face: no room for a
32mm base between them and the wall). The only normal legal positions are at the column's
ends, against the inside face: (16.979921, 6.333773) touches B1. A1 at y = 7.0 reaches it with
a move of sqrt(1.860842^2 + 0.666227^2) = 1.977"; A2 at y = 11.0 is more than 3" from both ends
(4.67" and 4.67"), so it stays and keeps its token. A3 (no token) at (14.6, 8.3) is within 2"
of A1 at that spot (1.83" edge to edge) and of A2 (1.49")."""

from __future__ import annotations

import pytest

from chargeopt.geometry.checker import check_placement
from chargeopt.models import Placement, Scenario, Status
from chargeopt.solver import solve

R32 = 32 / 25.4 / 2
TOKEN_X = 15.75 - R32 - 0.001
COLUMN_X = 17.35 + R32


def after_charge(kind: str) -> Scenario:
    """The table after A's charge under the rule, with A about to pile in or consolidate."""
    return Scenario.model_validate(
        {
            "ruleset": ["40k-10e", "wtc-walls"],
            "board": {"width": 30.0, "height": 22.0},
            "terrain": [
                {
                    "id": "ruin",
                    "kind": "wall",
                    "path": [[16.05, 2.0], [16.05, 20.0]],
                    "thickness": 0.6,
                    "height": 5.0,
                }
            ],
            "units": [
                {
                    "id": "A",
                    "owner": "attacker",
                    "keywords": ["INFANTRY"],
                    "base": "32mm",
                    "charged_units": ["B"],
                    "models": [
                        {"id": "A1", "x": TOKEN_X, "y": 7.0, "token": True, "token_wall": "ruin"},
                        {"id": "A2", "x": TOKEN_X, "y": 11.0, "token": True, "token_wall": "ruin"},
                        {"id": "A3", "x": 14.6, "y": 8.3},
                    ],
                },
                {
                    "id": "B",
                    "owner": "defender",
                    "keywords": ["INFANTRY"],
                    "base": "32mm",
                    "models": [
                        {"id": f"B{i + 1}", "x": COLUMN_X, "y": 7.1 + 1.3 * i} for i in range(7)
                    ],
                },
            ],
            "action": {
                "kind": kind,
                "unit": "A",
                **({"charged": True} if kind == "pile-in" else {}),
            },
        }
    )


@pytest.mark.parametrize("kind", ["pile-in", "consolidate"])
def test_a_token_model_that_can_reach_a_normal_position_takes_it(kind: str) -> None:
    """A1 piles in (or consolidates) into base contact with B1 and loses its token; A2 cannot
    reach a normal position and keeps its token, fighting B across the wall."""
    result = solve(after_charge(kind), time_limit=10)
    assert result.status == Status.OPTIMAL
    placed = {p.model: p for p in result.placements}
    assert placed["A1"].contact == ("B1",) and not placed["A1"].token
    assert placed["A1"].moved == pytest.approx(1.977, abs=0.1)
    assert placed["A2"].token and placed["A2"].wall == "ruin"
    assert (placed["A2"].x, placed["A2"].y, placed["A2"].moved) == (TOKEN_X, 11.0, 0.0)
    assert placed["A2"].fights == ("B",)
    assert result.objective["tokens"] == 1
    assert result.objective["can_fight"] == 2
    assert result.violations == ()


def _stay(kind: str, **tokens: bool) -> list[Placement]:
    s = after_charge(kind)
    return [
        Placement(model=m.id, x=m.x, y=m.y, token=tokens.get(m.id, m.token), wall=m.token_wall)
        for m in s.acting_unit.models
    ]


def test_checker_a_pile_in_may_not_keep_a_token_a_normal_position_was_open_to() -> None:
    """Everyone stays with their tokens: A1 could have piled in to base contact with B1 with
    every rule kept, so its token is not allowed; A2's is."""
    found = check_placement(after_charge("pile-in"), _stay("pile-in"))
    assert [(v.kind, v.models) for v in found] == [("token_not_allowed", ("A1",))]


def test_checker_at_consolidation_a_token_model_may_stay() -> None:
    """Step 8: the controlling player may elect not to move; the token stays."""
    assert check_placement(after_charge("consolidate"), _stay("consolidate")) == []


def test_checker_tokens_gained_moved_and_all_removed() -> None:
    """A3 cannot gain a token; a token model that moves loses it; and the unit may not drop
    every token while no model is in normal engagement range."""
    s = after_charge("consolidate")
    gained = check_placement(s, _stay("consolidate", A3=True))
    assert [v.kind for v in gained] == ["token_gained"]
    moved = _stay("consolidate")
    moved[1] = moved[1].model_copy(update={"x": TOKEN_X - 0.5})
    assert "token_moved" in [v.kind for v in check_placement(s, moved)]
    dropped = check_placement(s, _stay("consolidate", A1=False, A2=False))
    assert "tokens_all_removed" in [v.kind for v in dropped]
