"""The rank-and-file checker's least charge length survives an independent search: random
6e/tow charges driven forward never reach an end by a path shorter than the least the checker
derives for it (so its `unreachable` never refuses a charge a real path makes)."""

from __future__ import annotations

import pytest

from chargeopt.solver.bench.reach_refuter import refute


@pytest.mark.parametrize("metric", ["arc", "chord"])
def test_no_driven_charge_is_shorter_than_the_checkers_least(metric: str) -> None:
    found = refute(400, seed=3, metric=metric)
    assert found.charges > 100
    assert found.worst_excess_in <= 1e-9, found
