"""The minimum roll's bookkeeping: a placement at roll r is legal at every larger roll, and no
placement at r on the candidates means none at any smaller roll; a roll cut short stays open
and the words say so, never "found no placement"."""

from __future__ import annotations

from builders import make_scenario

from chargeopt.models import Status
from chargeopt.solver import solve
from chargeopt.solver.forty_k.roll_search import RollOutcomes


def test_outcomes_settle_the_rolls_they_imply() -> None:
    """Roll 9 found, 6 had none: 5 and 6 are settled (none), 9 to 12 (found); 7 and 8 open."""
    o = RollOutcomes(5, 12)
    o.record(9, {"A1": 0}, settled=False)
    o.record(6, None, settled=True)
    assert o.min_found == 9 and o.none_up_to == 6
    assert o.open_rolls() == [7, 8]
    assert not o.settled
    assert o.basis() == (
        "rolls below 5 cannot bring any model within engagement range of every target "
        "(straight-line edge distance); rolls 5 to 6 found no placement on the candidates; "
        "rolls 7 to 8 were not settled within the time, so a smaller roll may work"
    )


def test_a_cut_roll_is_never_reported_as_having_no_placement() -> None:
    """Roll 5 cut short, 6 found: the words name 5 as not settled; once 5 has none, settled."""
    o = RollOutcomes(5, 12)
    o.record(5, None, settled=False)
    o.record(6, {"A1": 3}, settled=False)
    assert o.open_rolls() == [5]
    assert "found no placement" not in o.basis()
    assert "roll 5 was not settled within the time" in o.basis()
    o.record(5, None, settled=True)
    assert o.settled and o.open_rolls() == []
    assert o.first_placement() == (6, {"A1": 3})
    assert o.basis().endswith("roll 5 found no placement on the candidates")


def test_a_lower_roll_found_later_lowers_the_minimum() -> None:
    o = RollOutcomes(3, 12)
    o.record(8, {"A1": 1}, settled=False)
    o.record(7, {"A1": 2}, settled=False)
    assert o.min_found == 7 and o.open_rolls() == [3, 4, 5, 6]
    o.record(6, None, settled=True)
    assert o.settled and o.basis().endswith("rolls 3 to 6 found no placement on the candidates")


def test_a_proven_minimum_roll_is_stated_as_proven() -> None:
    """One marine 4.74" from B1 edge to edge must move 3.74" to end within 1": roll 3 cannot
    (the straight line proves it), roll 4 can, so the minimum roll is 4, proven."""
    s = make_scenario([(10.0, 15.0)], {"B": [(16.0, 15.0)]}, roll=8)
    result = solve(s, time_limit=10)
    assert result.status == Status.OPTIMAL
    assert result.min_roll == 4
    assert result.min_roll_proven is True
    assert result.min_roll_at_least == 4
