"""Start layouts of thousands of models: overlapping pairs found through a spatial index give
exactly the pairs, depths and messages of the whole n x n matrix, a 10,000-model layout is
judged without an n x n matrix (its memory, not its time, is asserted), and a file past the
cap of models is refused in one line (exit 2)."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from chargeopt.geometry.footprints import Footprint
from chargeopt.geometry.pairs import (
    SAME_HEIGHT_IN,
    Bases,
    close_pairs,
    height_gaps,
    overlap_depths,
    pair_overlap_depths,
)
from chargeopt.geometry.pose import terrain_intrusions
from chargeopt.geometry.start_layout import _Blockers, check_start_layout
from chargeopt.geometry.terrain import Battlefield
from chargeopt.models import Scenario, ScenarioError, load_scenario, parse_base, validate_document
from chargeopt.solver.interface.cli import main
from chargeopt.solver.loading import MAX_MODELS_PER_FILE

BASES = [parse_base(text) for text in ("32mm", "25mm", "60x35mm", "90x52mm")]
MM32_IN = 32 / 25.4


@st.composite
def layouts(draw: st.DrawFn) -> list[Footprint]:
    """Up to 40 bases of four kinds, crowded on a 12" square at two heights."""
    count = draw(st.integers(0, 40))
    coordinate = st.floats(0, 12, allow_nan=False)
    return [
        Footprint(
            draw(st.sampled_from(BASES)),
            draw(coordinate),
            draw(coordinate),
            draw(st.sampled_from([0.0, 0.0, 3.0])),
            draw(st.floats(0, 360, allow_nan=False)),
        )
        for _ in range(count)
    ]


@settings(max_examples=60, deadline=None)
@given(layouts())
def test_indexed_pairs_are_the_whole_matrix_pairs(footprints: list[Footprint]) -> None:
    """Every overlapping pair of the dense matrix (and no other) is found, with its depth."""
    bases = Bases.of(footprints)
    dense = overlap_depths(bases, bases)
    level = height_gaps(bases, bases) < SAME_HEIGHT_IN
    rows, columns = np.nonzero(np.triu((dense > 0) & level, 1))
    want = {(int(i), int(j)) for i, j in zip(rows, columns, strict=True)}
    first, second = close_pairs(bases)
    depth = pair_overlap_depths(bases, first, second)
    same = np.abs(bases.z[first] - bases.z[second]) < SAME_HEIGHT_IN
    hits = (depth > 0) & same
    got = {(int(i), int(j)) for i, j in zip(first[hits], second[hits], strict=True)}
    assert got == want
    for i, j, d in zip(first[hits], second[hits], depth[hits], strict=True):
        assert d == dense[i, j]
    assert list(zip(first, second, strict=True)) == sorted(zip(first, second, strict=True))


TERRAIN = [
    {
        "id": "wall",
        "kind": "wall",
        "path": [[2, 2], [8, 2], [8, 6]],
        "thickness": 0.25,
        "height": 5.0,
    },
    {"id": "low-wall", "kind": "wall", "path": [[2, 9], [6, 9]], "thickness": 0.5, "height": 2.0},
    {"id": "barricade", "kind": "barricade", "path": [[9, 9], [11, 11]], "thickness": 0.3},
    {"id": "rock", "kind": "impassable", "path": [[3, 4], [6, 4], [5, 7], [3, 6]]},
]


@settings(max_examples=60, deadline=None)
@given(layouts())
def test_indexed_terrain_is_every_piece_measured(footprints: list[Footprint]) -> None:
    """The indexed intrusions are `pose.terrain_intrusions`: same pieces, order and depths."""
    document = _grid_document(200)
    document["terrain"] = TERRAIN
    field = Battlefield.from_scenario(validate_document(Scenario, document, "t.json"))
    blockers = _Blockers(field)
    for fp in footprints:
        assert blockers.intrusions(fp, 0.0) == terrain_intrusions(fp, field, 0.0)
        assert blockers.intrusions(fp, 0.05) == terrain_intrusions(fp, field, 0.05)


def _grid_document(count: int, overlaps: int = 0) -> dict[str, Any]:
    """`count` 32mm models, 100 to a unit, 1.5" apart on a grid; the first `overlaps` units'
    second model set 1" from its first (a 0.26" overlap)."""
    units = []
    for u in range(count // 100):
        models = []
        for i in range(100):
            k = u * 100 + i
            x, y = 1.0 + (k % 100) * 1.5, 1.0 + (k // 100) * 1.5
            models.append({"id": f"U{u}M{i}", "x": x, "y": y})
        if u < overlaps:
            models[1]["x"] = models[0]["x"] + 1.0
        units.append({"id": f"U{u}", "owner": "defender", "base": "32mm", "models": models})
    units[0]["owner"] = "attacker"
    return {
        "format": 1,
        "name": "a crowded table",
        "ruleset": "40k-10e",
        "board": {"width": 152.0, "height": 1.5 * (count // 100) + 2},
        "units": units,
        "action": {"kind": "charge", "unit": "U0", "targets": ["U1"], "roll": 7},
    }


def test_ten_thousand_models_are_judged_without_a_dense_matrix(tmp_path: Path) -> None:
    """10,000 models, three overlapping pairs: the three messages as the dense check wrote
    them, and a peak of memory far below one 10,000 x 10,000 matrix (800 MB)."""
    path = tmp_path / "crowd.json"
    path.write_text(json.dumps(_grid_document(10_000, overlaps=3)))
    scenario = load_scenario(path)
    tracemalloc.start()
    try:
        check_start_layout(scenario, "crowd.json")
    except ScenarioError as exc:
        refused = exc
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    depth = 2 * MM32_IN / 2 - 1.0
    assert refused.lines() == [
        f"crowd.json: units[{u}].models[1]: model 'U{u}M1' overlaps 'U{u}M0' by {depth:.2f}\"; "
        "move it apart"
        for u in range(3)
    ]
    assert peak < 100_000_000


def test_a_file_past_the_cap_is_refused_in_one_line(tmp_path: Path) -> None:
    """MAX_MODELS_PER_FILE + 100 models: exit 2, one line with file, key, count, cap and fix."""
    path = tmp_path / "too-many.json"
    path.write_text(json.dumps(_grid_document(MAX_MODELS_PER_FILE + 100)))
    ran = CliRunner().invoke(main, ["solve", str(path)])
    assert ran.exit_code == 2
    assert ran.output == (
        f"error: {path}: units: the scenario has 10,100 models; chargeopt takes at most 10,000 "
        "per file; remove the units and models that take no part in the move\n"
    )
