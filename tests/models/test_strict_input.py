"""Strict input: a number, a whole number or true/false must be written as one (no "7" for 7,
no true for 1, no "yes" for true), angles are bounded, keys a move does not read are refused,
and each refusal is one line naming the file, the key path and the fix in the ruleset's words."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest

from chargeopt.models import RankAndFileScenario, Scenario, ScenarioError, validate_document

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _read(relative: str) -> dict[str, Any]:
    return tomllib.loads((BENCHMARKS / relative).read_text())


FORTY_K = {
    "ruleset": "40k-10e",
    "board": {"width": 20.0, "height": 20.0},
    "units": [
        {"id": "A", "owner": "attacker", "base": "32mm", "models": [{"id": "A1", "x": 5, "y": 5}]},
        {"id": "B", "owner": "defender", "base": "32mm", "models": [{"id": "B1", "x": 10, "y": 5}]},
    ],
    "action": {"kind": "charge", "unit": "A", "targets": ["B"], "roll": 7},
}
BLOCKS = _read("rank-and-file-v1/f1-front-head-on.toml")
REINFORCE_4E = _read("assault-4e-v1/a3-reinforce-wall.toml")


def _changed(document: dict[str, Any], changes: dict[tuple[Any, ...], Any]) -> dict[str, Any]:
    """A deep copy of `document` with each path set (a value of ... removes the key)."""
    out = copy.deepcopy(document)
    for path, value in changes.items():
        here: Any = out
        for part in path[:-1]:
            here = here[part]
        if value is ...:
            del here[path[-1]]
        else:
            here[path[-1]] = value
    return out


def _line(document: dict[str, Any], model: Any = Scenario, file: str = "c.toml") -> str:
    with pytest.raises(ScenarioError) as caught:
        validate_document(model, document, file)
    lines = caught.value.lines()
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize(
    ("changes", "line"),
    [
        (
            {("action", "roll"): "7"},
            "c.toml: action.roll: expected a whole number of inches (the dice total rolled for "
            'the move), got the text "7"; write e.g. roll = 7',
        ),
        (
            {("action", "roll"): True},
            "c.toml: action.roll: expected a whole number of inches (the dice total rolled for "
            "the move), got true; write e.g. roll = 7",
        ),
        (
            {("action", "charged"): "yes"},
            "c.toml: action.charged: expected true or false (whether the unit made a charge move "
            'this turn), got the text "yes"; write e.g. charged = true',
        ),
        (
            {("action", "charged"): 1},
            "c.toml: action.charged: expected true or false (whether the unit made a charge move "
            "this turn), got the number 1; write e.g. charged = true",
        ),
        (
            {("units", 0, "models", 0, "x"): "5"},
            "c.toml: units[0].models[0].x: expected a number of inches (the distance of the "
            "model's centre from the board's left edge), got the text \"5\"; write e.g. x = 12.0",
        ),
        (
            {("board", "width"): True},
            "c.toml: board.width: expected a number of inches (the board's width, from its left "
            "edge to its right edge), got true; write e.g. width = 60.0",
        ),
        (
            {("units", 0, "models", 0, "facing"): 1e300},
            "c.toml: units[0].models[0].facing: expected a number of degrees from -360 to 360 "
            "(the direction the model faces, from +x toward +y), got the number 1e+300; "
            "write e.g. facing = 90.0",
        ),
        (
            {("units", 0, "base"): {"kind": "round", "diameter_mm": "32"}},
            "c.toml: units[0].base.diameter_mm: expected a number of millimetres (the base's "
            'diameter), got the text "32"; write e.g. diameter_mm = 32.0',
        ),
        (
            {("format",): True},
            "c.toml: format: expected 1 (the version of the scenario format), got true; "
            "write e.g. format = 1",
        ),
        (
            {("action", "charged"): True},
            "c.toml: action.charged: a 40k-10e charge does not read charged (only a pile in "
            "does: a unit that charged this turn may pile in); remove charged",
        ),
        (
            {("action", "difficult_roll"): 4},
            "c.toml: action.difficult_roll: 40k-10e does not read difficult_roll (only "
            "40k-assault-4e does); remove it",
        ),
        (
            {("units", 0, "locked_with"): ["B"]},
            "c.toml: units[0].locked_with: 40k-10e does not read locked_with (only "
            "40k-assault-4e does); remove it",
        ),
        (
            {("action", "table_edge"): "bottom"},
            "c.toml: action.table_edge: a charge does not use table_edge (only a fall back "
            "does); remove table_edge",
        ),
        (
            {("action", "fought_by"): ["B"]},
            "c.toml: action.fought_by: a charge does not use fought_by (only a fall back "
            "does); remove fought_by",
        ),
    ],
)
def test_a_40k_scenario_takes_no_coerced_value_and_no_unused_key(
    changes: dict[tuple[Any, ...], Any], line: str
) -> None:
    """Each coercion pydantic would make, and each key the move would ignore, is refused."""
    assert _line(_changed(FORTY_K, changes)) == line


def test_a_whole_number_written_with_a_point_is_still_a_roll() -> None:
    """roll = 7.0 reads as 7 (a dice total written as a float), 7.5 is refused."""
    scenario = validate_document(Scenario, _changed(FORTY_K, {("action", "roll"): 7.0}), "c")
    assert scenario.action.roll == 7 and isinstance(scenario.action.roll, int)


def test_a_fall_back_has_no_targets() -> None:
    """A fall back's targets would be ignored: refused, pointing at fought_by."""
    document = _changed(
        FORTY_K,
        {
            ("ruleset",): "40k-assault-4e",
            ("action",): {"kind": "fall-back", "unit": "A", "targets": ["B"]},
        },
    )
    document["action"]["table_edge"] = "bottom"
    assert _line(document) == (
        "c.toml: action.targets: a fall back has no targets: it moves away from every enemy "
        "unit; remove targets (fought_by names the enemy units that fought it)"
    )


