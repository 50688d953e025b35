"""Pile in (9th and 10th edition) on hand-built layouts whose answers are worked out by hand.

32mm bases: radius r = 0.62992" and diameter D = 1.25984". Contact spots stand 0.001" from the
enemy base; a second-rank spot touches a contact spot from behind, 0.001" from it."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from builders import make_scenario
from click.testing import CliRunner
from repo_paths import REPO_ROOT

from chargeopt.geometry import Footprint, edge_distance
from chargeopt.models import IneligibleMoveError, RoundBase, Scenario, Status
from chargeopt.solver import SolveOptions, solve
from chargeopt.solver.interface.cli import main
from chargeopt.solver.loading import load_checked_scenario

D = 32 / 25.4
R = D / 2
OPTIONS = SolveOptions(time_limit_s=10.0)
PILE_IN_LAYOUTS = REPO_ROOT / "benchmarks" / "layouts" / "pile-in-v1"


def pile_in(
    attackers: list[tuple[float, float]],
    defenders: dict[str, list[tuple[float, float]]],
    *,
    ruleset: str = "40k-10e",
    charged: bool = True,
    terrain: list[dict] | None = None,
) -> Scenario:
    """Unit A piles in against the defender units."""
    action = {"kind": "pile-in", "unit": "A", "charged": charged}
    return make_scenario(attackers, defenders, ruleset=ruleset, action=action, terrain=terrain)


def placed(result, model_id: str):
    return next(p for p in result.placements if p.model == model_id)


def gap_to(scenario: Scenario, result, model_id: str, enemy_id: str) -> float:
    """Edge distance after the move between an acting model and an enemy model."""
    p = placed(result, model_id)
    enemy = scenario.model_index[enemy_id][1]
    base = RoundBase(diameter_mm=32)
    return edge_distance(Footprint(base, p.x, p.y), Footprint(base, enemy.x, enemy.y))


@pytest.mark.parametrize("ruleset", ["40k-9e", "40k-10e"])
def test_a_model_in_base_contact_stays_put(ruleset: str) -> None:
    """A1 touches B1 (edge gap 0) and does not move; A2, 2" behind it, piles in beside it."""
    scenario = pile_in([(10.0, 10.0), (10.0, 12.0)], {"B": [(10.0 + D, 10.0)]}, ruleset=ruleset)
    result = solve(scenario, options=OPTIONS)
    assert result.status == Status.OPTIMAL
    a1 = placed(result, "A1")
    assert (a1.x, a1.y, a1.moved) == (10.0, 10.0, 0.0)
    assert a1.contact == ("B1",)
    assert result.objective["base_contact"] == 2
    assert result.violations == ()


def test_two_inches_away_reaches_base_contact() -> None:
    """A lone model 2" from B1 moves 2 - 0.0025 = 1.9975" straight on into base contact (the
    candidates' contact gap), written to 0.001"."""
    scenario = pile_in([(10.0, 10.0)], {"B": [(12.0 + D, 10.0)]})
    result = solve(scenario, options=OPTIONS)
    a1 = placed(result, "A1")
    assert a1.contact == ("B1",)
    assert a1.moved == pytest.approx(1.9975, abs=6e-4)
    assert result.objective == {"base_contact": 1, "can_fight": 1, "movement_in": a1.moved}


def test_four_inches_away_only_gets_closer() -> None:
    """10th edition, A1 2" from B1 and A2 in line 4" from it (0.74" behind A1). A1 reaches base
    contact (1.9975"); A2 cannot reach base contact (4 > 3) and ends touching A1 from behind
    (within the 0.005" tolerance, as written), so it fights: its edge gap to B1 is A1's
    0.0025" (+-0.0007" written) plus at most 0.005", D + 0.0018 to D + 0.0082, a move of
    4 - D - 0.0018 = 2.738" at most (and the rounding's step)."""
    scenario = pile_in([(10.0, 10.0), (8.0, 10.0)], {"B": [(12.0 + D, 10.0)]})
    result = solve(scenario, options=OPTIONS)
    a2 = placed(result, "A2")
    assert a2.contact == ()
    assert D + 0.0018 <= gap_to(scenario, result, "A2", "B1") <= D + 0.0082
    assert 4 - D - 0.0082 <= a2.moved <= 4 - D - 0.0018 + 0.001
    assert a2.fights == ("B",)
    assert result.objective["base_contact"] == 1 and result.objective["can_fight"] == 2


