"""2D6 chances: exact fractions."""

from fractions import Fraction

import pytest

from chargeopt.solver.core.dice import chance_at_least, chance_with_reroll


@pytest.mark.parametrize(
    ("target", "ways"),
    [
        (2, 36),
        (3, 35),
        (4, 33),
        (5, 30),
        (6, 26),
        (7, 21),
        (8, 15),
        (9, 10),
        (10, 6),
        (11, 3),
        (12, 1),
        (13, 0),
    ],
)
def test_two_d6_at_least(target: int, ways: int) -> None:
    """P(2D6 >= n) counts the 36 outcomes exactly."""
    assert chance_at_least(target) == Fraction(ways, 36)


def test_reroll() -> None:
    """A re-roll of a failed 9+ (10/36) gives 1 - (26/36)^2."""
    assert chance_with_reroll(9) == 1 - Fraction(26, 36) ** 2
