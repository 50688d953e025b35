"""The 11th-edition charge's own rules, judged from where the models end: which targets the
answer charges (named, else the enemy units it ends engaged with) and whether each could be a
target (within 12" and within the roll), the 9" coherency span, no end through a wall or an
enclosed solid block, and the within-1" and engaged duties (a legal single-model move that
would bring one more model within 1", or engaged, is a witness that the answer breaks them).

Shares geometry with the solver (paths, shapes), none of its candidate or constraint code."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
import shapely
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from chargeopt.geometry.checker.path_lengths import path_length
from chargeopt.geometry.footprints import Footprint, edge_distance
from chargeopt.geometry.move_state import MoveState
from chargeopt.geometry.pairs import RANGE_SLACK_IN, Bases, edge_distances, height_gaps
from chargeopt.geometry.pose import BLOCKING_KINDS, board_overhang, terrain_depth
from chargeopt.geometry.terrain import Battlefield
from chargeopt.geometry.terrain_11e import CATEGORY_WORDS, movement_blockers, no_end_zones
from chargeopt.models import Placement, Scenario, Violation

CHARGE_11E_KINDS = (
    "no_target_engaged",
    "target_not_eligible",
    "coherency_span",
    "could_end_within_1",
    "could_end_engaged",
)
WITNESS_ANGLES = 72
"""Spots tried around each target model when looking for a witness to a broken duty."""
WITNESS_GAPS_IN = {"within_1": (0.05, 0.5, 0.95), "engaged": (1.05, 1.5, 1.95)}
"""Edge distances from a target model at which a witness spot is tried, per duty."""
WITNESS_PATHS = 24
"""Most witness spots per model whose legal path is measured (nearest first)."""


def charged_targets(
    scenario: Scenario, placements: Sequence[Placement], battlefield: Battlefield
) -> tuple[str, ...]:
    """The targets the placement charges: those named in the scenario, else every enemy unit
    some model of the acting unit ends engaged with (after an 11th-edition charge the unit is
    engaged with its targets and with nothing else, so they are the same units)."""
    if scenario.action.targets:
        return scenario.action.targets
    untargeted = with_targets(scenario, ())
    move = MoveState(untargeted, battlefield, 0, {p.model: p for p in placements})
    engaged = []
    for enemy in move.non_targets:
        bases = move.unit_bases(enemy)
        gaps = edge_distances(move.end_bases, bases)
        near = height_gaps(move.end_bases, bases) <= move.rules.engagement_vertical_in
        if ((gaps <= move.rules.engagement_range_in + RANGE_SLACK_IN) & near).any():
            engaged.append(enemy.id)
    return tuple(engaged)


def with_targets(scenario: Scenario, targets: Iterable[str]) -> Scenario:
    """The scenario with the action's targets replaced (no re-validation: ids are known)."""
    action = scenario.action.model_copy(update={"targets": tuple(targets)})
    return scenario.model_copy(update={"action": action})


def unit_distance_in(scenario: Scenario, unit_a: str, unit_b: str) -> float:
    """The horizontal edge distance between two units where they start: their closest pair."""
    a, b = scenario.unit_by_id[unit_a], scenario.unit_by_id[unit_b]
    return min(
        edge_distance(
            Footprint(a.base_of(m), m.x, m.y, m.z, m.facing),
            Footprint(b.base_of(n), n.x, n.y, n.z, n.facing),
        )
        for m in a.models
        for n in b.models
    )


def skies_allowance(scenario: Scenario, roll: int) -> int:
    """The charge's maximum distance: the roll, 2" less when the unit takes to the skies
    (21.03; the targets are then within that distance too, read as the move's own)."""
    return max(0, roll - 2) if scenario.action.take_to_the_skies else roll


def target_eligibility(scenario: Scenario, targets: Sequence[str], roll: int) -> list[Violation]:
    """no_target_engaged (a charge that engages nobody) and target_not_eligible: a target more
    than 12" or more than the roll away from the charging unit when it rolled."""
    unit = scenario.acting_unit
    if not targets:
        return [
            Violation(
                kind="no_target_engaged",
                message=f"unit {unit.id!r} ends engaged with no enemy unit: a charge move ends "
                "engaged with every target it chose",
                models=tuple(m.id for m in unit.models),
            )
        ]
    found = []
    declaration = scenario.rules.charge_declaration_range_in
    for target in targets:
        gap = unit_distance_in(scenario, unit.id, target)
        limit = min(declaration, float(roll))
        if gap <= limit + RANGE_SLACK_IN:
            continue
        why = f'the roll of {roll}"' if roll < declaration else f'{declaration:g}"'
        if scenario.action.take_to_the_skies and roll < declaration:
            why = f'{roll}" (the roll less 2: it takes to the skies)'
        found.append(
            Violation(
                kind="target_not_eligible",
                message=f'unit {target!r} is {gap:.2f}" from unit {unit.id!r}, more than {why}: '
                "it cannot be a charge target",
                distance_in=gap,
                limit_in=limit,
            )
        )
    return found


