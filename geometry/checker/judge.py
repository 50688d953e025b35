"""The independent rules checker: judges any placement of the acting unit (the solver's or a
person's) against the rules, and lists every broken rule with the models, terrain and
distances a judge needs to see it. It shares geometry primitives with the solver but none of
its candidate or constraint code, so a solver bug cannot hide itself.

Readings: base contact is an edge distance of at most `base_contact_tolerance_in` between
models at the same height; two bases at the same height (|dz| < 0.01") never overlap deeper
than `base_overlap_tolerance_in` (a numerical epsilon); a model without a placement is judged
where it started.

Precision: `precision_in` P judges positions measured to P (a summary's 0.01", a tape's 1 mm):
base contact, overlap of two bases, and overlap of a base with a wall, an impassable area or a
barricade within their tolerances plus the rounding error of each written position in the pair
(P/sqrt(2) each, `MoveState.contact_tolerance_in`); every other rule exactly as written. The
default, 0, judges the positions exactly."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from chargeopt.geometry.checker.assault_4e import (
    ASSAULT_4E_KINDS,
    charge_move_violations,
    consolidation_violations,
    order_violations,
    reinforcement_violations,
    target_contact_violations,
)
from chargeopt.geometry.checker.charge import (
    closer_violations,
    non_target_engagements,
    non_target_violations,
    target_violations,
)
from chargeopt.geometry.checker.charge_11e import (
    CHARGE_11E_KINDS,
    charge_11e_violations,
    charged_targets,
    skies_allowance,
    target_eligibility,
    with_targets,
)
from chargeopt.geometry.checker.close_11e import CLOSE_11E_KINDS, close_11e_violations
from chargeopt.geometry.checker.close_moves import CLOSE_MOVE_KINDS, close_move_violations
from chargeopt.geometry.checker.close_state import close_move_state
from chargeopt.geometry.checker.coherency import coherency_violations
from chargeopt.geometry.checker.fall_back import FALL_BACK_KINDS, check_fall_back
from chargeopt.geometry.checker.heroic_11e import HEROIC_11E_KINDS, heroic_11e_rules
from chargeopt.geometry.checker.move import move_violations
from chargeopt.geometry.checker.tokens import TOKEN_KINDS, with_tokens
from chargeopt.geometry.checker.tokens_close import CLOSE_TOKEN_KINDS, close_token_violations
from chargeopt.geometry.move_state import MoveState
from chargeopt.geometry.pairs import (
    SAME_HEIGHT_IN,
    Bases,
    depth_words,
    edge_distances,
    height_gaps,
    overlap_depths,
)
from chargeopt.geometry.pose import (
    KIND_WORDS,
    Surfaces,
    board_overhang,
    describe_overhang,
    terrain_intrusions,
)
from chargeopt.geometry.terrain import Battlefield
from chargeopt.models import (
    ASSAULT_4E,
    ELEVENTH,
    ActionKind,
    Placement,
    Scenario,
    ScenarioError,
    Violation,
)

VIOLATION_KINDS = (
    "unknown_model",
    "duplicate_model",
    "off_board",
    "overlap",
    "in_terrain",
    "not_on_surface",
    "upper_floor_forbidden",
    "moved_too_far",
    "moved_through_engagement",
    "unreachable",
    "not_closer",
    "target_not_engaged",
    "engaged_non_target",
    "coherency",
    "coherency_split",
    "false_contact",
    *TOKEN_KINDS,
    *CLOSE_TOKEN_KINDS,
    *CLOSE_MOVE_KINDS,
    *CLOSE_11E_KINDS,
    *HEROIC_11E_KINDS,
    *FALL_BACK_KINDS,
    *ASSAULT_4E_KINDS,
    *CHARGE_11E_KINDS,
)
HEIGHT_IN = 1e-6


def check_placement(
    scenario: Scenario,
    placements: Sequence[Placement],
    *,
    roll: int | None = None,
    battlefield: Battlefield | None = None,
    file: str = "<scenario>",
    token_witnesses: bool = True,
    precision_in: float = 0.0,
    order: Sequence[str] = (),
) -> list[Violation]:
    """Every rule the placement of the acting unit breaks (empty if it is legal). The roll is
    the argument, else the scenario's; `file` names the scenario in errors. Under wtc-walls,
    `token_witnesses` searches for normal positions a token model could have taken. A pile
    in, consolidation or heroic intervention needs no roll. `precision_in`: the positions are
    measured to it (see the module docstring; 0 is exact). A 40k-assault-4e charge is judged
    in its `order` of moves."""
    if precision_in < 0:
        raise ValueError(f"precision_in must be at least 0, not {precision_in}")
    action = scenario.action
    if action.kind == ActionKind.FALL_BACK:
        found, chosen = _roster(scenario, placements)
        fall_roll = action.roll if roll is None else roll
        return found + check_fall_back(
            scenario, chosen, fall_roll, file=file, precision_in=precision_in
        )
    if scenario.rules.edition == ASSAULT_4E:
        return _check_assault_4e(scenario, placements, battlefield, precision_in, order)
    if scenario.rules.edition == ELEVENTH and action.kind == ActionKind.HEROIC_INTERVENTION:
        field = battlefield or Battlefield.from_scenario(scenario)
        found, charge, charge_roll = heroic_11e_rules(scenario, placements, roll, field)
        return found + check_placement(
            charge,
            placements,
            roll=charge_roll,
            battlefield=field,
            file=file,
            precision_in=precision_in,
        )
    if action.kind != ActionKind.CHARGE:
        return _check_close_move(scenario, placements, battlefield, token_witnesses, precision_in)
    roll = action.roll if roll is None else roll
    if roll is None:
        raise ScenarioError(
            file,
            [
                (
                    "action.roll",
                    "a charge needs the roll to check the move distance",
                    "add roll = N or pass --roll N",
                )
            ],
        )
    eleventh: list[Violation] = []
    rolled = roll
    if scenario.rules.charge_targets_after_roll:
        battlefield = battlefield or Battlefield.from_scenario(scenario)
        targets = charged_targets(scenario, placements, battlefield)
        roll = skies_allowance(scenario, roll)
        eleventh = target_eligibility(scenario, targets, roll)
        scenario = with_targets(scenario, targets)
    found, chosen = _roster(scenario, placements)
    field = battlefield or Battlefield.from_scenario(scenario)
    move = MoveState(scenario, field, roll, chosen, precision_in)
    pose, bad = _pose(move)
    found += pose
    overlaps, hit_others = _overlaps(move)
    found += overlaps
    engagements = non_target_engagements(move)
    engaged_with: dict[str, set[str]] = {}
    for mine, _, unit_id, _, _ in engagements:
        engaged_with.setdefault(mine, set()).add(unit_id)
    if scenario.rules.charge_targets_after_roll:
        anyone = {u.id for u in move.non_targets}
        engaged_with = {m: anyone for m in move.ids}
    found += move_violations(move, bad | hit_others, engaged_with)
    found += closer_violations(move)
    found += target_violations(move)
    found += non_target_violations(move, engagements)
    found += coherency_violations(move)
    found += _false_contacts(move)
    if scenario.rules.charge_targets_after_roll:
        found += eleventh + charge_11e_violations(move, not found and not eleventh)
    if scenario.rules.wtc_walls or any(p.token for p in chosen.values()):

        def legal(trial: Mapping[str, Placement]) -> bool:
            return not check_placement(
                scenario,
                list(trial.values()),
                roll=rolled,
                battlefield=move.battlefield,
                file=file,
                token_witnesses=False,
                precision_in=precision_in,
            )

        found = with_tokens(move, found, legal if token_witnesses else None)
    return found


def _check_close_move(
    scenario: Scenario,
    placements: Sequence[Placement],
    battlefield: Battlefield | None,
    token_witnesses: bool = True,
    precision_in: float = 0.0,
) -> list[Violation]:
    """A pile in, consolidation or heroic intervention: the charge's checks of where models
    end, then the close-move rules (`close_moves`)."""
    found, chosen = _roster(scenario, placements)
    field = battlefield or Battlefield.from_scenario(scenario)
    move = close_move_state(scenario, field, chosen, precision_in)
    pose, bad = _pose(move)
    overlaps, hit_others = _overlaps(move)
    if scenario.rules.edition == ELEVENTH:
        found += pose + overlaps + close_11e_violations(move, bad | hit_others, _placed_legally)
        return found + list(_false_contacts(move))
    found += pose + overlaps + close_move_violations(move, bad | hit_others)
    found += _false_contacts(move)
    if scenario.rules.wtc_walls:

        def legal(trial: Mapping[str, Placement]) -> bool:
            return not check_placement(
                scenario,
                list(trial.values()),
                battlefield=move.battlefield,
                token_witnesses=False,
                precision_in=precision_in,
            )

        found += close_token_violations(move, legal if token_witnesses else None)
    return found


def _placed_legally(move: MoveState) -> bool:
    """Whether every model of a trial placement ends where it may (board, terrain, surfaces,
    no overlap): the part of the judgement an 11th-edition witness needs from here."""
    return not _pose(move)[0] and not _overlaps(move)[0]


def _check_assault_4e(
    scenario: Scenario,
    placements: Sequence[Placement],
    battlefield: Battlefield | None,
    precision_in: float,
    order: Sequence[str],
) -> list[Violation]:
    """A 40k-assault-4e move: where models end (board, terrain, overlaps, claimed contacts),
    coherency, then the move's own rules (`assault_4e`)."""
    found, chosen = _roster(scenario, placements)
    field = battlefield or Battlefield.from_scenario(scenario)
    move = MoveState(scenario, field, 0, chosen, precision_in)
    pose, _ = _pose(move)
    overlaps, _ = _overlaps(move)
    found += pose + overlaps + list(coherency_violations(move)) + list(_false_contacts(move))
    kind = scenario.action.kind
    if kind == ActionKind.CHARGE:
        found += charge_move_violations(move)
        found += target_contact_violations(move)
        found += non_target_violations(move, non_target_engagements(move))
        found += order_violations(move, order)
    elif kind == ActionKind.PILE_IN:
        found += reinforcement_violations(move)
    elif kind == ActionKind.CONSOLIDATE:
        found += consolidation_violations(move, order)
    return found


