"""Engagement regions, the pair ceiling and the sliver spots, worked out by hand: two marines
(32mm, radius 0.63") 9.2" from one marine, 2 * phi apart as seen from it, with a roll of 7.
Each can end within engagement range (centres 2.2598" apart at most) only in a lens at the
edge of its reach, whose corners lie alpha = acos((9.2^2 + 2.2598^2 - 7^2) / (2 * 9.2 *
2.2598)) = 11.49 degrees either side of its own direction; the two lenses are at most
2 * 2.2598 * sin(phi + alpha) apart, centre to centre, and the bases need 1.2548". An answer
keeps 0.011" inside the range and 0.012" inside the roll (`solver.core.tolerances`): its
lenses (the sliver spots') have corners at alpha' = 9.04 degrees on a band of 2.2488"."""

from __future__ import annotations

import math

import numpy as np
from builders import make_scenario

from chargeopt.geometry import Battlefield
from chargeopt.models import Scenario
from chargeopt.solver import solve
from chargeopt.solver.bounds.engagement_regions import engagement_regions
from chargeopt.solver.bounds.pair_ceiling import pair_ceiling
from chargeopt.solver.core.tolerances import MARGIN_IN, ROLL_MARGIN_IN
from chargeopt.solver.forty_k.engagement_spots import engagement_spots
from chargeopt.solver.interface.summary import outcome_lines

R32 = 32 / 25.4 / 2
BAND = 2 * R32 + 1.0
ALPHA = math.acos((9.2**2 + BAND**2 - 49) / (2 * 9.2 * BAND))
KEPT_BAND = BAND - MARGIN_IN
KEPT_ROLL = 7 - ROLL_MARGIN_IN
KEPT_ALPHA = math.acos((9.2**2 + KEPT_BAND**2 - KEPT_ROLL**2) / (2 * 9.2 * KEPT_BAND))


def _two_slivers(phi_deg: float) -> Scenario:
    phi = math.radians(phi_deg)
    dx, dy = 9.2 * math.cos(phi), 9.2 * math.sin(phi)
    return make_scenario([(20 - dx, 10 + dy), (20 - dx, 10 - dy)], {"B": [(20.0, 10.0)]}, roll=7)


def _farthest(phi_deg: float, kept: bool = False) -> float:
    """How far apart the lenses' outer corners are: exactly, or with the answers' margins."""
    band, alpha = (KEPT_BAND, KEPT_ALPHA) if kept else (BAND, ALPHA)
    return 2 * band * math.sin(math.radians(phi_deg) + alpha)


def test_lenses_too_close_for_two_bases_clash() -> None:
    """phi = 4.2 degrees: the lenses are at most 1.223" apart, less than the 1.2598" two bases
    need, so no more than one marine can be engaged, and the answer with one is optimal."""
    s = _two_slivers(4.2)
    assert math.isclose(_farthest(4.2), 1.2227, abs_tol=1e-4)
    pairs = pair_ceiling(s, Battlefield.from_scenario(s), 7)
    assert pairs is not None
    assert pairs.capable == ("A1", "A2")
    assert pairs.engaged == 1
    (clash,) = pairs.clashes
    assert (clash.first, clash.second) == ("A1", "A2")
    assert _farthest(4.2) <= clash.farthest_in < _farthest(4.2) + 0.02
    assert math.isclose(clash.needed_in, 2 * R32 - 1e-6)
    result = solve(s, time_limit=20)
    assert result.status.value == "optimal"
    assert result.objective["engaged"] == 1
    assert result.bound == {"base_contact": 0, "engaged": 1}
    assert result.stats["straight_line_bound"]["engaged"] == 2
    why = next(line for line in outcome_lines(result) if "Why no more" in line and "A1" in line)
    assert why.strip() == (
        "Why no more: no more than 1 model can be within engagement range at once: 2 can end "
        f'there, but A1 and A2 only within {clash.farthest_in:.2f}" of each other, centre to '
        'centre, where their bases need 1.26"'
    )


