"""Refusals in the player's words: the key path, what was expected (in the key's own words, its
unit and range), what was found, and the fix as a line to write. None of pydantic's phrasing
("Input should be a valid tuple", "instance of Board") reaches a user."""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest

from chargeopt.models import Result, Scenario, ScenarioError, validate_document

PYDANTIC_WORDS = (
    "Input should",
    "Tuple should",
    "List should",
    "valid dictionary",
    "instance of",
    "after validation",
    "Field required",
    "Unable to extract tag",
    "Input tag",
    "String should",
)


def minimal_document() -> dict[str, Any]:
    """A small valid scenario as a dict, to break one key at a time."""
    return {
        "ruleset": "40k-10e",
        "board": {"width": 20.0, "height": 20.0},
        "terrain": [{"id": "w", "kind": "wall", "path": [[15, 2], [15, 18]], "thickness": 0.25}],
        "units": [
            {
                "id": "A",
                "owner": "attacker",
                "keywords": ["INFANTRY"],
                "base": "32mm",
                "models": [{"id": "A1", "x": 5, "y": 5}, {"id": "A2", "x": 5, "y": 6.5}],
            },
            {
                "id": "B",
                "owner": "defender",
                "base": {"kind": "hull", "points": [[-1, -1], [1, -1], [1, 1]]},
                "models": [{"id": "B1", "x": 10, "y": 5, "facing": 90}],
            },
        ],
        "objectives": [{"id": "o", "x": 10, "y": 10}],
        "action": {"kind": "charge", "unit": "A", "targets": ["B"], "roll": 7},
    }


def refused(document: dict[str, Any], file: str = "doc.toml", model: Any = Scenario) -> list:
    """The (key path, problem, fix) triples a document is refused with."""
    with pytest.raises(ScenarioError) as caught:
        validate_document(model, document, file)
    return caught.value.problems


def broken(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """minimal_document() with the value at `path` replaced."""
    document = minimal_document()
    here: Any = document
    for part in path[:-1]:
        here = here[part]
    here[path[-1]] = value
    return document


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        (
            ("ruleset",),
            10,
            (
                "ruleset",
                "expected a text in quotes or a list (the rules to play by: an edition, or a list "
                "of an edition and the modifiers on top of it), got the number 10",
                'write e.g. ruleset = "40k-10e"',
            ),
        ),
        (
            ("units",),
            [],
            (
                "units",
                "expected a list of at least 1 (the units on the table: the one that moves and "
                "the others around it), got none",
                'write e.g. units = [{ id = "A", owner = "attacker", keywords = ["INFANTRY"], '
                'base = "32mm", models = [{ id = "A1", x = 12.0, y = 20.0 }] }]',
            ),
        ),
        (
            ("board",),
            "20x20",
            (
                "board",
                "expected a table (the battlefield's size; the origin is its top-left corner, x "
                'to the right, y down), got the text "20x20"',
                "write e.g. board = { width = 60.0, height = 44.0 }",
            ),
        ),
        (
            ("units", 0, "base"),
            5,
            (
                "units[0].base",
                "expected a text in quotes or a table (the base of each of its models that does "
                'not give its own: "32mm", "60x35mm" (an oval, long axis first) or a hull '
                "table), got the number 5",
                'write e.g. base = "32mm"',
            ),
        ),
        (
            ("units", 0, "models"),
            {"id": "A1"},
            (
                "units[0].models",
                "expected a list (the unit's models, each with its start position), got a table",
                'write e.g. models = [{ id = "A1", x = 12.0, y = 20.0 }]',
            ),
        ),
        (
            ("terrain", 0, "path", 0),
            [15, 2, 0],
            (
                "terrain[0].path[0]",
                "expected 2 numbers (a corner or bend of the piece: [x, y] in inches), got 3",
                "write e.g. path = [[20.0, 10.0], [30.0, 10.0]]",
            ),
        ),
        (
            ("terrain", 0, "path", 1),
            [15],
            (
                "terrain[0].path[1]",
                "expected 2 numbers (a corner or bend of the piece: [x, y] in inches), got 1",
                "write e.g. path = [[20.0, 10.0], [30.0, 10.0]]",
            ),
        ),
        (
            ("units", 0, "id"),
            "",
            (
                "units[0].id",
                "is empty (the unit's name, unique among the units)",
                'write e.g. id = "A"',
            ),
        ),
        (
            ("units", 1, "owner"),
            "enemy",
            ("units[1].owner", 'unknown owner "enemy"', 'choose "attacker" or "defender"'),
        ),
        (
            ("action", "roll"),
            40,
            (
                "action.roll",
                "expected a whole number of inches from 0 to 36 (the dice total rolled for the "
                "move), got the number 40",
                "write e.g. roll = 7",
            ),
        ),
        (
            ("units", 1, "base", "points", 0, 0),
            200,
            (
                "units[1].base.points[0][0]",
                "expected a number of inches from -100 to 100 (a corner of the hull: [x, y] in "
                "inches from the model's centre), got the number 200",
                "write e.g. points = [[-2.0, -1.25], [2.0, -1.25], [2.0, 1.25], [-2.0, 1.25]]",
            ),
        ),
        (
            ("objectives", 0, "y"),
            10**400,
            (
                "objectives[0].y",
                "expected a number of inches (the distance of the marker's centre from the "
                "board's top edge), got a 401-digit number",
                "write e.g. y = 22.0",
            ),
        ),
        (
            ("units", 0, "models", 0, "z"),
            math.inf,
            (
                "units[0].models[0].z",
                "expected a finite number of inches (the height the model stands at: 0 on the "
                "ground, else the height of the floor under it), got inf",
                "write e.g. z = 3.0",
            ),
        ),
    ],
)
def test_refusal_in_the_players_words(
    path: tuple[Any, ...], value: Any, expected: tuple[str, str, str]
) -> None:
    """The messages the issue quotes (and their kin), each as (key path, problem, fix)."""
    assert refused(broken(path, value)) == [expected]


