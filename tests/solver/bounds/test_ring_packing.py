"""Ring-packing ceilings on base contact and engagement, worked out by hand (32mm bases, radius
0.63", a 0.005" contact tolerance, 1" engagement range), and the properties that keep them
upper bounds: path lengths never above the legal ones, ceilings never below a legal
placement's counts."""

from __future__ import annotations

import math

import numpy as np
from builders import eight_around_one, make_scenario, sampled_layouts
from hypothesis import assume, given, note, settings
from hypothesis import strategies as st

from chargeopt.geometry import Battlefield, legal_move_length
from chargeopt.geometry.checker import check_placement
from chargeopt.geometry.start_layout import check_start_layout
from chargeopt.models import Placement, Scenario, ScenarioError
from chargeopt.solver.bounds.cell_reach import path_lower_bounds
from chargeopt.solver.bounds.contact_bound import straight_line_ceilings
from chargeopt.solver.bounds.pair_ceiling import pair_ceiling
from chargeopt.solver.bounds.relaxation_zones import zones
from chargeopt.solver.bounds.ring_packing import finer_contact_ceiling, ring_packing_ceilings
from chargeopt.solver.core import clock

R32 = 32 / 25.4 / 2
D32 = 2 * R32


def _ceilings(s: Scenario, roll: float) -> dict[str, int | None] | None:
    bf = Battlefield.from_scenario(s)
    packed = ring_packing_ceilings(s, bf, zones(s, bf), roll, clock.now() + 30)
    return None if packed is None else packed.bounds


def _block(x0: float, y0: float, x1: float, y1: float) -> dict[str, object]:
    return {"id": "block", "kind": "impassable", "path": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}


def test_six_equal_bases_touch_one() -> None:
    """Eight marines 3" from one marine, a roll of 4: all can reach it, six touch it (equal
    round bases 60 degrees apart) and all eight fit in its engagement band (centres up to
    2.26" away: a circle of 2" radius holds ten at 1.26" spacing)."""
    assert _ceilings(eight_around_one(), 4) == {"base_contact": 6, "engaged": 8}


def test_a_wall_of_rock_between_bars_the_straight_line() -> None:
    """B1 stands 4.74" from A1 edge to edge beyond a block 20" long: the straight line says
    A1 can touch it with 6", but every legal path goes around an end of the block, 10" away."""
    s = make_scenario(
        [(10.0, 15.0)], {"B": [(16.0, 15.0)]}, terrain=[_block(12.9, 5.0, 13.1, 25.0)]
    )
    assert straight_line_ceilings(s, 6) == {"base_contact": 1, "engaged": 1}
    assert _ceilings(s, 6) == {"base_contact": 0, "engaged": 0}
    assert _ceilings(s, 12) == {"base_contact": 0, "engaged": 0}


def _around_the_corner() -> Scenario:
    """A2 (10, 13) passes below a block (x 12.9 to 13.1, y 14 to 28) freely; A1 (10, 16.5)
    is 4.92" from B1 (16, 15) edge to edge in a straight line, but its centre must round the
    block's corner, keeping 0.63" off it: (10, 16.5) to (12.27, 13.37) is 3.87", on to
    (13.73, 13.37) 1.46", then 2.79" from B1's centre, so touching B1 (centres 1.26" apart)
    takes 6.86" and engagement range (2.26") 5.86"."""
    return make_scenario(
        [(10.0, 16.5), (10.0, 13.0)],
        {"B": [(16.0, 15.0)]},
        terrain=[_block(12.9, 14.0, 13.1, 28.0)],
        roll=6,
    )


def test_a_corner_keeps_one_model_out_of_contact_but_not_out_of_range() -> None:
    s = _around_the_corner()
    assert straight_line_ceilings(s, 6) == {"base_contact": 2, "engaged": 2}
    assert _ceilings(s, 6) == {"base_contact": 1, "engaged": 2}
    assert _ceilings(s, 7) == {"base_contact": 2, "engaged": 2}


def test_the_ring_packing_bound_makes_the_answer_optimal() -> None:
    """The solver finds A2 in contact and A1 in range; the ring packing proves it cannot do
    better, where the straight-line ceilings alone would leave a base contact open (they
    already meet engagement, so only base contact is packed)."""
    from chargeopt.solver import solve

    result = solve(_around_the_corner(), time_limit=20)
    assert result.objective["base_contact"] == 1
    assert result.objective["engaged"] == 2
    assert result.stats["straight_line_bound"] == {"base_contact": 2, "engaged": 2}
    assert result.stats["ring_packing_bound"] == {"base_contact": 1}
    assert result.bound == {"base_contact": 1, "engaged": 2}
    assert result.status.value == "optimal"
    assert result.stats["bound_scope"] == "continuous"


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(st.floats(6.0, 20.0), st.floats(4.0, 26.0), st.floats(0.0, 0.2))
def test_path_lower_bounds_never_exceed_the_legal_length(x: float, y: float, dx: float) -> None:
    """Around the corner: the lower bound for a point p holds for every point within delta of
    p (here one at distance dx <= delta), against the checker's own path length."""
    s = _around_the_corner()
    bf = Battlefield.from_scenario(s)
    reach = path_lower_bounds(s, bf, zones(s, bf), 0.2)
    for mid in ("A1", "A2"):
        legal = legal_move_length(s, bf, mid, x + dx, y)
        assume(math.isfinite(legal))
        low = float(reach[mid](np.array([[x, y]]))[0])
        note(f"{mid} to ({x}, {y}) + {dx}: bound {low}, legal {legal}")
        assert low <= legal + 1e-9


