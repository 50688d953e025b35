"""Arcs from the 45-degree corner lines (not the diagonals), on-the-line is Flank, footprints,
wheels and the first obstacle ahead, all by hand."""

from __future__ import annotations

import math

import pytest
from shapely.geometry import box

from chargeopt.geometry.rank_and_file.arcs import arc_of
from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.geometry.rank_and_file.moves import (
    first_hit_ahead,
    wheel,
    wheel_sweep,
    wheel_travel,
)

WIDE = BlockPose(width_in=10.0, depth_in=2.0, x=0.0, y=0.0, facing=-90.0)
"""A 10" wide, 2" deep block facing up the table (-y): front from (0, 0) to (10, 0)."""


def test_footprint_and_corners() -> None:
    c = WIDE.corners
    assert c["front-left"] == (0.0, 0.0)
    assert c["front-right"] == (10.0, 0.0)
    assert c["rear-right"] == (10.0, 2.0)
    assert WIDE.polygon.area == pytest.approx(20.0)


@pytest.mark.parametrize(
    ("point", "arc"),
    [
        ((5.0, -1.0), "front"),
        ((-1.0, -2.0), "front"),  # above the 45-degree line from the front-left corner
        ((-3.0, -1.0), "left"),  # diagonal (slope 2/10) says front; the 45-degree line says flank
        ((-2.0, -2.0), "left"),  # exactly on the 45-degree line: Flank
        ((12.0, -2.0), "right"),  # on the front-right line
        ((12.0, -2.5), "front"),
        ((5.0, 3.0), "rear"),
        ((5.0, 4.0), "rear"),  # behind a wide block, where the two front lines cross
        ((-1.0, 3.0), "left"),  # exactly on the rear-left line y = 2 - x: Flank
        ((-1.0, 3.5), "rear"),
        ((-1.5, 3.0), "left"),
    ],
)
def test_arcs_of_a_wide_block(point: tuple[float, float], arc: str) -> None:
    assert arc_of(WIDE, point).arc == arc


def test_diagonals_and_45_degree_lines_disagree() -> None:
    """(-3, -1): the diagonal through the front-left corner of a 10x2 block has slope -0.2
    (y = 0.2 x), so the point lies on the front's side of it; the 45-degree line y = x puts it
    in the left flank, 1.41" (2/sqrt(2)) from the line and 26.57 degrees off it."""
    verdict = arc_of(WIDE, (-3.0, -1.0))
    assert verdict.arc == "left"
    assert verdict.margin_in == pytest.approx(2 / math.sqrt(2))
    assert verdict.margin_deg == pytest.approx(45 - math.degrees(math.atan(1 / 3)))


def test_exactly_on_the_line_is_flank_with_zero_margin() -> None:
    verdict = arc_of(WIDE, (-2.0, -2.0))
    assert (verdict.arc, verdict.margin_in) == ("left", 0.0)


def test_wheel_about_the_front_right_corner() -> None:
    """A right wheel of 90 degrees pivots on the front-right corner (10, 0): the front then
    runs down from (10, 0) to (10, 10); the outer corner travels 10 * pi / 2 (arc) or
    10 * sqrt(2) (chord)."""
    turned = wheel(WIDE, 90.0)
    assert turned.corners["front-right"] == pytest.approx((10.0, 0.0))
    assert turned.corners["front-left"] == pytest.approx((10.0, -10.0))
    assert turned.facing == 0.0
    assert wheel_travel(10.0, 90.0) == pytest.approx(5 * math.pi)
    assert wheel_travel(10.0, 90.0, "chord") == pytest.approx(10 * math.sqrt(2))


def test_wheel_sweep_covers_the_far_corner_circle() -> None:
    """The far corner (rear-left, 10.2" from the pivot) sweeps a circle: a point 10.1" from
    the pivot between the start and end is covered, one 10.3" away is not."""
    sweep = wheel_sweep(WIDE, 90.0)
    r = math.hypot(10.0, 2.0)
    assert sweep.contains(box(9.9, -1.0, 10.0, -0.9))
    direction = (math.cos(math.radians(-135)), math.sin(math.radians(-135)))
    inside = (10.0 + (r - 0.1) * direction[0], 0.0 + (r - 0.1) * direction[1])
    outside = (10.0 + (r + 0.1) * direction[0], 0.0 + (r + 0.1) * direction[1])
    from shapely.geometry import Point

    assert sweep.contains(Point(inside))
    assert not sweep.contains(Point(outside))


def test_first_obstacle_straight_ahead() -> None:
    ahead = {
        "rock": box(2.0, -7.0, 3.0, -6.0),
        "wall": box(8.0, -4.0, 20.0, -3.5),
        "off": box(12, -3, 13, -2),
    }
    assert first_hit_ahead(WIDE, ahead) == ("wall", pytest.approx(3.5))
