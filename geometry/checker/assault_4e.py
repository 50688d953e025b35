"""40k-assault-4e: the charge replayed in its order of moves, the reinforcement (pile-in) move
and consolidation (seed 001; readings in models/RULES.md).

The charge: every model's move along its shortest legal path within its assault range (not
through models, not through a gap narrower than its base: paths run among obstacles grown by
the base's radius; not within 1" of an enemy unit not charged; difficult terrain by the
difficult roll); then the order: the first model is the one nearest the charged unit and ends
in base contact with the nearest model of it; each later one ends within 2" of a model already
moved, clear of every model still standing; and takes the best preference open to it at its
step (1 contact an enemy model not yet engaged, 2 an engaged one, 3 end within 2" of an engaged
unit mate). A skipped preference is reported only with a witness: a spot on a ring (base
contact with the enemy model, or 1" off the engaged mate) at a multiple of `WITNESS_STEP_DEG`,
legal with `WITNESS_MARGIN_IN` to spare on every limit."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from chargeopt.geometry.assault_moves import assault_lengths, free_lengths
from chargeopt.geometry.checker import assault_4e_closest as closest
from chargeopt.geometry.footprints import Footprint
from chargeopt.geometry.move_state import MoveState
from chargeopt.geometry.pairs import RANGE_SLACK_IN
from chargeopt.geometry.paths import obstacle_map
from chargeopt.geometry.standing import crossed, with_standing
from chargeopt.models import RoundBase, Unit, Violation, assault_range_of

ASSAULT_4E_KINDS = (
    "order_missing",
    "first_model_not_nearest",
    "first_contact_not_nearest",
    "chain_broken",
    "order_blocked",
    "moved_through_model",
    "preference_skipped",
    "engaged_model_moved",
    "reinforcement_short",
    "reinforcement_not_closest",
)
WITNESS_STEP_DEG = closest.WITNESS_STEP_DEG
WITNESS_MARGIN_IN = closest.WITNESS_MARGIN_IN
_gaps, _at, _on_open_ground = closest.gaps, closest.at, closest.on_open_ground


def _non_target_units(move: MoveState) -> list[str]:
    return sorted(u.id for u in move.non_targets)


def charge_move_violations(move: MoveState) -> list[Violation]:
    """moved_too_far: an end no legal assault move reaches."""
    found = []
    scenario = move.scenario
    range_in = assault_range_of(move.unit, scenario.rules)
    roll = scenario.action.difficult_roll
    for mid in move.ids:
        if not move.moved(mid):
            continue
        end = move.end[mid]
        length = assault_lengths(
            scenario,
            move.battlefield,
            mid,
            np.array([end.x]),
            np.array([end.y]),
            end.z,
            range_in=range_in + RANGE_SLACK_IN,
            difficult_roll=roll,
            avoid_units=_non_target_units(move),
        )[0]
        if np.isinf(length):
            slowed = f', {roll}" through difficult terrain' if roll else ""
            found.append(
                Violation(
                    kind="moved_too_far",
                    models=(mid,),
                    limit_in=range_in,
                    message=f"model {mid!r} cannot reach its end along a legal path within its "
                    f'assault range of {range_in:g}"{slowed} (not through models, gaps '
                    'narrower than its base, or within 1" of an enemy unit not charged)',
                )
            )
    return found


def target_contact_violations(move: MoveState) -> list[Violation]:
    """target_not_engaged: a charged unit no model ends in base contact with (a unit charges
    several only if it reaches them all)."""
    touched = {e for m in move.ids for e in move.in_target_contact[m]}
    return [
        Violation(
            kind="target_not_engaged",
            models=tuple(m.id for m in target.models),
            message=f"no model of unit {move.unit.id!r} ends in base contact with charged unit "
            f"{target.id!r}",
        )
        for target in move.targets
        if not touched & {m.id for m in target.models}
    ]


def order_violations(move: MoveState, order: Sequence[str]) -> list[Violation]:
    """The order of moves replayed: first model and its contact, the 2" chain, no end on a
    model still standing, and each step's preference (with a witness)."""
    ids = list(move.ids)
    if sorted(order) != sorted(ids) or len(set(order)) != len(order):
        return [
            Violation(
                kind="order_missing",
                models=tuple(ids),
                message="a 40k-assault-4e charge is judged in its order of moves: the result's "
                f"order must name each of {', '.join(ids)} once (got {list(order)})",
            )
        ]
    found = _first_violations(move, order[0])
    found += _through_mates(move, order[0], [], 1)
    rules = move.rules
    moved: list[str] = [order[0]]
    for step, mid in enumerate(order[1:], start=2):
        end = move.end[mid]
        chain = _gaps([end], [move.end[m] for m in moved])[0]
        if chain.min() > rules.coherency_range_in + RANGE_SLACK_IN:
            found.append(
                Violation(
                    kind="chain_broken",
                    models=(mid,),
                    distance_in=float(chain.min()),
                    limit_in=rules.coherency_range_in,
                    message=f'model {mid!r} (step {step}) ends {chain.min():.2f}" from the '
                    f'nearest model already moved, more than {rules.coherency_range_in:g}"',
                )
            )
        standing = [m for m in ids if m not in moved and m != mid]
        if standing:
            depth = -_gaps([end], [move.start[m] for m in standing])[0]
            for m, d in zip(standing, depth, strict=True):
                if d > move.overlap_tolerance_in(1):
                    found.append(
                        Violation(
                            kind="order_blocked",
                            models=(mid, m),
                            message=f"model {mid!r} (step {step}) ends on {m!r}, which has not "
                            "moved yet",
                        )
                    )
        found += _through_mates(move, mid, moved, step)
        found += _preference(move, moved, mid, step)
        moved.append(mid)
    return found


