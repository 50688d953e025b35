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


def before_difficult(roll: int, *, enemy: tuple[float, float] = (25.0, 3.0)) -> Scenario:
    """One marine at (10, 10) between impassable blocks 0.02" clear of it on each side, with
    difficult ground 5" behind its base (from y = 15.63)."""
    patch = {
        "id": "mud",
        "kind": "difficult",
        "path": [[5.0, 10.0 + R + 5.0], [15.0, 10.0 + R + 5.0], [15.0, 20.0], [5.0, 20.0]],
    }
    left, right = 10.0 - R - 0.02, 10.0 + R + 0.02
    terrain = [box(6.0, 9.0, left, 22.0, "left"), box(right, 9.0, 14.0, 22.0, "right"), patch]
    return fall_back([(10.0, 10.0)], {"C": [enemy]}, roll=roll, terrain=terrain)


def rock_in_corridor(*, roll: int | None) -> Scenario:
    """Three marines 2.2" apart at y = 10 between two walls 0.05" clear of the outer bases,
    and a rock 0.3" wide 0.1" behind the middle one's base: no straight move of the unit gets
    past it, but the middle model can side-step 0.8" and run on."""
    left, right = 7.8 - R - 0.05, 12.2 + R + 0.05
    return fall_back(
        [(7.8, 10.0), (10.0, 10.0), (12.2, 10.0)],
        {"C": [(25.0, 3.0)]},
        roll=roll,
        terrain=[
            box(3.0, 9.0, left, 24.0, "west"),
            box(right, 9.0, 17.0, 24.0, "east"),
            box(9.85, 10.0 + R + 0.1, 10.15, 20.0, "rock"),
        ],
    )


def wall_with_an_end(*, roll: int | None) -> Scenario:
    """One marine at (10, 10) with a wall 0.07" behind its base ending at x = 11.5, a block
    0.05" clear of its left side and another from x = 13.5: it must step right past the
    wall's end, then go down the gap."""
    return fall_back(
        [(10.0, 10.0)],
        {"C": [(25.0, 3.0)]},
        roll=roll,
        terrain=[
            box(4.0, 10.7, 11.5, 11.5, "wall"),
            box(4.0, 8.0, 10.0 - R - 0.05, 10.7, "left"),
            box(13.5, 9.0, 16.0, 24.0, "block"),
        ],
    )


def halved_with_little_to_spare(spare_in: float) -> Scenario:
    """`before_difficult` with enemy C1 standing in the mud so that the halved move of a roll
    of 8 (4") ends `spare_in` outside its 1"."""
    return before_difficult(8, enemy=(10.0, 14.0 + 2 * R + 1.0 + spare_in))
