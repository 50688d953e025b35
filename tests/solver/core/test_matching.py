"""Least-cost matching against cases worked out by hand."""

from __future__ import annotations

import numpy as np

from chargeopt.geometry.distance_matrix import pairs_within, points_near
from chargeopt.solver.core.matching import FORBIDDEN, least_cost_pairs


def test_square_matching_takes_the_cheapest_diagonal() -> None:
    """[[4, 1], [2, 8]]: crossing (1 + 2 = 3) beats the diagonal (12)."""
    assert sorted(least_cost_pairs(np.array([[4.0, 1.0], [2.0, 8.0]]))) == [(0, 1), (1, 0)]


def test_more_rows_than_columns_leaves_the_dearest_row_out() -> None:
    """Three models, two spots: the two cheapest models take them."""
    cost = np.array([[5.0, 5.0], [1.0, 9.0], [9.0, 1.0]])
    assert sorted(least_cost_pairs(cost)) == [(1, 0), (2, 1)]


def test_forbidden_pairs_are_avoided_when_possible() -> None:
    """A forbidden (infinite) cost is never taken while a legal match exists."""
    cost = np.array([[np.inf, 3.0], [2.0, FORBIDDEN]])
    assert sorted(least_cost_pairs(cost)) == [(0, 1), (1, 0)]


def test_pairs_within_and_points_near() -> None:
    """On a line at 0, 1, 3: only (0, 1) lie within 1.5; the anchor at 2 reaches 1 and 3."""
    xs, ys = np.array([0.0, 1.0, 3.0]), np.zeros(3)
    assert pairs_within(xs, ys, 1.5).tolist() == [[0, 1]]
    near = points_near(np.array([[2.0, 0.0]]), xs, ys, 1.0)
    assert near[0].tolist() == [1, 2]
