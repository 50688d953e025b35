"""The Charge Range's chances: D6 + 4 + Charge Speed, or maximised (two D6, the highest
counts). Exact fractions; the seed's table is the test oracle."""

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
