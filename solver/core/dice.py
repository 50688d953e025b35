"""Charge-roll chances: 2D6 (or nD6) at least a value, with and without a re-roll."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product


@cache
def chance_at_least(target: int, dice: int = 2) -> Fraction:
    """Exact chance that the sum of `dice` D6 is at least `target`."""
    if target <= dice:
        return Fraction(1)
    hits = sum(1 for roll in product(range(1, 7), repeat=dice) if sum(roll) >= target)
    return Fraction(hits, 6**dice)


def chance_with_reroll(target: int, dice: int = 2) -> Fraction:
    """Chance of at least `target` when a failed roll may be re-rolled once (all dice)."""
    p = chance_at_least(target, dice)
    return 1 - (1 - p) ** 2


@cache
def sum_counts(dice: int = 2) -> dict[int, int]:
    """How many of the 6**dice equally likely throws of `dice` D6 give each total."""
    counts: dict[int, int] = {}
    for throw in product(range(1, 7), repeat=dice):
        counts[sum(throw)] = counts.get(sum(throw), 0) + 1
    return counts
