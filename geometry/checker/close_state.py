"""A close-combat move under judgement (pile in, consolidation, heroic intervention): the move
state, the move limit, and every enemy model with its distances to the acting unit at the
start and at the end. Built once; the close-move checks read it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from chargeopt.geometry.move_state import MoveState, footprint_at_start
from chargeopt.geometry.pairs import SAME_HEIGHT_IN, Bases, edge_distances, height_gaps
from chargeopt.geometry.terrain import Battlefield
from chargeopt.models import ActionKind, Placement, Scenario, UnsupportedRuleError

CLOSER_IN = 1e-9
"""A model ends closer when its edge distance shrinks by more than this."""
MOVE_WORDS = {
    ActionKind.PILE_IN: "pile-in move",
    ActionKind.CONSOLIDATE: "consolidation move",
    ActionKind.HEROIC_INTERVENTION: "heroic intervention",
}


def close_move_limit_in(scenario: Scenario) -> float:
    """How far each model may move; a heroic intervention exists only in the 9th edition."""
    rules, kind = scenario.rules, scenario.action.kind
    if kind == ActionKind.HEROIC_INTERVENTION:
        if rules.heroic_intervention_in is None:
            raise UnsupportedRuleError(
                f"a heroic intervention under {rules.edition} is a stratagem that makes a "
                'charge move: write it as kind = "charge"',
                "action.kind",
            )
        return rules.heroic_intervention_in
    return rules.pile_in_in if kind == ActionKind.PILE_IN else rules.consolidate_in


def close_move_state(
    scenario: Scenario,
    battlefield: Battlefield,
    placements: Mapping[str, Placement],
    precision_in: float = 0.0,
) -> MoveState:
    """The move state of a close-combat move (it has no roll). Refuses tokens of the WTC walls
    rule outside the `wtc-walls` ruleset (under it, `checker.tokens_close` judges them)."""
    tokens = [m.id for u in scenario.units for m in u.models if m.token]
    tokens += [p.model for p in placements.values() if p.token]
    if tokens and not scenario.rules.wtc_walls:
        raise UnsupportedRuleError(
            f"checking a {MOVE_WORDS[scenario.action.kind]} with WTC wall tokens (model "
            f"{tokens[0]!r}) is not supported yet"
        )
    return MoveState(scenario, battlefield, 0, placements, precision_in)


@dataclass(frozen=True)
class CloseMove:
    """The move, its limit, and the enemy models with their distances to the acting unit
    (rows: acting models in file order; columns: enemy models)."""

    move: MoveState
    limit_in: float

    @property
    def words(self) -> str:
        return MOVE_WORDS[self.move.scenario.action.kind]

    @cached_property
    def enemy_ids(self) -> tuple[str, ...]:
        return tuple(m.id for u in self.move.scenario.enemies_of(self.move.unit) for m in u.models)

    @cached_property
    def enemies(self) -> Bases:
        units = self.move.scenario.enemies_of(self.move.unit)
        return Bases.of([footprint_at_start(u, m) for u in units for m in u.models])

    @cached_property
    def start_gaps(self) -> np.ndarray:
        return edge_distances(self.move.start_bases, self.enemies)

    @cached_property
    def end_gaps(self) -> np.ndarray:
        return edge_distances(self.move.end_bases, self.enemies)

    @cached_property
    def start_contact(self) -> np.ndarray:
        """Which acting models touch which enemy models at the start."""
        tolerance = self.move.rules.base_contact_tolerance_in
        level = height_gaps(self.move.start_bases, self.enemies) < SAME_HEIGHT_IN
        return (self.start_gaps <= tolerance) & level

    @cached_property
    def end_contact(self) -> np.ndarray:
        tolerance = self.move.contact_tolerance_in()
        level = height_gaps(self.move.end_bases, self.enemies) < SAME_HEIGHT_IN
        return (self.end_gaps <= tolerance) & level

    def closest(self, i: int) -> np.ndarray:
        """The enemy models closest to acting model i at the start (several on a tie)."""
        if not len(self.enemy_ids):
            return np.empty(0, dtype=int)
        row = self.start_gaps[i]
        return np.nonzero(row <= row.min() + CLOSER_IN)[0]

    @cached_property
    def movers(self) -> tuple[int, ...]:
        """The acting models that moved (position, height or facing)."""
        return tuple(i for i, m in enumerate(self.move.ids) if self.move.moved(m))