def standing_mates(move: MoveState, mid: str, moved: Sequence[str]) -> dict[str, Footprint]:
    """The unit mates standing while `mid` moves: those in `moved` where they ended, the
    others where they start."""
    return {
        m: (move.end[m] if m in moved else move.start[m]) for m in move.ids if m != mid
    }


def _through_mates(move: MoveState, mid: str, moved: Sequence[str], step: int) -> list[Violation]:
    """moved_through_model: `mid` reaches its end within its assault range only through a
    unit mate standing at its step (seed 001: "models may not move through friendly or enemy
    models")."""
    if not move.moved(mid):
        return []
    scenario = move.scenario
    range_in = assault_range_of(move.unit, scenario.rules) + RANGE_SLACK_IN
    end = move.end[mid]
    standing = standing_mates(move, mid, moved)

    def length(blocking: dict[str, Footprint]) -> float:
        return float(
            assault_lengths(
                scenario,
                move.battlefield,
                mid,
                np.array([end.x]),
                np.array([end.y]),
                end.z,
                range_in=range_in,
                difficult_roll=scenario.action.difficult_roll,
                avoid_units=_non_target_units(move),
                standing=blocking,
            )[0]
        )

    if np.isfinite(length(standing)) or not np.isfinite(length({})):
        return []
    return [_through(move, mid, standing, step, "its assault range")]


def _through(
    move: MoveState, mid: str, standing: dict[str, Footprint], step: int, limit: str
) -> Violation:
    """The violation naming the mates the shortest path that ignores them passes through."""
    omap = obstacle_map(move.scenario, move.battlefield, mid)
    end = move.end[mid]
    path = omap.path_field(omap.mover.start).path_to(end.x, end.y)
    hit = crossed(path, standing, omap.mover.clearance_in) or tuple(standing)
    names = ", ".join(repr(m) for m in hit)
    return Violation(
        kind="moved_through_model",
        models=(mid, *hit),
        message=f"model {mid!r} (step {step}) reaches its end within {limit} only by moving "
        f"through {names}, standing at that moment; models may not move through other models",
    )


