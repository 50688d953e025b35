"""The 11th edition's pile in and consolidation (core rules 12.03, 12.08), for the checker,
re-derived from the scenario and the placements alone (no solver code).

Rules and readings:
- The move is optional (12, "Do units have to fight?"): a placement where no model moves makes
  no move and breaks none of these rules.
- Eligibility. Pile in: the unit is engaged, or charged (`action.charged`), or makes an
  overrun fight (`action.overrun`); unengaged, it needs an enemy unit within 5". Consolidation
  takes the first mode that applies: ongoing (engaged), engaging (an enemy unit within 3"),
  objective (an objective marker within 3"); none applies: it cannot consolidate.
- Selections: an engaged unit selects every unit it is engaged with; otherwise the placement is
  judged against every selection the player could have made (the named `targets`, else each
  non-empty set of eligible units; each objective within 3"), and is legal if one of them
  makes it legal (else the selection with the fewest broken rules is reported).
- Each model moves at most 3" along its shortest legal path. In a pile in and an ongoing
  consolidation a model in base contact with an enemy model at the start does not move.
- A model that moves ends closer (edge to edge, horizontally) to the selected unit closest to
  it at the start (a tie: either), and engaged with that unit if it could: a witness spot (within
  the move, clear of every base, the rest of the unit as placed, every rule kept) proves it
  could. Objective mode: each moving model ends within range of the objective if it could
  (witness), else closer to it. An objective marker stands for its terrain objective: a model is
  within range when its base touches or overlaps the marker's disc.
- After: pile in, the unit is engaged; pile in and ongoing, every model that started engaged
  with an enemy unit is engaged with that unit; engaging, the unit is engaged with every
  selected unit; objective, a model is within range. The unit ends in coherency (2" chain and
  the 9" span) and clear of the terrain it may not end in (`charge_11e`'s span and terrain
  rules)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from chargeopt.geometry.checker.charge_11e import span_violations, terrain_violations
from chargeopt.geometry.checker.claims import claim_violations
from chargeopt.geometry.checker.coherency import coherency_violations
from chargeopt.geometry.checker.move import ROLL_SLACK_IN, turning_in
from chargeopt.geometry.checker.path_lengths import path_length
from chargeopt.geometry.footprints import Footprint, edge_distance
from chargeopt.geometry.move_state import MoveState
from chargeopt.geometry.pairs import (
    RANGE_SLACK_IN,
    SAME_HEIGHT_IN,
    Bases,
    edge_distances,
    engagement,
    height_gaps,
)
from chargeopt.models import ActionKind, ObjectiveMarker, Placement, RoundBase, Violation

PILE_IN_TARGETS_IN = 5.0
CONSOLIDATION_REACH_IN = 3.0
CLOSER_IN = 1e-9
MOST_UNITS_SUBSETS = 6
"""Above this many eligible units only single units and all of them are tried as selections."""
WITNESS_GAPS_IN = (0.3, 1.0, 1.7)
"""Edge distances from an enemy model at which a spot engaged with it is tried."""
WITNESS_ANGLES = 36
WITNESS_TRIALS = 16
"""Most witness spots per model judged in full (nearest first)."""
CLEAR_IN = 0.02
"""A witness spot keeps this far from every base and inside the move."""
CLOSE_11E_KINDS = ("left_engagement", "not_engaged_with_selected", "could_end_in_range")
"""Beside the charge's (`charge_11e`: coherency_span, could_end_engaged, terrain)."""
Legal = Callable[[MoveState], bool]
"""The judge's checks of where models end (board, terrain, surfaces, overlaps) on a trial."""


@dataclass(frozen=True)
class Selection:
    mode: str
    units: tuple[str, ...] = ()
    marker: ObjectiveMarker | None = None

    @property
    def words(self) -> str:
        if self.marker is not None:
            return f"objective consolidation toward {self.marker.id!r}"
        names = ", ".join(repr(u) for u in self.units)
        return (
            f"pile in toward {names}"
            if self.mode == "pile-in"
            else (f"{self.mode} consolidation with {names}")
        )


