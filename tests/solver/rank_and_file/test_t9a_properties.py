"""Every answer of the T9A solver passes the independent checker: random chargers (position,
facing, files), sometimes a rock, sometimes a second charger; the solve is re-checked."""

from __future__ import annotations

import math

from hypothesis import assume, given
from hypothesis import strategies as st
from t9a_builders import assert_checked, block, property_settings, table

from chargeopt.geometry.rank_and_file.declaration import check_declarations
from chargeopt.geometry.rank_and_file.start import check_block_layout
from chargeopt.models import ScenarioError


def _tenths(lo: float, hi: float) -> st.SearchStrategy[float]:
    return st.integers(round(lo * 10), round(hi * 10)).map(lambda v: v / 10)


@st.composite
def charges(draw: st.DrawFn):
    units = [block("B", "defender", 26.0, 18.0, draw(st.sampled_from([90.0, 0.0, 45.0, 180.0])))]
    chargers = []
    for uid in draw(st.sampled_from([("A",), ("A", "C")])):
        x, y = draw(_tenths(4, 40)), draw(_tenths(4, 40))
        toward_b = math.degrees(math.atan2(16.0 - y, 24.0 - x))  # roughly at B, mostly
        units.append(
            block(
                uid,
                "attacker",
                x,
                y,
                round(toward_b + draw(_tenths(-60, 60)), 1),
                files=draw(st.integers(2, 6)),
                ranks=draw(st.integers(1, 4)),
                base=draw(st.sampled_from(["25x25mm", "20x20mm", "25x50mm"])),
            )
        )
        chargers.append(uid)
    terrain = []
    if draw(st.booleans()):
        x, y = draw(_tenths(10, 36)), draw(_tenths(10, 36))
        terrain.append([(x, y), (x + 2, y), (x + 2, y + 1.5), (x, y + 1.5)])
    scenario = table(units, terrain=terrain, chargers=tuple(chargers))
    try:
        check_block_layout(scenario)
        check_declarations(scenario)
    except ScenarioError:
        assume(False)
    return scenario


@property_settings(30)
@given(charges())
def test_every_answer_passes_the_checker(scenario) -> None:
    assert_checked(scenario)
