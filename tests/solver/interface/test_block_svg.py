"""The rank-and-file picture: the path replayed as it is moved (hand-worked wheels and doors),
drawn with SVG arcs about the pivots; the board with its grid, ruler, names, contacts, legend
and a caption wrapped inside the picture; the ruleset's own words in 6e/tow text."""

from __future__ import annotations

import math
import re
from xml.etree import ElementTree

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from repo_paths import REPO_ROOT

from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.geometry.rank_and_file.moves import wheel, wheel_travel
from chargeopt.models import Board, Result
from chargeopt.solver import load_scenario
from chargeopt.solver.api import solve
from chargeopt.solver.interface.block_path_svg import PathWords, replay, trail_data
from chargeopt.solver.interface.block_svg import render_block_svg
from chargeopt.solver.interface.ruling_text import summarise_blocks
from chargeopt.solver.interface.svg_parts import MARGIN, WIDE_CHAR_PX

T9A = PathWords.of(("t9a-2022",))
SIXTH = PathWords.of(("whfb-6e",))
WHEEL_6E = REPO_ROOT / "benchmarks" / "rank-and-file-wheel-v1" / "w2-6e-wheel-whole-front.toml"
WHEEL_TOW = REPO_ROOT / "benchmarks" / "rank-and-file-wheel-v1" / "t2-tow-wheel-whole-front.toml"
SEED_T9A = REPO_ROOT / "benchmarks" / "rank-and-file-v1" / "f2-front-seed-wheel.toml"
FAILED_6E = REPO_ROOT / "benchmarks" / "rank-and-file-wheel-v1" / "w9-6e-failed.toml"


def close(a: tuple[float, ...], b: tuple[float, ...], tol: float = 1e-9) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def pose_of(p: BlockPose) -> tuple[float, float, float]:
    return (p.x, p.y, p.facing)


def test_a_quarter_wheel_right_is_one_arc_about_the_front_right_corner() -> None:
    """A 4"-wide block at (10, 20) facing up (-90) wheels 90 degrees right: the front-right
    corner (14, 20) stays, the front-left corner ends at (14, 16) facing +x (0); the front's
    centre goes from (12, 20) to (14, 18) on a 2" circle about (14, 20): one clockwise arc."""
    start = BlockPose(4.0, 2.0, 10.0, 20.0, -90.0)
    path = [{"move": "wheel", "angle_deg": 90.0}]
    end = wheel(start, 90.0)
    legs = replay(start, path, end, None, T9A)
    assert [leg.kind for leg in legs] == ["wheel"]
    assert close(legs[0].centre or (), (14.0, 20.0))
    assert close(pose_of(legs[0].end), (14.0, 16.0, 0.0), 1e-9)
    assert trail_data(legs) == "M 240.0,400.0 A 40.0 40.0 0 0 1 280.0,360.0"


def test_6e_forward_wheel_forward_then_the_door_closes_about_the_contact_point() -> None:
    """A 4" block at (10, 20) facing up: 2" forward, a 90-degree wheel left about its
    front-left corner (10, 18) to face -x, 3" forward to (7, 18); the door turns it 90
    degrees back right about (7, 18): it ends at (7, 18) facing up again, no slide."""
    start = BlockPose(4.0, 2.0, 10.0, 20.0, -90.0)
    path = [
        {"move": "forward", "distance_in": 2.0},
        {"move": "wheel", "angle_deg": -90.0},
        {"move": "forward", "distance_in": 3.0},
        {"move": "align", "shift_in": 0.0, "turn_deg": 90.0},
    ]
    end = start.moved(7.0, 18.0, -90.0)
    legs = replay(start, path, end, (7.0, 18.0), SIXTH)
    assert [leg.kind for leg in legs] == ["forward", "wheel", "forward", "door"]
    assert close(pose_of(legs[1].end), (10.0, 18.0, -180.0), 1e-9)
    assert close(pose_of(legs[2].end), (7.0, 18.0, -180.0), 1e-9)
    assert close(pose_of(legs[3].end)[:2], (7.0, 18.0), 1e-9)
    assert [leg.words for leg in legs] == ['2.0"', "wheel 90°", '3.0"', "door 90°"]
    assert trail_data(legs).count(" A ") == 2


