"""Who can fight after a move: engagement range, the 9th edition's 1/2" support and the 10th
edition's base-contact chain, on hand-built layouts of 32mm bases whose gaps are set exactly."""

from __future__ import annotations

from typing import Any

import pytest
from builders import BARRICADE, make_scenario
from hypothesis import given, settings
from hypothesis import strategies as st

from chargeopt.geometry import Battlefield
from chargeopt.geometry.fight import engaged_pairs, fight_eligibility
from chargeopt.models import Placement, Scenario

R = 16 / 25.4  # radius of a 32mm base, inches
D = 2 * R  # centre distance of two touching 32mm bases
TOUCH = 0.002  # a gap within the 0.005" base-contact tolerance


PILE_IN = {"kind": "pile-in", "unit": "A", "charged": True}


def scenario(
    attackers: list[tuple[float, float]],
    defenders: dict[str, list[tuple[float, float]]],
    *,
    ruleset: str = "40k-9e",
    terrain: list[dict[str, Any]] | None = None,
) -> Scenario:
    """Unit A (models A1, A2, ...) piles in; defender units' models are B1, B2, ..."""
    return make_scenario(attackers, defenders, ruleset=ruleset, terrain=terrain, action=PILE_IN)


def chain(gaps: list[float], ruleset: str) -> Scenario:
    """B1 at x = 20; A1, A2, ... in a row to its left, each gap the edge gap in front of the
    next model."""
    x, models = 20.0, []
    for gap in gaps:
        x -= D + gap
        models.append((x, 10.0))
    return scenario(models, {"B": [(20.0, 10.0)]}, ruleset=ruleset)


def fighters(s: Scenario, placements: list[Placement] = ()) -> list[str]:
    return [m for m, units in fight_eligibility(s, placements).items() if units]


@pytest.mark.parametrize(("friend_gap", "expected"), [(0.4, ["A1", "A2"]), (0.6, ["A1"])])
def test_ninth_support_within_half_inch(friend_gap: float, expected: list[str]) -> None:
    """9th: A1 is 0.3" from B1; A2 fights through it only when 0.4" behind it, not 0.6"."""
    s = chain([0.3, friend_gap], "40k-9e")
    assert fighters(s) == expected
    assert fight_eligibility(s, [])["A1"] == ("B",)


def test_ninth_support_needs_the_friend_within_half_inch_of_the_enemy() -> None:
    """9th: A1 is 0.7" from B1 (engaged, but not within 1/2"), so A2 0.1" behind it cannot
    fight: A2 is 0.7 + 1.26 + 0.1 = 2.06" from B1."""
    assert fighters(chain([0.7, 0.1], "40k-9e")) == ["A1"]


def test_ninth_support_is_one_link_only() -> None:
    """9th: A3 is within 1/2" of A2, which fights only through A1: A3 cannot fight."""
    assert fighters(chain([TOUCH, TOUCH, TOUCH], "40k-9e")) == ["A1", "A2"]


def test_tenth_base_contact_chain() -> None:
    """10th: A1 touches B1 and A2 touches A1, so both fight; A3 touches only A2. With A2 0.3"
    behind A1 it cannot fight in the 10th edition, though it could in the 9th."""
    assert fighters(chain([TOUCH, TOUCH, TOUCH], "40k-10e")) == ["A1", "A2"]
    assert fighters(chain([TOUCH, 0.3], "40k-10e")) == ["A1"]
    assert fighters(chain([TOUCH, 0.3], "40k-9e")) == ["A1", "A2"]


def test_tenth_chain_needs_the_friend_in_contact_with_the_enemy() -> None:
    """10th: A1 is 0.5" from B1 (engaged, not touching): A2 touching A1 cannot fight."""
    assert fighters(chain([0.5, TOUCH], "40k-10e")) == ["A1"]