def test_closer_to_the_closest_enemy_forbids_sliding_sideways() -> None:
    """A1's closest enemy model is B1, 0.57" north, behind an impassable block that A1 touches:
    A1 cannot end any closer to B1. C1 is 1.6" east and reachable, but only by moving away
    from B1, so A1 stays where it is. Without B1, A1 piles into base contact with C1: 1.599"
    straight on, plus the path's escape from the block it touches (a few thousandths)."""
    block = {
        "id": "block",
        "kind": "impassable",
        "path": [[8.0, 8.9], [12.0, 8.9], [12.0, 10.0 - R - 1e-9], [8.0, 10.0 - R - 1e-9]],
    }
    b1 = (10.0, 8.8 - R)
    c1 = (10.0 + D + 1.6, 10.0)
    scenario = pile_in([(10.0, 10.0)], {"B": [b1], "C": [c1]}, terrain=[block])
    result = solve(scenario, options=OPTIONS)
    a1 = placed(result, "A1")
    assert (a1.x, a1.y, a1.moved, a1.contact) == (10.0, 10.0, 0.0, ())
    assert a1.fights == ("B",)
    alone = pile_in([(10.0, 10.0)], {"C": [c1]}, terrain=[block])
    moved = placed(solve(alone, options=OPTIONS), "A1")
    assert moved.contact == ("C1",)
    assert 1.599 - 1e-6 <= moved.moved <= 1.605


def test_tenth_edition_ends_within_engagement_range_if_it_can() -> None:
    """A lone model 3.5" from B1 cannot reach base contact (3.5 > 3) but ends within
    engagement range, 0.011" inside it: it moves 2.511" (edge gap 0.989"), up to the
    polish's resolution (3/4096 of the move) and the JSON's 0.001"."""
    scenario = pile_in([(10.0, 10.0)], {"B": [(13.5 + D, 10.0)]})
    result = solve(scenario, options=OPTIONS)
    a1 = placed(result, "A1")
    assert 2.511 - 6e-4 <= a1.moved <= 2.511 + 0.003
    assert 0.986 <= gap_to(scenario, result, "A1", "B1") <= 0.99
    assert a1.engaged == ("B",) and a1.fights == ("B",)


@pytest.mark.parametrize("far_in", [4.0, 4.2])
def test_tenth_edition_no_model_moves_out_of_range(far_in: float) -> None:
    """Two models that charged, the nearer 4" (or 4.2") from B1: no placement within 3" ends
    within engagement range (1"), so no model moves at all."""
    scenario = pile_in([(10.0, 10.0), (10.0, 11.5)], {"B": [(10.0 + far_in + D, 10.0)]})
    result = solve(scenario, options=OPTIONS)
    assert result.status == Status.OPTIMAL
    assert [(p.x, p.y, p.moved) for p in result.placements] == [
        (10.0, 10.0, 0.0),
        (10.0, 11.5, 0.0),
    ]
    assert result.objective == {"base_contact": 0, "can_fight": 0, "movement_in": 0.0}
    assert "no model moves" in result.stats["reason"]


LINE = [(10.0, 10.0), (8.0, 10.0), (8.0 - D - 0.24, 10.0)]
"""A1, A2, A3 in a line, 2", 4" and 5.5" from B1 (east)."""


@pytest.mark.parametrize("ruleset", ["40k-9e", "40k-10e"])
def test_fight_counts_in_a_line(ruleset: str) -> None:
    """A1 piles into base contact; A2 (4" away) fights from behind it: in the 10th edition
    touching A1, in the 9th within 1/2" of A1 (less the 0.0145" a written answer keeps
    between two models), which is within 1/2" of B1. A3 (5.5" away) ends at least 2.5" from
    B1 and cannot fight in either edition: 2 of 3 can fight."""
    scenario = pile_in(LINE, {"B": [(12.0 + D, 10.0)]}, ruleset=ruleset)
    result = solve(scenario, options=OPTIONS)
    assert result.status == Status.OPTIMAL
    assert result.objective["base_contact"] == 1
    assert result.objective["can_fight"] == 2
    assert result.bound == {"base_contact": 1, "can_fight": 2}
    assert [placed(result, m).fights for m in ("A1", "A2", "A3")] == [("B",), ("B",), ()]
    a2_gap = gap_to(scenario, result, "A2", "B1")
    if ruleset == "40k-9e":
        assert D + 0.0018 <= a2_gap <= D + 0.0032 + 0.4855
        assert placed(result, "A2").moved == pytest.approx(4 - D - 0.488, abs=2e-3)
    else:
        assert D + 0.0018 <= a2_gap <= D + 0.0082


