"""The spots of a packing with more models in base contact than the candidates hold: exact
distances (touching, never overlapping), reached by a legal path, and what they buy a horde."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from builders import make_scenario, sampled_layouts
from hypothesis import assume, given
from hypothesis import strategies as st
from repo_paths import REPO_ROOT

from chargeopt.geometry import Battlefield, legal_move_length
from chargeopt.geometry.checker import check_placement
from chargeopt.models import Scenario, Status
from chargeopt.models.loading import load_scenario
from chargeopt.solver import solve
from chargeopt.solver.bounds.contact_bound import straight_line_ceilings
from chargeopt.solver.bounds.relaxation_zones import zones
from chargeopt.solver.bounds.ring_packing import contact_ceiling
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core import clock
from chargeopt.solver.core.tolerances import CONTACT_GAP_IN
from chargeopt.solver.forty_k import charge_packing
from chargeopt.solver.forty_k.charge import _contact_spots
from chargeopt.solver.forty_k.contact_witness import contact_spots
from chargeopt.solver.interface.summary import summarise_result
from chargeopt.solver.options import SolveOptions

R32 = 32 / 25.4 / 2
R40 = 40 / 25.4 / 2
LAYOUTS = REPO_ROOT / "benchmarks" / "layouts"


def _spots(s: Scenario, roll: float, found: int) -> tuple[int | None, np.ndarray | None]:
    bf = Battlefield.from_scenario(s)
    deadline = clock.now() + 30
    ceiling = contact_ceiling(s, bf, zones(s, bf), roll, deadline, 0, len(s.acting_unit.models))
    spots = contact_spots(s, bf, zones(s, bf), roll, found, ceiling, deadline)
    return ceiling, None if spots is None else spots[0]


def _touching_and_apart(s: Scenario, xy: np.ndarray, target_r: float = R32) -> None:
    targets = [(m.x, m.y) for m in s.unit_by_id["B"].models]
    for x, y in xy:
        gaps = [math.hypot(x - tx, y - ty) - R32 - target_r for tx, ty in targets]
        assert min(gaps) == pytest.approx(CONTACT_GAP_IN, abs=1e-9)
    for (xa, ya), (xb, yb) in itertools.combinations(xy, 2):
        assert math.hypot(xa - xb, ya - yb) >= 2 * R32


def _eight_around_a_40mm() -> Scenario:
    ring = R32 + R40 + 3.0
    attackers = [
        (20 + ring * math.cos(2 * math.pi * i / 8), 15 + ring * math.sin(2 * math.pi * i / 8))
        for i in range(8)
    ]
    return make_scenario(attackers, {"B": [(20.0, 15.0)]}, enemy_base="40mm")


def test_six_spots_touch_a_40mm_base_and_no_seventh() -> None:
    """Eight marines 3" from a 40mm base, a roll of 4: six 32mm bases touch it (n fit while
    (R + r) sin(pi / n) >= r: 6.83 by the closed form), so a packing with more than five has
    six spots, each reached by one of the eight, and none has more than six."""
    s = _eight_around_a_40mm()
    ceiling, xy = _spots(s, 4, 5)
    assert ceiling == 6
    assert xy is not None and len(xy) == 6
    _touching_and_apart(s, xy, R40)
    bf = Battlefield.from_scenario(s)
    for x, y in xy:
        assert min(legal_move_length(s, bf, m.id, x, y) for m in s.acting_unit.models) <= 4
    assert _spots(s, 4, 6)[1] is None


def test_no_spots_where_the_ceiling_is_met() -> None:
    """Found as many as the ceiling allows: nothing to look for."""
    s = _eight_around_a_40mm()
    bf = Battlefield.from_scenario(s)
    z = zones(s, bf)
    assert contact_spots(s, bf, z, 4, 6, 6, clock.now() + 30) is None
    assert contact_spots(s, bf, z, 4, 3, None, clock.now() + 30) is None


def test_the_spots_bring_a_horde_to_its_contact_ceiling() -> None:
    """scaling-v1 c40-walls-s1: no placement over the candidates has more than 10 models in
    base contact, the ring packing allows 11, and 11 spots a hundredth and a half of an inch
    apart on the contact rings give the solve an 11th, legal and so proven best."""
    s = load_scenario(LAYOUTS / "scaling-v1" / "c40-walls-s1.toml")
    result = solve(s, time_limit=10)
    assert result.stats["contact_spots"] == {"spots": 11, "candidate_ceiling": 10}
    assert result.objective["base_contact"] == 11
    assert result.bound["base_contact"] == 11
    assert result.status == Status.FEASIBLE
    assert result.objective["engaged"] == 14
    beyond = result.stats["beyond_engagement_reach"]
    straight, legal_paths = set(beyond["straight_line"]), set(beyond["legal_paths"])
    assert legal_paths - straight == {"A17", "A18"}  # in a straight line, only into a wall
    assert straight - legal_paths == {"A21"}  # 0.02" short; a path meets a 0.1" band square
    assert result.bound["engaged"] == 16
    assert "only 16 models can reach engagement range" in summarise_result(result)
    assert check_placement(s, list(result.placements)) == []


@st.composite
def _around_one(draw: st.DrawFn) -> tuple[Scenario, int]:
    n = draw(st.integers(3, 8))
    attackers = []
    for i in range(n):
        angle = draw(st.floats(0, 2 * math.pi))
        gap = draw(st.floats(0.5, 3.5))
        ring = 2 * R32 + gap + 1.3 * (i % 2)
        attackers.append((20 + ring * math.cos(angle), 15 + ring * math.sin(angle)))
    assume(all(math.dist(a, b) > 2 * R32 + 0.01 for a, b in itertools.combinations(attackers, 2)))
    return make_scenario(attackers, {"B": [(20.0, 15.0)]}), draw(st.integers(0, 5))


@sampled_layouts(25)
@given(_around_one())
def test_spots_touch_and_never_overlap(case: tuple[Scenario, int]) -> None:
    """Whatever the layout, spots found are more than the count asked to beat, at most six
    (the closed form around one equal base), all touching the target and pairwise apart."""
    s, found = case
    _, xy = _spots(s, 4, found)
    if xy is None:
        return
    assert found < len(xy) <= 6
    _touching_and_apart(s, xy)


def _three_40mm_and_a_block_of_thirty() -> Scenario:
    """Thirty marines in three rows of ten, the front row 1.5" from three 40mm bases 2.2"
    apart: with a roll of 3 only the front row can touch, and the straight line lets 8 do so."""
    front_y = 20 - R40 - R32 - 1.5
    pitch = 2 * R32 + 0.3
    attackers = [
        (12.2 + (j - 4.5) * pitch, front_y - i * pitch) for i in range(3) for j in range(10)
    ]
    return make_scenario(
        attackers, {"B": [(10 + 2.2 * k, 20.0) for k in range(3)]}, enemy_base="40mm"
    )


def test_a_packing_cut_short_decides_on_what_it_placed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 32: a contact packing stopped at its cap keeps the straight line's bound (8 here)
    though it placed fewer (6); the spots step goes by the 6, finds a ring packing of 7 and
    says so (before, the bound of 8 met the straight line's 8 and the step never ran)."""
    monkeypatch.setattr(charge_packing, "CONTACT_PACKING_DETERMINISTIC", 0.0)
    s = _three_40mm_and_a_block_of_thirty()
    bf = Battlefield.from_scenario(s)
    options = SolveOptions()
    c = cand.generate(s, bf, 3, options)
    assert straight_line_ceilings(s, 3)["base_contact"] == 8
    spots, stats = _contact_spots(c, s, bf, 3, options, clock.now() + 30)
    assert stats["ring_packing_bound"] == {"base_contact": 8}
    assert stats["contact_spots"] == {"spots": 7, "candidate_ceiling": 8, "candidate_found": 6}
    assert spots is not None and sum(len(xy) for xy in spots.values()) == 7
