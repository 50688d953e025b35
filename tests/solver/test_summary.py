"""The human summary of a result, on results written by hand."""

from __future__ import annotations

from chargeopt.models import Placement, Result, ResultAction, Status
from chargeopt.solver.summary import count, first_sentence, summarise_result

CHARGE = ResultAction(kind="charge", unit="A", targets=("B",), roll=6)


def test_counts_print_as_whole_numbers() -> None:
    """3.0 prints as 3, 2.5 as 2.5, a missing value as ?."""
    assert (count(3.0), count(3), count(2.5), count(None)) == ("3", "3", "2.5", "?")


def test_first_sentence_ignores_decimal_points() -> None:
    """A full stop inside 7.00 does not end the sentence."""
    assert first_sentence('The roll allows 7.00" only. Then more.') == 'The roll allows 7.00" only.'


def test_feasible_summary_with_roll_table_and_models() -> None:
    """Every line of a feasible result: headline, chances, table, counts, models, time."""
    result = Result(
        ruleset=("40k-10e",),
        action=CHARGE,
        status=Status.FEASIBLE,
        min_roll=6,
        success_probability=0.7222,
        success_probability_reroll=0.9228,
        rolls=(
            {"roll": 6, "base_contact": 1, "proven": True},
            {"roll": 7, "base_contact": 2, "proven": False},
        ),
        objective={"base_contact": 1.0, "engaged": 2.0, "movement_in": 9.5},
        bound={"base_contact": 2.0, "engaged": 2.0},
        placements=(
            Placement(model="A1", x=10, y=5, moved=5.25, contact=("B1",), engaged=("B",)),
            Placement(model="A2", x=10, y=6.5, z=3, moved=4.25, engaged=("B",)),
        ),
        stats={"seconds": 1.234, "candidates": 800},
    )
    assert summarise_result(result).splitlines() == [
        "FEASIBLE: A charges B with a roll of 6 (legal; not proven best anywhere on the table)",
        "Minimum roll 6: 72.2% on 2D6, 92.3% with a re-roll",
        "  roll           6   7",
        "  2D6 chance   72% 58%",
        "  base contact   1  2?",
        "  (?: best found before time ran out, not proven)",
        "Base contact: 1 of 2 models (most possible: 2)",
        'Engagement range: 2 of 2 models (most possible: 2), 9.50" moved in all',
        '  A1 moves 5.25" to (10.00, 5.00): base contact with B1',
        '  A2 moves 4.25" to (10.00, 6.50, z 3): engagement range of B',
        "Solved in 1.23 s over 800 candidate positions",
    ]


def test_unknown_result_with_violations_lists_them() -> None:
    """A placement the checker rejected is shown, said to be rejected, with its violations."""
    result = Result(
        action=CHARGE,
        status=Status.UNKNOWN,
        placements=(Placement(model="A1", x=1, y=1, moved=7.0),),
        violations=(
            {"kind": "moved_too_far", "message": "model 'A1' moves 7.00\", more than 6\""},
        ),
    )
    lines = summarise_result(result).splitlines()
    assert lines[0] == (
        "UNKNOWN: A charges B with a roll of 6? The independent checker rejected the solver's "
        "placement"
    )
    assert lines[-2:] == [
        "The independent checker found 1 violation(s):",
        "  - [moved_too_far] model 'A1' moves 7.00\", more than 6\"",
    ]


def test_unknown_without_placement_blames_the_time_limit() -> None:
    """Nothing found and nothing proven: the headline says the time ran out."""
    result = Result(action=CHARGE, status=Status.UNKNOWN)
    assert summarise_result(result).splitlines() == [
        "UNKNOWN: A charges B with a roll of 6? No answer within the time limit",
        "Minimum roll: none found up to 12",
    ]


def _proven(contact: int, stats: dict[str, object]) -> list[str]:
    """The summary of a two-model charge with `contact` in base contact, proven best."""
    result = Result(
        ruleset=("40k-10e",),
        action=CHARGE,
        status=Status.OPTIMAL,
        objective={"base_contact": contact, "engaged": 2, "movement_in": 9.5},
        bound={"base_contact": contact, "engaged": 2},
        placements=(
            Placement(model="A1", x=10, y=5, moved=5.25, contact=("B1",), engaged=("B",)),
            Placement(model="A2", x=10, y=6.5, moved=4.25, engaged=("B",)),
        ),
        stats={"seconds": 1.0, "candidates": 10, "bound_scope": "continuous", **stats},
    )
    lines = summarise_result(result).splitlines()
    at = next(k for k, line in enumerate(lines) if line.startswith("Base contact:"))
    return lines[at:]


def test_why_no_more_names_the_ceiling_that_proves_base_contact() -> None:
    """One of two touching, proven: by the straight line where it says 1, else by the ring
    packing where that says 1; no reason where both models touch or nothing proves it."""
    straight = _proven(1, {"straight_line_bound": {"base_contact": 1, "engaged": 2}})
    assert straight[0] == "Base contact: 1 of 2 models (most possible: 1)"
    assert straight[1].startswith("  Why no more: no more than 1 model can touch a target model:")
    ring = _proven(
        1,
        {
            "straight_line_bound": {"base_contact": 2, "engaged": 2},
            "ring_packing_bound": {"base_contact": 1, "engaged": 2},
        },
    )
    assert ring[1].startswith("  Why no more: no more than 1 base fits, no two overlapping,")
    assert ring[1].endswith("(ring packing)")
    unproven = _proven(1, {"straight_line_bound": {"base_contact": 2, "engaged": 2}})
    assert unproven[1].startswith("Engagement range:")
    everyone = _proven(2, {"straight_line_bound": {"base_contact": 2, "engaged": 2}})
    assert not any("Why no more" in line for line in everyone)