@pytest.mark.parametrize(
    ("ruleset", "fighters", "moved"), [("40k-9e", 2, 2.7545), ("40k-10e", 1, 1.256)]
)
def test_support_from_behind_by_edition(ruleset: str, fighters: int, moved: float) -> None:
    """A1 touches B1 and stays; A2 is 3.24" behind A1 in line (4.5" from B1), too far for
    engagement range (4.5 - 3 > 1). 9th edition: A2 ends within 1/2" of A1, less the 0.0145"
    a written answer keeps between two models, and fights: a move of 3.24 - 0.4855 = 2.7545".
    10th edition: touching A1 would take 3.24" > 3", so A2 cannot fight and only closes to
    coherency (2" less the 0.016" margin), a move of 1.256"."""
    scenario = pile_in(
        [(10.0, 10.0), (10.0 - D - 3.24, 10.0)], {"B": [(10.0 + D, 10.0)]}, ruleset=ruleset
    )
    result = solve(scenario, options=OPTIONS)
    a2 = placed(result, "A2")
    assert result.objective["can_fight"] == fighters
    assert a2.fights == (("B",) if fighters == 2 else ())
    assert moved - 1e-3 <= a2.moved <= moved + 0.005


def test_ineligible_unit_is_refused() -> None:
    """A unit 4.0" from every enemy that did not charge may not pile in."""
    scenario = pile_in([(10.0, 10.0)], {"B": [(14.0 + D, 10.0)]}, charged=False)
    with pytest.raises(IneligibleMoveError, match="cannot pile in"):
        solve(scenario, options=OPTIONS)


def test_ineligible_pile_in_through_the_cli(tmp_path: Path) -> None:
    """The command line names the file and the key, exits 2, and prints no traceback."""
    path = tmp_path / "far.toml"
    path.write_text(
        'format = 1\nname = "far"\nruleset = "40k-10e"\n[board]\nwidth = 30.0\nheight = 20.0\n'
        '[[units]]\nid = "A"\nowner = "attacker"\nbase = "32mm"\n'
        'models = [{ id = "A1", x = 5.0, y = 10.0 }]\n'
        '[[units]]\nid = "B"\nowner = "defender"\nbase = "32mm"\n'
        'models = [{ id = "B1", x = 10.0, y = 10.0 }]\n'
        '[action]\nkind = "pile-in"\nunit = "A"\n'
    )
    run = CliRunner().invoke(main, ["solve", str(path)])
    gap = 5.0 - D
    assert run.exit_code == 2
    assert run.output == (
        f"error: {path}: action: unit 'A' cannot pile in: it is not within engagement range "
        "(1\") of an enemy unit and did not charge this turn (the nearest enemy unit, 'B', is "
        f'{gap:.2f}" away edge to edge); if it charged, add charged = true to [action]\n'
    )
    assert "Traceback" not in run.output
    assert math.isclose(gap, 3.74, abs_tol=0.005)


def test_summary_and_picture_say_who_touches_and_fights_whom() -> None:
    """The summary and the SVG name the enemy model each model touches and the unit it
    fights; a model that does not move `stays`."""
    from chargeopt.solver.interface.summary import summarise_result
    from chargeopt.solver.interface.svg import render_svg

    scenario = pile_in([(10.0, 10.0), (10.0, 12.0)], {"B": [(10.0 + D, 10.0)]})
    result = solve(scenario, options=OPTIONS)
    lines = summarise_result(result).splitlines()
    assert lines[0] == "OPTIMAL: A piles in (proven best over the solver's candidate positions)"
    assert lines[1] == "Base contact: 2 of 2 models (most possible: 2)"
    assert lines[2].startswith("Can fight: 2 of 2 models (most possible: 2), ")
    assert lines[3] == "  A1 stays at (10.00, 10.00): base contact with B1; fights B"
    assert lines[4].endswith(": base contact with B1; fights B")
    picture = render_svg(scenario, result)
    assert 'A1 ends here after 0.00": base contact with B1; fights B' in picture
    assert "OPTIMAL: A piles in" in picture


@pytest.mark.parametrize("edition", ["9e", "10e"])
def test_twenty_models_meet_both_ceilings(edition: str) -> None:
    """pile-in-v1 p20-two-units, default options: the completion of the packing relaxation's
    13 contacts (a model the packing hems in gets room: `greedy._unhemmed`), improved by local
    search, meets the base-contact ceiling without CP-SAT (a stage of 0 s); CP-SAT then finds
    the 20th model able to fight, proven. Polishing slides back models that fight through a
    friend to the edge of the 1/2" (9th) or of base contact (10th); they still fight where the
    answer reports them (as written)."""
    scenario = load_checked_scenario(PILE_IN_LAYOUTS / f"p20-two-units-{edition}.toml")
    result = solve(scenario)
    assert result.status == Status.OPTIMAL
    assert result.bound == {"base_contact": 13, "can_fight": 20}
    assert (result.objective["base_contact"], result.objective["can_fight"]) == (13, 20)
    first = result.stats["stages"][0]
    assert (first["name"], first["status"], first["seconds"]) == ("base_contact", "OPTIMAL", 0.0)
    assert all(p.fights for p in result.placements)
    assert result.violations == ()