def charge_11e_violations(move: MoveState, judge_duties: bool) -> list[Violation]:
    """The 11th edition's rules beyond the charge's shared ones: the 9" span, terrain, and,
    for an otherwise legal placement (`judge_duties`), the within-1" and engaged duties."""
    found = [*span_violations(move), *terrain_violations(move)]
    if judge_duties and not found:
        found += duty_violations(move)
    return found


def span_violations(move: MoveState) -> Iterable[Violation]:
    """coherency_span: two models of the unit more than 9" apart horizontally (or more than
    the vertical limit apart in height), one per pair."""
    span = move.rules.coherency_unit_span_in
    if span is None or len(move.ids) < 2:
        return
    bases = move.end_bases
    gaps = edge_distances(bases, bases)
    high = height_gaps(bases, bases) > move.rules.coherency_vertical_in + RANGE_SLACK_IN
    far = np.triu((gaps > span + RANGE_SLACK_IN) | high, k=1)
    for i, j in zip(*np.nonzero(far), strict=True):
        a, b = move.ids[i], move.ids[j]
        yield Violation(
            kind="coherency_span",
            message=f'models {a!r} and {b!r} end {gaps[i, j]:.2f}" apart: every model must be '
            f'within {span:g}" horizontally and {move.rules.coherency_vertical_in:g}" '
            "vertically of every other model of its unit",
            models=(a, b),
            distance_in=float(gaps[i, j]),
            limit_in=span,
        )


def terrain_violations(move: MoveState) -> Iterable[Violation]:
    """in_terrain: a base ending through a wall of an area or an enclosed solid block, or
    inside a dense area its unit may not cross."""
    tolerance = move.contact_tolerance_in()
    zones = no_end_zones(move.rules, move.battlefield)
    blockers = list(movement_blockers(move.rules, move.unit.keyword_set, move.battlefield))
    for model_id in move.ids:
        fp = move.end[model_id]
        if fp.z > 1e-6:
            continue
        for zone in zones:
            depth = terrain_depth(fp, zone.shape)
            if depth > tolerance:
                yield _in_terrain(model_id, zone.terrain_id, depth, tolerance, zone.why)
        for terrain_id, shape in blockers:
            depth = terrain_depth(fp, shape)
            if depth > tolerance:
                why = f"inside (its unit cannot cross this {CATEGORY_WORDS['dense']}) of"
                yield _in_terrain(model_id, terrain_id, depth, tolerance, why)


def _in_terrain(model_id: str, terrain_id: str, depth: float, limit: float, why: str) -> Violation:
    return Violation(
        kind="in_terrain",
        models=(model_id,),
        terrain=(terrain_id,),
        message=f'model {model_id!r} ends {depth:.2f}" {why} terrain {terrain_id!r}',
        distance_in=depth,
        limit_in=limit,
    )


def duty_violations(move: MoveState) -> Iterable[Violation]:
    """could_end_within_1 and could_end_engaged: a model short of a duty for which a witness
    spot exists, every other model kept where it ends and every other rule still kept."""
    within = move.rules.within_one_in or 1.0
    near_one, engaged = _duty_status(move, within)
    for model_id in move.ids:
        for duty, done in (("within_1", near_one), ("engaged", engaged)):
            if done[model_id]:
                continue
            spot = _witness(move, model_id, duty, within)
            if spot is None:
                continue
            x, y, length = spot
            words = f'within {within:g}" of' if duty == "within_1" else "engaged with"
            yield Violation(
                kind=f"could_end_{duty}",
                models=(model_id,),
                message=f"model {model_id!r} could end {words} a target (at ({x:.2f}, {y:.2f}), "
                f'{length:.2f}" along a legal path, every other rule kept) but does not',
                distance_in=length,
                limit_in=float(move.roll),
            )
            break


def _duty_status(move: MoveState, within: float) -> tuple[dict[str, bool], dict[str, bool]]:
    """Per acting model: whether it ends within 1" of a target model, and engaged with one."""
    near_one = {i: False for i in move.ids}
    engaged = {i: False for i in move.ids}
    vertical = move.rules.engagement_vertical_in + RANGE_SLACK_IN
    for target in move.targets:
        bases = move.unit_bases(target)
        gaps = edge_distances(move.end_bases, bases)
        level = height_gaps(move.end_bases, bases) <= vertical
        for i, model_id in enumerate(move.ids):
            near_one[model_id] |= bool(((gaps[i] <= within + RANGE_SLACK_IN) & level[i]).any())
            reach = move.rules.engagement_range_in + RANGE_SLACK_IN
            engaged[model_id] |= bool(((gaps[i] <= reach) & level[i]).any())
    return near_one, engaged