def test_a_4e_charge_rolls_no_dice() -> None:
    """A 40k-assault-4e charge moves the fixed assault range: a roll would be ignored."""
    document = _changed(FORTY_K, {("ruleset",): "40k-assault-4e"})
    assert _line(document) == (
        "c.toml: action.roll: a 40k-assault-4e charge rolls no dice: each model moves its "
        "unit's assault range (6\", or the unit's assault_range_in); remove roll"
    )


@pytest.mark.parametrize(
    ("changes", "line"),
    [
        (
            {("units", 0, "ranks"): True},
            "c.toml: units[0].ranks: expected a whole number (how many ranks deep it is), "
            "got true; write e.g. ranks = 4",
        ),
        (
            {("units", 0, "files"): "5"},
            "c.toml: units[0].files: expected a whole number (how many models wide its front "
            'rank is), got the text "5"; write e.g. files = 5',
        ),
        (
            {("units", 0, "facing"): -1e300},
            "c.toml: units[0].facing: expected a number of degrees from -360 to 360 (the "
            "direction its front faces, from +x toward +y), got the number -1e+300; "
            "write e.g. facing = 90.0",
        ),
        (
            {("action", "fled"): "no"},
            "c.toml: action.fled: expected true or false (the target fled out of reach "
            "(whfb-6e, tow): the charge fails and may be redirected once to another enemy unit "
            'in reach), got the text "no"; write e.g. fled = false',
        ),
        (
            {("action", "roll"): ..., ("action", "rolls"): {"A": 6}},
            "c.toml: action.rolls: rolls gives each block of a combined charge its Charge "
            "Range; this is a single charge by 'A'; write roll = 6 instead",
        ),
        (
            {("action", "roll"): -1},
            "c.toml: action.roll: a Charge Range is 0 to 36 inches, got -1; give the dice total "
            "plus 4 plus the Charge Speed, e.g. roll = 9",
        ),
        (
            {
                ("ruleset",): "whfb-6e",
                ("units", 0, "profile"): {"movement": 4},
                ("action", "roll"): -1,
            },
            "c.toml: action.roll: whfb-6e rolls no dice: the charge move is twice the Move; "
            "remove roll",
        ),
        (
            {("ruleset",): "tow", ("units", 0, "profile"): {"movement": 4}, ("action", "roll"): -1},
            "c.toml: action.roll: a tow Charge Range is Movement 4 + the higher of 2D6, so 5 to "
            "10; got -1; give the Movement plus the higher die, e.g. roll = 8",
        ),
    ],
)
def test_a_block_charge_in_its_rulesets_own_words(
    changes: dict[tuple[Any, ...], Any], line: str
) -> None:
    """Coercions and ignored keys are refused; a negative roll gets its own edition's words."""
    assert _line(_changed(BLOCKS, changes), RankAndFileScenario) == line


