"""The margins answers keep (issue 28): every candidate keeps `MARGIN_IN` inside the rules
between one moved model and what does not move, `PAIR_MARGIN_IN` inside coherency and
`ROLL_MARGIN_IN` inside the roll, so that the answer stays legal once it is rounded to the
JSON's 0.001" and printed to the summary's 0.01"; and what that costs on hand-worked charges."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from builders import make_scenario

from chargeopt.geometry import Battlefield, Footprint, edge_distance
from chargeopt.geometry.checker import check_placement
from chargeopt.models import Status
from chargeopt.solver import SolveOptions, solve
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core.tolerances import (
    APART_FIXED_IN,
    APART_IN,
    CONTACT_GAP_IN,
    JSON_STEP_IN,
    MARGIN_IN,
    PAIR_KEPT_IN,
    PAIR_MARGIN_IN,
    ROLL_MARGIN_IN,
    SUMMARY_STEP_IN,
    WRITTEN_ERROR_IN,
)

R = 16 / 25.4  # radius of a 32mm base
WALL = {
    "id": "w",
    "kind": "impassable",
    "path": [[17.0, 14.0], [18.0, 14.0], [18.0, 16.0], [17.0, 16.0]],
    "height": 5.0,
}


def test_margins_cover_the_written_error() -> None:
    """A printed centre stands at most (0.0005 + 0.005) * sqrt(2) = 0.00778" off the solver's
    pose: one such error fits in MARGIN_IN (which keeps 0.01" as the JSON writes it), two in
    PAIR_MARGIN_IN; two JSON roundings (0.00141") and two facings' (0.0004") in APART_IN,
    one of each in APART_FIXED_IN; contact spots written to 0.001" stay within the 0.005"
    tolerance and never overlap the target."""
    assert pytest.approx(0.0077782, abs=1e-7) == WRITTEN_ERROR_IN
    assert MARGIN_IN - JSON_STEP_IN / 2 * math.sqrt(2) >= SUMMARY_STEP_IN
    assert MARGIN_IN >= WRITTEN_ERROR_IN
    assert PAIR_MARGIN_IN >= 2 * WRITTEN_ERROR_IN
    assert math.sqrt(2) * WRITTEN_ERROR_IN <= ROLL_MARGIN_IN
    assert JSON_STEP_IN * math.sqrt(2) + 0.0004 <= APART_IN
    assert JSON_STEP_IN / 2 * math.sqrt(2) + 0.0002 <= APART_FIXED_IN
    assert CONTACT_GAP_IN + JSON_STEP_IN / 2 * math.sqrt(2) <= 0.005
    assert CONTACT_GAP_IN - JSON_STEP_IN / 2 * math.sqrt(2) > 0


def _charge():
    """Six marines charge B (two marines) past an impassable block, with C (not a target) to
    the south; roll 8 on a 44x30 board."""
    return make_scenario(
        [(10.0, 13.0 + 1.4 * i) for i in range(6)],
        {"B": [(19.5, 15.0), (19.5, 16.4)], "C": [(16.0, 21.0)]},
        roll=8,
        terrain=[WALL],
    )


def test_every_candidate_keeps_the_margins() -> None:
    """On a charge with a block of terrain and a non-target unit, every candidate a model may
    take is: within roll - ROLL_MARGIN_IN; in base contact or MARGIN_IN closer to B; MARGIN_IN
    inside the board and off the block; MARGIN_IN beyond C's engagement range; engaged with B
    only MARGIN_IN inside it; and coherent pairs PAIR_KEPT_IN inside 2" (candidates stand on
    the written grid: only the summary's two roundings need room)."""
    s = _charge()
    field = Battlefield.from_scenario(s)
    c = cand.generate(s, field, 8.0, SolveOptions())
    b = [Footprint(u.base_of(m), m.x, m.y) for u in s.units if u.id == "B" for m in u.models]
    (c1,) = [Footprint(u.base_of(m), m.x, m.y) for u in s.units if u.id == "C" for m in u.models]
    block = field.pieces[0].shape
    used = 0
    for m in s.acting_unit.models:
        start = min(edge_distance(Footprint(s.acting_unit.base_of(m), m.x, m.y), t) for t in b)
        for p in np.flatnonzero(np.isfinite(c.reach[m.id])):
            used += 1
            fp = Footprint(c.base_keys[c.base_of[p]], float(c.x[p]), float(c.y[p]))
            gap_b = min(edge_distance(fp, t) for t in b)
            assert c.reach[m.id][p] <= 8.0 - ROLL_MARGIN_IN
            assert c.contact[p] or gap_b <= start - MARGIN_IN
            assert R + MARGIN_IN <= fp.x <= 44.0 - R - MARGIN_IN
            assert R + MARGIN_IN <= fp.y <= 30.0 - R - MARGIN_IN
            assert shapely.distance(shapely.Point(fp.x, fp.y), block) >= R + MARGIN_IN
            assert edge_distance(fp, c1) > 1.0 + MARGIN_IN
            assert not c.engaged[p] or gap_b <= 1.0 - MARGIN_IN
    assert used > 500
    i, j = c.coherent[:, 0], c.coherent[:, 1]
    gaps = np.hypot(c.x[i] - c.x[j], c.y[i] - c.y[j]) - 2 * R
    assert len(gaps) and gaps.max() <= 2.0 - PAIR_KEPT_IN


@pytest.mark.parametrize(("gap", "contact"), [(6.98, 1), (6.995, 0)])
def test_the_roll_margin_can_cost_base_contact(gap: float, contact: int) -> None:
    """One marine `gap` from its target with a roll of 7. At 6.98" its contact spot (0.0025"
    off the target) is 6.9775" away, within 7 - 0.012 = 6.988; at 6.995" it is 6.9925" (and
    a spot touching within the tolerance at least 6.991"), legal exactly but not with the
    margin, so the marine ends engaged, 0.011" inside the range, having moved
    gap - (1 - 0.011) = 6.006"; the bound, proven with the exact rules, stays 1."""
    s = make_scenario([(10.0, 10.0)], {"B": [(10.0 + gap + 2 * R, 10.0)]}, roll=7)
    result = solve(s, options=SolveOptions(roll_table=False))
    assert result.status == (Status.OPTIMAL if contact else Status.FEASIBLE)
    assert result.bound["base_contact"] == 1
    assert result.objective["base_contact"] == contact
    assert result.objective["engaged"] == 1
    (p,) = result.placements
    if contact:
        assert gap - CONTACT_GAP_IN - JSON_STEP_IN <= p.moved <= 7.0 - ROLL_MARGIN_IN
    else:
        assert p.moved == pytest.approx(gap - (1.0 - MARGIN_IN), abs=0.003)
        assert p.moved >= gap - (1.0 - MARGIN_IN)
    assert check_placement(s, result.placements, roll=7) == []
