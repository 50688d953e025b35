"""The page's Move menu, read from the registries rather than written into the page: every
ruleset the models know, the moves the solver table solves under each (`api.moves_solved_in`),
and the action keys each move reads there (each one a control on the page)."""

from __future__ import annotations

from typing import Any

from chargeopt.models import (
    EDITIONS,
    ActionKind,
    RankAndFileRules,
    RankAndFileScenario,
    RuleSet,
    Scenario,
    resolve_ruleset,
)
from chargeopt.models.rank_and_file import RANK_AND_FILE_RULES, WHEEL_METRICS
from chargeopt.models.rulesets import MODIFIERS, RANK_AND_FILE_EDITIONS
from chargeopt.models.scenario import TableEdge
from chargeopt.solver.api import moves_solved_in, rule_family

ACTION_KEYS = ("targets", "roll", "charged", "table_edge", "fast", "fought_by", "difficult_roll")
"""Every action key the page has a control for, in the order the form shows them."""


def move_keys(kind: ActionKind, rules: RuleSet | RankAndFileRules) -> tuple[str, ...]:
    """The action keys a move reads under `rules` (the keys the scenario check accepts for it:
    a 4e charge rolls no dice, a 6e charge has no roll, only a fall back has an edge)."""
    if isinstance(rules, RankAndFileRules):
        return ("targets",) if rules.charge_move == "double-move" else ("targets", "roll")
    assault = bool(rules.assault_ranges_in)
    keys: list[str] = []
    if kind == ActionKind.CHARGE:
        keys += ["targets"] if rules.assault_range_in else ["targets", "roll"]
    elif kind == ActionKind.PILE_IN and not assault:
        keys.append("charged")
    elif kind == ActionKind.FALL_BACK:
        keys += ["table_edge", "roll", "fast", "fought_by"]
    if assault:
        keys.append("difficult_roll")
    return tuple(keys)


def menu(rules: RuleSet | RankAndFileRules) -> list[dict[str, Any]]:
    """The moves solved under `rules`, each with the keys it reads."""
    return [
        {"kind": kind.value, "keys": list(move_keys(kind, rules))}
        for kind in moves_solved_in(rule_family(rules))
    ]


def scenario_menu(scenario: Scenario | RankAndFileScenario) -> list[dict[str, Any]]:
    """The Move menu for a loaded board."""
    return menu(scenario.rules)


def ruleset_choices() -> list[dict[str, Any]]:
    """Every ruleset the models registry knows, each edition alone and with each modifier that
    applies to it: its ids, whether its units are models or blocks, and its Move menu."""
    choices: list[dict[str, Any]] = []
    for edition in EDITIONS:
        combos = [(edition,)] + [(edition, m) for m, on in MODIFIERS.items() if edition in on]
        for ids in combos:
            rules = resolve_ruleset(ids)
            choices.append({"ids": list(ids), "kind": "models", "moves": menu(rules)})
    default_metric = RankAndFileRules.__dataclass_fields__["wheel_metric"].default
    for edition in RANK_AND_FILE_EDITIONS:
        metrics = [(m, how) for m, how in WHEEL_METRICS.items() if how != default_metric]
        for ids, metric in [((edition,), default_metric)] + [((edition, m), h) for m, h in metrics]:
            rules = RankAndFileRules(
                ids=ids,
                edition=edition,
                wheel_metric=metric,
                **RANK_AND_FILE_RULES[edition],  # type: ignore[arg-type]
            )
            choices.append({"ids": list(ids), "kind": "blocks", "moves": menu(rules)})
    return choices


def table_edges() -> list[str]:
    """The table edges a fall back may move toward."""
    return [edge.value for edge in TableEdge]
