"""Area outlines (floors, impassable and difficult ground) must be simple polygons: an outline
that crosses, touches or runs back over itself, or encloses nothing, is refused at load time."""

from __future__ import annotations

import pytest

from chargeopt.models import Scenario, ScenarioError, Terrain, validate_document
from chargeopt.models.outline import outline_problem

BOWTIE = ((2.0, 10.0), (8.0, 16.0), (8.0, 10.0), (2.0, 16.0))


@pytest.mark.parametrize(
    "path",
    [
        ((0.0, 0.0), (4.0, 0.0), (0.0, 3.0)),
        ((0.0, 0.0), (4.0, 0.0), (4.0, 1.0), (1.0, 1.0), (1.0, 4.0), (0.0, 4.0)),
        ((0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0), (0.0, 0.0)),
        ((0.0, 0.0), (2.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)),
        ((0.0, 0.0), (4.0, 0.0), (4.0, 0.0), (4.0, 4.0)),
    ],
    ids=["triangle", "L-shape", "closed-square", "collinear-corner", "repeated-corner"],
)
def test_simple_outlines_pass(path: tuple[tuple[float, float], ...]) -> None:
    """Convex, concave, closed, with a straight-through corner or a repeated point: all simple."""
    assert outline_problem(path) is None


def test_bowtie_names_the_crossing_sides_and_the_order_that_fixes_it() -> None:
    """The issue's floor: two sides cross; sorted around the centre its corners make a square."""
    assert outline_problem(BOWTIE) == (
        "crosses itself: the side from (2, 10) to (8, 16) crosses the side from (8, 10) to (2, 16)",
        "list the corners in order around the outline, e.g. path = [[2, 10], [8, 10], [8, 16], "
        "[2, 16]]",
    )


def test_a_pinched_outline_touches_itself() -> None:
    """An outline that comes back through one of its corners is two areas touching: refused,
    and no reordering of its corners helps."""
    pinched = ((0.0, 0.0), (4.0, 0.0), (2.0, 2.0), (4.0, 4.0), (0.0, 4.0), (2.0, 2.0))
    assert outline_problem(pinched) == (
        "crosses itself: the side from (4, 0) to (2, 2) touches the side from (0, 4) to (2, 2)",
        "list the corners in order around the outline, one area per terrain piece",
    )


def test_a_spike_runs_back_over_itself() -> None:
    """A side that doubles back along the one before encloses a sliver of no width."""
    spike = ((0.0, 0.0), (4.0, 0.0), (2.0, 0.0), (2.0, 3.0))
    problem = outline_problem(spike)
    assert problem is not None
    assert problem[0] == (
        "crosses itself: the side from (0, 0) to (4, 0) runs back over the side from (4, 0) "
        "to (2, 0)"
    )


def test_corners_on_one_line_enclose_no_area() -> None:
    """Three corners on a line are refused as an area with none."""
    assert outline_problem(((0.0, 0.0), (2.0, 2.0), (4.0, 4.0))) == (
        "encloses no area (its corners lie on one line)",
        "give the corners of the area in order around its outline",
    )


@pytest.mark.parametrize("kind", ["floor", "impassable", "difficult"])
def test_terrain_refuses_a_crossing_outline_at_its_path(kind: str) -> None:
    """Every area kind is checked; the error sits at terrain[i].path and names the piece."""
    piece = {"id": "f", "kind": kind, "path": [list(p) for p in BOWTIE]}
    if kind == "floor":
        piece["height"] = 3.0
    document = {
        "ruleset": "40k-10e",
        "board": {"width": 20.0, "height": 20.0},
        "terrain": [piece],
        "units": [
            {
                "id": "A",
                "owner": "attacker",
                "base": "32mm",
                "models": [{"id": "A1", "x": 1, "y": 1}],
            }
        ],
        "action": {"kind": "consolidate", "unit": "A"},
    }
    with pytest.raises(ScenarioError) as caught:
        validate_document(Scenario, document, "t.toml")
    [(key, problem, _)] = caught.value.problems
    assert key == "terrain[0].path"
    assert problem.startswith(f"the outline of {kind} 'f' crosses itself: ")


def test_a_wall_line_may_cross_itself() -> None:
    """Walls and barricades are lines grown by their thickness: a crossing line is a shape."""
    wall = Terrain(id="w", kind="wall", path=BOWTIE, thickness=0.25, height=5.0)
    assert wall.path == BOWTIE