@st.composite
def _layouts(draw: st.DrawFn) -> tuple[Scenario, list[Placement], int]:
    """2-4 attackers in a column, 1-3 target models in a column, maybe a block in between
    and a non-target; a placement of side by side bases around one target model, each in
    contact or 0.5" out; the roll is the least that lets every model get there."""
    n = draw(st.integers(2, 4))
    ax, ay = draw(st.integers(60, 100)) / 10, draw(st.integers(100, 160)) / 10
    attackers = [(ax, ay + 1.4 * i) for i in range(n)]
    tx, ty = ax + draw(st.integers(40, 80)) / 10, ay + draw(st.integers(-20, 40)) / 10
    targets = [(tx, ty + 1.3 * i) for i in range(draw(st.integers(1, 3)))]
    defenders = {"B": targets}
    if draw(st.booleans()):
        defenders["C"] = [(tx + draw(st.integers(30, 50)) / 10, ty - 3.0)]
    terrain = []
    if draw(st.booleans()):
        bx = (ax + tx) / 2
        by = ay + draw(st.integers(-20, 40)) / 10
        terrain.append(_block(bx - 0.1, by, bx + 0.1, by + draw(st.integers(10, 40)) / 10))
    cx, cy = targets[draw(st.integers(0, len(targets) - 1))]
    theta = draw(st.integers(90, 270)) * math.pi / 180
    ends = []
    for i in range(n):
        rho = D32 + (0.002 if draw(st.booleans()) else 0.5)
        a = theta + i * (math.pi / 3 + 0.06)
        ends.append((cx + rho * math.cos(a), cy + rho * math.sin(a)))
    s = make_scenario(attackers, defenders, roll=12, terrain=terrain)
    try:
        check_start_layout(s)
    except ScenarioError:
        assume(False)
    bf = Battlefield.from_scenario(s)
    longest = max(
        legal_move_length(s, bf, f"A{i + 1}", x, y, avoid_engagement_of=tuple(defenders)[1:])
        for i, (x, y) in enumerate(ends)
    )
    assume(longest <= 11.9)
    roll = max(2, math.ceil(longest + 1e-6))
    placements = [Placement(model=f"A{i + 1}", x=x, y=y) for i, (x, y) in enumerate(ends)]
    return make_scenario(attackers, defenders, roll=roll, terrain=terrain), placements, roll


@sampled_layouts(25)
@given(_layouts())
def test_ceilings_hold_every_legal_placement(case: tuple[Scenario, list[Placement], int]) -> None:
    """Whenever the sampler's placement is legal at the least roll that allows it, the
    packing ceilings (the bands cut both ways, and the contact rings on shorter sectors too)
    are at least its base contacts and engaged models, and so is the pair ceiling, whose
    regions hold every engaged model."""
    s, placements, roll = case
    assume(check_placement(s, placements, roll=roll) == [])
    targets = [(m.x, m.y) for m in s.unit_by_id["B"].models]
    gaps = [min(math.hypot(p.x - x, p.y - y) for x, y in targets) - D32 for p in placements]
    contacts = sum(g <= 0.005 for g in gaps)
    engaged = sum(g <= 1.0 for g in gaps)
    found = _ceilings(s, roll)
    note(f"{s.model_dump_json(exclude_defaults=True)} roll={roll} {contacts=} {engaged=} {found}")
    assert found is not None
    assert found["base_contact"] is None or found["base_contact"] >= contacts
    assert found["engaged"] is None or found["engaged"] >= engaged
    bf = Battlefield.from_scenario(s)
    n = len(s.acting_unit.models)
    finer = finer_contact_ceiling(s, bf, zones(s, bf), roll, clock.now() + 30, 0, n, contacts)
    assert finer is not None and finer >= contacts
    pairs = pair_ceiling(s, bf, roll)
    assert pairs is not None and pairs.engaged >= engaged
    assert {p.model for p, g in zip(placements, gaps, strict=True) if g <= 1.0} <= set(
        pairs.capable
    )


def test_who_cannot_reach_engagement_range_is_named() -> None:
    """Around the corner with a roll of 5 and a third marine A3 at (8.5, 12.3): A1 needs 5.86"
    to reach engagement range of B1 (straight line 4.92" edge to edge), A3 is 6.71" from B1
    edge to edge, beyond 5" plus 1". Only A2 can engage: the straight line names A3, the
    legal paths A1 and A3, and the answer (A2 engaged) is proven best."""
    from chargeopt.solver import solve

    s = make_scenario(
        [(10.0, 16.5), (10.0, 13.0), (8.5, 12.3)],
        {"B": [(16.0, 15.0)]},
        terrain=[_block(12.9, 14.0, 13.1, 28.0)],
        roll=5,
    )
    result = solve(s, time_limit=20)
    assert result.stats["beyond_engagement_reach"] == {
        "straight_line": ["A3"],
        "legal_paths": ["A1", "A3"],
    }
    assert result.stats["straight_line_bound"]["engaged"] == 2
    assert result.objective["engaged"] == 1
    assert result.bound == {"base_contact": 0, "engaged": 1}
    assert result.status.value == "optimal"
