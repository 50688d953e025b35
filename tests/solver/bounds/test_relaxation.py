"""The conservative cell relaxation: its geometry, its proofs of impossibility (confirmed by
CP-SAT and HiGHS), and that it never rules out a placement the checker accepts."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from builders import make_scenario, sampled_layouts
from hypothesis import assume, given, note
from hypothesis import strategies as st

from chargeopt.geometry import Battlefield
from chargeopt.geometry.checker import check_placement
from chargeopt.geometry.start_layout import check_start_layout
from chargeopt.models import Placement, Scenario, ScenarioError
from chargeopt.solver.bounds import cells as cl
from chargeopt.solver.bounds.relaxation import max_hops
from chargeopt.solver.bounds.relaxation_solve import bound, ceiling, prove
from chargeopt.solver.bounds.relaxation_words import explain
from chargeopt.solver.bounds.relaxation_zones import zones
from chargeopt.solver.core import clock

R25, R32, R40 = (mm / 25.4 / 2 for mm in (25, 32, 40))


def _prove(s: Scenario, roll: int, seconds: float = 30.0):
    bf = Battlefield.from_scenario(s)
    z = zones(s, bf)
    return prove(z, roll, (bf.width, bf.height), clock.now() + seconds, workers=2), z


@pytest.mark.parametrize(
    ("n", "k", "hops"), [(1, 0, 0), (2, 1, 1), (3, 1, 2), (6, 1, 5), (6, 2, 3), (7, 2, 4)]
)
def test_max_hops(n: int, k: int, hops: int) -> None:
    """Six models with two neighbours each span 3 steps (layers 1, 2, 2, 1); with one, 5."""
    assert max_hops(n, k) == hops


def test_square_capacity_by_sub_squares() -> None:
    """A 1" square splits into 2 x 2 squares of diagonal 0.71" < 1.26": at most 4 bases."""
    assert cl.square_capacity(np.array([1.0, 0.5, 2.0]), 2 * R32).tolist() == [4, 1, 9]


def test_sector_superset_holds_its_annulus_piece() -> None:
    """Every point of the annulus piece (1.2..1.3, 0..0.3 rad) lies in the sector's polygon."""
    sec = cl.sectors((5.0, 5.0), 1.2, 1.3, 21, 0)
    rho, th = np.meshgrid(np.linspace(1.2, 1.3, 7), np.linspace(0.0, 2 * np.pi / 21, 7))
    pts = shapely.points(5.0 + rho * np.cos(th), 5.0 + rho * np.sin(th))
    assert shapely.covers(sec.polygons[0].buffer(1e-12), pts).all()


def test_split_quarters_squares_and_halves_sectors() -> None:
    """One 1" square becomes four 0.5" squares; a long-arc sector two half-arcs."""
    both = cl.concat([cl.squares(0.0, 0.0, 1.0, 1.0, 1.0), cl.sectors((0.0, 0.0), 1.0, 1.01, 8, 0)])
    out = cl.split(both, np.array([0, 1]), np.array([[0.0, 0.0]]))
    half_arc = round(1.01 * 2 * math.pi / 16, 4)
    assert sorted(out.size_in.round(4).tolist())[:6] == [half_arc] * 2 + [0.5] * 4
    assert len(out) == 4 + 7 + 2
    assert shapely.area(shapely.union_all(out.polygons[out.kind == cl.SQUARE])) == pytest.approx(1)


def test_screened_target_core_names_both_units() -> None:
    """B1 ringed by non-target C at 1.6": the clash is exactly engage:B and non-target:C."""
    ring = [
        (20.0 + 1.6 * math.cos(k * math.pi / 4), 15.0 + 1.6 * math.sin(k * math.pi / 4))
        for k in range(8)
    ]
    s = make_scenario([(10.0, 15.0)], {"B": [(20.0, 15.0)], "C": ring}, enemy_base="25mm")
    v, z = _prove(s, 12)
    assert v.status == "infeasible"
    assert v.core == ("engage:B", "non-target:C")
    assert v.confirmed_by == ("cp-sat", "highs")
    words = explain(v, z, s, 12)
    assert 'every spot within 1" of B that a model can reach with a roll of 12' in words
    assert 'is within 1" of non-target C' in words


