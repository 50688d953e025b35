"""The human summary of a result, on results written by hand."""

from __future__ import annotations

from chargeopt.models import Placement, Result, ResultAction, Status
from chargeopt.solver.bounds.bound_words import names
from chargeopt.solver.interface.summary import count, first_sentence, summarise_result

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
        min_roll_proven=True,
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
        "  (?: best found, not proven best anywhere on the table)",
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


def _engagement(engaged: int, bound: int, stats: dict[str, object]) -> list[str]:
    """The count lines of a five-model charge with `engaged` models in engagement range of at
    most `bound`, one in base contact (the straight line proves that)."""
    result = Result(
        ruleset=("40k-10e",),
        action=CHARGE,
        status=Status.OPTIMAL if engaged == bound else Status.FEASIBLE,
        objective={"base_contact": 1, "engaged": engaged, "movement_in": 9.5},
        bound={"base_contact": 1, "engaged": bound},
        placements=tuple(Placement(model=f"A{k}", x=10, y=2 * k, moved=1.0) for k in range(1, 6)),
        stats={"straight_line_bound": {"base_contact": 1, "engaged": 5}, **stats},
    )
    lines = summarise_result(result).splitlines()
    at = next(k for k, line in enumerate(lines) if line.startswith("Engagement range:"))
    return lines[at : at + 2]


def test_why_no_more_names_the_models_that_cannot_reach_engagement_range() -> None:
    """Two of five engaged, proven: A1, A3 and A4 reach no target's engagement range (A3 by
    the straight line, A1 and A4 only along legal paths); the names follow the unit's order."""
    beyond = {"straight_line": ["A3"], "legal_paths": ["A4", "A1", "A3"]}
    lines = _engagement(2, 2, {"beyond_engagement_reach": beyond})
    assert lines[1] == (
        "  Why no more: only 2 models can reach engagement range of a target model with the "
        "roll (in a straight line, or along a legal path); A1, A3 and A4 cannot"
    )


def test_why_at_most_says_the_bound_is_neither_found_nor_ruled_out() -> None:
    """Two engaged of at most three: the reason for three, and that three is still open."""
    lines = _engagement(2, 3, {"beyond_engagement_reach": {"straight_line": ["A4", "A5"]}})
    assert lines[1] == (
        "  Why at most 3: only 3 models can reach engagement range of a target model with the "
        "roll (in a straight line, or along a legal path); A4 and A5 cannot; a placement "
        "with 3 is neither found nor ruled out"
    )


def test_ring_packing_of_the_bands_explains_engagement_when_all_can_reach() -> None:
    """Everyone reaches, but the band packing proves three: it is named; with no ceiling
    that says three, no reason is given."""
    packed = {"ring_packing_bound": {"engaged": 3}, "beyond_engagement_reach": {}}
    assert _engagement(3, 3, packed)[1].startswith(
        "  Why no more: no more than 3 bases fit, no two overlapping, within engagement range"
    )
    assert _engagement(3, 3, {})[1].startswith('  A1 moves 1.00" to')


def test_names_run_consecutive_models_together() -> None:
    """Runs of three or more read `A20 to A30`; pairs stay apart; past eight pieces the rest
    are counted in models."""
    assert names(["A11", "A12", *[f"A{k}" for k in range(20, 31)]]) == "A11, A12 and A20 to A30"
    assert names(["A1"]) == "A1"
    assert names(["Sgt", "A2", "A3", "A4", "B7"]) == "Sgt, A2 to A4 and B7"
    scattered = [f"A{k}" for k in range(1, 40, 2)]
    assert names(scattered) == "A1, A3, A5, A7, A9, A11, A13 and 13 more"


def _minimum_line(**fields: object) -> str:
    """The minimum-roll line of a 2D6 charge whose minimum found is 4."""
    result = Result(
        ruleset=("40k-10e",),
        action=CHARGE,
        status=Status.FEASIBLE,
        min_roll=4,
        success_probability=0.9167,
        success_probability_reroll=0.9931,
        **fields,
    )
    return summarise_result(result).splitlines()[1]


def test_minimum_roll_cut_short_gives_its_range() -> None:
    """Not worked out (a time cut leaves `min_roll_proven` null): the range from the smallest
    roll not ruled out (the solver's straight line, else the dice's least) to the minimum."""
    found = "Minimum roll 4: 91.7% on 2D6, 99.3% with a re-roll"
    assert _minimum_line(stats={"min_roll_lower": 3}) == (
        f"{found} (not proven: the minimum is 3 to 4)"
    )
    assert _minimum_line() == f"{found} (not proven: the minimum is 2 to 4)"
    assert _minimum_line(min_roll_proven=False, min_roll_at_least=3) == (
        f"{found} (not proven: the minimum is 3 to 4)"
    )
    assert _minimum_line(min_roll_proven=True, min_roll_at_least=4) == found
    assert _minimum_line(stats={"min_roll_lower": 4}) == found
