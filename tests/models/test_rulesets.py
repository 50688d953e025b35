"""Ruleset parameter tables and how ruleset ids combine."""

from __future__ import annotations

import re

import pytest

from chargeopt.models import EDITIONS, KNOWN_RULESETS, UnsupportedRuleError, resolve_ruleset

SIZES = (1, 2, 5, 6, 7, 10)


EDITION_IDS = "40k-9e, 40k-10e, 40k-11e, 40k-assault-4e"


@pytest.mark.parametrize(
    ("edition", "neighbours"),
    [("40k-9e", (0, 1, 1, 2, 2, 2)), ("40k-10e", (0, 1, 1, 1, 2, 2))],
)
def test_coherency_neighbours_by_unit_size(edition: str, neighbours: tuple[int, ...]) -> None:
    """9th needs 2 neighbours from 6 models, 10th from 7; a lone model needs none."""
    rules = EDITIONS[edition]
    assert tuple(rules.coherency_neighbours(n) for n in SIZES) == neighbours


@pytest.mark.parametrize(
    ("ids", "edition", "wtc_walls"),
    [
        (("40k-9e",), "40k-9e", False),
        (("40k-10e",), "40k-10e", False),
        (("40k-10e", "wtc-walls"), "40k-10e", True),
        (("wtc-walls", "40k-10e"), "40k-10e", True),
    ],
)
def test_resolve_ruleset_combinations(ids: tuple[str, ...], edition: str, wtc_walls: bool) -> None:
    """One edition plus its modifiers resolves, keeping the ids as written."""
    rules = resolve_ruleset(ids)
    assert rules.edition == edition
    assert rules.wtc_walls is wtc_walls
    assert rules.ids == ids


def test_wtc_walls_changes_only_the_switch() -> None:
    """wtc-walls leaves every 10th edition number as it is."""
    plain = resolve_ruleset(("40k-10e",))
    walls = resolve_ruleset(("40k-10e", "wtc-walls"))
    assert walls.engagement_range_in == plain.engagement_range_in == 1.0
    assert walls.coherency_large_unit_from == plain.coherency_large_unit_from == 7
    assert (walls.wtc_walls, plain.wtc_walls) == (True, False)


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        (
            ("kow-3e",),
            "unsupported ruleset 'kow-3e'; choose from 40k-9e, 40k-10e, 40k-11e, 40k-assault-4e, "
            "wtc-walls, or t9a-2022, whfb-6e, tow for rank-and-file blocks",
        ),
        (
            ("t9a-2022",),
            "'t9a-2022' is a rank-and-file ruleset: its units are blocks (files, ranks, a "
            "rectangular base), read from a file as a rank-and-file scenario",
        ),
        (("40k-10e", "40k-9e"), f"name exactly one edition ({EDITION_IDS}), got 2"),
        (("wtc-walls",), f"name exactly one edition ({EDITION_IDS}), got 0"),
        (
            ("40k-9e", "wtc-walls"),
            "'wtc-walls' applies on top of 40k-10e, not '40k-9e'; "
            'write ruleset = ["40k-10e", "wtc-walls"] or drop \'wtc-walls\'',
        ),
    ],
)
def test_resolve_ruleset_errors(ids: tuple[str, ...], message: str) -> None:
    """Unknown ids, zero or two editions, and a modifier on the wrong edition are refused."""
    with pytest.raises(UnsupportedRuleError, match=f"^{re.escape(message)}$"):
        resolve_ruleset(ids)


def test_edition_numbers() -> None:
    """The table in RULES.md: ER 1"/5", coherency 2"/5", 12" declaration, 2D6, 3" pile in."""
    for rules in (EDITIONS["40k-9e"], EDITIONS["40k-10e"]):
        assert (rules.engagement_range_in, rules.engagement_vertical_in) == (1.0, 5.0)
        assert (rules.coherency_range_in, rules.coherency_vertical_in) == (2.0, 5.0)
        assert rules.charge_declaration_range_in == 12.0
        assert rules.charge_dice == 2
        assert rules.pile_in_in == rules.consolidate_in == 3.0
        assert rules.barricade_engagement_range_in == 2.0


def test_edition_differences() -> None:
    """9th: no crossing friendly bases, SWARM moves through ruins, 3" heroic intervention."""
    ninth, tenth = EDITIONS["40k-9e"], EDITIONS["40k-10e"]
    assert (ninth.crosses_friendly_bases, tenth.crosses_friendly_bases) == (False, True)
    assert ninth.moves_through_ruins(frozenset({"SWARM"}))
    assert not tenth.moves_through_ruins(frozenset({"SWARM"}))
    assert ninth.heroic_intervention_in == 3.0
    assert tenth.heroic_intervention_in is None


def test_upper_floors_take_infantry_beasts_and_fly() -> None:
    """Only INFANTRY, BEAST(S) and FLY models may end on an upper floor."""
    rules = EDITIONS["40k-10e"]
    assert rules.may_end_on_upper_floor(frozenset({"VEHICLE", "FLY"}))
    assert rules.may_end_on_upper_floor(frozenset({"BEASTS"}))
    assert not rules.may_end_on_upper_floor(frozenset({"VEHICLE"}))


def test_known_rulesets() -> None:
    """The ids a scenario may name, in the order messages list them."""
    assert KNOWN_RULESETS == ("40k-9e", "40k-10e", "40k-11e", "40k-assault-4e", "wtc-walls")


def test_assault_4e_numbers() -> None:
    """Seed 001: 6" assault (9" or 12" by unit), 1" no-go, 2" chain, 6" reinforcement, 3"
    consolidation, one attack within 2" of an engaged friend."""
    rules = EDITIONS["40k-assault-4e"]
    assert (rules.assault_range_in, rules.assault_ranges_in) == (6.0, (6.0, 9.0, 12.0))
    assert (rules.engagement_range_in, rules.coherency_range_in) == (1.0, 2.0)
    assert (rules.reinforcement_in, rules.consolidate_in) == (6.0, 3.0)
    assert rules.fight_support_range_in == 2.0
    assert rules.coherency_neighbours(30) == 1
    assert not rules.crosses_friendly_bases