def test_lenses_far_enough_take_both_bases() -> None:
    """phi = 8 degrees: the lenses' outer corners are 1.508" apart (1.318" with the margins),
    so both marines can be engaged, but only near those corners, which the sliver spots put
    among the candidates."""
    s = _two_slivers(8.0)
    assert math.isclose(_farthest(8.0), 1.5084, abs_tol=1e-4)
    assert math.isclose(_farthest(8.0, kept=True), 1.3177, abs_tol=1e-4)
    pairs = pair_ceiling(s, Battlefield.from_scenario(s), 7)
    assert pairs is not None and pairs.engaged == 2 and not pairs.clashes
    result = solve(s, time_limit=20)
    assert result.status.value == "optimal"
    assert result.objective["engaged"] == 2
    assert result.stats["engagement_spots"] > 0
    a1, a2 = result.placements
    assert math.hypot(a1.x - a2.x, a1.y - a2.y) >= 2 * R32 - 0.005


def test_lenses_far_enough_only_without_the_margins() -> None:
    """phi = 6 degrees: the lenses' outer corners are 1.359" apart, room for both bases on
    the table, but 1.167" with the margins an answer keeps: it engages one marine, and the
    bound (exact rules) stays 2, so the answer is not proven best."""
    s = _two_slivers(6.0)
    assert math.isclose(_farthest(6.0), 1.3588, abs_tol=1e-4)
    assert math.isclose(_farthest(6.0, kept=True), 1.1668, abs_tol=1e-4)
    pairs = pair_ceiling(s, Battlefield.from_scenario(s), 7)
    assert pairs is not None and pairs.engaged == 2 and not pairs.clashes
    result = solve(s, time_limit=20)
    assert result.status.value == "feasible"
    assert result.objective["engaged"] == 1
    assert result.bound["engaged"] == 2


def test_sliver_spots_stand_in_the_lens() -> None:
    """Every spot is within the roll of its marine, within engagement range of the target and
    off its base, each with the answers' margins; the lens's two corners are among them."""
    s = _two_slivers(6.0)
    (spots,) = engagement_spots(s, 7, ["A1", "A2"]).values()
    starts = np.array([(m.x, m.y) for m in s.acting_unit.models])
    gap = np.hypot(spots[:, 0] - 20, spots[:, 1] - 10)
    reach = np.hypot(*(spots[:, None, :] - starts[None, :, :]).transpose(2, 0, 1)).min(axis=1)
    assert (reach <= KEPT_ROLL).all()
    assert ((gap <= KEPT_BAND) & (gap >= 2 * R32)).all()
    corners = [
        (20 - KEPT_BAND * math.cos(a), 10 + KEPT_BAND * math.sin(a))
        for a in (math.radians(6) + KEPT_ALPHA, -math.radians(6) - KEPT_ALPHA)
    ]
    for x, y in corners:
        assert np.hypot(spots[:, 0] - x, spots[:, 1] - y).min() < 0.01


def test_outer_regions_hold_the_inner_ones() -> None:
    """The regions drawn for ceilings hold those drawn for spots."""
    s = _two_slivers(6.0)
    outer = engagement_regions(s, 7, outer=True)
    inner = engagement_regions(s, 7, outer=False)
    assert set(outer) == set(inner) == {"A1", "A2"}
    for mid, region in inner.items():
        assert outer[mid].area.contains(region.area)


def test_a_sliver_inside_a_non_target_range_is_no_place_to_end() -> None:
    """Found by random layouts (9th edition, roll 6): A6 can reach engagement range of B1
    only beside non-target C1, and A3 only within engagement range of C1, so one marine at
    most can be engaged, though the straight line lets two get there. The pair ceiling sees
    it; so, first in the certificate, does the packing of the bands' sectors."""
    marines = [(5.4, 16.11), (6.86, 16.08), (8.26, 16.05), (5.28, 17.68), (6.9, 17.55)]
    s = make_scenario(
        [*marines, (8.32, 17.55), (5.4, 19.24)],
        {"B": [(15.71, 16.17), (16.04, 17.72), (16.11, 19.23)], "C": [(14.55, 16.78)]},
        ruleset="40k-9e",
        roll=6,
    )
    pairs = pair_ceiling(s, Battlefield.from_scenario(s), 6)
    assert pairs is not None
    assert pairs.capable == ("A6",)
    assert pairs.engaged == 1
    result = solve(s, time_limit=20)
    assert result.stats["straight_line_bound"]["engaged"] == 2
    assert result.stats["ring_packing_bound"]["engaged"] == 1
    assert result.objective["engaged"] == 1
    assert result.bound == {"base_contact": 0, "engaged": 1}
    assert result.status.value == "optimal"
