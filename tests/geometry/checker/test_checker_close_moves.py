"""The checker on pile in, consolidation and heroic intervention: one hand-built illegal
placement per violation kind, with the models and distances worked out by hand, and legal
placements that give []. 32mm bases (radius R) and 40mm objective markers throughout."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from builders import make_scenario
from click.testing import CliRunner

from chargeopt.geometry.checker import VIOLATION_KINDS, check_placement
from chargeopt.geometry.checker.close_moves import CLOSE_MOVE_KINDS
from chargeopt.models import Placement, Scenario, UnsupportedRuleError, Violation
from chargeopt.solver.interface.cli import main

R = 16 / 25.4  # radius of a 32mm base
D = 2 * R  # centre distance of two touching 32mm bases
OBJ_R = 20 / 25.4  # radius of a 40mm objective marker
TOUCH = 0.002  # a gap within the 0.005" base-contact tolerance


def scenario(
    attackers: list[tuple[str, float, float]],
    defenders: dict[str, list[tuple[str, float, float]]],
    *,
    kind: str = "pile-in",
    ruleset: str = "40k-9e",
    charged: bool | None = None,
    keywords: tuple[str, ...] = ("INFANTRY",),
    objectives: list[dict[str, Any]] = (),
) -> Scenario:
    """Unit A (attacker) makes the move (a pile in as if it charged, unless `charged` says);
    one defender unit per entry of `defenders`. Models
    are written (id, x, y) for the reader; the ids are the builder's (A1, A2, ..., B1, ...)."""
    s = make_scenario(
        [(x, y) for _, x, y in attackers],
        {u: [(x, y) for _, x, y in models] for u, models in defenders.items()},
        ruleset=ruleset,
        keywords=keywords,
        action={
            "kind": kind,
            "unit": "A",
            "charged": kind == "pile-in" if charged is None else charged,
        },
        objectives=list(objectives),
    )
    written = [m for m, _, _ in attackers] + [m for ms in defenders.values() for m, _, _ in ms]
    assert [m.id for u in s.units for m in u.models] == written
    return s


def at(model: str, x: float, y: float, **extra: Any) -> Placement:
    return Placement(model=model, x=x, y=y, **extra)


def placed(s: Scenario, *moved: Placement) -> list[Placement]:
    """Every model of the acting unit: the given placements, the others where they start."""
    given = {p.model: p for p in moved}
    return [given.get(m.id) or at(m.id, m.x, m.y) for m in s.acting_unit.models]


def one(found: list[Violation], kind: str) -> Violation:
    """The single violation of a kind (and no other kinds)."""
    assert [v.kind for v in found] == [kind], found
    return found[0]


PAIR = [("A1", 10.0, 10.0), ("A2", 10.0, 11.5)]
FACING_B1 = {"B": [("B1", 13.0, 10.0)]}
CONTACT_X = 13.0 - D - 0.001  # A1 touching B1 at (13, 10) from the left


@pytest.mark.parametrize("ruleset", ["40k-9e", "40k-10e"])
def test_pile_into_base_contact_is_legal(ruleset: str) -> None:
    """Both models pile into base contact with B1 (A2 from below-left, 70 degrees round)."""
    s = scenario(PAIR, FACING_B1, ruleset=ruleset)
    angle = math.radians(70)
    a2 = (13.0 - (D + 0.001) * math.cos(angle), 10.0 + (D + 0.001) * math.sin(angle))
    placed = [
        at("A1", CONTACT_X, 10.0, contact=("B1",), engaged=("B",), fights=("B",)),
        at("A2", *a2, contact=("B1",), engaged=("B",), fights=("B",)),
    ]
    assert check_placement(s, placed) == []


def test_staying_put_is_legal_in_the_ninth() -> None:
    """9th: each model *can* move; a unit that stays where it is breaks nothing."""
    s = scenario(PAIR, FACING_B1)
    assert check_placement(s, [at("A1", 10.0, 10.0), at("A2", 10.0, 11.5)]) == []


def test_a_model_four_inches_away_only_gets_closer() -> None:
    """10th: A1 is 3.24" from B1 (centres 4.5" apart), out of reach of base contact: ending
    0.74" from it, in engagement range, is legal."""
    s = scenario([("A1", 10.0, 10.0)], {"B": [("B1", 14.5, 10.0)]}, ruleset="40k-10e")
    assert check_placement(s, [at("A1", 12.5, 10.0)]) == []