def unmoved_models(scenario: Scenario, placements: Sequence[Placement]) -> tuple[str, ...]:
    """The acting unit's models that no placement names: the checker judges them where they
    started, as a judge does with models a player did not move."""
    named = {p.model for p in placements}
    return tuple(m.id for m in scenario.acting_unit.models if m.id not in named)


def summarise(violations: Sequence[Violation]) -> str:
    """A human list, one violation a line, for the command line."""
    if not violations:
        return "no violations: the placement is legal"
    count = len(violations)
    lines = [f"{count} violation{'s' if count != 1 else ''}:"]
    lines += [f"  - [{v.kind}] {v.message}" for v in violations]
    return "\n".join(lines)


def _roster(
    scenario: Scenario, placements: Sequence[Placement]
) -> tuple[list[Violation], dict[str, Placement]]:
    """unknown_model, duplicate_model; and the first placement of each model. A model of the
    acting unit without a placement is judged where it started (`unmoved_models`)."""
    unit = scenario.acting_unit
    mine = {m.id for m in unit.models}
    found: list[Violation] = []
    chosen: dict[str, Placement] = {}
    for p in placements:
        if p.model not in mine:
            owner = scenario.model_index.get(p.model)
            where = f"it is in unit {owner[0].id!r}" if owner else "no model has that id"
            found.append(
                Violation(
                    kind="unknown_model",
                    models=(p.model,),
                    message=f"a placement names model {p.model!r}, which is not in the acting "
                    f"unit {unit.id!r} ({where})",
                )
            )
        elif p.model in chosen:
            found.append(
                Violation(
                    kind="duplicate_model",
                    models=(p.model,),
                    message=f"model {p.model!r} is placed more than once; the first placement "
                    "is the one checked",
                )
            )
        else:
            chosen[p.model] = p
    return found, chosen