def _witness(
    move: MoveState, model_id: str, duty: str, within: float
) -> tuple[float, float, float] | None:
    """A spot on the ground where the model could end to meet the duty, with every other rule
    still met and the others where they end; (x, y, path length) or None."""
    unit, model = move.scenario.model_index[model_id]
    base = unit.base_of(model)
    spots = []
    for target in move.targets:
        for t in target.models:
            t_fp = move.start[t.id]
            if t_fp.z > 1e-6:
                continue
            for gap in WITNESS_GAPS_IN[duty]:
                reach = t_fp.radius_in + base.circumradius_in + gap
                for k in range(WITNESS_ANGLES):
                    a = 2 * math.pi * k / WITNESS_ANGLES
                    spots.append((t_fp.x + reach * math.cos(a), t_fp.y + reach * math.sin(a)))
    start = move.start[model_id]
    spots.sort(key=lambda p: math.hypot(p[0] - start.x, p[1] - start.y))
    tried = 0
    rules, field = move.rules, move.battlefield
    forbidden = [p.shape for p in field.of_kind(*BLOCKING_KINDS)]
    forbidden += [z.shape for z in no_end_zones(rules, field)]
    forbidden += [shape for _, shape in movement_blockers(rules, move.unit.keyword_set, field)]
    for x, y in spots:
        if math.hypot(x - start.x, y - start.y) > move.roll:
            break
        fp = Footprint(base, x, y, 0.0, model.facing)
        if not _legal_spot(move, model_id, fp, duty, within, forbidden):
            continue
        tried += 1
        length = path_length(move, model_id, fp, ())
        if length <= move.roll:
            return x, y, length
        if tried >= WITNESS_PATHS:
            return None
    return None


def _legal_spot(
    move: MoveState,
    model_id: str,
    fp: Footprint,
    duty: str,
    within: float,
    forbidden: list[BaseGeometry],
) -> bool:
    """Whether the model may end at `fp`, the others where they end: on the board, clear of
    terrain and of every base, meeting the duty, engaged with no non-target, the unit still
    coherent (2" chain, one group, 9" span) and still engaged with every target."""
    rules, field = move.rules, move.battlefield
    if board_overhang(fp, field.width, field.height):
        return False
    if any(terrain_depth(fp, shape) > 0 for shape in forbidden):
        return False
    for piece in field.floors:
        if shapely.intersects(piece.shape, Point(fp.x, fp.y).buffer(fp.radius_in)):
            return False
    others = [move.end[i] for i in move.ids if i != model_id]
    fixed = [move.start[i] for i in move.others]
    me = Bases.of([fp])
    if others and (edge_distances(me, Bases.of(others)) < 1e-6).any():
        return False
    if fixed and (edge_distances(me, Bases.of(fixed)) < 1e-6).any():
        return False
    engaged_with = set()
    for enemy in (*move.targets, *move.non_targets):
        gaps = edge_distances(me, move.unit_bases(enemy))
        if (gaps <= rules.engagement_range_in + RANGE_SLACK_IN).any():
            if enemy in move.non_targets:
                return False
            engaged_with.add(enemy.id)
            if duty == "within_1" and (gaps <= within).any():
                engaged_with.add(("within", enemy.id))
    if duty == "within_1" and not any(isinstance(e, tuple) for e in engaged_with):
        return False
    if duty == "engaged" and not engaged_with:
        return False
    trial = [*others, fp]
    if not _still_engaged_with_all(move, trial):
        return False
    return _coherent(move, trial)


def _still_engaged_with_all(move: MoveState, trial: list[Footprint]) -> bool:
    bases = Bases.of(trial)
    for target in move.targets:
        gaps = edge_distances(bases, move.unit_bases(target))
        if not (gaps <= move.rules.engagement_range_in + RANGE_SLACK_IN).any():
            return False
    return True


def _coherent(move: MoveState, trial: list[Footprint]) -> bool:
    """Each model within 2" of another, one group, every pair within the 9" span."""
    if len(trial) < 2:
        return True
    rules = move.rules
    bases = Bases.of(trial)
    gaps = edge_distances(bases, bases)
    np.fill_diagonal(gaps, np.inf)
    links = gaps <= rules.coherency_range_in
    if not links.any(axis=1).all():
        return False
    span = rules.coherency_unit_span_in
    off = ~np.eye(len(trial), dtype=bool)
    if span is not None and (gaps[off] > span).any():
        return False
    seen, stack = {0}, [0]
    while stack:
        i = stack.pop()
        for j in np.flatnonzero(links[i]):
            if int(j) not in seen:
                seen.add(int(j))
                stack.append(int(j))
    return len(seen) == len(trial)