def test_heroic_intervention_is_legal() -> None:
    """9th: a CHARACTER 2.24" from B1 moves 1.5" toward it."""
    s = scenario(
        [("A1", 10.0, 10.0)],
        {"B": [("B1", 13.5, 10.0)]},
        kind="heroic-intervention",
        keywords=("CHARACTER", "INFANTRY"),
    )
    assert check_placement(s, [at("A1", 11.5, 10.0)]) == []


def test_moved_from_contact() -> None:
    """A1 starts touching B1 and steps 0.5" back."""
    s = scenario([("A1", 13.0 - D - TOUCH, 10.0)], FACING_B1)
    v = one(check_placement(s, [at("A1", 13.0 - D - TOUCH - 0.5, 10.0)]), "moved_from_contact")
    assert v.models == ("A1", "B1")
    assert v.distance_in == pytest.approx(0.5)
    assert v.limit_in == 0.0


def test_moved_too_far() -> None:
    """A1 piles in 3.2" straight toward B1 (no obstacle): 0.2" over the 3" limit."""
    s = scenario([("A1", 10.0, 10.0)], {"B": [("B1", 16.0, 10.0)]})
    v = one(check_placement(s, [at("A1", 13.2, 10.0)]), "moved_too_far")
    assert v.models == ("A1",)
    assert v.distance_in == pytest.approx(3.2, abs=1e-6)
    assert v.limit_in == 3.0
    assert 'more than the 3" of a pile-in move' in v.message


def test_sliding_sideways_is_not_closer() -> None:
    """A1 slides 1" sideways: from 3 - D = 1.740" of B1 to sqrt(10) - D = 1.902"."""
    s = scenario([("A1", 10.0, 10.0)], FACING_B1)
    v = one(check_placement(s, [at("A1", 10.0, 11.0)]), "not_closer_to_closest")
    assert v.models == ("A1", "B1")
    assert v.distance_in == pytest.approx(math.sqrt(10) - D)
    assert v.limit_in == pytest.approx(3 - D)


def test_closer_to_another_enemy_is_not_enough() -> None:
    """A1 ends 1" closer to B2 (4" below it) but further from B1, the closest before."""
    s = scenario([("A1", 10.0, 10.0)], {"B": [("B1", 13.0, 10.0), ("B2", 10.0, 14.0)]})
    v = one(check_placement(s, [at("A1", 10.0, 11.0)]), "not_closer_to_closest")
    assert v.models == ("A1", "B1")


def test_not_eligible_to_pile_in() -> None:
    """A unit that did not charge and is 1.740" from the enemy may not pile in."""
    s = scenario([("A1", 10.0, 10.0)], FACING_B1, charged=False)
    v = one(check_placement(s, placed(s)), "not_eligible")
    assert v.models == ("A1", "B1")
    assert v.distance_in == pytest.approx(3 - D)
    assert v.limit_in == 1.0
    assert "did not charge" in v.message


@pytest.mark.parametrize(
    ("keywords", "bx", "models", "distance", "why"),
    [
        (("INFANTRY",), 13.0, ("A1",), None, "it is not a CHARACTER unit"),
        (("CHARACTER",), 15.0, ("A1", "B1"), 5 - D, 'not within 3" horizontally'),
        (("CHARACTER",), 10.0 + D + 0.5, ("A1", "B1"), 0.5, "starts within engagement range"),
    ],
)
def test_not_eligible_to_intervene(
    keywords: tuple[str, ...], bx: float, models: tuple[str, ...], distance: float, why: str
) -> None:
    """9th heroic intervention: a CHARACTER unit out of engagement range but within 3"."""
    s = scenario(
        [("A1", 10.0, 10.0)],
        {"B": [("B1", bx, 10.0)]},
        kind="heroic-intervention",
        keywords=keywords,
    )
    v = one(check_placement(s, placed(s)), "not_eligible")
    assert v.models == models
    assert v.distance_in == (None if distance is None else pytest.approx(distance))
    assert why in v.message