def test_walled_room_core_is_the_wall() -> None:
    """B in a 2.4" room (walls 0.6" thick): inside, no 32mm base fits beside it; outside,
    the wall keeps every base at least 1.17" from B. (Engagement is only counted for centres
    clear of B's own base, so the wall alone clashes with engaging B.)"""
    path = [[18.5, 13.5], [21.5, 13.5], [21.5, 16.5], [18.5, 16.5], [18.5, 13.5]]
    wall = {"id": "room", "kind": "wall", "path": path, "thickness": 0.6, "height": 5.0}
    s = make_scenario([(10.0, 15.0)], {"B": [(20.0, 15.0)]}, roll=12, terrain=[wall])
    v, z = _prove(s, 12)
    assert v.status == "infeasible"
    assert v.core == ("engage:B", "terrain:room")
    assert "a roll of 12 is inside terrain room" in explain(v, z, s, 12)


def test_ninth_edition_unit_cannot_span_two_targets() -> None:
    """Six models, two neighbours each: at most 3 steps of 3.26" between centres (9.78"),
    while spots engaging B and C 16" apart are 16 - 2 x 2.26" = 11.47" apart."""
    attackers = [(15.5 + 1.5 * (i % 3), 12.0 + 1.5 * (i // 3)) for i in range(6)]
    defenders = {"B": [(9.0, 16.0)], "C": [(25.0, 16.0)]}
    s = make_scenario(attackers, defenders, targets=("B", "C"), roll=12, ruleset="40k-9e")
    v, z = _prove(s, 12)
    assert v.status == "infeasible"
    assert "span:B-C" in v.core
    words = explain(v, z, s, 12)
    assert "a unit of 6 in 9th edition needs 2 coherency neighbours each" in words
    assert '3 x 3.26" = 9.78"' in words and '11.47" apart' in words


def test_tenth_edition_chain_is_not_ruled_out() -> None:
    """The same layout under 10th edition (one neighbour each) spans 5 steps: never a proof."""
    attackers = [(15.5 + 1.5 * (i % 3), 12.0 + 1.5 * (i // 3)) for i in range(6)]
    defenders = {"B": [(9.0, 16.0)], "C": [(25.0, 16.0)]}
    s = make_scenario(attackers, defenders, targets=("B", "C"), roll=12)
    v, _ = _prove(s, 12, seconds=4.0)
    assert v.status != "infeasible"


def _gap_layout(d: float) -> Scenario:
    cs = [
        (20 + d * math.cos(a), 15 + d * math.sin(a)) for a in np.radians([1.5, 91.5, 181.5, 271.5])
    ]
    return make_scenario([(10.0, 15.0)], {"B": [(20.0, 15.0)], "C": cs}, roll=12)


def test_tight_gap_is_never_infeasible() -> None:
    """C models 3.21" out on four axes (turned 1.5"): the diagonals leave a corridor only
    3.21 / sqrt 2 - 2.26 = 0.0098" wider than C's engagement range into B's contact ring."""
    s = _gap_layout(3.21)
    v, _ = _prove(s, 12, seconds=3.0)
    assert v.status != "infeasible"


def test_eight_25mm_bases_never_fit_around_a_40mm_base() -> None:
    """floor(pi / asin(r / (R + r + 0.005))) = 7: eight 25mm bases on a ring 0.004" off the
    40mm base overlap their neighbours (chord 0.9824" < 2r = 0.9843"), which the checker
    refuses (bases never overlap). The relaxation, loosened by its cells' epsilon, never bounds
    below the 7 that fit (the solve proves 7 from the kissing number: test_charge.py)."""
    attackers = [(14.0 + 1.9 * (i % 5), 10.0 + 1.9 * (i // 5)) for i in range(10)]
    s = make_scenario(attackers, {"B": [(20.0, 16.0)]}, base="25mm", enemy_base="40mm", roll=12)
    rho = R40 + R25 + 0.004
    pts = [
        (
            20 + rho * math.cos(k * math.pi / 4 - math.pi / 2),
            16 + rho * math.sin(k * math.pi / 4 - math.pi / 2),
        )
        for k in range(8)
    ]
    pts += [(pts[0][0] - 0.6, pts[0][1] - 1.1), (pts[0][0] + 0.6, pts[0][1] - 1.1)]
    placements = [Placement(model=f"A{i + 1}", x=x, y=y) for i, (x, y) in enumerate(pts)]
    assert {v.kind for v in check_placement(s, placements, roll=12)} == {"overlap"}
    bf = Battlefield.from_scenario(s)
    v = bound(
        zones(s, bf),
        12,
        (bf.width, bf.height),
        {"base_contact": 7, "engaged": 10},
        clock.now() + 5,
        workers=2,
    )
    assert v.contact_bound in (7, 8)


@st.composite
def _layouts(draw: st.DrawFn) -> tuple[Scenario, list[Placement], int]:
    """1-3 attackers, 1-2 target models, maybe a non-target model, a roll of 6-12, and a
    random placement around one target model: each base in contact or 0.5" out in the band,
    side by side at random angles."""
    n = draw(st.integers(1, 3))
    ax, ay = draw(st.integers(60, 120)) / 10, draw(st.integers(100, 200)) / 10
    attackers = [(ax + 1.7 * i, ay) for i in range(n)]
    tx, ty = ax + draw(st.integers(40, 90)) / 10, ay + draw(st.integers(-30, 30)) / 10
    targets = [(tx, ty)] + ([(tx, ty + 1.6)] if draw(st.booleans()) else [])
    defenders = {"B": targets}
    if draw(st.booleans()):
        defenders["C"] = [
            (tx + draw(st.integers(20, 40)) / 10, ty + draw(st.integers(-30, 30)) / 10)
        ]
    roll = draw(st.integers(6, 12))
    s = make_scenario(attackers, defenders, roll=roll)
    try:
        check_start_layout(s)
    except ScenarioError:
        assume(False)
    cx, cy = targets[draw(st.integers(0, len(targets) - 1))]
    theta = draw(st.integers(0, 359)) * math.pi / 180
    placements = []
    for i in range(n):
        rho = 2 * R32 + (0.002 if draw(st.booleans()) else 0.5)
        a = theta + i * (2 * math.asin(R32 / (2 * R32)) + 0.08)
        placements.append(
            Placement(model=f"A{i + 1}", x=cx + rho * math.cos(a), y=cy + rho * math.sin(a))
        )
    return s, placements, roll


@sampled_layouts(8)
@given(_layouts())
def test_relaxation_keeps_every_legal_placement(
    case: tuple[Scenario, list[Placement], int],
) -> None:
    """Whenever the sampler's placement is legal, the relaxation is not infeasible and its
    contact bound is at least the placement's base contacts."""
    s, placements, roll = case
    assume(check_placement(s, placements, roll=roll) == [])
    bf = Battlefield.from_scenario(s)
    targets = [(m.x, m.y) for m in s.unit_by_id["B"].models]
    contacts = sum(
        1
        for p in placements
        if min(math.hypot(p.x - x, p.y - y) for x, y in targets) - 2 * R32 < 0.005
    )
    note(f"{s.model_dump_json(exclude_defaults=True)} contacts={contacts}")
    z = zones(s, bf)
    v = prove(z, roll, (bf.width, bf.height), clock.now() + 2.0, workers=2)
    assert v.status != "infeasible"
    top = ceiling(z, roll, (bf.width, bf.height), 5.0)
    assert top is None or top >= contacts
