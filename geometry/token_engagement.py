"""Engagement through a wall under the WTC walls rule (seed 000): a model with a token is in
the barricade engagement range (2") of the models of the units its unit charged on the other
side of its wall (the segment between the two centres crosses the wall), and they of it.

Readings:
- Where a token stands: for the acting unit, its placement says (`token`, `wall`, the wall
  defaulting to the model's `token_wall`); a model without a placement keeps its start token.
  Every other model keeps its start token (`GameModel.token`, `token_wall`).
- Which units a token holds against: the targets of a charge being judged; otherwise the
  token unit's `charged_units`.
- A token is lost once its model is within normal engagement range (or base contact) of any
  enemy model (seed: "tokens stay ... until they are within normal 1" engagement range or base
  contact of an enemy model"; example 6: a heroic intervention ends the rule).
- A unit that did not charge and was not charged (example 3's unit C) never uses the 2".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import shapely
from shapely.geometry import LineString

from chargeopt.geometry.footprints import Footprint, edge_distance
from chargeopt.geometry.move_state import footprint_at_end, footprint_at_start
from chargeopt.geometry.pairs import RANGE_SLACK_IN
from chargeopt.geometry.terrain import Battlefield
from chargeopt.models import ActionKind, Placement, Scenario, TerrainKind, Unit


@dataclass(frozen=True)
class Token:
    """A model holding a token: its unit, footprint now, and the wall it fights across."""

    model: str
    unit: Unit
    footprint: Footprint
    wall: str


def tokens_now(
    scenario: Scenario, placements: Mapping[str, Placement], battlefield: Battlefield
) -> list[Token]:
    """Every model holding a token after the move, with the tokens lost to normal
    engagement range already removed."""
    if not scenario.rules.wtc_walls:
        return []
    acting = scenario.acting_unit
    walls = {p.id for p in battlefield.pieces if p.kind == TerrainKind.WALL}
    out = []
    for unit in scenario.units:
        for m in unit.models:
            placement = placements.get(m.id) if unit.id == acting.id else None
            if placement is not None:
                has, wall = placement.token, placement.wall or m.token_wall
                fp = footprint_at_end(unit, m, placement)
            else:
                has, wall = m.token, m.token_wall
                fp = footprint_at_start(unit, m)
            if has and wall in walls:
                out.append(Token(m.id, unit, fp, wall))
    return [t for t in out if not _normally_engaged(scenario, placements, t)]


def charged_by(scenario: Scenario, unit: Unit) -> tuple[str, ...]:
    """The units `unit`'s tokens hold against."""
    if unit.id == scenario.action.unit and scenario.action.kind == ActionKind.CHARGE:
        return scenario.action.targets
    return unit.charged_units


def token_pairs(
    scenario: Scenario, placements: Mapping[str, Placement], battlefield: Battlefield
) -> frozenset[tuple[str, str]]:
    """(acting model, enemy model) pairs engaged only through a wall under the rule: a token
    model of the acting unit with a model of a unit it charged, or a model of the acting unit
    with an enemy token model whose unit charged it."""
    rules = scenario.rules
    acting = scenario.acting_unit
    shapes = {p.id: p.shape for p in battlefield.pieces}
    pairs: set[tuple[str, str]] = set()
    for token in tokens_now(scenario, placements, battlefield):
        for uid in charged_by(scenario, token.unit):
            other = scenario.unit_by_id[uid]
            if acting.id not in (token.unit.id, other.id) or other.owner == token.unit.owner:
                continue
            for m in other.models:
                fp = _now(scenario, placements, other, m.id)
                if abs(fp.z - token.footprint.z) > rules.engagement_vertical_in + RANGE_SLACK_IN:
                    continue
                if edge_distance(fp, token.footprint) > (
                    rules.barricade_engagement_range_in + RANGE_SLACK_IN
                ):
                    continue
                line = LineString([(fp.x, fp.y), (token.footprint.x, token.footprint.y)])
                if not shapely.intersects(shapes[token.wall], line):
                    continue
                pairs.add(
                    (token.model, m.id) if token.unit.id == acting.id else (m.id, token.model)
                )
    return frozenset(pairs)


def _now(scenario: Scenario, placements: Mapping[str, Placement], unit: Unit, model_id: str):
    model = next(m for m in unit.models if m.id == model_id)
    if unit.id == scenario.acting_unit.id:
        return footprint_at_end(unit, model, placements.get(model_id))
    return footprint_at_start(unit, model)


def _normally_engaged(
    scenario: Scenario, placements: Mapping[str, Placement], token: Token
) -> bool:
    rules = scenario.rules
    for enemy in scenario.units:
        if enemy.owner == token.unit.owner:
            continue
        for m in enemy.models:
            fp = _now(scenario, placements, enemy, m.id)
            if abs(fp.z - token.footprint.z) > rules.engagement_vertical_in + RANGE_SLACK_IN:
                continue
            if edge_distance(fp, token.footprint) <= rules.engagement_range_in + RANGE_SLACK_IN:
                return True
    return False