def test_a_4e_reinforcement_locked_in_no_combat_is_refused() -> None:
    """No locked_with and no model in base contact: no reinforcement move to make."""
    from chargeopt.models import IneligibleMoveError
    from chargeopt.solver.assault_4e.reinforce import solve_reinforcement
    from chargeopt.solver.options import SolveOptions

    document = _changed(REINFORCE_4E, {("units", 0, "locked_with"): ...})
    for model in document["units"][1]["models"]:
        model["x"] += 10
    scenario = validate_document(Scenario, document, "r.toml")
    with pytest.raises(IneligibleMoveError) as caught:
        solve_reinforcement(scenario, SolveOptions(time_limit_s=5))
    assert str(caught.value) == (
        "unit 'A' cannot make a reinforcement (pile-in) move: it is locked in no combat (none "
        "of its models is in base contact with an enemy model and its locked_with is empty); "
        'if it is locked, name the enemy units in its locked_with, e.g. locked_with = ["B"]'
    )


def _number_leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    """Every number (not true/false) in a parsed document, with its path."""
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in _number_leaves(v, (*path, k))]
    if isinstance(value, list):
        return [leaf for i, v in enumerate(value) for leaf in _number_leaves(v, (*path, i))]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return [(path, value)]
    return []


FALL_BACK_4E = _read("assault-4e-v1/e1-just-escapes.toml")


@pytest.mark.parametrize(
    ("roll", "fast", "line"),
    [
        (1, False, "a fall back rolls 2D6, so its roll is 2 to 12, not 1; give the dice total"),
        (
            13,
            False,
            "a fall back rolls 2D6, so its roll is 2 to 12, not 13; give the dice total, or "
            "fast = true if it falls back 3D6",
        ),
        (
            2,
            True,
            "a fall back rolls 3D6 (fast), so its roll is 3 to 18, not 2; give the dice total",
        ),
        (
            19,
            True,
            "a fall back rolls 3D6 (fast), so its roll is 3 to 18, not 19; give the dice total",
        ),
    ],
)
def test_a_fall_back_roll_is_one_its_dice_can_show(roll: int, fast: bool, line: str) -> None:
    """2D6 shows 2-12 and 3D6 3-18: any other total is a typing error, refused."""
    document = _changed(FALL_BACK_4E, {("action", "roll"): roll, ("action", "fast"): fast})
    assert _line(document, file="f.toml") == f"f.toml: action.roll: {line}"
    for legal in (3, 18) if fast else (2, 12):
        validate_document(Scenario, _changed(document, {("action", "roll"): legal}), "f.toml")


def test_a_4e_reinforcement_refuses_charged() -> None:
    """`charged` makes a 9th/10th-edition unit eligible to pile in; a 4e reinforcement reads
    locked_with instead, so the key is refused rather than ignored."""
    document = _changed(REINFORCE_4E, {("action", "charged"): True})
    assert _line(document, file="r.toml") == (
        "r.toml: action.charged: a 40k-assault-4e pile-in does not read charged (only a "
        "9th/10th-edition pile in does: a unit that charged this turn may pile in); "
        "remove charged"
    )


@pytest.mark.parametrize(
    ("document", "model"),
    [(REINFORCE_4E, Scenario), (BLOCKS, RankAndFileScenario), (FORTY_K, Scenario)],
    ids=["4e-reinforcement", "t9a-blocks", "10e-charge"],
)
@pytest.mark.parametrize("spelling", [str, lambda v: v != 0], ids=["as-text", "as-true-false"])
def test_no_number_is_read_from_a_text_or_a_truth_value(
    document: dict[str, Any], model: Any, spelling: Any
) -> None:
    """Every number of a valid document, written as text ("12.74") or as true/false, is
    refused with one line naming its own key path."""
    validate_document(model, document, "c.toml")
    leaves = _number_leaves(document)
    assert len(leaves) >= 7
    for path, value in leaves:
        line = _line(_changed(document, {path: spelling(value)}), model)
        key = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
        assert line.startswith(f"c.toml: {key}: "), line