@pytest.mark.parametrize(
    ("gap", "with_barricade", "expected"),
    [(1.5, True, ("B",)), (2.5, True, ()), (1.5, False, ())],
)
@pytest.mark.parametrize("ruleset", ["40k-9e", "40k-10e"])
def test_barricade_gives_two_inches(
    gap: float, with_barricade: bool, expected: tuple[str, ...], ruleset: str
) -> None:
    """Across a barricade engagement range is 2": 1.5" engaged, 2.5" not; 1.5" in the open
    is not."""
    bx = 20.0 + D + gap
    s = scenario(
        [(20.0, 10.0)],
        {"B": [(bx, 10.0)]},
        ruleset=ruleset,
        terrain=[BARRICADE] if with_barricade else None,
    )
    assert fight_eligibility(s, []) == {"A1": expected}


def test_placements_move_the_acting_unit() -> None:
    """A model is judged at its placement, others at their start; ids run in scenario order
    and a second placement of a model is ignored. A2 ends 0.76" from both B1 and C1."""
    s = scenario(
        [(10.0, 10.0), (10.0, 12.0)],
        {"B": [(14.0, 10.0)], "C": [(14.0, 12.0)]},
    )
    assert fight_eligibility(s, []) == {"A1": (), "A2": ()}
    moved = [
        Placement(model="A1", x=14.0, y=10.0 - D - TOUCH),
        Placement(model="A2", x=14.0 - D - 0.5, y=11.0),
        Placement(model="A2", x=10.0, y=12.0),
    ]
    assert fight_eligibility(s, moved) == {"A1": ("B",), "A2": ("B", "C")}


def test_engaged_pairs() -> None:
    """engaged_pairs lists (acting model, enemy model) pairs within 1" (and 5" up)."""
    s = chain([0.3, 0.4], "40k-10e")
    field = Battlefield.from_scenario(s)
    assert engaged_pairs(s, {}, field) == frozenset({("A1", "B1")})


def test_ninth_support_counts_height() -> None:
    """9th: 1/2" is measured in three dimensions: a friend 0.3" away on the ground supports a
    model 0.3" from the enemy; the same friend 0.45" higher (0.54" away) does not."""
    base = chain([0.3, 0.3], "40k-9e")
    assert fighters(base) == ["A1", "A2"]
    x2 = base.unit_by_id["A"].models[1].x
    higher = [Placement(model="A2", x=x2, y=10.0, z=0.45)]
    assert fighters(base, higher) == ["A1"]


@st.composite
def layouts(draw: st.DrawFn) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Up to 9 bases on a 10x10 patch, at least a base apart, split into attackers and
    defenders."""
    points: list[tuple[float, float]] = []
    for _ in range(draw(st.integers(3, 9))):
        x = draw(st.floats(10.0, 20.0))
        y = draw(st.floats(10.0, 20.0))
        if all((x - px) ** 2 + (y - py) ** 2 >= D**2 for px, py in points):
            points.append((x, y))
    cut = draw(st.integers(1, max(1, len(points) - 1)))
    return points[:cut], points[cut:]


@settings(max_examples=60, deadline=None)
@given(layouts(), st.data())
def test_fewer_enemy_models_never_add_fighters(layout: Any, data: st.DataObject) -> None:
    """Removing enemy models can only take fights away, in both editions; and the 10th
    edition's contact chain is stricter than the 9th's 1/2" (every 10th fighter fights in
    the 9th on the same layout)."""
    mine, theirs = layout
    if not theirs:
        return
    kept = data.draw(st.lists(st.sampled_from(theirs), min_size=1, unique=True))
    for ruleset in ("40k-9e", "40k-10e"):
        full = fight_eligibility(scenario(mine, {"B": theirs}, ruleset=ruleset), [])
        fewer = fight_eligibility(scenario(mine, {"B": kept}, ruleset=ruleset), [])
        assert all(set(fewer[m]) <= set(full[m]) for m in full)
    ninth = fight_eligibility(scenario(mine, {"B": theirs}, ruleset="40k-9e"), [])
    tenth = fight_eligibility(scenario(mine, {"B": theirs}, ruleset="40k-10e"), [])
    assert all(set(tenth[m]) <= set(ninth[m]) for m in ninth)