def test_ends_unengaged_in_the_tenth() -> None:
    """10th: A1 moves 1" toward B1 but ends 2.740" away: a unit that cannot end within
    engagement range does not move."""
    s = scenario([("A1", 10.0, 10.0)], {"B": [("B1", 15.0, 10.0)]}, ruleset="40k-10e")
    v = one(check_placement(s, [at("A1", 11.0, 10.0)]), "ends_unengaged")
    assert v.models == ("A1", "B1")
    assert v.distance_in == pytest.approx(4 - D)
    assert v.limit_in == 1.0


def test_engagement_possible_in_the_tenth() -> None:
    """10th: the unit stays 1.740" from B1, though A1 could move 0.750" into its range."""
    s = scenario([("A1", 10.0, 10.0)], FACING_B1, ruleset="40k-10e")
    v = one(check_placement(s, placed(s)), "engagement_possible")
    assert v.models == ("A1", "B1")
    assert v.distance_in == pytest.approx(3 - D - 0.99, abs=1e-3)
    assert v.limit_in == 3.0


def test_contact_possible_in_the_tenth() -> None:
    """10th: A1 stops 0.740" short of B1, though base contact was 1.738" away."""
    s = scenario([("A1", 10.0, 10.0)], FACING_B1, ruleset="40k-10e")
    v = one(check_placement(s, [at("A1", 11.0, 10.0)]), "contact_possible")
    assert v.models == ("A1", "B1")
    assert v.distance_in == pytest.approx(3 - D - 0.0025, abs=1e-3)


def test_contact_out_of_reach_of_coherency_is_no_witness() -> None:
    """10th: A2 ends 0.740" from B1; touching it would put A2 2.478" from A1, out of
    coherency: no witness, no violation."""
    s = scenario(
        [("A1", 10.0, 10.0), ("A2", 12.0, 10.0)], {"B": [("B1", 15.0, 10.0)]}, ruleset="40k-10e"
    )
    assert check_placement(s, placed(s, at("A2", 13.0, 10.0))) == []


FAR_ENEMY = {"B": [("B1", 30.0, 10.0)]}
OBJECTIVE = [{"id": "O1", "x": 10.0, "y": 16.0}]


def consolidation(attackers: list[tuple[str, float, float]]) -> Scenario:
    return scenario(
        attackers, FAR_ENEMY, kind="consolidate", ruleset="40k-10e", objectives=OBJECTIVE
    )


def test_consolidating_onto_an_objective_is_legal() -> None:
    """10th: out of reach of the enemy, A1 moves 2" toward O1 and ends 2.583" from it."""
    assert check_placement(consolidation([("A1", 10.0, 10.0)]), [at("A1", 10.0, 12.0)]) == []


def test_objective_out_of_range() -> None:
    """10th: A1 moves 1" toward O1 but ends 5 - R - 0.787 = 3.583" from it, over 3"."""
    v = one(
        check_placement(consolidation([("A1", 10.0, 10.0)]), [at("A1", 10.0, 11.0)]),
        "objective_out_of_range",
    )
    assert v.models == ("A1",)
    assert v.distance_in == pytest.approx(5 - R - OBJ_R)
    assert v.limit_in == 3.0


def test_not_closer_to_objective() -> None:
    """10th: A1 reaches O1's range; A2 drifts 0.5" sideways, further from O1."""
    s = consolidation([("A1", 10.0, 10.0), ("A2", 11.5, 10.0)])
    v = one(
        check_placement(s, [at("A1", 10.0, 12.5), at("A2", 12.0, 10.0)]), "not_closer_to_objective"
    )
    assert v.models == ("A2",)
    assert v.distance_in == pytest.approx(math.hypot(2, 6) - R - OBJ_R)
    assert v.limit_in == pytest.approx(math.hypot(1.5, 6) - R - OBJ_R)


def test_consolidating_without_objectives_stays_put() -> None:
    """10th: with no objective marker, a unit out of reach of the enemy does not move."""
    s = scenario([("A1", 10.0, 10.0)], FAR_ENEMY, kind="consolidate", ruleset="40k-10e")
    v = one(check_placement(s, [at("A1", 11.0, 10.0)]), "ends_unengaged")
    assert "no objective marker" in v.message
    assert v.distance_in == pytest.approx(19 - D)


CLAIMS = {"B": [("B1", 13.0, 10.0)], "C": [("C1", 13.0, 20.0)]}