def close_11e_violations(
    move: MoveState, skip: Iterable[str], placed_legally: Legal | None
) -> list[Violation]:
    """Every 11th-edition rule the pile in or consolidation breaks; `skip`: models whose end is
    already illegal (their move is measured in a straight line); `placed_legally` judges a
    witness's trial placement (None: no witnesses, used inside a witness)."""
    common = [*_lengths(move, set(skip)), *coherency_violations(move), *span_violations(move)]
    common += list(terrain_violations(move))
    common += list(claim_violations(move))
    if not any(move.moved(mid) for mid in move.ids):
        return common
    choices, refusal = selections(move)
    if refusal is None and not choices:
        refusal = _refuse(
            move,
            f"cannot select targets {list(move.scenario.action.targets)}: an engaged unit selects "
            'every unit it is engaged with, else only units within 5" (pile in) or 3" '
            "(engaging consolidation) can be selected",
        )
    if refusal is not None:
        return [refusal, *common]
    best: list[Violation] | None = None
    for selection in choices:
        found = selection_violations(move, selection, placed_legally)
        if not found:
            return common
        if best is None or len(found) < len(best):
            best = found
    return [*(best or []), *common]


def start_engaged(move: MoveState) -> dict[str, set[str]]:
    """Per acting model, the enemy units it is engaged with at the start."""
    out: dict[str, set[str]] = {i: set() for i in move.ids}
    for enemy in move.scenario.enemies_of(move.unit):
        near = engagement(move.start_bases, move.unit_bases(enemy), move.rules, move.battlefield)
        for i in np.flatnonzero(near.engaged.any(axis=1)):
            out[move.ids[i]].add(enemy.id)
    return out


def end_engaged(move: MoveState) -> dict[str, set[str]]:
    """Per acting model, the enemy units it is engaged with at the end."""
    out: dict[str, set[str]] = {i: set() for i in move.ids}
    for enemy in move.scenario.enemies_of(move.unit):
        near = engagement(move.end_bases, move.unit_bases(enemy), move.rules, move.battlefield)
        for i in np.flatnonzero(near.engaged.any(axis=1)):
            out[move.ids[i]].add(enemy.id)
    return out


def _unit_gap(move: MoveState, bases: Bases, unit_id: str) -> np.ndarray:
    """Per row of `bases`, the edge distance to the nearest model of the unit."""
    return edge_distances(bases, move.unit_bases(move.scenario.unit_by_id[unit_id])).min(axis=1)


def _marker_footprint(marker: ObjectiveMarker) -> Footprint:
    return Footprint(RoundBase(diameter_mm=marker.diameter_mm), marker.x, marker.y, marker.z)


def in_range(move: MoveState, fp: Footprint, marker: ObjectiveMarker) -> bool:
    """Within range of the objective: the base touches or overlaps the marker's disc."""
    return edge_distance(fp, _marker_footprint(marker)) <= move.error_in + RANGE_SLACK_IN


