"""The SVG picture: end positions, move arrows, highlights, close-up and the infeasible view."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from chargeopt.models import Placement, Result, ResultAction, Scenario, Status, load_result
from chargeopt.solver import load_scenario, solve
from chargeopt.solver.interface.svg import render_svg

SVG = "{http://www.w3.org/2000/svg}"
PROOF = (
    'No model of A can end within engagement range of B: B is 26.88" away edge to edge; the '
    'roll allows 7.00" plus 1" engagement range. A second sentence stays out of the caption.'
)


def classes(root: ET.Element, name: str) -> list[ET.Element]:
    """Elements on the board drawing (not the legend) whose class list holds `name`."""
    table = next(e for e in root.iter() if e.get("id") == "table")
    return [e for e in table.iter() if name in (e.get("class") or "").split()]


def texts(root: ET.Element) -> str:
    """All text of the picture, one line per <text> element."""
    return "\n".join(e.text or "" for e in root.iter(f"{SVG}text"))


@pytest.fixture(scope="module")
def scenario(example_scenario_path: Path) -> Scenario:
    """The five marines example, geometry-checked."""
    return load_scenario(example_scenario_path)


@pytest.fixture(scope="module")
def hand_result(examples_dir: Path) -> Result:
    """The example's hand placement as an optimal charge: A1-A3 touch B1-B3 (centres
    1.1221" apart = 16mm + 12.5mm), A4 and A5 only in engagement range."""
    placed = load_result(examples_dir / "marines-charge-open.result.json").placements
    contact = {"A1": ("B1",), "A2": ("B2",), "A3": ("B3",)}
    return Result(
        scenario="Five marines charge three cultists in the open",
        ruleset=("40k-10e",),
        action=ResultAction(kind="charge", unit="A", targets=("B",), roll=7),
        status=Status.OPTIMAL,
        min_roll=5,
        success_probability=0.8333,
        success_probability_reroll=0.9722,
        objective={"base_contact": 3, "engaged": 5, "movement_in": 29.55},
        bound={"base_contact": 3, "engaged": 5},
        placements=tuple(
            p.model_copy(update={"contact": contact.get(p.model, ()), "engaged": ("B",)})
            for p in placed
        ),
    )


def test_solved_example_has_one_end_position_per_marine(scenario: Scenario) -> None:
    """A real solve draws five end bases, five move arrows and at least one contact ring."""
    result = solve(scenario, time_limit=10)
    root = ET.fromstring(render_svg(scenario, result))
    assert root.tag == f"{SVG}svg"
    ends = classes(root, "end")
    assert len(ends) == 5
    assert {e.find(f"{SVG}title").text.split()[0] for e in ends} == {"A1", "A2", "A3", "A4", "A5"}
    assert len(classes(root, "move")) == 5
    assert classes(root, "contact")
    assert f"{result.status.value.upper()}: A charges B with a roll of 7" in texts(root)
    assert result.status in (Status.OPTIMAL, Status.FEASIBLE)


def test_end_bases_stand_where_the_result_puts_them(
    scenario: Scenario, hand_result: Result
) -> None:
    """At 20 px per inch A1 ends at (317.6, 290.0) with radius 16mm = 12.6 px."""
    root = ET.fromstring(render_svg(scenario, hand_result))
    a1 = next(e for e in classes(root, "end") if e.find(f"{SVG}title").text.startswith("A1"))
    assert (a1.get("cx"), a1.get("cy"), a1.get("r")) == ("317.6", "290.0", "12.6")


def test_contacts_yellow_on_both_sides_engaged_green(
    scenario: Scenario, hand_result: Result
) -> None:
    """Three marines and the three cultists they touch get the contact ring; A4, A5 the green."""
    root = ET.fromstring(render_svg(scenario, hand_result))
    contact = sorted(e.find(f"{SVG}title").text.split()[0] for e in classes(root, "contact"))
    engaged = sorted(e.find(f"{SVG}title").text.split()[0] for e in classes(root, "engaged"))
    assert contact == ["A1", "A2", "A3", "B1", "B2", "B3"]
    assert engaged == ["A4", "A5"]
    assert len(classes(root, "start")) == 5


def test_caption_gives_counts_as_whole_numbers(scenario: Scenario, hand_result: Result) -> None:
    """The caption says 3 of 5 (never 3.0) and the minimum roll with its chances."""
    words = texts(ET.fromstring(render_svg(scenario, hand_result)))
    assert "Base contact: 3 of 5 models (most possible: 3)" in words
    assert "Minimum roll 5: 83.3% on 2D6, 97.2% with a re-roll" in words
    assert "3.0" not in words


def test_close_up_of_the_charge(scenario: Scenario, hand_result: Result) -> None:
    """The move spans x 6.37..18.99" (12.62"): the close-up is 528 px wide, zoom 2.1."""
    svg = render_svg(scenario, hand_result)
    root = ET.fromstring(svg)
    assert "close-up (2.1x)" in texts(root)
    assert len(list(root.iter(f"{SVG}use"))) == 1


def test_infeasible_result_draws_layout_and_proof(scenario: Scenario) -> None:
    """No end bases or arrows; the caption holds the proof's first sentence; with no roll
    working, the reach of the largest roll (12") is shaded."""
    stay = tuple(
        Placement(model=m.id, x=m.x, y=m.y, moved=0.0) for m in scenario.acting_unit.models
    )
    result = Result(
        action=ResultAction(kind="charge", unit="A", targets=("B",), roll=7),
        status=Status.INFEASIBLE,
        placements=stay,
        proof=PROOF,
    )
    root = ET.fromstring(render_svg(scenario, result))
    assert classes(root, "end") == [] and classes(root, "move") == []
    assert len(classes(root, "attacker")) >= 5
    assert len(classes(root, "reach")) == 1
    words = texts(root)
    assert "INFEASIBLE: A cannot charge B with a roll of 7" in words
    assert "No model of A can end within engagement range of B" in words
    assert "second sentence" not in words
    assert 'reach of a 12" move' in words


def test_scenario_alone_draws_without_a_result(scenario: Scenario) -> None:
    """render_svg without a result shows every base and the wall, nothing moved."""
    root = ET.fromstring(render_svg(scenario))
    assert len(classes(root, "attacker")) >= 5 and len(classes(root, "defender")) >= 3
    assert len(classes(root, "wall")) == 1
    assert classes(root, "end") == []
