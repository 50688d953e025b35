"""Tokens of the WTC walls rule in a pile in or consolidation (seed 000, steps 6 to 8): a token
stays only on a model that had one and did not move; in a pile in, a model that could have
moved into a normal legal position (normal engagement range or base contact of an enemy
model, every rule of the move kept) may not keep its token by staying; and a unit does not
give up its last token unless one of its models ends in normal engagement range.

"Could have moved" is judged by witness, as for the charge (see `tokens`): a spot for
that one model within the move's distance, in normal engagement range of an enemy unit, where
the whole placement passes every rule of the move. At consolidation a token model may always
stay and keep its token (step 8)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from chargeopt.geometry.checker.close_state import close_move_limit_in
from chargeopt.geometry.checker.tokens import SLACK_IN, Legal, _witness
from chargeopt.geometry.move_state import MoveState
from chargeopt.geometry.pairs import edge_distances, height_gaps
from chargeopt.models import ActionKind, Violation

CLOSE_TOKEN_KINDS = ("token_gained", "token_moved", "tokens_all_removed")


def close_token_violations(move: MoveState, legal: Legal | None) -> Iterable[Violation]:
    """Every token rule of the move that the placement breaks."""
    had = {m.id for m in move.unit.models if m.token and m.token_wall}
    kept = set()
    for model_id in move.ids:
        placement = move.placements.get(model_id)
        if placement is None:
            kept |= {model_id} & had
            continue
        if not placement.token:
            continue
        if model_id not in had:
            yield Violation(
                kind="token_gained",
                models=(model_id,),
                message=f"model {model_id!r} has a token after the move but had none before; "
                "tokens are taken only in the charge",
            )
            continue
        if move.moved(model_id):
            yield Violation(
                kind="token_moved",
                models=(model_id,),
                message=f"model {model_id!r} moved and kept its token; a token model that "
                "moves takes a normal legal position and loses its token",
            )
            continue
        kept.add(model_id)
        if legal is not None and move.scenario.action.kind == ActionKind.PILE_IN:
            enemies = move.scenario.enemies_of(move.unit)
            found = _witness(move, model_id, legal, close_move_limit_in(move.scenario), enemies, ())
            if found is not None:
                yield found
    if had and not kept and not _normally_engaged(move):
        yield Violation(
            kind="tokens_all_removed",
            models=tuple(sorted(had)),
            message=f"unit {move.unit.id!r} gives up its last token, but none of its models "
            "ends in normal engagement range or base contact of an enemy model",
        )


def _normally_engaged(move: MoveState) -> bool:
    rules = move.rules
    for enemy in move.scenario.enemies_of(move.unit):
        bases = move.unit_bases(enemy)
        near = (edge_distances(move.end_bases, bases) <= rules.engagement_range_in + SLACK_IN) & (
            height_gaps(move.end_bases, bases) <= rules.engagement_vertical_in + SLACK_IN
        )
        if np.any(near):
            return True
    return False