def _first_violations(move: MoveState, first: str) -> list[Violation]:
    """The first model is the nearest to the primary target, in contact with its nearest model
    (ties within the base contact tolerance are the player's choice: any tied one passes)."""
    primary = move.scenario.unit_by_id[move.scenario.action.targets[0]]
    foes = [move.start[m.id] for m in primary.models]
    starts = [move.start[m] for m in move.ids]
    gaps = _gaps(starts, foes)
    nearest = gaps.min()
    out = []
    i = move.ids.index(first)
    tie = move.rules.base_contact_tolerance_in
    if gaps[i].min() > nearest + tie:
        who = move.ids[int(np.argmin(gaps.min(axis=1)))]
        out.append(
            Violation(
                kind="first_model_not_nearest",
                models=(first, who),
                message=f'the first model moved is {first!r}, {gaps[i].min():.2f}" from unit '
                f'{primary.id!r}; {who!r} is nearer ({nearest:.2f}") and must move first',
            )
        )
    closest = [
        primary.models[j].id for j in np.flatnonzero(gaps[i] <= gaps[i].min() + tie)
    ]
    touched = set(move.in_target_contact[first])
    if not touched & set(closest):
        out.append(
            Violation(
                kind="first_contact_not_nearest",
                models=(first, *closest),
                message=f"the first model {first!r} must end in base contact with "
                f"{' or '.join(map(repr, closest))}, the nearest model of unit {primary.id!r}",
            )
        )
    return out


def _category(move: MoveState, mid: str, moved: list[str], engaged: set[str]) -> int:
    touches = move.in_target_contact[mid]
    if any(e not in engaged for e in touches):
        return 1
    if touches:
        return 2
    mates = [move.end[m] for m in moved if move.in_target_contact[m]]
    support = move.rules.fight_support_range_in or 0.0
    if mates and _gaps([move.end[mid]], mates)[0].min() <= support + RANGE_SLACK_IN:
        return 3
    return 4


def _preference(move: MoveState, moved: list[str], mid: str, step: int) -> list[Violation]:
    """preference_skipped: a witness spot of a better category than the one taken."""
    engaged = {e for m in moved for e in move.in_target_contact[m]}
    taken = _category(move, mid, moved, engaged)
    start = move.start[mid]
    if taken == 1 or not isinstance(start.base, RoundBase):
        return []
    foes = {m.id: move.start[m.id] for t in move.targets for m in t.models}
    rings: list[tuple[int, str, Footprint, float]] = []
    for fid, foe in foes.items():
        better = 1 if fid not in engaged else 2
        if better < taken and foe.is_round:
            rings.append((better, fid, foe, 0.0))
    if taken == 4:
        for m in moved:
            if move.in_target_contact[m] and move.end[m].is_round:
                rings.append((3, m, move.end[m], 1.0))
    for better, what, centre, gap in sorted(rings, key=lambda r: r[0]):
        spot = _witness(move, moved, mid, centre, gap)
        if spot is not None:
            goal = {
                1: f"base contact with {what!r}, an enemy model not yet engaged",
                2: f"base contact with {what!r}, an engaged enemy model",
                3: f'2" of {what!r}, a unit mate engaged in combat',
            }[better]
            return [
                Violation(
                    kind="preference_skipped",
                    models=(mid, what),
                    message=f"model {mid!r} (step {step}) could have ended in {goal} at "
                    f'({spot[0]:.3f}, {spot[1]:.3f}), {spot[2]:.2f}" along a legal path, '
                    "which the seed prefers to where it ended",
                )
            ]
    return []


