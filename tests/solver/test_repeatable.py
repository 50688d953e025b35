"""Same input, same output: when every stage is proven within the time limit, two solves of
one scenario give the same placements, objective, bound and roll table."""

from __future__ import annotations

from pathlib import Path

import pytest

from chargeopt.solver import load_scenario, solve

LAYOUTS = Path(__file__).parents[2] / "benchmarks" / "layouts"


def _answer(path: Path) -> tuple:
    result = solve(load_scenario(path), time_limit=20)
    places = tuple((p.model, round(p.x, 6), round(p.y, 6), p.contact) for p in result.placements)
    return result.status, result.objective, result.bound, result.rolls, places


@pytest.mark.parametrize(
    "name", ["examples/marines-charge-open.toml", "pile-in-v1/p5-line-9e.toml"]
)
def test_two_solves_agree(name: str) -> None:
    first = _answer(LAYOUTS / name)
    assert first[0].value == "optimal"
    assert _answer(LAYOUTS / name) == first
