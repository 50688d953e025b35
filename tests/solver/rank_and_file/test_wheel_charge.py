"""WHFB 6e and TOW one-wheel charges against hand-computed figures. B is the usual target:
front along y = 10 from x 25.08 to 30 (five 25 mm files, 0.984" each), facing down the table.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from repo_paths import REPO_ROOT
from t9a_builders import INCH_25MM, block, table

from chargeopt.geometry.checker.rank_and_file import check_blocks
from chargeopt.geometry.rank_and_file.moves import wheel_travel
from chargeopt.models import RankAndFileScenario, ScenarioError, Status
from chargeopt.models.loading import validate_document
from chargeopt.solver import load_scenario, solve
from chargeopt.solver.bench.suite import load_suite
from chargeopt.solver.rank_and_file.odds import chance_of_charge, chance_of_high_d6

B = block("B", "defender", 30.0, 10.0, 90.0)
W = 5 * INCH_25MM


def charger(x: float, y: float, facing: float = -90.0, movement: float = 4, **extra):
    return block("A", "attacker", x, y, facing, profile={"movement": movement}, **extra)


def moves(result) -> list[tuple[str, float]]:
    return [
        (s["move"], s.get("distance_in", s.get("angle_deg")))
        for s in result.blocks[0]["path"]
        if s["move"] != "align"
    ]


def test_straight_charge_needs_no_wheel() -> None:
    """6" straight ahead, 2 x Move 4 = 8": forward 6, flush on arrival, 5 + 5 in contact; the
    least Move that succeeds is 3 (6" / 2), certain."""
    result = solve(table([charger(25.08, 16.0), B], ruleset="whfb-6e"))
    assert result.status == Status.OPTIMAL
    assert moves(result) == [("forward", 6.0)]
    assert result.objective["models_in_contact_both_sides"] == 10
    block = result.blocks[0]
    assert (block["charge_move_in"], block["moved_in"], block["wheel_metric"]) == (8.0, 6.0, "arc")
    assert (result.min_roll, result.success_probability) == (3, 1.0)


def test_a_wheel_brings_the_whole_front() -> None:
    """3" off to the side, straight in touches with 2 files a side (1.92" of overlap); one
    wheel to the left, forward, and closing the door gives all 5 + 5."""
    result = solve(table([charger(28.08, 16.0), B], ruleset="whfb-6e"))
    assert result.status == Status.OPTIMAL
    assert result.objective["models_in_contact_both_sides"] == 10
    wheel = [s for s in result.blocks[0]["path"] if s["move"] == "wheel"]
    assert len(wheel) == 1 and wheel[0]["angle_deg"] < 0 and wheel[0]["pivot"] == "front-left"
    assert result.blocks[0]["moved_in"] <= 8.0


def test_a_charge_that_reaches_only_without_the_wheel_does_not_wheel() -> None:
    """The same table with Move 3: 2 x 3 = 6" is exactly the straight distance, so the wheel
    would fail the charge: straight in, 2 + 2 in contact, short of the 10 a flush slide allows.
    Proven over every path (issue 41): the nearest slide with more, 3 + 3 with the corners
    touching (0.047" to the left), needs a one-wheel path of 6.024" > 6"."""
    result = solve(table([charger(28.08, 16.0, movement=3), B], ruleset="whfb-6e"))
    assert result.status == Status.OPTIMAL
    assert moves(result) == [("forward", 6.0)]
    assert result.objective["target_models_in_contact"] == 2
    assert result.objective["models_in_contact"] == 2
    assert result.bound["models_in_contact_both_sides"] == 4
    assert result.blocks[0]["most_possible"] == [5, 5]
    assert 'at least 6.024"' in (result.proof or "")


@pytest.mark.parametrize(("metric", "both"), [("wheel-arc", 10), ("wheel-chord", 10)])
def test_the_chord_fits_where_the_arc_does_not(metric: str, both: int) -> None:
    """B's front faces left at x = 30 beside A: the whole front needs a wheel of about 80
    degrees. Both fit (issue 41's w4): a 79.03-degree wheel, 6.789" of arc (6.3" of chord),
    and 5.173" forward, 11.961" of 12", then the door closes on the whole front. Each wheel's
    travel is the metric's formula; the chord is never longer."""
    units = [charger(20.0, 20.0, movement=6), block("B", "defender", 30.0, 20.0, 180.0)]
    result = solve(table(units, ruleset=["whfb-6e", metric]))
    assert result.objective["models_in_contact_both_sides"] == both
    assert result.status == (Status.OPTIMAL if both == 10 else Status.FEASIBLE)
    (wheel,) = [s for s in result.blocks[0]["path"] if s["move"] == "wheel"]
    angle = math.radians(abs(wheel["angle_deg"]))
    travel = W * angle if metric == "wheel-arc" else 2 * W * math.sin(angle / 2)
    assert wheel["travel_in"] == pytest.approx(travel, abs=1e-3)
    assert result.blocks[0]["moved_in"] <= 12.0 + 1e-9


def test_wheel_travel_formulas() -> None:
    """A quarter wheel of a 5-wide 25 mm front: arc W pi / 2 = 7.730", chord W sqrt 2 = 6.959"."""
    assert wheel_travel(W, 90, "arc") == pytest.approx(7.7302, abs=1e-4)
    assert wheel_travel(W, 90, "chord") == pytest.approx(6.9597, abs=1e-4)


def test_a_charger_straddling_two_arcs() -> None:
    """A (4 files, facing -x) stands beside B's front-left corner across its 45-degree line:
    3 of its 4 front-rank models (y 12.71, 11.73, 10.74 > 10.5) are in B's front arc, but most of
    the block (behind them, to the right) is in the left arc. 6e goes by the block: left
    flank; TOW by the front rank: front."""
    a = charger(31.0, 13.2, 180.0, files=4)
    six = solve(table([a, B], ruleset="whfb-6e"))
    tow = solve(table([a, B], ruleset="tow", roll=9))
    assert six.blocks[0]["target_facing"] == "left"
    assert tow.blocks[0]["target_facing"] == "front"
    assert not six.violations and not tow.violations


def test_a_failed_charge_moves_the_normal_move() -> None:
    """20" away with Move 4: 8" is short; the failed charge moves 4" straight at B."""
    scenario = table([charger(25.08, 30.0), B], ruleset="whfb-6e")
    result = solve(scenario)
    block = result.blocks[0]
    assert result.status == Status.INFEASIBLE and block["outcome"] == "fails"
    assert (block["x"], block["y"], block["facing"]) == (25.08, 26.0, -90.0)
    assert moves(result) == [("forward", 4.0)]
    assert result.min_roll == 10  # 20" / 2
    assert check_blocks(scenario, result) == []


def test_a_redirect_when_the_target_fled() -> None:
    """B fled out of reach; C stands where B stood: the charge is redirected (once) to C."""
    units = [charger(25.08, 16.0), block("B", "defender", 40.0, 40.0, 90.0)]
    units.append(block("C", "defender", 30.0, 10.0, 90.0))
    scenario = table(units, ruleset="whfb-6e", fled=True)
    result = solve(scenario)
    assert result.status == Status.OPTIMAL
    assert result.action.targets == ("C",)
    assert result.blocks[0]["redirected_from"] == "B"
    assert moves(result) == [("forward", 6.0)]
    assert check_blocks(scenario, result) == []


@pytest.mark.parametrize(
    ("die", "chance"),
    [
        (1, Fraction(1)),
        (2, Fraction(35, 36)),
        (3, Fraction(8, 9)),
        (4, Fraction(3, 4)),
        (5, Fraction(5, 9)),
        (6, Fraction(11, 36)),
        (7, Fraction(0)),
    ],
)
def test_tow_odds_are_the_higher_of_two_dice(die: int, chance: Fraction) -> None:
    """P(higher of 2D6 >= k) = 1 - ((k - 1) / 6)^2; Movement 4 needs the die at range - 4."""
    assert chance_of_high_d6(die) == chance
    assert chance_of_charge("move-plus-high-d6", 4, 4 + die) == chance


def test_tow_minimum_roll_and_its_chance() -> None:
    """6" away, Movement 4: the least Charge Range is 6 (a 2 on the higher die), 35/36."""
    result = solve(table([charger(25.08, 16.0), B], ruleset="tow", roll=8))
    assert result.status == Status.OPTIMAL
    assert result.min_roll == 6
    assert result.blocks[0]["chance_fraction"] == "35/36"
    short = solve(table([charger(25.08, 16.0), B], ruleset="tow", roll=5))
    assert short.status == Status.INFEASIBLE and "short" in short.proof


def _document(ruleset: str, profile: dict, **action) -> dict:
    return {
        "ruleset": ruleset,
        "board": {"width": 48.0, "height": 48.0},
        "units": [
            {**charger(25.08, 16.0), "profile": profile},
            B,
        ],
        "action": {"kind": "charge", "unit": "A", "targets": ["B"], **action},
    }


@pytest.mark.parametrize(
    ("ruleset", "profile", "action", "problem"),
    [
        (
            "whfb-6e",
            {},
            {},
            ("units[0].profile.movement", "whfb-6e needs the charging unit's Move"),
        ),
        (
            "whfb-6e",
            {"movement": 4},
            {"roll": 7},
            ("action.roll", "whfb-6e rolls no dice: the charge move is twice the Move"),
        ),
        (
            "tow",
            {"movement": 4},
            {"roll": 12},
            (
                "action.roll",
                "a tow Charge Range is Movement 4 + the higher of 2D6, so 5 to 10; got 12",
            ),
        ),
    ],
)
def test_bad_input_names_the_key(ruleset, profile, action, problem) -> None:
    with pytest.raises(ScenarioError) as caught:
        validate_document(RankAndFileScenario, _document(ruleset, profile, **action), "t.json")
    assert caught.value.problems[0][:2] == problem


def test_the_wheel_suite_is_frozen_and_its_known_answers_hold() -> None:
    """rank-and-file-wheel-v1: hashes match, every file listed; each layout's status (and the
    models in contact where an optimum is known) is what the manifest says; all checked."""
    folder = REPO_ROOT / "benchmarks" / "rank-and-file-wheel-v1"
    suite = load_suite(folder)
    assert sorted(lay.file for lay in suite.layouts) == sorted(
        p.name for p in folder.glob("*.toml") if p.name != "suite.toml"
    )
    for lay in suite.layouts:
        scenario = load_scenario(lay.path)
        result = solve(scenario)
        assert not result.violations, lay.file
        if lay.known == "optimal":
            assert result.status == Status.OPTIMAL, lay.file
            assert result.objective["models_in_contact_both_sides"] == lay.base_contact
        elif lay.known == "infeasible":
            assert result.status == Status.INFEASIBLE, lay.file