def test_a_door_that_does_not_land_on_the_written_end_shows_the_slide() -> None:
    """The same charge written 0.5" further along the target: the door, then a slide."""
    start = BlockPose(4.0, 2.0, 10.0, 20.0, -90.0)
    path = [{"move": "forward", "distance_in": 1.0}, {"move": "align", "turn_deg": 0.0}]
    legs = replay(start, path, start.moved(10.5, 19.0, -90.0), (10.0, 19.0), SIXTH)
    assert [leg.kind for leg in legs] == ["forward", "slide"]


def test_the_t9a_align_move_is_a_jump_not_a_turn() -> None:
    """T9A: the unit is picked up and put down aligned: a jump leg, drawn apart from the trail."""
    start = BlockPose(4.0, 2.0, 10.0, 20.0, -90.0)
    path = [
        {"move": "forward", "distance_in": 2.0},
        {"move": "align", "shift_in": 1.0, "turn_deg": 10.0},
    ]
    legs = replay(start, path, start.moved(11.0, 18.0, -80.0), (12.0, 18.0), T9A)
    assert [leg.kind for leg in legs] == ["forward", "align"]
    assert trail_data(legs) == "M 240.0,400.0 L 240.0,360.0"


@settings(max_examples=40, deadline=None)
@given(
    width=st.floats(1.0, 10.0),
    x=st.floats(0.0, 40.0),
    y=st.floats(0.0, 40.0),
    facing=st.floats(-180.0, 180.0),
    angle=st.floats(-170.0, 170.0).filter(lambda a: abs(a) > 0.01),
)
def test_every_wheel_is_drawn_as_an_arc_the_block_really_moves_on(
    width: float, x: float, y: float, facing: float, angle: float
) -> None:
    """The drawn wheel's pivot is the corner the geometry turns about: the front's centre
    stays w/2 from it and ends where moves.wheel puts it; the outer corner sweeps the travel."""
    start = BlockPose(width, 2.0, x, y, facing)
    legs = replay(start, [{"move": "wheel", "angle_deg": angle}], wheel(start, angle), None, T9A)
    (leg,) = legs
    assert leg.centre is not None
    for pose in (leg.start, leg.end):
        assert math.isclose(math.dist(leg.centre, pose.front_centre), width / 2, abs_tol=1e-9)
    assert close(leg.end.front_centre, wheel(start, angle).front_centre, 1e-9)
    far = max(leg.start.corners.values(), key=lambda c: math.dist(c, leg.centre or c))
    assert math.isclose(
        math.dist(leg.centre, far) * math.radians(abs(angle)),
        math.hypot(width, 2.0) * math.radians(abs(angle)),
    )
    assert wheel_travel(width, angle) == pytest.approx(width * math.radians(abs(angle)))


@pytest.fixture(scope="module")
def sixth() -> tuple[str, str]:
    """w2 solved: its picture and summary."""
    scenario = load_scenario(str(WHEEL_6E))
    result = solve(scenario)
    return render_block_svg(scenario, result), summarise_blocks(result)


def test_the_picture_has_what_the_40k_one_has(sixth: tuple[str, str]) -> None:
    """Grid (47 + 47 inner lines of a 48" board), inch ruler, unit names and sizes, the four
    arcs named, the legend and its scale bar, the 5 and 5 models in contact ringed, and the
    charge as one trail with two arcs (the wheel, the door) and two swings about two pivots."""
    picture, _ = sixth
    assert picture.count('class="grid"') + picture.count('class="grid6"') == 47 + 47
    assert '>48"</text>' in picture and '>0"</text>' in picture
    assert re.findall(r'class="unit-name"[^>]*>(\w+)<', picture) == ["A", "B"]
    assert picture.count(">5 x 3</text>") == 2
    assert picture.count('class="arc-name"') == 4
    assert len(re.findall(r'<polygon class="(?:attacker|defender) contact"', picture)) == 5 + 5
    trail = re.search(r'<path class="move" d="([^"]+)"', picture)
    assert trail is not None and trail.group(1).count(" A ") == 2
    assert (
        picture.count('<path class="swing"') == 2
        and picture.count('<circle class="pivot" cx="') == 2 + 1
    )  # and the legend's
    for words in (
        "pivot of a turn",
        "model in contact",
        "initial contact point",
        '6" on the board',
    ):
        assert f">{words}</text>" in picture
    assert "foreignObject" not in picture
    assert ElementTree.fromstring(picture).tag == "{http://www.w3.org/2000/svg}svg"


