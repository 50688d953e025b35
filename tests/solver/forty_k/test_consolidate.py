"""Consolidation (9th and 10th edition), including the 10th edition's move toward an objective
marker, on layouts worked out by hand. 32mm bases: D = 1.25984"; a 40mm marker's radius is
0.7874"."""

from __future__ import annotations

import pytest
from builders import make_scenario

from chargeopt.geometry import Footprint, edge_distance
from chargeopt.models import RoundBase, Scenario, Status
from chargeopt.solver import SolveOptions, solve

D = 32 / 25.4
MARKER_R = 40 / 25.4 / 2
OPTIONS = SolveOptions(time_limit_s=10.0)


def consolidate(
    attackers: list[tuple[float, float]],
    defenders: dict[str, list[tuple[float, float]]],
    *,
    ruleset: str = "40k-10e",
    objectives: list[dict] | None = None,
) -> Scenario:
    """Unit A consolidates after fighting."""
    action = {"kind": "consolidate", "unit": "A"}
    return make_scenario(
        attackers, defenders, ruleset=ruleset, action=action, objectives=objectives
    )


def placed(result, model_id: str):
    return next(p for p in result.placements if p.model == model_id)


@pytest.mark.parametrize("ruleset", ["40k-9e", "40k-10e"])
def test_consolidates_into_base_contact(ruleset: str) -> None:
    """A1 touches B1 and stays; A2 is 1" from B2 (its closest enemy model; B1 is 1.10" away)
    and consolidates into base contact with it, stopping 0.0025" short (the contact gap):
    0.9975", written 0.997" or 0.998"."""
    scenario = consolidate(
        [(10.0, 10.0), (10.0, 12.0)],
        {"B": [(10.0 + D, 10.0), (11.0 + D, 12.0)]},
        ruleset=ruleset,
    )
    result = solve(scenario, options=OPTIONS)
    assert result.status == Status.OPTIMAL
    a1, a2 = placed(result, "A1"), placed(result, "A2")
    assert (a1.x, a1.y, a1.moved) == (10.0, 10.0, 0.0)
    assert a2.contact == ("B2",)
    assert a2.moved == pytest.approx(0.9975, abs=6e-4)
    assert result.objective["base_contact"] == 2 and result.objective["can_fight"] == 2


MARKER = {"id": "M1", "x": 10.0, "y": 15.0, "diameter_mm": 40}


def test_tenth_edition_consolidates_toward_the_objective() -> None:
    """The enemy is 6" away: no 3" move reaches engagement range, so A1 moves toward objective
    M1 instead. Their edges are 5 - 0.63 - 0.79 = 3.583" apart; it ends within 3" of the
    marker's edge less the 0.011" margin, a move of 0.594" straight toward it."""
    scenario = consolidate([(10.0, 10.0)], {"B": [(16.0 + D, 10.0)]}, objectives=[MARKER])
    result = solve(scenario, options=OPTIONS)
    a1 = placed(result, "A1")
    end = Footprint(RoundBase(diameter_mm=32), a1.x, a1.y)
    marker = Footprint(RoundBase(diameter_mm=40), 10.0, 15.0)
    assert pytest.approx(3.583, abs=1e-3) == 5 - D / 2 - MARKER_R
    assert edge_distance(end, marker) <= 3.0 - 0.01
    assert 0.594 - 1e-3 <= a1.moved <= 0.6
    assert result.objective["on_objective"] == 1
    assert result.objective["can_fight"] == 0
    assert result.stats["toward"] == "objective M1"
    assert result.violations == ()


def test_tenth_edition_objective_out_of_reach_means_no_move() -> None:
    """The marker is 6.5" away edge to edge, more than a 3" move plus its 3" range, and the
    enemy is out of reach too: no model moves."""
    far = {**MARKER, "y": 10.0 + 6.5 + D / 2 + MARKER_R}
    scenario = consolidate([(10.0, 10.0)], {"B": [(16.0 + D, 10.0)]}, objectives=[far])
    result = solve(scenario, options=OPTIONS)
    a1 = placed(result, "A1")
    assert (a1.x, a1.y, a1.moved) == (10.0, 10.0, 0.0)
    assert "no model moves" in result.stats["reason"]


def test_ninth_edition_ignores_objectives() -> None:
    """The 9th edition has no consolidation toward objectives: with nothing to gain, A1
    stays."""
    scenario = consolidate(
        [(10.0, 10.0)], {"B": [(16.0 + D, 10.0)]}, ruleset="40k-9e", objectives=[MARKER]
    )
    result = solve(scenario, options=OPTIONS)
    assert placed(result, "A1").moved == 0.0
    assert "on_objective" not in result.objective
