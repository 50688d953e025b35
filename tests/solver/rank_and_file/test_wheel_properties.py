"""Every WHFB 6e and TOW answer passes the independent checker exactly as written: random
chargers (position, facing, files, Move), either wheel metric, sometimes a rock, sometimes a
fled target with a second enemy to redirect to; failed moves are checked too."""

from __future__ import annotations

import math

from hypothesis import assume, example, given
from hypothesis import strategies as st
from t9a_builders import assert_checked, block, property_settings, table, tow_wheel_into_touch

from chargeopt.geometry.rank_and_file.start import check_block_layout
from chargeopt.models import ScenarioError


def _tenths(lo: float, hi: float) -> st.SearchStrategy[float]:
    return st.integers(round(lo * 10), round(hi * 10)).map(lambda v: v / 10)


@st.composite
def charges(draw: st.DrawFn):
    units = [block("B", "defender", 26.0, 18.0, draw(st.sampled_from([90.0, 0.0, 45.0, 180.0])))]
    x, y = draw(_tenths(10, 38)), draw(_tenths(10, 38))
    toward_b = math.degrees(math.atan2(16.0 - y, 24.0 - x))
    movement = draw(st.integers(3, 8))
    units.append(
        block(
            "A",
            "attacker",
            x,
            y,
            round(toward_b + draw(_tenths(-50, 50)), 1),
            files=draw(st.integers(2, 6)),
            ranks=draw(st.integers(1, 4)),
            base=draw(st.sampled_from(["25x25mm", "20x20mm", "25x50mm"])),
            profile={"movement": movement},
        )
    )
    fled = draw(st.booleans())
    if fled:
        units.append(block("C", "defender", draw(_tenths(6, 42)), draw(_tenths(6, 42)), 90.0))
    terrain = []
    if draw(st.booleans()):
        rx, ry = draw(_tenths(10, 36)), draw(_tenths(10, 36))
        terrain.append([(rx, ry), (rx + 2, ry), (rx + 2, ry + 1.5), (rx, ry + 1.5)])
    edition = draw(st.sampled_from(["whfb-6e", "tow"]))
    metric = draw(st.sampled_from(["wheel-arc", "wheel-chord"]))
    roll = movement + draw(st.integers(1, 6)) if edition == "tow" else None
    try:
        scenario = table(units, terrain=terrain, roll=roll, ruleset=[edition, metric], fled=fled)
        check_block_layout(scenario)
    except ScenarioError:
        assume(False)
    return scenario


def _door_past_square():
    """Issue 42: the solver's best path met B's left facing turned 102 degrees from flush (its
    front facing B's other facing) and closed that door; now it wheels 59.5 and moves in."""
    a = block(
        "A",
        "attacker",
        25.2,
        13.9,
        104.5,
        files=3,
        ranks=4,
        base="20x20mm",
        profile={"movement": 8},
    )
    b = block("B", "defender", 26.0, 18.0, 45.0)
    return table([b, a], roll=12, ruleset=["tow", "wheel-chord"], fled=False)


@property_settings(25)
@given(charges())
@example(tow_wheel_into_touch())
@example(_door_past_square())
def test_every_answer_passes_the_checker(scenario) -> None:
    assert_checked(scenario)