@pytest.mark.parametrize(
    ("claim", "kind"),
    [({"engaged": ("B", "C")}, "false_engaged"), ({"fights": ("B", "C")}, "false_fight")],
)
def test_false_claims(claim: dict[str, Any], kind: str) -> None:
    """A1 touches B1 and stays: it is engaged with B and can fight it, not C (8.82" away)."""
    s = scenario([("A1", 13.0 - D - TOUCH, 10.0)], CLAIMS)
    v = one(check_placement(s, [at("A1", 13.0 - D - TOUCH, 10.0, **claim)]), kind)
    assert v.models == ("A1", "C1")
    assert v.distance_in == pytest.approx(math.hypot(D + TOUCH, 10) - D)
    assert v.limit_in == 1.0


def test_claim_of_no_enemy_unit() -> None:
    """A claim naming a unit that is not an enemy says so."""
    s = scenario([("A1", 13.0 - D - TOUCH, 10.0)], CLAIMS)
    v = one(check_placement(s, [at("A1", 13.0 - D - TOUCH, 10.0, fights=("A",))]), "false_fight")
    assert v.message == "model 'A1' claims it can fight unit 'A', which is no enemy unit of it"


def test_heroic_intervention_in_the_tenth_is_unsupported() -> None:
    """10th: a heroic intervention is a stratagem that makes a charge move."""
    s = scenario([("A1", 10.0, 10.0)], FACING_B1, kind="heroic-intervention", ruleset="40k-10e")
    with pytest.raises(UnsupportedRuleError, match='write it as kind = "charge"'):
        check_placement(s, [])


def test_tokens_are_unsupported() -> None:
    """A pile in with WTC wall tokens is refused rather than judged by the wrong rules."""
    s = scenario([("A1", 10.0, 10.0)], FACING_B1, ruleset="40k-10e")
    with pytest.raises(UnsupportedRuleError, match="WTC wall tokens"):
        check_placement(s, [at("A1", 10.0, 10.0, token=True)])


def test_every_close_move_kind_is_exercised() -> None:
    """Every kind the close-move checker reports is a checker kind covered above."""
    assert set(CLOSE_MOVE_KINDS) <= set(VIOLATION_KINDS)
    assert set(CLOSE_MOVE_KINDS) == {
        "not_eligible",
        "moved_from_contact",
        "not_closer_to_closest",
        "ends_unengaged",
        "engagement_possible",
        "contact_possible",
        "objective_out_of_range",
        "not_closer_to_objective",
        "false_engaged",
        "false_fight",
    }


def test_command_line_checks_a_pile_in(tmp_path: Path) -> None:
    """`chargeopt check` judges a pile in without a roll: exit 0 when legal, 1 when not."""
    s = scenario([("A1", 10.0, 10.0)], FACING_B1, ruleset="40k-10e")
    scenario_file = tmp_path / "pile-in.json"
    scenario_file.write_text(s.model_dump_json(exclude_none=True))
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps({"placements": [{"model": "A1", "x": CONTACT_X, "y": 10.0}]}))
    bad.write_text(json.dumps({"placements": [{"model": "A1", "x": 10.0, "y": 11.0}]}))
    ok = CliRunner().invoke(main, ["check", str(scenario_file), str(good)])
    assert (ok.exit_code, ok.output) == (0, "OK: no violations (1 models checked)\n")
    broken = CliRunner().invoke(main, ["check", str(scenario_file), str(bad)])
    assert broken.exit_code == 1
    assert "[not_closer_to_closest] model 'A1'" in broken.output


def test_unreachable_inside_a_closed_ruin() -> None:
    """A VEHICLE cannot pass ruin walls: an end 2.98" away inside a walled square, 1.29" from
    B1 (closer than 1.74"), has no legal path."""
    square = [[11.0, 11.5], [13.0, 11.5], [13.0, 13.5], [11.0, 13.5], [11.0, 11.5]]
    wall = {"id": "ruin", "kind": "wall", "path": square, "thickness": 0.25, "height": 5.0}
    s = make_scenario(
        [(10.0, 10.0)],
        {"B": [(13.0, 10.0)]},
        ruleset="40k-9e",
        keywords=("VEHICLE",),
        terrain=[wall],
        action={"kind": "pile-in", "unit": "A", "charged": True},
    )
    v = one(check_placement(s, [at("A1", 11.9, 12.3)]), "unreachable")
    assert v.models == ("A1",)
    assert v.limit_in == 3.0