def _pose(move: MoveState) -> tuple[list[Violation], set[str]]:
    """off_board, in_terrain, not_on_surface, upper_floor_forbidden; and the models whose end
    position is illegal whatever path led there."""
    field, rules = move.battlefield, move.rules
    tolerance = rules.base_contact_tolerance_in
    into_terrain = move.contact_tolerance_in()
    surfaces = Surfaces(field)
    climbs = rules.may_end_on_upper_floor(move.unit.keyword_set)
    found: list[Violation] = []
    bad: set[str] = set()
    for model_id in move.ids:
        fp = move.end[model_id]
        if past := board_overhang(fp, field.width, field.height):
            bad.add(model_id)
            found.append(
                Violation(
                    kind="off_board",
                    models=(model_id,),
                    message=(
                        f"model {model_id!r} sticks out of the board by {describe_overhang(past)}"
                    ),
                    distance_in=max(a for _, a in past),
                    limit_in=0.0,
                )
            )
        for piece, depth in terrain_intrusions(fp, field, into_terrain):
            bad.add(model_id)
            found.append(
                Violation(
                    kind="in_terrain",
                    models=(model_id,),
                    terrain=(piece.id,),
                    message=f'model {model_id!r} ends {depth:.2f}" deep inside '
                    f"{KIND_WORDS[piece.kind]} {piece.id!r}",
                    distance_in=depth,
                    limit_in=into_terrain,
                )
            )
        surface = surfaces.problem(fp, tolerance)
        if surface is not None:
            bad.add(model_id)
            floors = ", ".join(repr(i) for i in surface.floor_ids)
            found.append(
                Violation(
                    kind="not_on_surface",
                    models=(model_id,),
                    terrain=surface.floor_ids,
                    message=f"model {model_id!r} ends at z={fp.z} where no floor is"
                    if surface.overhang_in is None
                    else f"model {model_id!r} overhangs the edge of floor {floors} by "
                    f'{surface.overhang_in:.2f}"',
                    distance_in=surface.overhang_in,
                    limit_in=None if surface.overhang_in is None else tolerance,
                )
            )
        if fp.z > HEIGHT_IN and not climbs:
            bad.add(model_id)
            allowed = ", ".join(sorted(rules.upper_floor_keywords))
            found.append(
                Violation(
                    kind="upper_floor_forbidden",
                    models=(model_id,),
                    message=f"model {model_id!r} ends on an upper floor (z={fp.z}) but unit "
                    f"{move.unit.id!r} has none of the keywords {allowed}",
                )
            )
    return found, bad