def selections(move: MoveState) -> tuple[list[Selection], Violation | None]:
    """The selections the move could make, or why it may not be made (not_eligible)."""
    scenario, unit = move.scenario, move.unit
    action = scenario.action
    engaged = sorted(
        {u for units in start_engaged(move).values() for u in units},
        key=lambda u: [e.id for e in scenario.enemies_of(unit)].index(u),
    )
    gaps = {
        e.id: float(_unit_gap(move, move.start_bases, e.id).min())
        for e in scenario.enemies_of(unit)
    }
    if action.kind == ActionKind.PILE_IN:
        if engaged:
            return _named_or([Selection("pile-in", tuple(engaged))], action.targets), None
        if not (action.charged or action.overrun):
            return [], _refuse(
                move, "is unengaged, did not charge and makes no overrun fight: it cannot pile in"
            )
        near = [u for u, g in gaps.items() if g <= PILE_IN_TARGETS_IN + RANGE_SLACK_IN]
        if not near:
            return [], _refuse(
                move,
                f'is unengaged and no enemy unit is within {PILE_IN_TARGETS_IN:g}": it '
                "cannot pile in",
            )
        return [Selection("pile-in", s) for s in _subsets(near, action.targets)], None
    if engaged:
        return _named_or([Selection("ongoing", tuple(engaged))], action.targets), None
    near = [u for u, g in gaps.items() if g <= CONSOLIDATION_REACH_IN + RANGE_SLACK_IN]
    if near:
        return [Selection("engaging", s) for s in _subsets(near, action.targets)], None
    markers = [
        o
        for o in scenario.objectives
        if min(edge_distance(move.start[i], _marker_footprint(o)) for i in move.ids)
        <= CONSOLIDATION_REACH_IN + RANGE_SLACK_IN
    ]
    if markers:
        return [Selection("objective", marker=o) for o in markers], None
    return [], _refuse(
        move,
        f'is unengaged with no enemy unit and no objective within {CONSOLIDATION_REACH_IN:g}"'
        ": it cannot consolidate",
    )


def _named_or(forced: list[Selection], named: tuple[str, ...]) -> list[Selection]:
    """The forced selection, unless the scenario names other targets (then none is possible)."""
    if named and set(named) != set(forced[0].units):
        return []
    return forced


def _subsets(eligible: list[str], named: tuple[str, ...]) -> list[tuple[str, ...]]:
    if named:
        return [tuple(named)] if set(named) <= set(eligible) else []
    if len(eligible) > MOST_UNITS_SUBSETS:
        return [tuple(eligible), *((u,) for u in eligible)]
    return [s for k in range(1, len(eligible) + 1) for s in combinations(eligible, k)]


def _refuse(move: MoveState, why: str) -> Violation:
    return Violation(
        kind="not_eligible",
        models=move.ids,
        message=f"unit {move.unit.id!r} {why}",
    )


def selection_violations(
    move: MoveState, selection: Selection, placed_legally: Legal | None
) -> list[Violation]:
    """The rules of one selection: frozen models, closer, the duties and the after rules."""
    found: list[Violation] = []
    if not selection.units and selection.marker is None:
        return [_refuse(move, "has no selection the placement could have made")]
    frozen = selection.mode in ("pile-in", "ongoing")
    starting = start_engaged(move)
    ending = end_engaged(move)
    touching = _start_contact(move)
    for i, mid in enumerate(move.ids):
        if not move.moved(mid):
            continue
        if frozen and touching[i]:
            found.append(
                Violation(
                    kind="moved_from_contact",
                    models=(mid,),
                    message=f"model {mid!r} started in base contact with an enemy model, so it "
                    f"does not move in a {selection.words}, but it moved",
                )
            )
            continue
        if selection.marker is not None:
            found += _objective_model(move, selection, i, placed_legally)
        else:
            found += _toward_units(move, selection, i, ending[mid], placed_legally)
    found += _after(move, selection, starting, ending)
    return found


def _start_contact(move: MoveState) -> list[bool]:
    enemies = [e for e in move.scenario.enemies_of(move.unit)]
    if not enemies:
        return [False] * len(move.ids)
    bases = Bases.of([move.start[m.id] for e in enemies for m in e.models])
    gaps = edge_distances(move.start_bases, bases)
    level = height_gaps(move.start_bases, bases) < SAME_HEIGHT_IN
    return list(((gaps <= move.rules.base_contact_tolerance_in) & level).any(axis=1))


def closest_units(move: MoveState, selection: Selection, i: int) -> tuple[list[str], float]:
    """The selected units closest to acting model i at the start, and that distance."""
    row = Bases.of([move.start[move.ids[i]]])
    gaps = {u: float(_unit_gap(move, row, u)[0]) for u in selection.units}
    best = min(gaps.values())
    return [u for u, g in gaps.items() if g <= best + CLOSER_IN], best


