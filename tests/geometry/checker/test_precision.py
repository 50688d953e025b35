"""The checker at a precision (`precision_in`, `chargeopt check --precision`): positions measured
to P stand within P/sqrt(2) of where they are written, so base contact and overlap are judged
within the tolerance (0.005") plus that error for each written position of a pair, and every
other rule exactly. Distances are worked out by hand on 32mm bases (radius R)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from builders import make_scenario
from click.testing import CliRunner

from chargeopt.geometry.checker import check_placement
from chargeopt.models import Placement, Violation
from chargeopt.solver.interface.cli import main, precision_line

R = 16 / 25.4
D = 2 * R
CONTACT_X = 16.0 - D  # A1's centre when it touches B1 at (16, 10) from the left
ERROR = 0.01 / math.sqrt(2)  # how far a centre written to 0.01" may stand off: 0.00707"


def kinds(found: list[Violation]) -> list[str]:
    return [v.kind for v in found]


ONE_ON_ONE = make_scenario([(10.0, 10.0)], {"B": [(16.0, 10.0)]}, roll=6)
TWO_ON_TWO = make_scenario(
    [(10.0, 10.0), (10.0, 11.5)], {"B": [(16.0, 10.0), (16.0, 11.5)]}, roll=6
)


def test_error_of_a_written_position() -> None:
    """A position measured to 0.01" is within 0.005" on each axis: its centre within 0.00707"."""
    assert pytest.approx(0.0070711, abs=1e-7) == ERROR


@pytest.mark.parametrize(
    ("depth", "precision", "found"),
    [
        (0.0000009, 0.0, []),  # a numerical epsilon: 0.000001"
        (0.004, 0.0, ["overlap"]),  # bases never overlap, not even by the contact tolerance
        (0.0007, 0.001, []),  # 0.0007 <= 0.000001 + 0.000707
        (0.0008, 0.001, ["overlap"]),
        (0.007, 0.01, []),  # 0.007 <= 0.000001 + 0.00707
        (0.0072, 0.01, ["overlap"]),
    ],
)
def test_overlap_with_a_model_that_does_not_move(
    depth: float, precision: float, found: list[str]
) -> None:
    """A1 ends `depth` inside B1 (which did not move and is not measured): one written position,
    so the tolerance grows by one rounding error."""
    placement = Placement(model="A1", x=CONTACT_X + depth, y=10.0, contact=("B1",))
    got = check_placement(ONE_ON_ONE, [placement], precision_in=precision)
    assert kinds(got) == found


@pytest.mark.parametrize(("gap", "found"), [(0.012, []), (0.0125, ["false_contact"])])
def test_base_contact_within_the_rounding_error(gap: float, found: list[str]) -> None:
    """A1 claims base contact with B1 from `gap` away: at 0.01" it touches up to 0.01207"."""
    placement = Placement(model="A1", x=CONTACT_X - gap, y=10.0, contact=("B1",))
    assert kinds(check_placement(ONE_ON_ONE, [placement], precision_in=0.01)) == found
    if found:
        exact = check_placement(ONE_ON_ONE, [placement])
        assert kinds(exact) == ["false_contact"]


@pytest.mark.parametrize(("depth", "found"), [(0.014, []), (0.0145, ["overlap"])])
def test_overlap_of_two_written_positions(depth: float, found: list[str]) -> None:
    """A1 and A2 both touch their targets and overlap each other by `depth`: two written
    positions, so 0.000001 + 2 * 0.00707 = 0.01414" is allowed at 0.01"."""
    a1 = Placement(model="A1", x=CONTACT_X, y=10.0)
    a2 = Placement(model="A2", x=CONTACT_X, y=10.0 + D - depth)
    assert kinds(check_placement(TWO_ON_TWO, [a1, a2], precision_in=0.01)) == found
    assert kinds(check_placement(TWO_ON_TWO, [a1, a2])) == ["overlap"]


def test_move_length_is_judged_exactly() -> None:
    """A 6.005" move on a roll of 6 is too far at any precision: only contact and overlap are
    widened. B1 stands 1.5" beyond so that A1 ends engaged, not touching."""
    s = make_scenario([(10.0, 10.0)], {"B": [(16.005 + D + 0.5, 10.0)]}, roll=6)
    placement = Placement(model="A1", x=16.005, y=10.0)
    for precision in (0.0, 0.01, 0.03937):
        got = check_placement(s, [placement], precision_in=precision)
        assert kinds(got) == ["moved_too_far"]
        assert got[0].distance_in == pytest.approx(6.005, abs=1e-9)


