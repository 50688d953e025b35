"""The Charge Range's chances: D6 + 4 + Charge Speed, or maximised (two D6, the highest
counts); TOW's Movement + the higher of 2D6; WHFB 6e's fixed double move. Exact fractions;
the seed's table is the test oracle."""

from __future__ import annotations

import math
from fractions import Fraction


def chance_of_range(
    needed_in: float, charge_speed_in: float = 0.0, maximised: bool = False
) -> Fraction:
    """The chance that the Charge Range is at least `needed_in`."""
    die = math.ceil(needed_in - 4 - charge_speed_in - 1e-9)
    if die <= 1:
        return Fraction(1)
    if die > 6:
        return Fraction(0)
    miss = Fraction(die - 1, 6)
    return 1 - miss**2 if maximised else 1 - miss


def smallest_range(distance_in: float) -> int:
    """The smallest whole Charge Range that reaches `distance_in` (ranges are whole inches)."""
    return max(0, math.ceil(distance_in - 1e-6))


def chance_of_high_d6(needed: float) -> Fraction:
    """The chance that the higher of 2D6 is at least `needed`: 1 - ((needed - 1) / 6)^2."""
    die = math.ceil(needed - 1e-9)
    if die <= 1:
        return Fraction(1)
    if die > 6:
        return Fraction(0)
    return 1 - Fraction(die - 1, 6) ** 2


def chance_of_charge(charge_move: str, movement_in: float, needed_in: float) -> Fraction:
    """The chance a one-wheel charge covers `needed_in`: TOW Movement + the higher of 2D6;
    WHFB 6e's 2 x Move is certain or impossible."""
    if charge_move == "double-move":
        return Fraction(int(2 * movement_in >= needed_in - 1e-9))
    return chance_of_high_d6(needed_in - movement_in)