def _toward_units(
    move: MoveState, selection: Selection, i: int, engaged_now: set[str], legal: Legal | None
) -> list[Violation]:
    mid = move.ids[i]
    units, before = closest_units(move, selection, i)
    row = Bases.of([move.end[mid]])
    after = min(float(_unit_gap(move, row, u)[0]) for u in units)
    names = " or ".join(repr(u) for u in units)
    if after >= before - CLOSER_IN:
        return [
            Violation(
                kind="not_closer_to_closest",
                models=(mid,),
                distance_in=after,
                limit_in=before,
                message=f"model {mid!r} moves but does not end closer to unit {names}, the "
                f'selected unit closest to it ({before:.2f}" -> {after:.2f}")',
            )
        ]
    if engaged_now & set(units) or legal is None:
        return []
    spot = _witness(move, selection, i, legal, lambda trial: _engages(trial, mid, units))
    if spot is None:
        return []
    return [
        Violation(
            kind="could_end_engaged",
            models=(mid,),
            message=f"model {mid!r} moves but does not end engaged with unit {names}, the "
            f"selected unit closest to it, though it could: at ({spot.x:.3f}, {spot.y:.3f}) it "
            "is, with every other rule kept",
        )
    ]


def _engages(trial: MoveState, mid: str, units: list[str]) -> bool:
    return bool(end_engaged(trial)[mid] & set(units))


def _objective_model(
    move: MoveState, selection: Selection, i: int, legal: Legal | None
) -> list[Violation]:
    mid = move.ids[i]
    marker = selection.marker
    assert marker is not None
    if in_range(move, move.end[mid], marker):
        return []
    goal = _marker_footprint(marker)
    before, after = edge_distance(move.start[mid], goal), edge_distance(move.end[mid], goal)
    if after >= before - CLOSER_IN:
        return [
            Violation(
                kind="not_closer_to_objective",
                models=(mid,),
                distance_in=after,
                limit_in=before,
                message=f"model {mid!r} moves but ends neither within range of objective "
                f'{marker.id!r} nor closer to it ({before:.2f}" -> {after:.2f}")',
            )
        ]
    if legal is None:
        return []
    spot = _witness(
        move, selection, i, legal, lambda trial: in_range(trial, trial.end[mid], marker)
    )
    if spot is None:
        return []
    return [
        Violation(
            kind="could_end_in_range",
            models=(mid,),
            message=f"model {mid!r} moves but does not end within range of objective "
            f"{marker.id!r}, though it could: at ({spot.x:.3f}, {spot.y:.3f}) it is, with every "
            "other rule kept",
        )
    ]


def _after(
    move: MoveState,
    selection: Selection,
    starting: dict[str, set[str]],
    ending: dict[str, set[str]],
) -> list[Violation]:
    found = []
    engaged_units = set().union(*ending.values()) if ending else set()
    if selection.mode == "pile-in" and not engaged_units:
        found.append(
            Violation(
                kind="ends_unengaged",
                models=move.ids,
                message=f"unit {move.unit.id!r} ends its pile in unengaged: after a pile in the "
                "unit must be engaged",
            )
        )
    if selection.mode in ("pile-in", "ongoing"):
        for mid in move.ids:
            for lost in sorted(starting[mid] - ending[mid]):
                found.append(
                    Violation(
                        kind="left_engagement",
                        models=(mid,),
                        message=f"model {mid!r} started engaged with unit {lost!r} but does "
                        "not end engaged with it",
                    )
                )
    if selection.mode == "engaging":
        for unit_id in selection.units:
            if unit_id not in engaged_units:
                found.append(
                    Violation(
                        kind="not_engaged_with_selected",
                        models=move.ids,
                        message=f"unit {move.unit.id!r} ends not engaged with unit {unit_id!r}, "
                        "which its engaging consolidation selected",
                    )
                )
    if selection.marker is not None and not any(
        in_range(move, move.end[mid], selection.marker) for mid in move.ids
    ):
        found.append(
            Violation(
                kind="objective_out_of_range",
                models=move.ids,
                message=f"no model of unit {move.unit.id!r} ends within range of objective "
                f"{selection.marker.id!r}",
            )
        )
    return found