def test_coherency_is_judged_exactly() -> None:
    """A2 ends 2.004" from A1 (edge to edge): out of coherency at 0.01" as when exact."""
    a1 = Placement(model="A1", x=CONTACT_X, y=10.0)
    a2 = Placement(model="A2", x=CONTACT_X, y=10.0 + D + 2.004)
    s = make_scenario([(10.0, 10.0), (10.0, 14.0)], {"B": [(16.0, 10.0), (16.0, 14.0)]}, roll=6)
    for precision in (0.0, 0.01):
        got = check_placement(s, [a1, a2], precision_in=precision)
        assert "coherency_split" in kinds(got)


def test_a_model_written_at_its_rounded_start_stays() -> None:
    """A pile in where A1 starts in base contact at x = 16 - D (= 14.74016): written as the
    summary prints it, (14.74, 10.00), it stands 0.00016" off its start. Exact, it moved away
    from contact; measured to 0.01" it stays, and the placement is legal."""
    s = make_scenario(
        [(CONTACT_X, 10.0), (CONTACT_X, 11.5)],
        {"B": [(16.0, 10.0), (16.0, 11.5)]},
        action={"kind": "pile-in", "unit": "A", "charged": True},
    )
    written = [Placement(model="A1", x=14.74, y=10.0), Placement(model="A2", x=14.74, y=11.5)]
    assert round(CONTACT_X, 2) == 14.74
    assert "moved_from_contact" in kinds(check_placement(s, written))
    assert check_placement(s, written, precision_in=0.01) == []


def test_negative_precision_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 0"):
        check_placement(ONE_ON_ONE, [], precision_in=-0.01)


def test_precision_line_names_the_precision_and_the_error() -> None:
    assert precision_line(0.01) == (
        'Judged as measured to 0.01": base contact and overlap within the rounding error '
        '(0.0071" for each position written), every other rule exactly.'
    )
    assert precision_line(0.0) == "Judged exactly as written."


def _files(tmp_path: Path, depth: float) -> tuple[str, str]:
    """ONE_ON_ONE as a scenario file and A1 ending `depth` inside B1 as a result file."""
    scenario = tmp_path / "s.json"
    scenario.write_text(ONE_ON_ONE.model_dump_json(), encoding="utf-8")
    result = tmp_path / "r.json"
    placement = {"model": "A1", "x": CONTACT_X + depth, "y": 10.0, "contact": ["B1"]}
    result.write_text(json.dumps({"placements": [placement]}), encoding="utf-8")
    return str(scenario), str(result)


def test_cli_check_at_the_summarys_precision(tmp_path: Path) -> None:
    """0.007" inside B1: exact it is an overlap (exit 1), at 0.01" legal with the line saying
    what was judged how (exit 0), and --json carries the precision."""
    scenario, result = _files(tmp_path, 0.007)
    runner = CliRunner()
    exact = runner.invoke(main, ["check", scenario, result])
    assert exact.exit_code == 1
    assert "[overlap]" in exact.output
    measured = runner.invoke(main, ["check", scenario, result, "--precision", "0.01"])
    assert measured.exit_code == 0, measured.output
    assert measured.output.splitlines() == [
        precision_line(0.01),
        "OK: no violations (1 models checked)",
    ]
    as_json = runner.invoke(main, ["check", scenario, result, "--precision", "0.01", "--json"])
    assert json.loads(as_json.output) == {
        "violations": [],
        "ok": True,
        "unmoved": [],
        "precision_in": 0.01,
    }


def test_cli_precision_in_millimetres(tmp_path: Path) -> None:
    """--precision 1mm is 1/25.4 = 0.03937": 0.0275" inside B1 is within 0.000001 + 0.02784."""
    scenario, result = _files(tmp_path, 0.0275)
    runner = CliRunner()
    got = runner.invoke(main, ["check", scenario, result, "--precision", "1mm", "--json"])
    assert got.exit_code == 0, got.output
    assert json.loads(got.output)["precision_in"] == pytest.approx(1 / 25.4)
    bad = runner.invoke(main, ["check", scenario, result, "--precision", "-1"])
    assert bad.exit_code == 2
    assert "not a length of at least 0" in bad.output
