"""The independent judge of a rank-and-file charge (t9a-2022, whfb-6e, tow): from the scenario
and where each block of the result stands (unit, x, y, facing; no solver code). Every other key
of a block is a claim, re-derived and refused when wrong, never trusted.

Rules judged: the Charge Range against the distance; board, impassable terrain, other units,
the target itself (`target_overlap`); the front on the Target Facing (the arc's, or any under
T9A's Blocked Path when the target is first straight ahead); flush (`not_flush`; T9A's
Unaligned Charge only where no flush placement nor the target's turn can be); the end reached
by a charge move from the start (`rank_and_file_reach_end.py`), in some order for combined
charges; a written path replayed to the written end (`rank_and_file_path.py`); the initial
contact point kept; models in contact recounted; chargers not overlapping. WHFB 6e and TOW add
the charge move, the one wheel, failed moves and redirects (`rank_and_file_reach.py`).
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from shapely.geometry import LineString, Point, Polygon
from shapely.ops import nearest_points

from chargeopt.geometry.checker.rank_and_file_declaration import check_declaration
from chargeopt.geometry.checker.rank_and_file_failed import check_failed_charge
from chargeopt.geometry.checker.rank_and_file_flush import (
    FrontOnFacing,
    flush_keeping_contact,
    touched_facing,
)
from chargeopt.geometry.checker.rank_and_file_path import check_path
from chargeopt.geometry.checker.rank_and_file_reach import (
    charge_move_limit,
    check_reach,
    check_redirect,
)
from chargeopt.geometry.checker.rank_and_file_reach_end import check_end_reach
from chargeopt.geometry.rank_and_file.arcs import charger_arc
from chargeopt.geometry.rank_and_file.contact import CONTACT_TOLERANCE_IN, contact_counts
from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.geometry.rank_and_file.moves import first_hit_ahead, rotate_about
from chargeopt.geometry.rank_and_file.obstacles import (
    CHECK_DEPTH_IN,
    overlaps,
    table_obstacles,
)
from chargeopt.models import RankAndFileScenario, Result, Violation


def _v(kind: str, message: str, unit: str, **extra: Any) -> Violation:
    return Violation(kind=kind, message=message, models=(unit,), **extra)


def check_blocks(
    scenario: RankAndFileScenario, result: Result, roll: int | None = None
) -> list[Violation]:
    """Every rule a rank-and-file result breaks (empty: legal)."""
    out: list[Violation] = []
    declared = result.action.targets[0] if result.action and result.action.targets else None
    if declared and declared != scenario.action.target and declared in scenario.unit_by_id:
        out += check_redirect(scenario, scenario.action.chargers[0], declared)
        scenario = scenario.retargeted(declared)
    starts = {u.id: BlockPose.of(u) for u in scenario.units}
    poses = dict(starts)
    entries = {}
    for entry in result.blocks:
        unit = scenario.unit_by_id.get(str(entry.get("unit")))
        if unit is None:
            out.append(_v("unknown_unit", f"no unit {entry.get('unit')!r}", str(entry.get("unit"))))
            continue
        poses[unit.id] = BlockPose(
            unit.width_in,
            unit.depth_in,
            float(entry["x"]),
            float(entry["y"]),
            float(entry["facing"]),
        )
        entries[unit.id] = entry
    target = scenario.target
    tpose = poses[target.id]
    door = scenario.rules.charge_move != "t9a-roll"
    charging: list[str] = []
    witnessed: set[str] = set()
    for uid in scenario.action.chargers:
        entry = entries.get(uid)
        if (
            entry is not None
            and entry.get("outcome") in ("fails", "impossible")
            and entry.get("path")
        ):
            obstacles = table_obstacles(scenario, {uid, target.id})
            out += check_failed_charge(
                scenario, uid, entry, starts[uid], obstacles, tpose, roll, poses
            )
        out += check_declaration(scenario, uid, entry)
        if entry is None or entry.get("outcome", "charges") != "charges":
            continue
        if scenario.action.fled:
            out.append(_v("target_fled", f"{target.id} fled out of reach: no charge", uid))
        out += _check_charger(scenario, uid, entry, poses, starts, tpose, roll)
        replayed = check_path(
            uid,
            entry,
            starts[uid],
            starts[target.id],
            _path_obstacles(scenario, uid, entries, poses, starts),
            end=poses[uid],
            door=door,
        )
        out += replayed
        if _has_moves(entry) and not replayed:
            witnessed.add(uid)
        charging.append(uid)
    out += _check_reaches(scenario, charging, entries, poses, starts, roll, witnessed)
    if target.id in entries:
        out += _check_target_turn(scenario, entries[target.id], poses, starts)
    return out


def _check_charger(
    scenario: RankAndFileScenario,
    uid: str,
    entry: dict[str, Any],
    poses: dict[str, BlockPose],
    starts: dict[str, BlockPose],
    tpose: BlockPose,
    roll: int | None,
) -> list[Violation]:
    out: list[Violation] = []
    block, target = scenario.unit_by_id[uid], scenario.target
    pose = poses[uid]
    shape = pose.polygon
    tol = CONTACT_TOLERANCE_IN
    given: float | None = roll if roll is not None else scenario.action.roll_of(uid)
    limit = charge_move_limit(scenario, uid, roll)
    if limit is not None:
        given = limit
        out += check_reach(scenario, uid, entry, limit)
    distance = starts[uid].polygon.distance(starts[target.id].polygon)
    if given is not None and given < distance - 1e-9:
        out.append(
            _v(
                "out_of_range",
                f'{uid}\'s Charge Range {given:g}" is short of the {distance:.3f}" to {target.id}',
                uid,
                distance_in=distance,
                limit_in=float(given),
            )
        )
    others = table_obstacles(scenario, {uid, target.id}, poses)
    for o in others:
        if o.blocks(shape, CHECK_DEPTH_IN):
            what = {
                "enemy": "touches enemy unit",
                "friend": "overlaps unit",
                "board": "leaves",
                "terrain": "overlaps impassable terrain",
            }[o.kind]
            out.append(
                _v(
                    f"{o.kind}_clash",
                    f"{uid} {what} {o.name}",
                    uid,
                    terrain=(o.name,) if o.kind == "terrain" else (),
                )
            )
    if shape.distance(tpose.polygon) > tol:
        out.append(
            _v(
                "no_contact",
                f"{uid} does not touch {target.id}",
                uid,
                distance_in=shape.distance(tpose.polygon),
                limit_in=tol,
            )
        )
    if overlaps(shape, tpose.polygon, CHECK_DEPTH_IN):
        depth = _depth(shape, tpose)
        out.append(
            _v(
                "target_overlap",
                f'{uid} overlaps {target.id} by {depth:.3f}"',
                uid,
                distance_in=depth,
                limit_in=CHECK_DEPTH_IN,
            )
        )
    out += _check_front(scenario, uid, entry, pose, poses, starts, tpose)
    point = entry.get("initial_contact")
    if point is not None:
        gap = Point(point).distance(shape.exterior)
        if gap > tol:
            out.append(
                _v(
                    "contact_point_lost",
                    f'the initial contact point {tuple(point)} is {gap:.3f}" from {uid}',
                    uid,
                    distance_in=gap,
                    limit_in=tol,
                )
            )
    t_in, c_in = contact_counts(target, tpose, block, pose, scenario.rules.fight_over_gaps)
    t_count, c_count = len(t_in), len(c_in)
    for key, real in (("target_models_in_contact", t_count), ("models_in_contact", c_count)):
        if key in entry and entry[key] != real:
            out.append(_v("count_mismatch", f"{uid}: {key} is {real}, not {entry[key]}", uid))
    for other in scenario.action.chargers:
        if (
            other != uid
            and other in poses
            and pose.polygon.intersection(poses[other].polygon).area > 1e-6
        ):
            out.append(_v("chargers_overlap", f"{uid} overlaps {other}", uid))
    return out


def _depth(shape: Polygon, tpose: BlockPose) -> float:
    """How deep a block reaches into the target: the farthest of its corners inside."""
    inside = [Point(p) for p in shape.exterior.coords if tpose.polygon.contains(Point(p))]
    return max((tpose.polygon.exterior.distance(p) for p in inside), default=CHECK_DEPTH_IN)


def _check_front(
    scenario: RankAndFileScenario,
    uid: str,
    entry: dict[str, Any],
    pose: BlockPose,
    poses: dict[str, BlockPose],
    starts: dict[str, BlockPose],
    tpose: BlockPose,
) -> list[Violation]:
    """The front against the Target Facing, measured: which facing it touches (the arc's, or
    any under Blocked Path), flush as the ruleset demands, and the claims it contradicts."""
    out: list[Violation] = []
    block, target = scenario.unit_by_id[uid], scenario.target
    arc = charger_arc(starts[target.id], block, starts[uid], scenario.rules.arc_rule)
    on = touched_facing(pose, tpose)
    for key, real in (("arc", arc.arc), ("target_facing", on.name if on else None)):
        claimed = entry.get(key)
        if claimed is not None and real is not None and claimed != real:
            out.append(
                _v("claim_mismatch", f"{uid}'s {key} is {real}, not the {claimed} claimed", uid)
            )
    if on is None:
        out.append(
            _v(
                "front_not_on_facing",
                f"{uid}'s front does not touch any facing of {target.id}",
                uid,
            )
        )
        return out
    blocked_path = scenario.rules.charge_move == "t9a-roll" and _target_first_ahead(
        scenario, uid, starts
    )
    if on.name != arc.arc and not blocked_path:
        out.append(
            _v(
                "wrong_facing",
                f"{uid}'s front centre starts in {target.id}'s {arc.arc} arc, but its "
                f"front touches the {on.name} facing",
                uid,
            )
        )
    if not on.flush:
        out += _check_unflush(scenario, uid, pose, poses, tpose, on)
    return out


def _check_unflush(
    scenario: RankAndFileScenario,
    uid: str,
    pose: BlockPose,
    poses: dict[str, BlockPose],
    tpose: BlockPose,
    on: FrontOnFacing,
) -> list[Violation]:
    """A front not flush: 6e/tow and combined charges always align, T9A's Unaligned Charge
    only where no flush placement keeps the contact point (a clear one found refuses it)."""
    target = scenario.target
    what = (
        f"{uid}'s front is turned {abs(on.turn_deg):.3f} degrees and lifted "
        f"{max(abs(v) for v in on.lift_in):.3f}\" off {target.id}'s {on.name} facing"
    )
    single_t9a = scenario.rules.charge_move == "t9a-roll" and len(scenario.action.chargers) == 1
    if not single_t9a:
        return [_v("not_flush", f"{what}: {scenario.rules.edition} places it flush", uid)]
    out: list[Violation] = []
    outs = on.lift_in
    if min(outs) < -CONTACT_TOLERANCE_IN:
        out.append(
            _v(
                "front_passes_line",
                f"{uid}'s front passes the line of {target.id}'s {on.name} facing "
                f'by {-min(outs):.3f}"',
                uid,
            )
        )
    others = table_obstacles(scenario, {uid, target.id}, poses)
    flush = flush_keeping_contact(pose, tpose, on, others)
    if flush is not None:
        out.append(
            _v(
                "not_flush",
                f"{what}, yet flush at ({flush.x:.3f}, {flush.y:.3f}) it keeps the contact "
                "point and is clear: an Unaligned Charge only where no Align Move can be flush",
                uid,
            )
        )
    elif _target_turn_clear(scenario, pose, tpose, on, poses):
        out.append(
            _v(
                "not_flush",
                f"{what}, yet {target.id}'s special Align Move can turn it {on.turn_deg:.3f} "
                "degrees more about the contact point, flush and clear",
                uid,
            )
        )
    return out


def _target_turn_clear(
    scenario: RankAndFileScenario,
    pose: BlockPose,
    tpose: BlockPose,
    on: FrontOnFacing,
    poses: dict[str, BlockPose],
) -> bool:
    """Whether the target, turned about the contact point until flush, stands clear of the
    table and the charger (then its Align Move did not minimise the angle)."""
    seg = on.facing
    front = pose.facing_segment("front")
    point, _ = nearest_points(
        LineString([seg.start, seg.end]), LineString([front.start, front.end])
    )
    turned = rotate_about(tpose, (point.x, point.y), on.turn_deg)
    target = scenario.target.id
    chargers = set(scenario.action.chargers)
    table = table_obstacles(scenario, {target, *chargers}, poses)
    if any(overlaps(turned.polygon, o.shape, CHECK_DEPTH_IN) for o in table):
        return False
    return not any(overlaps(turned.polygon, poses[c].polygon, CHECK_DEPTH_IN) for c in chargers)


def _check_reaches(
    scenario: RankAndFileScenario,
    charging: list[str],
    entries: dict[str, dict[str, Any]],
    poses: dict[str, BlockPose],
    starts: dict[str, BlockPose],
    roll: int | None,
    witnessed: set[str],
) -> list[Violation]:
    """Each charger's end reached by a charge move from its start, in some order of moves
    (each moving past the earlier ones where they ended): the claimed order first, then every
    other; the fewest failures of the best order when none works. A charger that no path
    reaches even past no other charger fails in every order. A written path replayed
    clean to the end is a witness (`witnessed`): only a proof (6e/tow's least length over the
    move) refuses it then."""
    target = scenario.target
    t_start, t_end = starts[target.id], poses[target.id]

    def reach(uid: str, before: frozenset[str] | None) -> list[Violation]:
        """`uid`'s reach past the chargers in `before` where they ended and the others where
        they started (None: past no other charger at all)."""
        others = set(charging) - {uid}
        skip = {uid, target.id} | (others if before is None else set())
        moved = {u: poses[u] for u in before or ()}
        obstacles = table_obstacles(scenario, skip, {**starts, **moved})
        limit = charge_move_limit(scenario, uid, roll)
        found = check_end_reach(
            scenario, uid, starts[uid], poses[uid], t_start, t_end, obstacles, limit
        )
        return [v for v in found if v.kind == "unreachable"] if uid in witnessed else found

    if len(charging) > 1:
        alone = [v for uid in charging for v in reach(uid, None)]
        if alone:
            return alone
    claimed = tuple(sorted(charging, key=lambda u: entries[u].get("order") or 0))
    orders = [claimed, *(p for p in permutations(charging) if p != claimed)]
    cache: dict[tuple[str, frozenset[str]], list[Violation]] = {}
    best: list[Violation] | None = None
    for order in orders:
        fails: list[Violation] = []
        for i, uid in enumerate(order):
            key = (uid, frozenset(order[:i]))
            if key not in cache:
                cache[key] = reach(uid, key[1])
            fails += cache[key]
        if not fails:
            return []
        if best is None or len(fails) < len(best):
            best = fails
    return best or []


def _has_moves(entry: dict[str, Any]) -> bool:
    return any(s.get("move") in ("forward", "wheel") for s in entry.get("path") or [])


def _path_obstacles(
    scenario: RankAndFileScenario,
    uid: str,
    entries: dict[str, dict[str, Any]],
    poses: dict[str, BlockPose],
    starts: dict[str, BlockPose],
) -> list:
    """What the charger's path must miss: chargers that moved before it (their `order`) where
    they ended, every other unit where it started (the target before its turn)."""
    mine = entries[uid].get("order") or 0
    before = {
        u: poses[u]
        for u, e in entries.items()
        if u != uid and u in scenario.action.chargers and 0 < (e.get("order") or 0) < mine
    }
    return table_obstacles(scenario, {uid, scenario.target.id}, {**starts, **before})


def _target_first_ahead(
    scenario: RankAndFileScenario, uid: str, starts: dict[str, BlockPose]
) -> bool:
    shapes = {o.name: o.shape for o in table_obstacles(scenario, {uid}) if o.kind != "board"}
    hit = first_hit_ahead(starts[uid], shapes)
    return hit is not None and hit[0] == scenario.target.id


def _check_target_turn(
    scenario: RankAndFileScenario,
    entry: dict[str, Any],
    poses: dict[str, BlockPose],
    starts: dict[str, BlockPose],
) -> list[Violation]:
    """The target's special Align Move: a turn about the contact point, into nothing."""
    out: list[Violation] = []
    target = scenario.target
    pose = poses[target.id]
    point = entry.get("initial_contact")
    if point is not None:
        gap = Point(point).distance(pose.polygon.exterior)
        if gap > CONTACT_TOLERANCE_IN:
            out.append(
                _v(
                    "target_not_turned_about_contact",
                    f'{target.id} turns off its contact point ({gap:.3f}")',
                    target.id,
                )
            )
    for o in table_obstacles(scenario, {target.id, *scenario.action.chargers}, poses):
        if overlaps(pose.polygon, o.shape, CHECK_DEPTH_IN):
            out.append(_v("target_clash", f"{target.id}'s turn runs into {o.name}", target.id))
    return out