def test_the_caption_is_wrapped_inside_the_picture(sixth: tuple[str, str]) -> None:
    """Every caption line fits the picture's width, and the last one is above its bottom; on a
    narrow board (34" x 22", no close-up) the long lines are cut into more lines."""
    picture, summary = sixth
    _fits(picture, summary, wrapped=False)
    scenario = load_scenario(str(WHEEL_6E))
    narrow = scenario.model_copy(update={"board": Board(width=34.0, height=22.0)})
    _fits(render_block_svg(narrow, solve(scenario)), summary, wrapped=True)


def _fits(picture: str, summary: str, wrapped: bool) -> None:
    width = float(re.search(r'<svg[^>]* width="(\d+)"', picture).group(1))  # type: ignore[union-attr]
    height = float(re.search(r'<svg[^>]* height="(\d+)"', picture).group(1))  # type: ignore[union-attr]
    top = float(re.search(r"translate\(26,(\d+)\)\">\n<text class=\"title\"", picture).group(1))  # type: ignore[union-attr]
    lines = re.findall(r'<text class="caption" x="0" y="([\d.]+)">([^<]*)</text>', picture)
    assert (len(lines) > len(summary.splitlines())) == wrapped
    limit = int((width - 2 * MARGIN) / WIDE_CHAR_PX)
    assert all(len(text) <= limit for _, text in lines)
    assert top + max(float(y) for y, _ in lines) < height


def test_6e_and_tow_speak_their_own_words(sixth: tuple[str, str]) -> None:
    """6e: the charge move (twice the Move), closing the door; tow: the Charge Range (Movement
    + the higher of 2D6); never T9A's Snaking Forward Move or Align Move."""
    picture, summary = sixth
    assert 'charge move 8" (twice the Move)' in summary
    assert "closes the door on B's front: 5 of B's models and 5 of A's" in summary
    assert "closing the door: turns 20.9 degrees about the initial contact point" in picture
    for text in (picture, summary):
        assert "Snaking" not in text and "Align Move" not in text
    tow = solve(load_scenario(str(WHEEL_TOW)))
    words = summarise_blocks(tow)
    assert 'Charge Range 8" (Movement + the higher of 2D6)' in words
    assert "closes the door on B's front" in words


def test_t9a_keeps_its_names_and_a_failed_6e_charge_draws_its_normal_move() -> None:
    """T9A: the Snaking Forward Move then the Align Move; a failed 6e charge's normal Move."""
    scenario = load_scenario(str(SEED_T9A))
    result = solve(scenario)
    picture = render_block_svg(scenario, result)
    assert "the Snaking Forward Move, then the Align Move" in picture
    assert "aligns to B's front" in summarise_blocks(result)
    assert picture.count('<line class="jump"') == 2  # the jump and its legend swatch
    failed = load_scenario(str(FAILED_6E))
    drawn = render_block_svg(failed, solve(failed))
    assert 'A, failed charge: its normal Move: 4.0" forward' in drawn


def test_a_hand_written_block_is_drawn_where_it_is_put() -> None:
    """A block written by hand (unit, x, y, facing: what check reads) is drawn at its end, its
    start faded, with a straight "put down" from one to the other (no path is claimed)."""
    scenario = load_scenario(str(WHEEL_6E))
    hand = Result(blocks=({"unit": "A", "x": 26.057318, "y": 10.0, "facing": -90.0},))
    picture = render_block_svg(scenario, hand)
    assert picture.count('<polygon class="attacker start"') == 15
    assert len(re.findall(r'<polygon class="(?:attacker|defender) contact"', picture)) == 5 + 5
    assert "A: put down where the answer places it" in picture
    assert picture.count('<path class="move"') == 1 + 1  # and the legend's
    assert _trail(picture).startswith("M ") and " A " not in _trail(picture)


def _trail(picture: str) -> str:
    found = re.search(r'<path class="move" d="([^"]+)"', picture)
    return found.group(1) if found else ""
