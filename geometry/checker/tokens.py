"""Tokens of the WTC rule for fighting through walls (seed 000): a model with a token ends
touching a ruin wall, within the barricade engagement range (2") of a model of a unit it
charges on the other side of that wall (the segment between the two centres crosses the
wall), and only if it could not have ended in a normal legal position.

Readings, as far as a checker can tell without solving:
- "Could not end in a normal legal position" is judged by witness: the checker looks for a
  spot (nearest to the model's start, and nearest to each unit mate, of the region where its
  base may stand within normal engagement range of a target, out of range of other enemy
  units, within the roll in a straight line) and calls the token illegal only when moving
  that one model there, without its token, leaves a placement that passes every charge rule.
  A token that could only be given up by moving several models is not found.
- Whether the rule applies at all (a wall, not the roll, stops the normal charge) needs a
  solve; the checker holds tokens to the roll with the walls ignored: every target must lie
  within the roll plus the normal engagement range of some charging model, edge to edge.
- The 2" range across the wall counts only between token models and the units charged, so
  the engagement of units that are not charged keeps the normal range.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping

import shapely
from shapely.geometry import LineString, Point
from shapely.ops import nearest_points

from chargeopt.geometry.config_space import free_space
from chargeopt.geometry.footprints import edge_distance
from chargeopt.geometry.move_state import MoveState
from chargeopt.geometry.pairs import edge_distances
from chargeopt.geometry.terrain import TerrainPiece
from chargeopt.models import Placement, TerrainKind, Unit, Violation

TOKEN_KINDS = (
    "token_without_rule",
    "token_without_wall",
    "token_not_touching_wall",
    "token_out_of_range",
    "token_roll_too_short",
    "token_not_allowed",
)
SLACK_IN = 1e-6
REGION_QUAD_SEGS = 32

Legal = Callable[[Mapping[str, Placement]], bool]


def token_engaged_targets(move: MoveState) -> set[str]:
    """Target units within the barricade range of a well-placed token model across its wall."""
    out: set[str] = set()
    for model_id in _token_models(move):
        wall = _wall(move, move.placements[model_id])
        if wall is not None and _touches(move, model_id, wall):
            out |= {unit for unit, _, _ in _across(move, model_id, wall)}
    return out


def token_violations(move: MoveState, legal: Legal | None) -> Iterable[Violation]:
    """Every token rule the placement breaks; `legal` judges a whole placement by every charge
    rule (used to test witnesses), None to skip the witness search."""
    tokens = _token_models(move)
    if not tokens:
        return
    rules = move.rules
    keywords = move.unit.keyword_set & rules.wtc_wall_keywords
    if not rules.wtc_walls or not keywords:
        why = (
            "the ruleset has no wtc-walls"
            if not rules.wtc_walls
            else f"unit {move.unit.id!r} has none of the keywords "
            + ", ".join(sorted(rules.wtc_wall_keywords))
        )
        for model_id in tokens:
            yield Violation(
                kind="token_without_rule",
                models=(model_id,),
                message=f"model {model_id!r} has a token, but {why}",
            )
        return
    yield from _roll_too_short(move, tokens)
    for model_id in tokens:
        normal = _normal_engagement(move, model_id)
        if normal is not None:
            yield normal
            continue
        placement = move.placements[model_id]
        wall = _wall(move, placement)
        if wall is None:
            yield Violation(
                kind="token_without_wall",
                models=(model_id,),
                message=f"model {model_id!r} has a token but names no ruin wall "
                f"(wall = {placement.wall!r}); give the id of the wall it touches",
            )
            continue
        gap = _wall_gap(move, model_id, wall)
        if gap > move.contact_tolerance_in():
            yield Violation(
                kind="token_not_touching_wall",
                models=(model_id,),
                terrain=(wall.id,),
                message=f'model {model_id!r} has a token but ends {gap:.2f}" from wall '
                f"{wall.id!r}; a token model ends touching the wall",
                distance_in=gap,
                limit_in=move.contact_tolerance_in(),
            )
            continue
        if not _across(move, model_id, wall):
            yield Violation(
                kind="token_out_of_range",
                models=(model_id,),
                terrain=(wall.id,),
                message=f"model {model_id!r} has a token but no model of a unit it charges is "
                f'within {rules.barricade_engagement_range_in:g}" of it on the other side of '
                f"wall {wall.id!r}",
                limit_in=rules.barricade_engagement_range_in,
            )
            continue
        found = _witness(move, model_id, legal) if legal is not None else None
        if found is not None:
            yield found


def _token_models(move: MoveState) -> list[str]:
    return [i for i in move.ids if i in move.placements and move.placements[i].token]


def _wall(move: MoveState, placement: Placement) -> TerrainPiece | None:
    return next(
        (
            p
            for p in move.battlefield.pieces
            if p.id == placement.wall and p.kind == TerrainKind.WALL
        ),
        None,
    )


def _wall_gap(move: MoveState, model_id: str, wall: TerrainPiece) -> float:
    fp = move.end[model_id]
    if fp.is_round:
        return max(0.0, float(shapely.distance(Point(fp.x, fp.y), wall.shape)) - fp.radius_in)
    return float(shapely.distance(fp.polygon, wall.shape))


def _touches(move: MoveState, model_id: str, wall: TerrainPiece) -> bool:
    return _wall_gap(move, model_id, wall) <= move.contact_tolerance_in()


def _across(move: MoveState, model_id: str, wall: TerrainPiece) -> list[tuple[str, str, float]]:
    """(target unit, target model, distance) within the barricade range across `wall`."""
    rules = move.rules
    fp = move.end[model_id]
    out = []
    for target in move.targets:
        for m in target.models:
            other = move.start[m.id]
            if abs(other.z - fp.z) > rules.engagement_vertical_in + SLACK_IN:
                continue
            gap = edge_distance(fp, other)
            if gap > rules.barricade_engagement_range_in + SLACK_IN:
                continue
            if wall.shape.intersects(LineString([(fp.x, fp.y), (other.x, other.y)])):
                out.append((target.id, m.id, gap))
    return out


def _roll_too_short(move: MoveState, tokens: list[str]) -> Iterable[Violation]:
    er = move.rules.engagement_range_in
    for target in move.targets:
        gap = float(edge_distances(move.start_bases, move.unit_bases(target)).min())
        if gap - er > move.roll + SLACK_IN:
            yield Violation(
                kind="token_roll_too_short",
                models=tuple(tokens),
                message=f"tokens are used, but even with the walls ignored the roll of "
                f'{move.roll}" does not reach target {target.id!r}: it is {gap:.2f}" away, '
                f'more than the roll plus {er:g}" engagement range',
                distance_in=gap,
                limit_in=move.roll + er,
            )


def _normal_engagement(move: MoveState, model_id: str) -> Violation | None:
    """A token model that already ends in normal engagement range of a target."""
    rules = move.rules
    fp = move.end[model_id]
    for target in move.targets:
        for m in target.models:
            other = move.start[m.id]
            gap = edge_distance(fp, other)
            if gap <= rules.engagement_range_in + SLACK_IN and (
                abs(other.z - fp.z) <= rules.engagement_vertical_in + SLACK_IN
            ):
                return Violation(
                    kind="token_not_allowed",
                    models=(model_id, m.id),
                    message=f"model {model_id!r} has a token but ends in normal engagement "
                    f'range of {m.id!r} ({gap:.2f}"): it is in a normal legal position',
                    distance_in=gap,
                    limit_in=rules.engagement_range_in,
                )
    return None


def _witness(
    move: MoveState,
    model_id: str,
    legal: Legal,
    reach_in: float | None = None,
    toward: tuple[Unit, ...] | None = None,
    avoid: tuple[Unit, ...] | None = None,
) -> Violation | None:
    """A normal legal position the token model could have taken instead (see the module):
    within `reach_in` (the roll) in a straight line, in normal engagement range of a unit of
    `toward` (the targets), out of range of `avoid` (the other enemy units)."""
    rules = move.rules
    scenario = move.scenario
    start = move.start[model_id]
    r = start.radius_in
    er = rules.engagement_range_in
    reach_in = move.roll if reach_in is None else reach_in
    toward = move.targets if toward is None else toward
    avoid = move.non_targets if avoid is None else avoid
    levels = [0.0]
    if rules.may_end_on_upper_floor(move.unit.keyword_set):
        levels = list(move.battlefield.surface_heights())
    for z in levels:
        zone = [
            Point(move.start[m.id].x, move.start[m.id].y).buffer(
                move.start[m.id].radius_in + r + er, quad_segs=REGION_QUAD_SEGS
            )
            for t in toward
            for m in t.models
            if abs(move.start[m.id].z - z) <= rules.engagement_vertical_in
        ]
        if not zone:
            continue
        region = shapely.union_all(zone) & Point(start.x, start.y).buffer(
            reach_in, quad_segs=REGION_QUAD_SEGS
        )
        if region.is_empty:
            continue
        region = region & free_space(scenario, move.battlefield, model_id, z=z)
        blocked = [
            Point(move.end[i].x, move.end[i].y).buffer(
                move.end[i].radius_in + r, quad_segs=REGION_QUAD_SEGS
            )
            for i in move.ids
            if i != model_id and abs(move.end[i].z - z) < 0.01
        ]
        blocked += [
            Point(move.start[m.id].x, move.start[m.id].y).buffer(
                move.start[m.id].radius_in + r + er, quad_segs=REGION_QUAD_SEGS
            )
            for u in avoid
            for m in u.models
            if abs(move.start[m.id].z - z) <= rules.engagement_vertical_in
        ]
        if blocked:
            region = region - shapely.union_all(blocked)
        if region.is_empty:
            continue
        inner = region.buffer(-1e-3)
        if inner.is_empty:
            continue
        aims = [Point(start.x, start.y)] + [
            Point(move.end[i].x, move.end[i].y) for i in move.ids if i != model_id
        ]
        for aim in aims:
            spot = nearest_points(inner, aim)[0]
            trial = dict(move.placements)
            trial[model_id] = Placement(model=model_id, x=spot.x, y=spot.y, z=z)
            if legal(trial):
                moved = math.hypot(spot.x - start.x, spot.y - start.y)
                return Violation(
                    kind="token_not_allowed",
                    models=(model_id,),
                    message=f"model {model_id!r} has a token but could end in a normal legal "
                    f"position at ({spot.x:.2f}, {spot.y:.2f}) in engagement range of an enemy "
                    f'unit ({moved:.2f}" away in a straight line) with every rule of the move '
                    "kept",
                )
    return None


def with_tokens(move: MoveState, found: list[Violation], legal: Legal | None) -> list[Violation]:
    """The charge's violations with tokens taken into account: a target engaged by a token
    model across its wall is engaged; then every broken token rule."""
    engaged = token_engaged_targets(move) if move.rules.wtc_walls else set()
    index = move.scenario.model_index
    kept = [
        v
        for v in found
        if not (
            v.kind == "target_not_engaged"
            and len(v.models) == 2
            and v.models[1] in index
            and index[v.models[1]][0].id in engaged
        )
    ]
    return kept + list(token_violations(move, legal))
