"""The official terrain layouts by name: every layout of the data set loads under 40k-11e and
40k-10e, its pieces land where the data set's resolver puts them, and a 40k-11e charge solves
on each."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("wh40kdc")

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon
from shapely.ops import unary_union

from chargeopt.models import Scenario, ScenarioError, TerrainKind, validate_document
from chargeopt.models.data_set import data_set
from chargeopt.models.layouts import STOREY_IN, board_of, find_layout
from chargeopt.solver import api

LAYOUTS = sorted(lay["name"] for lay in data_set().terrain_layouts)


def _table(layout: str, ruleset: str, a: tuple[float, float], b: tuple[float, float]) -> dict:
    return {
        "ruleset": ruleset,
        "board": {"layout": layout, **board_of(find_layout(layout))},
        "units": [
            {
                "id": "A",
                "owner": "attacker",
                "datasheet": "Intercessor Squad",
                "models": [{"id": "A1", "x": a[0], "y": a[1]}],
            },
            {
                "id": "B",
                "owner": "defender",
                "base": "32mm",
                "models": [{"id": "B1", "x": b[0], "y": b[1]}],
            },
        ],
        "action": {"kind": "charge", "unit": "A", "targets": ["B"], "roll": 7},
    }


def _load(data: dict[str, Any]) -> Scenario:
    return validate_document(Scenario, data, "t.toml")


def test_the_data_set_has_46_layouts() -> None:
    assert len(LAYOUTS) == 46


def test_a_layout_is_found_by_name_or_id_and_a_miss_names_the_nearest() -> None:
    assert find_layout("take vs take 01")["id"] == find_layout("bm-take-vs-take-01")["id"]
    data = _table("Take vs Take 01", "40k-10e", (1, 1), (3, 1))
    data["board"]["layout"] = "Take vs Tak 01"
    with pytest.raises(ScenarioError) as caught:
        _load(data)
    line = caught.value.lines()[0]
    assert "board.layout: no terrain layout 'Take vs Tak 01'" in line
    assert '"Take vs Take 01"' in line


def test_take_vs_take_01_under_11e() -> None:
    """Counted in the data set's layout: 16 areas composing 28 features (14 dense, 14 light,
    0.5" walls), 10 of them with an upper floor (at 3"), 5 objectives (the two centre pieces
    are linked: one marker at (30, 22))."""
    scenario = _load(_table("Take vs Take 01", "40k-11e", (1, 1), (3, 1)))
    kinds = [t.kind for t in scenario.terrain]
    assert scenario.board.layout == "Take vs Take 01"
    assert kinds.count(TerrainKind.FLOOR) == 10
    assert (kinds.count(TerrainKind.DENSE), kinds.count(TerrainKind.LIGHT)) == (14, 14)
    assert {t.height for t in scenario.terrain if t.kind == TerrainKind.FLOOR} == {STOREY_IN}
    first = scenario.terrain[0]
    assert first.id == "area-01--feature-1" and first.kind == TerrainKind.DENSE
    assert first.path[:2] == ((41.9955, 27.0045), (41.9955, 21.0045))
    assert first.wall_thickness_in == 0.5
    centre = next(o for o in scenario.objectives if o.id == "obj-objective-center")
    assert (centre.x, centre.y) == (30.0, 22.0)
    assert len(scenario.objectives) == 5


def test_a_board_with_a_layout_still_gives_its_size() -> None:
    data = _table("KOTC Colosseum", "40k-11e", (1, 1), (3, 1))
    assert data["board"]["width"] == 36.0
    del data["board"]["width"]
    with pytest.raises(ScenarioError) as caught:
        _load(data)
    assert caught.value.lines() == [
        "t.toml: board.width: the board needs its width (a layout does not set it); add "
        "width = 36, height = 36 (the layout's board)"
    ]


def test_a_rank_and_file_board_takes_no_layout() -> None:
    from chargeopt.models import RankAndFileScenario

    assert "layout" not in RankAndFileScenario.model_fields["board"].annotation.model_fields


def test_an_explicit_board_size_and_own_terrain_are_kept() -> None:
    data = _table("Take vs Take 01", "40k-10e", (1, 1), (3, 1))
    data["board"].update(width=62.0, height=44.0)
    data["terrain"] = [{"id": "crate", "kind": "impassable", "path": [[1, 5], [2, 5], [2, 6]]}]
    scenario = _load(data)
    assert scenario.board.width == 62.0 and scenario.terrain[0].id == "crate"


def _clear_spot(scenario: Scenario) -> tuple[tuple[float, float], tuple[float, float]]:
    """The pair of spots 5" apart along x, each 1.5" clear of every piece and the board's
    edge, nearest to some piece (so the charge runs beside the terrain)."""
    pieces = unary_union(
        [
            LineString(t.path).buffer(t.thickness or 0.1)
            if t.kind == TerrainKind.WALL
            else Polygon(t.path)
            for t in scenario.terrain
        ]
    )
    xs, ys = np.meshgrid(
        np.arange(4.0, scenario.board.width - 8), np.arange(4.0, scenario.board.height - 3)
    )
    a = shapely.points(xs.ravel(), ys.ravel())
    b = shapely.points(xs.ravel() + 5.0, ys.ravel())
    gap = np.minimum(shapely.distance(a, pieces), shapely.distance(b, pieces))
    gap[gap < 1.5] = np.inf
    k = int(np.argmin(gap))
    assert np.isfinite(gap[k])
    x, y = float(xs.ravel()[k]), float(ys.ravel()[k])
    return (x, y), (x + 5.0, y)


@pytest.mark.parametrize("name", LAYOUTS)
def test_every_layout_loads_and_a_charge_solves_on_it_under_11e(name: str) -> None:
    """Beside the terrain, 1.5" clear of it: one Intercessor 5" from one enemy model reaches
    it on a 7, and the answer passes the checker."""
    assert _load(_table(name, "40k-10e", (1, 1), (3, 1))).terrain
    a, b = _clear_spot(_load(_table(name, "40k-11e", (1, 1), (3, 1))))
    scenario = _load(_table(name, "40k-11e", a, b))
    assert scenario.terrain and scenario.objectives
    result = api.solve(scenario, time_limit=10.0)
    assert result.status.value == "optimal"
    assert not result.violations
    assert result.objective["within_1"] == 1
    assert result.stats["data_set"]["layout"]["name"] == name
    assert result.stats["data_set"]["version"] == "1.4.5"


def test_a_charge_solves_on_a_layout_under_10e() -> None:
    a, b = _clear_spot(_load(_table("Take vs Take 01", "40k-10e", (1, 1), (3, 1))))
    result = api.solve(_load(_table("Take vs Take 01", "40k-10e", a, b)), time_limit=10.0)
    assert result.status.value == "optimal" and not result.violations
    assert result.objective["base_contact"] == 1