def _overlaps(move: MoveState) -> tuple[list[Violation], set[str]]:
    """overlap: acting models with each other and with every other model, at the same height;
    and the acting models that overlap a model that does not move."""
    mine = move.end_bases
    others = Bases.of([move.start[i] for i in move.others])
    found: list[Violation] = []
    hit_others: set[str] = set()
    for bases, names, own in ((mine, move.ids, True), (others, move.others, False)):
        tolerance = move.overlap_tolerance_in(2 if own else 1)
        depth = overlap_depths(mine, bases)
        deep = (depth > tolerance) & (height_gaps(mine, bases) < SAME_HEIGHT_IN)
        if own:
            deep = np.triu(deep, k=1)
        for i, j in zip(*np.nonzero(deep), strict=True):
            a, b = (names[j], move.ids[i]) if own else (move.ids[i], names[j])
            if not own:
                hit_others.add(a)
            found.append(_overlap(a, b, float(depth[i, j]), tolerance))
    return found, hit_others


def _overlap(a: str, b: str, depth: float, tolerance: float) -> Violation:
    return Violation(
        kind="overlap",
        models=(a, b),
        distance_in=depth,
        limit_in=tolerance,
        message=f"model {a!r} overlaps {b!r} by {depth_words(depth)}",
    )


def _false_contacts(move: MoveState) -> Iterable[Violation]:
    """false_contact: a placement claiming base contact with a model it does not touch."""
    index = move.scenario.model_index
    for model_id, placement in move.placements.items():
        for other in placement.contact:
            tolerance = move.contact_tolerance_in(2 if other in move.end else 1)
            if other not in index or other == model_id:
                yield Violation(
                    kind="false_contact",
                    models=(model_id, other),
                    message=f"model {model_id!r} claims base contact with {other!r}, "
                    "which is no other model",
                )
                continue
            a, b = Bases.of([move.now(model_id)]), Bases.of([move.now(other)])
            gap = float(edge_distances(a, b)[0, 0])
            level = float(height_gaps(a, b)[0, 0])
            if gap > tolerance or level >= SAME_HEIGHT_IN:
                where = f'{gap:.2f}" apart' + (
                    f' and {level:.2f}" apart in height' if level >= SAME_HEIGHT_IN else ""
                )
                yield Violation(
                    kind="false_contact",
                    models=(model_id, other),
                    distance_in=gap,
                    limit_in=tolerance,
                    message=f"model {model_id!r} claims base contact with {other!r}, but they "
                    f"are {where}",
                )
