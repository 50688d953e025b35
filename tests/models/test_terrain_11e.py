"""The 11th edition's terrain categories and targets after the roll: dense, light and
exposed areas load under 40k-11e with their keys checked strictly (one line naming the file,
the key path and the fix), and are refused under the editions that do not read them."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from chargeopt.models import Scenario, ScenarioError, validate_document
from chargeopt.models.rulesets import resolve_ruleset

DENSE = {
    "id": "ruin",
    "kind": "dense",
    "path": [[12.0, 2.0], [16.0, 2.0], [16.0, 6.0], [12.0, 6.0]],
    "height_in": 5.0,
    "walls": [[[12.0, 2.0], [12.0, 6.0], [16.0, 6.0]]],
}
ELEVENTH = {
    "ruleset": "40k-11e",
    "board": {"width": 20.0, "height": 20.0},
    "terrain": [DENSE],
    "units": [
        {"id": "A", "owner": "attacker", "base": "32mm", "models": [{"id": "A1", "x": 5, "y": 5}]},
        {"id": "B", "owner": "defender", "base": "32mm", "models": [{"id": "B1", "x": 10, "y": 5}]},
    ],
    "action": {"kind": "charge", "unit": "A", "roll": 7},
}


def _with(**terrain: Any) -> dict[str, Any]:
    out = copy.deepcopy(ELEVENTH)
    piece = out["terrain"][0]
    for name, value in terrain.items():
        if value is ...:
            del piece[name]
        else:
            piece[name] = value
    return out


def _line(document: dict[str, Any]) -> str:
    with pytest.raises(ScenarioError) as caught:
        validate_document(Scenario, document, "c.toml")
    lines = caught.value.lines()
    assert len(lines) == 1, lines
    return lines[0]


def test_an_11e_charge_loads_without_targets_and_with_dense_terrain() -> None:
    scenario = validate_document(Scenario, ELEVENTH, "c.toml")
    assert scenario.action.targets == ()
    piece = scenario.terrain[0]
    assert (piece.kind, piece.height_in, piece.wall_thickness_in) == ("dense", 5.0, 0.25)
    rules = scenario.rules
    assert (rules.engagement_range_in, rules.coherency_unit_span_in) == (2.0, 9.0)
    assert rules.charge_targets_after_roll
    assert rules.moves_through_dense(frozenset({"MOBILE"}))
    assert not rules.moves_through_dense(frozenset({"VEHICLE"}))


@pytest.mark.parametrize(
    ("changes", "line"),
    [
        (
            {"height_in": ...},
            "c.toml: terrain[0].height_in: a dense area needs its height; add height_in = 5.0 "
            "(its tallest section, in inches)",
        ),
        (
            {"height_in": ..., "height": 5.0},
            "c.toml: terrain[0].height: a dense area gives its height as height_in; rename it "
            "height_in",
        ),
        ({"height_in": "5"}, "c.toml: terrain[0].height_in:"),
        ({"enclosed": "yes"}, "c.toml: terrain[0].enclosed:"),
        (
            {"walls": [[[12.0, 2.0]]]},
            "c.toml: terrain[0].walls[0]: a wall needs at least 2 points",
        ),
        (
            {"kind": "light", "enclosed": True},
            "c.toml: terrain[0].enclosed: only a dense area may be enclosed, not a light",
        ),
    ],
)
def test_category_keys_are_strict(changes: dict[str, Any], line: str) -> None:
    assert _line(_with(**changes)).startswith(line)


def test_category_keys_are_refused_on_the_older_kinds() -> None:
    document = _with(kind="wall", path=[[12.0, 2.0], [16.0, 2.0]], thickness=0.25, walls=...)
    assert _line(document).startswith(
        "c.toml: terrain[0].height_in: a wall does not use height_in (only dense, light and "
        "exposed areas do); remove height_in"
    )


def test_categories_are_refused_under_the_10th_edition() -> None:
    document = copy.deepcopy(ELEVENTH)
    document["ruleset"] = "40k-10e"
    document["action"]["targets"] = ["B"]
    assert _line(document).startswith(
        "c.toml: terrain[0].kind: 40k-10e has no dense terrain (terrain categories are 40k-11e's)"
    )


def test_the_10th_edition_still_needs_targets() -> None:
    document = copy.deepcopy(ELEVENTH)
    document["ruleset"] = "40k-10e"
    document["terrain"] = []
    assert "a charge needs at least one target unit" in _line(document)


def test_11e_does_not_combine_with_wtc_walls() -> None:
    with pytest.raises(Exception, match="wtc-walls"):
        resolve_ruleset(("40k-11e", "wtc-walls"))
