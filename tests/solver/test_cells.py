"""Cells within reach of a point: the quick test agrees with shapely's distance everywhere."""

from __future__ import annotations

import numpy as np
import shapely
from builders import sampled_layouts
from hypothesis import given
from hypothesis import strategies as st

from chargeopt.solver import cells as cl


@sampled_layouts(60)
@given(
    st.floats(0.0, 10.0),
    st.floats(0.0, 10.0),
    st.floats(0.0, 8.0),
    st.floats(0.01, 1.0),
    st.floats(0.5, 2.0),
)
def test_within_of_point_agrees_with_shapely(
    x: float, y: float, limit: float, side: float, rho: float
) -> None:
    """Squares and ring sectors around the board: a cell is within `limit` of (x, y) exactly
    when shapely's distance from the point to its polygon is, including the cells whose
    centre is beyond the limit but whose corner is not."""
    cells = cl.concat(
        [
            cl.squares(0.0, 0.0, 10.0, 10.0, side),
            cl.sectors((5.0, 5.0), rho, rho + 0.3, 37, 0),
        ]
    )
    expected = shapely.distance(cells.polygons, shapely.points(x, y)) <= limit
    assert np.array_equal(cl.within_of_point(cells, x, y, limit), expected)


def test_a_corner_within_reach_counts() -> None:
    """A unit square at the origin, seen from (2, 2): its centre is 2.12" away, its nearest
    corner 1.41"; within 1.5" it counts, within 1.4" it does not."""
    square = cl.squares(0.0, 0.0, 1.0, 1.0, 1.0)
    assert cl.within_of_point(square, 2.0, 2.0, 1.5).tolist() == [True]
    assert cl.within_of_point(square, 2.0, 2.0, 1.4).tolist() == [False]
