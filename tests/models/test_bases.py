"""Base strings and tables as players write them, parsed to exact sizes in mm and inches."""

from __future__ import annotations

import math
import re

import pytest
from pydantic import ValidationError

from chargeopt.models import HullBase, OvalBase, RoundBase, mm_to_in, parse_base

RECTANGLE_4X2 = [[-2.0, -1.0], [2.0, -1.0], [2.0, 1.0], [-2.0, 1.0]]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("32mm", RoundBase(diameter_mm=32)),
        ("28.5mm", RoundBase(diameter_mm=28.5)),
        ("25MM", RoundBase(diameter_mm=25)),
        (" 40 mm ", RoundBase(diameter_mm=40)),
        ("60x35mm", OvalBase(length_mm=60, width_mm=35)),
        ("60 x 35.5mm", OvalBase(length_mm=60, width_mm=35.5)),
        ("60x35 mm", OvalBase(length_mm=60, width_mm=35)),
        ("60mmx35mm", OvalBase(length_mm=60, width_mm=35)),
        ("170x109mm", OvalBase(length_mm=170, width_mm=109)),
        ("50x50mm", OvalBase(length_mm=50, width_mm=50)),
        ({"kind": "round", "diameter_mm": 32}, RoundBase(diameter_mm=32)),
        ({"kind": "oval", "length_mm": 60, "width_mm": 35}, OvalBase(length_mm=60, width_mm=35)),
        (
            {"kind": "hull", "points": RECTANGLE_4X2},
            HullBase(points=tuple(tuple(p) for p in RECTANGLE_4X2)),
        ),
    ],
)
def test_base_parses(text: str | dict[str, object], expected: object) -> None:
    """Each written form parses to exactly the base it names."""
    assert parse_base(text) == expected


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("32", "cannot read base '32'"),
        ("mm", "cannot read base 'mm'"),
        ("32 mm round", "cannot read base '32 mm round'"),
        ("60x", "cannot read base '60x'"),
        ("-32mm", "cannot read base '-32mm'"),
        ("0mm", "Input should be greater than 0"),
        ("35x60mm", "an oval is written long axis first: 35x60mm should be 60x35mm"),
        (
            {"kind": "hull", "points": [[0, 0], [1, 1], [2, 2]]},
            "a hull polygon needs a non-zero area",
        ),
        ({"kind": "square", "side_mm": 25}, "does not match any of the expected tags"),
    ],
)
def test_bad_base_is_refused(text: str | dict[str, object], fragment: str) -> None:
    """A base that does not parse raises with a message naming the problem."""
    with pytest.raises(ValidationError, match=re.escape(fragment)):
        parse_base(text)


def test_unreadable_base_message_says_how_to_write_one() -> None:
    """The message for an unreadable base shows the three accepted forms."""
    with pytest.raises(ValidationError) as caught:
        parse_base("oval")
    assert '"32mm"' in str(caught.value)
    assert '"60x35mm" (long axis first)' in str(caught.value)
    assert 'kind = "hull"' in str(caught.value)


def test_round_radius_in_inches() -> None:
    """A 32mm base has radius 16/25.4 = 0.6299" and equal in- and circumradius."""
    base = parse_base("32mm")
    assert base.radius_in == pytest.approx(32 / 25.4 / 2, abs=1e-12)
    assert base.inradius_in == base.circumradius_in == base.radius_in


def test_oval_semi_axes_in_inches() -> None:
    """A 60x35mm oval has semi-axes 30mm and 17.5mm; the long one is its circumradius."""
    base = parse_base("60x35mm")
    assert isinstance(base, OvalBase)
    assert base.semi_axes_in == pytest.approx((30 / 25.4, 17.5 / 25.4), abs=1e-12)
    assert base.circumradius_in == pytest.approx(30 / 25.4, abs=1e-12)
    assert base.inradius_in == pytest.approx(17.5 / 25.4, abs=1e-12)


def test_hull_radii_of_a_4x2_rectangle() -> None:
    """A 4" x 2" rectangle about its centre: inradius 1 (half the width), circumradius sqrt(5)."""
    base = parse_base({"kind": "hull", "points": RECTANGLE_4X2})
    assert base.inradius_in == pytest.approx(1.0, abs=1e-12)
    assert base.circumradius_in == pytest.approx(math.sqrt(5), abs=1e-12)


@pytest.mark.parametrize(
    ("text", "label"), [("32mm", "32mm"), ("28.5mm", "28.5mm"), ("60 x 35.5 mm", "60x35.5mm")]
)
def test_label_writes_the_base_back(text: str, label: str) -> None:
    """label() gives the canonical spelling of a base."""
    assert parse_base(text).label() == label


def test_mm_to_in() -> None:
    """25.4mm is one inch."""
    assert mm_to_in(25.4) == 1.0
    assert mm_to_in(50.8) == 2.0
