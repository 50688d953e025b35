"""Heroic intervention (9th edition only): eligibility and the move, on layouts worked out by
hand. 32mm bases: D = 1.25984"."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import make_scenario
from click.testing import CliRunner

from chargeopt.models import IneligibleMoveError, Scenario, UnsupportedRuleError
from chargeopt.solver import SolveOptions, solve
from chargeopt.solver.interface.cli import main

D = 32 / 25.4
OPTIONS = SolveOptions(time_limit_s=10.0)


def intervene(
    gap_in: float,
    *,
    ruleset: str = "40k-9e",
    keywords: tuple[str, ...] = ("CHARACTER", "INFANTRY"),
) -> Scenario:
    """A lone CHARACTER model `gap_in` (edge to edge) west of enemy model B1."""
    action = {"kind": "heroic-intervention", "unit": "A"}
    return make_scenario(
        [(10.0, 10.0)],
        {"B": [(10.0 + D + gap_in, 10.0)]},
        ruleset=ruleset,
        action=action,
        keywords=keywords,
    )


def test_character_two_and_a_half_inches_away_reaches_base_contact() -> None:
    """2.5" away: eligible (within 3"), and it moves into base contact: to the contact spot
    0.0025" off B1, on the written 0.001" grid (2.4975" +- 0.0007")."""
    result = solve(intervene(2.5), options=OPTIONS)
    a1 = result.placements[0]
    assert a1.contact == ("B1",)
    assert a1.moved == pytest.approx(2.4975, abs=7e-4)
    assert result.objective["can_fight"] == 1
    assert result.violations == ()


def test_character_three_and_a_half_inches_away_is_not_eligible() -> None:
    """3.5" away: no enemy unit within 3", so no heroic intervention."""
    with pytest.raises(IneligibleMoveError, match=r'no enemy unit is within 3" horizontally'):
        solve(intervene(3.5), options=OPTIONS)


def test_unit_in_engagement_range_is_not_eligible() -> None:
    """0.5" away: already within engagement range."""
    with pytest.raises(IneligibleMoveError, match="already within engagement range of enemy"):
        solve(intervene(0.5), options=OPTIONS)


def test_non_character_is_not_eligible() -> None:
    """Only CHARACTER units intervene."""
    with pytest.raises(IneligibleMoveError, match="it is not a CHARACTER unit"):
        solve(intervene(2.5, keywords=("INFANTRY",)), options=OPTIONS)


def test_tenth_edition_refuses_with_the_reason() -> None:
    """In the 10th edition a heroic intervention is a stratagem that makes a charge."""
    with pytest.raises(UnsupportedRuleError, match="stratagem that lets the unit make a charge"):
        solve(intervene(2.5, ruleset="40k-10e"), options=OPTIONS)


def test_too_far_through_the_cli(tmp_path: Path) -> None:
    """The command line names the file and the key and exits 2."""
    path = tmp_path / "far.toml"
    path.write_text(
        'format = 1\nruleset = "40k-9e"\n[board]\nwidth = 30.0\nheight = 20.0\n'
        '[[units]]\nid = "H"\nowner = "defender"\nkeywords = ["CHARACTER"]\nbase = "32mm"\n'
        'models = [{ id = "H1", x = 5.0, y = 10.0 }]\n'
        '[[units]]\nid = "B"\nowner = "attacker"\nbase = "32mm"\n'
        'models = [{ id = "B1", x = 9.76, y = 10.0 }]\n'
        '[action]\nkind = "heroic-intervention"\nunit = "H"\n'
    )
    run = CliRunner().invoke(main, ["solve", str(path)])
    assert run.exit_code == 2
    assert run.output == (
        f"error: {path}: action: unit 'H' cannot perform a heroic intervention: no enemy unit "
        'is within 3" horizontally and 5" vertically of it (the nearest, \'B\', is 3.50" away '
        "edge to edge)\n"
    )
