"""Hand-made fall back layouts (40k-assault-4e) shared by the fall back tests."""

from __future__ import annotations

from typing import Any

from builders import make_scenario

from chargeopt.models import Scenario

R = 16 / 25.4
"""A 32mm base's radius."""


def box(x0: float, y0: float, x1: float, y1: float, ident: str) -> dict[str, Any]:
    """An impassable rectangle."""
    return {"id": ident, "kind": "impassable", "path": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}


def fall_back(
    attackers: list[tuple[float, float]],
    defenders: dict[str, list[tuple[float, float]]],
    *,
    roll: int | None,
    fought_by: tuple[str, ...] = (),
    terrain: list[dict[str, Any]] | None = None,
    fast: bool = False,
    board: tuple[float, float] = (30.0, 24.0),
) -> Scenario:
    """Unit A falls back toward the bottom edge."""
    action: dict[str, Any] = {
        "kind": "fall-back",
        "unit": "A",
        "table_edge": "bottom",
        "fought_by": list(fought_by),
        "fast": fast,
    }
    if roll is not None:
        action["roll"] = roll
    return make_scenario(
        attackers,
        defenders,
        ruleset="40k-assault-4e",
        terrain=terrain,
        action=action,
        board=board,
    )


def against_wall(*, roll: int | None = 7, fought_by: tuple[str, ...] = ("B",)) -> Scenario:
    """Three marines with an impassable wall 0.37" behind them, the enemy B they fought in
    front, and two other enemies, C1 and D1, above and to either side."""
    return fall_back(
        [(13.0, 10.0), (15.0, 10.0), (17.0, 10.0)],
        {"B": [(15.0, 8.735)], "C": [(9.0, 8.5)], "D": [(21.0, 8.5)]},
        roll=roll,
        fought_by=fought_by,
        terrain=[box(5.0, 11.0, 25.0, 12.0, "wall")],
    )


ENEMY_BEHIND_Y = 19.275
"""C1 straight behind A1 at (10, 10): a straight move of t ends 9.275 - t apart, centre to
centre, so it keeps out of 1" (2R + 1 = 2.2598") for t up to 7.0152."""


def pocket(*, roll: int | None, fast: bool = False, side_gap: float = 0.02) -> Scenario:
    """One marine at (10, 10) between two impassable blocks `side_gap` clear of its base on
    each side, with enemy C1 straight behind it at (10, 19.275)."""
    left, right = 10.0 - R - side_gap, 10.0 + R + side_gap
    return fall_back(
        [(10.0, 10.0)],
        {"C": [(10.0, ENEMY_BEHIND_Y)]},
        roll=roll,
        fast=fast,
        terrain=[box(6.0, 9.0, left, 22.0, "left"), box(right, 9.0, 14.0, 22.0, "right")],
    )


def before_difficult(roll: int) -> Scenario:
    """One marine at (10, 10) between impassable blocks 0.02" clear of it on each side, with
    difficult ground 5" behind its base (from y = 15.63)."""
    patch = {
        "id": "mud",
        "kind": "difficult",
        "path": [[5.0, 10.0 + R + 5.0], [15.0, 10.0 + R + 5.0], [15.0, 20.0], [5.0, 20.0]],
    }
    left, right = 10.0 - R - 0.02, 10.0 + R + 0.02
    terrain = [box(6.0, 9.0, left, 22.0, "left"), box(right, 9.0, 14.0, 22.0, "right"), patch]
    return fall_back([(10.0, 10.0)], {"C": [(25.0, 3.0)]}, roll=roll, terrain=terrain)
