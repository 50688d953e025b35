"""The split-unit ceiling on base contacts, worked out by hand (32mm bases, radius 0.63", a
0.005" contact tolerance, 2" coherency, 1" engagement range), and the property that keeps it
an upper bound: never below a legal placement's base contacts."""

from __future__ import annotations

import math

from builders import make_scenario, sampled_layouts
from hypothesis import assume, given, note
from hypothesis import strategies as st

from chargeopt.geometry import Battlefield, legal_move_length
from chargeopt.geometry.checker import check_placement
from chargeopt.geometry.start_layout import check_start_layout
from chargeopt.models import Placement, Scenario, ScenarioError, Status
from chargeopt.solver import solve
from chargeopt.solver.bounds.split_bound import split_contact_ceiling
from chargeopt.solver.interface.summary import summarise_result

R32 = 32 / 25.4 / 2
D32 = 2 * R32
COLUMN = [(10.0, 10.0), (10.0, 11.4), (10.0, 12.8)]


def test_two_targets_out_of_coherency_keep_one_model_out_of_contact() -> None:
    """B1 at (16, 8) and C1 at (16, 14.5) are 6.5" apart: a base touching B1 and one touching
    C1 stand at least 6.5 - 2 (1.26 + 0.006) = 3.97" apart centre to centre, more than the
    3.26" of coherency, and neither is within 1" of the other target. So at most 2 of the 3
    touch. Two do, and all three are engaged: one touching C1 at (16, 13.24), one 0.94" from
    B1 at (16, 10.2) and 3.04" from that one, and one touching B1 beside it."""
    s = make_scenario(
        COLUMN, {"B": [(16.0, 8.0)], "C": [(16.0, 14.5)]}, roll=12, targets=("B", "C")
    )
    split = split_contact_ceiling(s)
    assert split is not None
    assert split.base_contact == 2
    assert split.groups == (("B1",), ("C1",))
    assert '(B1; C1) stand at least 3.97" apart' in split.reason
    result = solve(s, time_limit=20)
    assert (result.objective["base_contact"], result.objective["engaged"]) == (2, 3)
    assert result.bound == {"base_contact": 2, "engaged": 3}
    assert result.status == Status.OPTIMAL
    assert result.stats["split_unit_bound"] == {"base_contact": 2, "reason": split.reason}
    assert check_placement(s, result.placements, roll=12) == []
    lines = summarise_result(result).splitlines()
    at = lines.index("Base contact: 2 of 3 models (most possible: 2)")
    assert lines[at + 1] == f"  Why no more: {split.reason}"
    assert lines[at + 1].startswith("  Why no more: Not all 3 models of A can end in base contact")


def test_targets_within_coherency_of_each_other_give_no_ceiling() -> None:
    """C1 at (16, 13.5): 5.5" from B1, within the 2 (1.266 + 0.63) + 2 = 5.79" at which
    bases touching each can be in coherency."""
    s = make_scenario(
        COLUMN, {"B": [(16.0, 8.0)], "C": [(16.0, 13.5)]}, roll=12, targets=("B", "C")
    )
    assert split_contact_ceiling(s) is None


def test_one_target_unit_spread_out_gives_no_ceiling() -> None:
    """B1 and B2 as far apart as above, but one unit: every model may touch B1 alone."""
    s = make_scenario(COLUMN, {"B": [(16.0, 8.0), (16.0, 14.5)]}, roll=12)
    assert split_contact_ceiling(s) is None


def test_a_group_in_range_of_every_target_gives_no_ceiling() -> None:
    """C1 at (16, 11.4), 3.4" from B1 (within the 1.896 + 0.63 + 1 = 3.53" at which a base
    touching B1 is in engagement range of C1) and D1 far off: B1 and C1 link, D1 stands alone,
    but a base touching B1 engages C1 only if D is not a target."""
    far = {"B": [(16.0, 8.0)], "C": [(16.0, 11.4)], "D": [(16.0, 30.0)]}
    s = make_scenario(COLUMN, far, roll=12, targets=("B", "C"))
    assert split_contact_ceiling(s) is None
    s = make_scenario(COLUMN, far, roll=12, targets=("B", "C", "D"))
    assert split_contact_ceiling(s) is not None


