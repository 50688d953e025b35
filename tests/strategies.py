"""Hypothesis strategies shared by the property tests: random small charges on a valid start
layout (attackers, targets, maybe a non-target unit and a wall between them, a roll)."""

from __future__ import annotations

from typing import Any

from builders import make_scenario
from hypothesis import assume
from hypothesis import strategies as st

from chargeopt.geometry.start_layout import check_start_layout
from chargeopt.models import Scenario, ScenarioError

SPACING_IN = 1.7
"""Grid step of a unit's models; with jitter of at most 0.2" two 32mm bases never overlap."""


def _tenths(lo: float, hi: float) -> st.SearchStrategy[float]:
    return st.integers(round(lo * 10), round(hi * 10)).map(lambda v: v / 10)


@st.composite
def _unit(draw: st.DrawFn, x: float, y: float, count: int) -> list[tuple[float, float]]:
    """`count` models on a loose 3-wide grid from (x, y), each jittered by up to 0.2"."""
    return [
        (
            x + SPACING_IN * (i % 3) + draw(_tenths(-0.2, 0.2)),
            y + SPACING_IN * (i // 3) + draw(_tenths(-0.2, 0.2)),
        )
        for i in range(count)
    ]


@st.composite
def charges(draw: st.DrawFn) -> Scenario:
    """A valid start layout: 1-5 attackers, 1-4 target models 1-8" beyond them, maybe a
    non-target unit near the target and a wall segment between the two, and a roll of 3-12."""
    ax, ay = draw(_tenths(6.0, 12.0)), draw(_tenths(8.0, 18.0))
    attackers = draw(_unit(ax, ay, draw(st.integers(1, 5))))
    tx = ax + 2 * SPACING_IN + draw(_tenths(1.0, 8.0))
    ty = ay + draw(_tenths(-3.0, 3.0))
    defenders = {"B": draw(_unit(tx, ty, draw(st.integers(1, 4))))}
    if draw(st.booleans()):
        cx, cy = tx + draw(_tenths(-3.5, 3.5)), ty + draw(_tenths(-3.5, 3.5))
        defenders["C"] = draw(_unit(cx, cy, draw(st.integers(1, 2))))
    terrain: list[dict[str, Any]] = []
    if draw(st.booleans()):
        wx, wy = draw(_tenths(ax + 2.0, tx)), ay + draw(_tenths(-4.0, 2.0))
        length = draw(_tenths(2.0, 6.0))
        end = (wx, wy + length) if draw(st.booleans()) else (wx + length, wy)
        terrain.append(
            {
                "id": "wall",
                "kind": "wall",
                "path": [[wx, wy], list(end)],
                "thickness": 0.25,
                "height": 5.0,
            }
        )
    scenario = make_scenario(
        attackers,
        defenders,
        base=draw(st.sampled_from(["32mm", "25mm"])),
        enemy_base=draw(st.sampled_from(["25mm", "32mm", "40mm"])),
        roll=draw(st.integers(3, 12)),
        terrain=terrain,
    )
    try:
        check_start_layout(scenario)
    except ScenarioError:
        assume(False)
    return scenario