def _witness(
    move: MoveState, moved: list[str], mid: str, centre: Footprint, gap: float
) -> tuple[float, float, float] | None:
    """A legal spot for `mid` on the ring `gap` off `centre`, at this step, or None."""
    start = move.start[mid]
    d = start.radius_in + centre.radius_in + gap
    angles = np.radians(np.arange(0.0, 360.0, WITNESS_STEP_DEG))
    xs, ys = centre.x + d * np.cos(angles), centre.y + d * np.sin(angles)
    margin = WITNESS_MARGIN_IN
    r = start.radius_in + margin
    bf = move.battlefield
    ok = (xs >= r) & (xs <= bf.width - r) & (ys >= r) & (ys <= bf.height - r)
    spots = [_at(start, x, y) for x, y in zip(xs, ys, strict=True)]
    mates = standing_mates(move, mid, moved)
    standing = [move.start[m] for m in move.others] + list(mates.values())
    keep_off = [s for s in standing if s is not centre]
    if keep_off:
        ok &= (_gaps(spots, keep_off) >= margin).all(axis=1)
    near = [move.start[m.id] for u in move.non_targets for m in u.models]
    if near:
        ok &= (_gaps(spots, near) >= move.rules.engagement_range_in + margin).all(axis=1)
    chain = _gaps(spots, [move.end[m] for m in moved])
    ok &= (chain <= move.rules.coherency_range_in - margin).any(axis=1)
    if gap > 0:
        support = move.rules.fight_support_range_in or 0.0
        ok &= _gaps(spots, [centre])[:, 0] <= support - margin
    idx = np.flatnonzero(ok)
    if not len(idx):
        return None
    lengths = assault_lengths(
        move.scenario,
        bf,
        mid,
        xs[idx],
        ys[idx],
        start.z,
        range_in=assault_range_of(move.unit, move.rules),
        difficult_roll=move.scenario.action.difficult_roll,
        avoid_units=_non_target_units(move),
        margin_in=margin,
        standing=mates,
    )
    if not np.isfinite(lengths).any():
        return None
    k = int(np.argmin(lengths))
    return float(xs[idx[k]]), float(ys[idx[k]]), float(lengths[k])


def locked_units(move: MoveState) -> list[Unit]:
    """The enemy units the acting unit is locked with: `locked_with`, else every enemy unit one
    of its models touches at the start."""
    unit, scenario = move.unit, move.scenario
    if unit.locked_with:
        return [scenario.unit_by_id[u] for u in unit.locked_with]
    starts = [move.start[m] for m in move.ids]
    out = []
    for enemy in scenario.enemies_of(unit):
        gaps = _gaps(starts, [move.start[m.id] for m in enemy.models])
        if (gaps <= move.rules.base_contact_tolerance_in).any():
            out.append(enemy)
    return out


def reinforcement_violations(move: MoveState) -> list[Violation]:
    """Engaged models stay; the others move at most 6" in a straight line (terrain and models
    do not block), and end in base contact with a locked enemy if a witness shows they could,
    else as close to one as a witness shows they could get."""
    rules = move.rules
    limit = rules.reinforcement_in or 0.0
    foes = [move.start[m.id] for u in locked_units(move) for m in u.models]
    starts = [move.start[m] for m in move.ids]
    engaged_at_start = (
        (_gaps(starts, foes) <= rules.base_contact_tolerance_in).any(axis=1)
        if foes
        else np.zeros(len(starts), bool)
    )
    found = []
    ends = [move.end[m] for m in move.ids]
    in_contact = (
        (_gaps(ends, foes) <= move.contact_tolerance_in()).any(axis=1)
        if foes
        else np.zeros(len(ends), bool)
    )
    for i, mid in enumerate(move.ids):
        if not move.moved(mid):
            if engaged_at_start[i] or in_contact[i]:
                continue
        elif engaged_at_start[i]:
            found.append(
                Violation(
                    kind="engaged_model_moved",
                    models=(mid,),
                    message=f"model {mid!r} was in base contact with the enemy and may not make "
                    "a reinforcement move",
                )
            )
            continue
        s, e = move.start[mid], move.end[mid]
        length = float(free_lengths((s.x, s.y), np.array([e.x]), np.array([e.y]))[0])
        if length > limit + RANGE_SLACK_IN:
            found.append(
                Violation(
                    kind="moved_too_far",
                    models=(mid,),
                    distance_in=length,
                    limit_in=limit,
                    message=f'model {mid!r} moves {length:.2f}", more than the reinforcement '
                    f'move of {limit:g}"',
                )
            )
        if not in_contact[i] and foes:
            spot = _reinforcement_witness(move, mid, foes, limit)
            if spot is not None:
                found.append(
                    Violation(
                        kind="reinforcement_short",
                        models=(mid,),
                        message=f"model {mid!r} ends out of base contact, but it could have "
                        f"reached contact at ({spot[0]:.3f}, {spot[1]:.3f}), "
                        f'{spot[2]:.2f}" away, in coherency',
                    )
                )
                continue
            near = closest.closer_witness(move, mid, foes, limit)
            if near is not None:
                found.append(
                    Violation(
                        kind="reinforcement_not_closest",
                        models=(mid,),
                        distance_in=near[3],
                        message=f'model {mid!r} ends {near[3]:.2f}" from the nearest enemy '
                        f"model it is locked with, but it could have got closer: "
                        f'{near[2]:.2f}" at ({near[0]:.3f}, {near[1]:.3f}), within its move, '
                        "on open ground and in coherency",
                    )
                )
    return found