def test_a_coordinate_off_any_board_names_this_boards_size() -> None:
    """x = 1e308 is refused in inches against the board, without a 300-digit number."""
    assert refused(broken(("units", 0, "models", 0, "x"), 1e308)) == [
        (
            "units[0].models[0].x",
            '1e+308 is off the table (the board is 20" x 20", x runs from 0 at the left edge to '
            "20 at the right)",
            "give the position in inches, e.g. x = 12.0",
        )
    ]


def test_a_terrain_corner_off_any_board_names_its_axis() -> None:
    """The second number of a path point is a y."""
    [(key, problem, _)] = refused(broken(("terrain", 0, "path", 1, 1), -5000))
    assert key == "terrain[0].path[1][1]"
    assert problem == (
        '-5000 is off the table (the board is 20" x 20", y runs from 0 at the top edge to 20 at '
        "the bottom)"
    )


def test_coordinates_up_to_1000_inches_are_read() -> None:
    """The cap is 1000" from the corner either way: 1000 loads (the start-layout check then
    says the model is off the board), 1000.5 does not."""
    document = broken(("units", 0, "models", 0, "x"), -1000.0)
    assert validate_document(Scenario, document, "a").units[0].models[0].x == -1000.0
    assert refused(broken(("units", 0, "models", 0, "x"), 1000.5))[0][1].startswith(
        "1000.5 is off the table"
    )


def test_a_placement_off_any_table_without_a_board() -> None:
    """A result file has no board: the message gives the cap instead, in JSON's spelling."""
    document = {"placements": [{"model": "A1", "x": 1e9, "y": 5}]}
    assert refused(document, "r.json", Result) == [
        (
            "placements[0].x",
            "1e+09 is off any table (positions are inches from the board's top-left corner, at "
            "most 1000)",
            'give the position in inches, e.g. "x": 17.2',
        )
    ]


def test_a_missing_key_shows_a_line_to_add_in_the_files_syntax() -> None:
    """TOML files get `key = value`, JSON files `"key": value`."""
    document = minimal_document()
    del document["units"][0]["models"][0]["x"]
    fix = "add it, e.g. {}"
    why = "required key is missing (the distance of the model's centre from the board's left edge)"
    assert refused(document) == [("units[0].models[0].x", why, fix.format("x = 12.0"))]
    assert refused(document, "doc.json") == [("units[0].models[0].x", why, fix.format('"x": 12.0'))]


@pytest.mark.parametrize(
    ("key", "hint"),
    [
        ("facng", "did you mean 'facing'? allowed here: "),
        ("colour", "check its spelling; allowed here: "),
    ],
)
def test_an_unknown_key_suggests_the_nearest_one(key: str, hint: str) -> None:
    """A misspelt key gets the nearest allowed key; a foreign one the list alone."""
    document = minimal_document()
    document["units"][0]["models"][0][key] = 1
    allowed = "base, facing, id, token, token_wall, x, y, z"
    assert refused(document) == [
        (f"units[0].models[0].{key}", f"unknown key {key!r}", hint + allowed)
    ]


WRONG_VALUES = [5, -1e9, "five", "", [], [1, "x"], {}, {"kind": "x"}, True, None, math.nan]


def _every_path(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path] if path else []
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _every_path(inner, (*path, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            found += _every_path(inner, (*path, i))
    return found


@pytest.mark.parametrize("value", WRONG_VALUES, ids=repr)
def test_no_refusal_speaks_pydantic(value: Any) -> None:
    """Every key of a scenario, set to each wrong value in turn: whatever is refused is refused
    in chargeopt's words, at a key path, and every type or range problem comes with a fix."""
    seen = 0
    for path in _every_path(minimal_document()):
        try:
            validate_document(Scenario, broken(path, copy.deepcopy(value)), "doc.toml")
        except ScenarioError as exc:
            for key, problem, fix in exc.problems:
                seen += 1
                text = f"{key}: {problem}; {fix}"
                assert not any(word in text for word in PYDANTIC_WORDS), text
                if problem.startswith("expected"):
                    assert fix, text
    assert seen > 10