def _lengths(move: MoveState, skip: set[str]) -> Iterable[Violation]:
    """moved_too_far and unreachable, for every model that moved."""
    limit = (
        move.rules.pile_in_in
        if move.scenario.action.kind == ActionKind.PILE_IN
        else (move.rules.consolidate_in)
    )
    for mid in move.ids:
        if not move.moved(mid):
            continue
        start, end = move.start[mid], move.end[mid]
        turn = turning_in(start, end)
        if mid in skip:
            length = math.hypot(end.x - start.x, end.y - start.y) + turn
        else:
            length = path_length(move, mid, end, ()) + turn
        if math.isinf(length):
            yield Violation(
                kind="unreachable",
                models=(mid,),
                limit_in=limit,
                message=f"model {mid!r} has no legal path to ({end.x:.2f}, {end.y:.2f})",
            )
        elif length > limit + ROLL_SLACK_IN:
            yield Violation(
                kind="moved_too_far",
                models=(mid,),
                distance_in=length,
                limit_in=limit,
                message=f'model {mid!r} moves {length:.2f}", more than the {limit:g}" allowed',
            )


def _witness(
    move: MoveState, selection: Selection, i: int, legal: Legal, goal: Callable[[MoveState], bool]
) -> Placement | None:
    """A placement of acting model i alone that meets `goal` and keeps every rule of the
    selection with the rest of the unit as placed; None if no spot tried works."""
    mid = move.ids[i]
    start = move.start[mid]
    limit = (
        move.rules.pile_in_in
        if move.scenario.action.kind == ActionKind.PILE_IN
        else (move.rules.consolidate_in)
    )
    spots = _spots(move, selection, start)
    others = [move.now(o) for o in move.ids if o != mid] + [move.start[o] for o in move.others]
    tried = 0
    for x, y in sorted(spots, key=lambda s: math.hypot(s[0] - start.x, s[1] - start.y)):
        if math.hypot(x - start.x, y - start.y) > limit - CLEAR_IN:
            break
        fp = Footprint(start.base, x, y, start.z, start.facing)
        if any(edge_distance(fp, o) < CLEAR_IN and abs(o.z - fp.z) < 0.01 for o in others):
            continue
        placement = Placement(model=mid, x=round(x, 3), y=round(y, 3), z=start.z)
        trial_placements: Mapping[str, Placement] = {**move.placements, mid: placement}
        trial = MoveState(move.scenario, move.battlefield, 0, trial_placements)
        if not goal(trial):
            continue
        tried += 1
        if (
            legal(trial)
            and not list(_lengths(trial, set()))
            and not list(coherency_violations(trial))
            and not list(span_violations(trial))
            and not list(terrain_violations(trial))
            and not selection_violations(trial, selection, None)
        ):
            return placement
        if tried >= WITNESS_TRIALS:
            break
    return None


def _spots(move: MoveState, selection: Selection, start: Footprint) -> list[tuple[float, float]]:
    """Centres to try: rings around the selected units' models (engaged), or on and around the
    objective marker."""
    r = start.radius_in
    angles = np.linspace(0, 2 * np.pi, WITNESS_ANGLES, endpoint=False)
    rings: list[tuple[float, float, float]] = []
    if selection.marker is not None:
        m = selection.marker
        reach = m.diameter_mm / 25.4 / 2 + r
        rings = [(m.x, m.y, 0.0), (m.x, m.y, reach / 2), (m.x, m.y, reach - 0.05)]
    else:
        for u in selection.units:
            for model in move.scenario.unit_by_id[u].models:
                e = move.start[model.id]
                rings += [(e.x, e.y, e.radius_in + g + r) for g in WITNESS_GAPS_IN]
    return [
        (cx + rad * math.cos(a), cy + rad * math.sin(a))
        for cx, cy, rad in rings
        for a in (angles if rad > 0 else angles[:1])
    ]
