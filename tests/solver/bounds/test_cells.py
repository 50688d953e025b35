"""Cells within reach of points: the quick test agrees with shapely's distance everywhere."""

from __future__ import annotations

import numpy as np
import shapely
from builders import sampled_layouts
from hypothesis import example, given
from hypothesis import strategies as st

from chargeopt.solver.bounds import cells as cl

POINT = st.tuples(st.floats(0.0, 10.0), st.floats(0.0, 10.0))


@sampled_layouts(60)
@given(
    st.lists(POINT, min_size=1, max_size=3),
    st.floats(0.0, 8.0),
    st.floats(0.05, 1.0),
    st.floats(0.5, 2.0),
)
@example([(2.5240669689291085e-204, 0.0)], 5.523070557546788e-290, 0.2515904470640011, 1.0)
def test_within_of_points_agrees_with_shapely(
    points: list[tuple[float, float]], limit: float, side: float, rho: float
) -> None:
    """Squares and ring sectors around the board, seen from up to three points at once: a cell
    is within `limit` of a point exactly when shapely's distance from the point to its polygon
    is, including the cells whose centre is beyond the limit but whose corner is not, and a
    point on a corner with a limit of almost nothing (hypothesis found rounding deciding it:
    the centres' shortcut now leaves a margin of 1e-9" to shapely)."""
    cells = cl.concat(
        [
            cl.squares(0.0, 0.0, 10.0, 10.0, side),
            cl.sectors((5.0, 5.0), rho, rho + 0.3, 37, 0),
        ]
    )
    expected = np.column_stack(
        [shapely.distance(cells.polygons, shapely.points(x, y)) <= limit for x, y in points]
    )
    assert np.array_equal(cl.within_of_points(cells, np.array(points), limit), expected)


def test_a_corner_within_reach_counts() -> None:
    """A unit square at the origin, seen from (2, 2) and from (0.5, 3): its centre is 2.12"
    from the first, its nearest corner 1.41"; from the second, its top edge is 2" away. Within
    1.5" the first counts and the second does not; within 1.4", neither."""
    square = cl.squares(0.0, 0.0, 1.0, 1.0, 1.0)
    seen_from = np.array([(2.0, 2.0), (0.5, 3.0)])
    assert cl.within_of_points(square, seen_from, 1.5).tolist() == [[True, False]]
    assert cl.within_of_points(square, seen_from, 1.4).tolist() == [[False, False]]
    assert cl.within_of_points(square, seen_from, 2.0).tolist() == [[True, True]]


@sampled_layouts(60)
@given(st.floats(0.2, 1.0), st.floats(0.5, 2.0), st.floats(0.0, 3.0))
def test_closer_than_agrees_with_the_corners(side: float, rho: float, limit: float) -> None:
    """Every pair of up to 437 squares and ring sectors: the centres' shortcut gives the
    corners' verdict, including the pairs the centres cannot settle."""
    cells = cl.concat(
        [
            cl.squares(3.0, 3.0, 7.0, 7.0, side),
            cl.sectors((5.0, 5.0), rho, rho + 0.3, 37, 0),
        ]
    )
    i, j = (a.ravel() for a in np.meshgrid(np.arange(len(cells)), np.arange(len(cells))))
    limits = np.full(len(i), limit)
    expected = cl.max_distance(cells, i, j) < limits
    assert np.array_equal(cl.closer_than(cells, i, j, limits), expected)
