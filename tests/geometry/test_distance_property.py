"""Properties of the distances the checker relies on, against shapely on much finer polygons:
edge distances of round, oval and hull bases, and the overlap verdict for round pairs."""

from __future__ import annotations

import math

import numpy as np
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import Point, Polygon

from chargeopt.geometry.footprints import (
    CIRCLE_QUAD_SEGMENTS,
    OVAL_ERROR_IN,
    OVAL_SEGMENTS,
    Footprint,
    edge_distance,
)
from chargeopt.geometry.pairs import Bases, edge_distances, overlap_depths
from chargeopt.models import HullBase, OvalBase, RoundBase, parse_base

FINE_QUAD_SEGMENTS = 512
FINE_OVAL_SEGMENTS = 8192
TOLERANCE_IN = 0.005

ROUND = ["25mm", "28.5mm", "32mm", "40mm", "50mm", "60mm", "80mm", "130mm"]
OVAL = ["60x35mm", "75x42mm", "90x52mm", "105x70mm", "120x92mm", "170x105mm"]
HULL = [
    {"kind": "hull", "points": [[-2.0, -1.25], [2.0, -1.25], [2.0, 1.25], [-2.0, 1.25]]},
    {"kind": "hull", "points": [[-1.5, -1.0], [1.5, 0.0], [-1.5, 1.0]]},
]

coordinate = st.floats(0.0, 8.0, allow_nan=False)
facing = st.floats(0.0, 360.0, allow_nan=False)


@st.composite
def footprints(draw: st.DrawFn, bases: list) -> Footprint:
    base = parse_base(draw(st.sampled_from(bases)))
    return Footprint(base, draw(coordinate), draw(coordinate), 0.0, draw(facing))


def reference(fp: Footprint) -> Polygon:
    """The base drawn much finer than the checker draws it (hulls are exact either way)."""
    if isinstance(fp.base, RoundBase):
        return Point(fp.x, fp.y).buffer(fp.base.radius_in, quad_segs=FINE_QUAD_SEGMENTS)
    if isinstance(fp.base, OvalBase):
        a, b = fp.base.semi_axes_in
        t = np.linspace(0.0, 2 * math.pi, FINE_OVAL_SEGMENTS, endpoint=False)
        c, s = math.cos(math.radians(fp.facing)), math.sin(math.radians(fp.facing))
        ex, ey = a * np.cos(t), b * np.sin(t)
        return Polygon(np.column_stack((fp.x + c * ex - s * ey, fp.y + s * ex + c * ey)))
    return fp.polygon


def drawing_error(fp: Footprint) -> float:
    """How far the checker's polygon and the fine one can fall inside the true base."""
    if isinstance(fp.base, RoundBase):
        r = fp.base.radius_in
        return r * (1 - math.cos(math.pi / (4 * CIRCLE_QUAD_SEGMENTS))) + r * (
            1 - math.cos(math.pi / (4 * FINE_QUAD_SEGMENTS))
        )
    if isinstance(fp.base, OvalBase):
        a = fp.base.semi_axes_in[0]
        return a * (1 - math.cos(math.pi / OVAL_SEGMENTS)) + a * (
            1 - math.cos(math.pi / FINE_OVAL_SEGMENTS)
        )
    assert isinstance(fp.base, HullBase)
    return 0.0


def pair_distance(a: Footprint, b: Footprint) -> float:
    return float(edge_distances(Bases.of([a]), Bases.of([b]))[0, 0])


def test_oval_error_is_the_60mm_oval_drawing_error() -> None:
    """OVAL_ERROR_IN is a 60mm oval's chord sagitta: 30mm x (1 - cos(pi / 256))."""
    assert math.isclose(OVAL_ERROR_IN, 30 / 25.4 * (1 - math.cos(math.pi / 256)))


@settings(max_examples=100, deadline=None)
@given(footprints(ROUND), footprints(ROUND))
def test_round_edge_distance_is_shapely_distance(a: Footprint, b: Footprint) -> None:
    """The closed form for two circles equals shapely's distance of fine circles."""
    expected = float(shapely.distance(reference(a), reference(b)))
    slack = drawing_error(a) + drawing_error(b) + 1e-9
    assert abs(edge_distance(a, b) - expected) <= slack
    assert abs(pair_distance(a, b) - expected) <= slack


@settings(max_examples=100, deadline=None)
@given(footprints(ROUND + OVAL + HULL), footprints(ROUND + OVAL + HULL))
def test_mixed_edge_distance_is_shapely_distance(a: Footprint, b: Footprint) -> None:
    """Round, oval and hull bases in any pairing: footprints.edge_distance and the checker's
    distance matrix agree with shapely on fine polygons within the drawing errors."""
    expected = float(shapely.distance(reference(a), reference(b)))
    slack = drawing_error(a) + drawing_error(b) + 1e-9
    assert abs(edge_distance(a, b) - expected) <= slack
    assert abs(pair_distance(a, b) - expected) <= slack


@settings(max_examples=100, deadline=None)
@given(footprints(ROUND), footprints(ROUND))
def test_round_overlap_verdict_is_shapely_intersection(a: Footprint, b: Footprint) -> None:
    """Two circles overlap deeper than the contact tolerance exactly when the fine circles,
    each shrunk by half the tolerance, still intersect."""
    depth = float(overlap_depths(Bases.of([a]), Bases.of([b]))[0, 0])
    true_depth = a.radius_in + b.radius_in - math.hypot(a.x - b.x, a.y - b.y)
    assume(abs(true_depth - TOLERANCE_IN) > 1e-3)
    shrunk_a = Point(a.x, a.y).buffer(a.radius_in - TOLERANCE_IN / 2, quad_segs=FINE_QUAD_SEGMENTS)
    shrunk_b = Point(b.x, b.y).buffer(b.radius_in - TOLERANCE_IN / 2, quad_segs=FINE_QUAD_SEGMENTS)
    assert (depth > TOLERANCE_IN) == bool(shapely.intersects(shrunk_a, shrunk_b))