def _reinforcement_witness(
    move: MoveState, mid: str, foes: list[Footprint], limit: float
) -> tuple[float, float, float] | None:
    start = move.start[mid]
    if not isinstance(start.base, RoundBase):
        return None
    margin = WITNESS_MARGIN_IN
    angles = np.radians(np.arange(0.0, 360.0, WITNESS_STEP_DEG))
    others = [move.start[m] for m in move.others] + [move.end[m] for m in move.ids if m != mid]
    mates = [move.end[m] for m in move.ids if m != mid]
    for foe in foes:
        if not foe.is_round:
            continue
        d = start.radius_in + foe.radius_in
        xs, ys = foe.x + d * np.cos(angles), foe.y + d * np.sin(angles)
        length = free_lengths((start.x, start.y), xs, ys)
        ok = length <= limit - margin
        spots = [_at(start, x, y) for x, y in zip(xs, ys, strict=True)]
        keep_off = [o for o in others if o is not foe]
        if keep_off:
            ok &= (_gaps(spots, keep_off) >= margin).all(axis=1)
        ok &= _on_open_ground(move, mid, xs, ys)
        if mates and ok.any():
            ok[ok] = closest.in_coherency(move, mid, [spots[k] for k in np.flatnonzero(ok)])
        if ok.any():
            k = int(np.flatnonzero(ok)[np.argmin(length[ok])])
            return float(xs[k]), float(ys[k]), float(length[k])
    return None


def consolidation_violations(move: MoveState, order: Sequence[str] = ()) -> list[Violation]:
    """moved_too_far: each model at most 3" along its shortest legal path (difficult terrain
    ignored; other models and walls block); moved_through_model: within 3" only through a
    unit mate standing at its step, replaying `order` (the moved models not in it move after
    it, in the scenario's order; those that stay stand where they are)."""
    limit = move.rules.consolidate_in
    found = []
    steps = [m for m in order if m in move.ids]
    steps += [m for m in move.ids if m not in steps and move.moved(m)]
    moved: list[str] = []
    for step, mid in enumerate(steps, start=1):
        if not move.moved(mid):
            moved.append(mid)
            continue
        end = move.end[mid]
        omap = obstacle_map(move.scenario, move.battlefield, mid)
        length = omap.path_field(omap.mover.start).length_to(end.x, end.y)
        if length > limit + RANGE_SLACK_IN:
            found.append(
                Violation(
                    kind="moved_too_far",
                    models=(mid,),
                    distance_in=None if np.isinf(length) else length,
                    limit_in=limit,
                    message=f"model {mid!r} cannot reach its end within the consolidation move "
                    f'of {limit:g}" along a legal path',
                )
            )
        else:
            standing = standing_mates(move, mid, moved)
            around = with_standing(omap, standing)
            if around.path_field(around.mover.start).length_to(end.x, end.y) > (
                limit + RANGE_SLACK_IN
            ):
                found.append(_through(move, mid, standing, step, f'the {limit:g}" move'))
        moved.append(mid)
    return found