@st.composite
def _chains(draw: st.DrawFn) -> tuple[Scenario, list[Placement], int]:
    """3-5 attackers in a column; target units B and C 2.6" to 8" apart; a placement of a fan
    of bases touching B1 on its side facing C1 (62 degrees apart: equal bases touch at 60),
    another touching C1 facing B1, and the rest (maybe none) evenly spaced between the two
    fans' facing bases; the roll is the least that lets every model get there. With no
    bridge and the targets close, every model touches: the ceiling must then stay away."""
    n = draw(st.integers(3, 5))
    at_b = draw(st.integers(1, n - 1))
    at_c = draw(st.integers(1, n - at_b))
    attackers = [(8.0, 9.0 + 1.4 * i) for i in range(n)]
    tx, ty = 15.0, draw(st.integers(60, 100)) / 10
    gap = draw(st.integers(26, 80)) / 10
    b, c = (tx, ty), (tx + draw(st.integers(-10, 10)) / 10, ty + gap)
    toward = math.atan2(c[1] - b[1], c[0] - b[0])
    rho = D32 + 0.002
    step = math.radians(62)

    def fan(centre: tuple[float, float], facing: float, k: int) -> list[tuple[float, float]]:
        angles = [facing + step * (i - (k - 1) / 2) for i in range(k)]
        return [(centre[0] + rho * math.cos(a), centre[1] + rho * math.sin(a)) for a in angles]

    near_b, near_c = fan(b, toward, at_b), fan(c, toward + math.pi, at_c)
    first = (b[0] + rho * math.cos(toward), b[1] + rho * math.sin(toward))
    last = (c[0] - rho * math.cos(toward), c[1] - rho * math.sin(toward))
    bridges = n - at_b - at_c
    between = [
        (
            first[0] + (last[0] - first[0]) * (i + 1) / (bridges + 1),
            first[1] + (last[1] - first[1]) * (i + 1) / (bridges + 1),
        )
        for i in range(bridges)
    ]
    ends = near_b + between + near_c
    defenders = {"B": [b], "C": [c]}
    s = make_scenario(attackers, defenders, roll=12, targets=("B", "C"))
    try:
        check_start_layout(s)
    except ScenarioError:
        assume(False)
    bf = Battlefield.from_scenario(s)
    longest = max(legal_move_length(s, bf, f"A{i + 1}", x, y) for i, (x, y) in enumerate(ends))
    assume(longest <= 11.9)
    roll = max(2, math.ceil(longest + 1e-6))
    placements = [Placement(model=f"A{i + 1}", x=x, y=y) for i, (x, y) in enumerate(ends)]
    return make_scenario(attackers, defenders, roll=roll, targets=("B", "C")), placements, roll


@sampled_layouts(60)
@given(_chains())
def test_the_ceiling_holds_every_legal_placement(
    case: tuple[Scenario, list[Placement], int],
) -> None:
    """Whenever the sampled placement is legal (coherent, no overlap, both targets engaged),
    the split-unit ceiling, where there is one, is at least its base contacts."""
    s, placements, roll = case
    assume(check_placement(s, placements, roll=roll) == [])
    targets = [(m.x, m.y) for u in ("B", "C") for m in s.unit_by_id[u].models]
    contacts = sum(
        min(math.hypot(p.x - x, p.y - y) for x, y in targets) - D32 <= 0.005 for p in placements
    )
    split = split_contact_ceiling(s)
    note(f"{s.model_dump_json(exclude_defaults=True)} roll={roll} {contacts=} {split}")
    assert split is None or split.base_contact >= contacts
