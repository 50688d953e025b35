"""Can a charge move reach this placement at all? Decided from the start and the end alone
(a written path is not trusted for it):
- no move of any kind when the centre's free space separates start and end (a proof);
- WHFB 6e / TOW: the shortest one-wheel path to a first-touch pose the door closes onto the
  end (closed form per door angle, sampled every 0.1 degree and refined, plus the isolated
  pose a wheel from the start reaches as it touches) longer than the charge move is
  `unreachable`; within it, a clear witness path must exist among those that fit;
- T9A: the Snaking Forward Move has no length limit, so a clear witness path is needed (the
  one-wheel family to the end turned about a contact point or slid along the facing, or the
  start itself already touching). Without a witness nor a proof: `reach_unproven`, saying so.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator

from shapely.geometry import LineString, Polygon
from shapely.ops import nearest_points

from chargeopt.geometry.checker.rank_and_file_door import (
    Approach,
    OneWheel,
    approaches,
    first_clash,
    one_wheel_to,
    wheeled_into_touch,
)
from chargeopt.geometry.checker.rank_and_file_flush import shared_stretch, touched_facing
from chargeopt.geometry.checker.rank_and_file_separated import separated
from chargeopt.geometry.rank_and_file.contact import CONTACT_TOLERANCE_IN
from chargeopt.geometry.rank_and_file.frame import BlockPose, Vec, wrap_deg
from chargeopt.geometry.rank_and_file.moves import (
    first_hit_ahead,
    forward,
    rotate_about,
    wheel,
    wheel_sweep,
    wheel_travel,
)
from chargeopt.geometry.rank_and_file.obstacles import CHECK_DEPTH_IN, Obstacle, overlaps
from chargeopt.models import RankAndFileScenario, Violation

LENGTH_TOL_IN = 0.002
ONE_WHEEL_STEP_DEG = 0.1
"""6e/tow: the door's angle is sampled this finely, then each least length refined."""
ONE_WHEEL_TRIES = 500
T9A_TRIES = (100, 100, 300, 2000)
"""T9A: paths tried per stage (driven in; door and slides; coarse turns; fine turns)."""
SECOND_WHEEL_TRIES = 40
DRIVE_STEP_DEG = 1.0
T9A_WHEEL_DEG = 175.0
"""T9A's snaking wheels are not held to 90 degrees (the solver's own paths wheel 117.8)."""


def target_turn_pivot(before: BlockPose, after: BlockPose) -> Vec | None:
    """The fixed point of the target's turn (None: it did not turn)."""
    turn = math.radians(wrap_deg(after.facing - before.facing))
    if abs(turn) < 1e-9:
        return None
    c, s = math.cos(turn), math.sin(turn)
    tx = after.x - (c * before.x - s * before.y)
    ty = after.y - (s * before.x + c * before.y)
    det = (1 - c) ** 2 + s * s
    return (((1 - c) * tx - s * ty) / det, (s * tx + (1 - c) * ty) / det)


def end_before_target_turn(end: BlockPose, t_start: BlockPose, t_end: BlockPose) -> BlockPose:
    """Where the charger stood before the target turned about the contact point."""
    pivot = target_turn_pivot(t_start, t_end)
    if pivot is None:
        return end
    return rotate_about(end, pivot, -wrap_deg(t_end.facing - t_start.facing))


def hinges_of(end: BlockPose, target: BlockPose) -> list[Vec]:
    """The contact points a first touch can turn about onto `end`: the ends of the shared
    stretch of a flush front, else the point where the turned front touches."""
    on = touched_facing(end, target)
    if on is None:
        return []
    seg = on.facing
    if on.flush:
        stretch = shared_stretch(end, seg)
        if stretch is None:
            return []
        return [seg.point_at(stretch[0]), seg.point_at(stretch[1])]
    front = end.facing_segment("front")
    a, _ = nearest_points(LineString([front.start, front.end]), LineString([seg.start, seg.end]))
    return [(a.x, a.y)]


def check_end_reach(
    scenario: RankAndFileScenario,
    uid: str,
    start: BlockPose,
    end: BlockPose,
    t_start: BlockPose,
    t_end: BlockPose,
    obstacles: list[Obstacle],
    limit_in: float | None,
) -> list[Violation]:
    """`unreachable` (with the shortest length found) or `reach_unproven`; empty: a witness
    path reaches the end (or the end is illegal where it stands: the placement's own
    violations say so)."""
    if end.polygon.distance(t_end.polygon) > CONTACT_TOLERANCE_IN:
        return []
    if any(o.blocks(end.polygon, CHECK_DEPTH_IN) for o in obstacles) or overlaps(
        end.polygon, t_end.polygon, CHECK_DEPTH_IN
    ):
        return []
    witness, why = find_witness(scenario, start, end, t_start, t_end, obstacles, limit_in)
    if witness is not None:
        return []
    board = (scenario.board.width, scenario.board.height)
    if separated(start, end, board, obstacles, t_start.polygon):
        return [
            _v(
                "unreachable",
                f"no charge move of any kind reaches {uid}'s placement: the room its centre "
                "needs is cut between its start and its end",
                uid,
            )
        ]
    kind, message, extra = why
    return [_v(kind, f"{uid}: {message}", uid, **extra)]


def find_witness(
    scenario: RankAndFileScenario,
    start: BlockPose,
    end: BlockPose,
    t_start: BlockPose,
    t_end: BlockPose,
    obstacles: list[Obstacle],
    limit_in: float | None,
) -> tuple[Approach | None, tuple[str, str, dict]]:
    """A clear charge path to `end` (or None and why: kind, message, measured values)."""
    rules = scenario.rules
    t9a = rules.charge_move == "t9a-roll"
    end0 = end_before_target_turn(end, t_start, t_end) if t9a else end
    target = t_start.polygon
    if t9a and start.polygon.distance(target) <= CONTACT_TOLERANCE_IN:
        return Approach(start, (start.x, start.y), 0.0, one_wheel_to(start, start, "arc")), (
            "",
            "",
            {},
        )
    hinges = hinges_of(end0, t_start)
    if t9a:
        return _t9a_witness(start, end0, t_start, hinges, obstacles, rules.wheel_metric)
    found = approaches(start, end0, hinges, target, rules.wheel_metric, ONE_WHEEL_STEP_DEG)
    found = sorted(
        found + wheeled_into_touch(start, end0, hinges, rules.wheel_metric),
        key=lambda a: a.length_in,
    )
    if not found:
        return None, (
            "unreachable",
            "no forward-wheel-forward path reaches a pose that touches the target and turns "
            "onto this placement about a contact point",
            {},
        )
    least = found[0].length_in
    if limit_in is not None and least > limit_in + LENGTH_TOL_IN:
        return None, (
            "unreachable",
            f'the shortest charge path to this placement is {least:.3f}" (forward, one '
            f"{rules.wheel_metric} wheel, forward, the door closed), more than the charge move "
            f'of {limit_in:g}"',
            {"distance_in": least, "limit_in": float(limit_in)},
        )
    fits = [a for a in found if limit_in is None or a.length_in <= limit_in + LENGTH_TOL_IN]
    return _first_clash_free(start, [fits], (ONE_WHEEL_TRIES,), obstacles, target, door=True)


def _t9a_witness(
    start: BlockPose,
    end: BlockPose,
    target: BlockPose,
    hinges: list[Vec],
    obstacles: list[Obstacle],
    metric: str,
) -> tuple[Approach | None, tuple[str, str, dict]]:
    """T9A: families tried coarse to fine (the Snaking Forward Move has no length limit)."""
    poly = target.polygon

    def stages() -> Iterator[list[Approach]]:
        yield _driven_in(start, end, target, metric)
        yield approaches(start, end, hinges, poly, metric, 1.0, T9A_WHEEL_DEG) + _t9a_touches(
            start, end, target, metric, 8, None
        )
        yield _t9a_touches(start, end, target, metric, 8, 2.0)
        yield _t9a_touches(start, end, target, metric, 16, 0.5)

    found = _first_clash_free(start, stages(), T9A_TRIES, obstacles, poly)
    if found[0] is not None:
        return found
    return _after_a_first_wheel(start, end, target, hinges, obstacles, metric) or found


def _driven_in(start: BlockPose, end: BlockPose, target: BlockPose, metric: str) -> list[Approach]:
    """T9A: a wheel where the block stands (none, then every DRIVE_STEP_DEG each way), then
    straight ahead until the front first touches the target at a point of the facing the end
    stands on that the end still touches (the Align Move keeps it)."""
    on = touched_facing(end, target)
    if on is None:
        return []
    facing = LineString([on.facing.start, on.facing.end])
    out = []
    steps = round(T9A_WHEEL_DEG / DRIVE_STEP_DEG)
    for angle in [0.0, *(s * k * DRIVE_STEP_DEG for k in range(1, steps + 1) for s in (1, -1))]:
        turned = wheel(start, angle)
        if turned.polygon.distance(target.polygon) <= CONTACT_TOLERANCE_IN:
            continue
        hit = first_hit_ahead(turned, {"target": target.polygon})
        if hit is None:
            continue
        before = forward(turned, hit[1])
        front = before.facing_segment("front")
        c, _ = nearest_points(facing, LineString([front.start, front.end]))
        if c.distance(LineString([front.start, front.end])) > CONTACT_TOLERANCE_IN:
            continue
        if c.distance(end.polygon) > CONTACT_TOLERANCE_IN:
            continue
        travel = wheel_travel(start.width_in, angle, metric)
        path = OneWheel(0.0, angle, hit[1], travel + hit[1])
        if angle == 0:
            path = OneWheel(hit[1], 0.0, 0.0, hit[1])
        out.append(Approach(before, (c.x, c.y), 0.0, path))
    return out


def _after_a_first_wheel(
    start: BlockPose,
    end: BlockPose,
    target: BlockPose,
    hinges: list[Vec],
    obstacles: list[Obstacle],
    metric: str,
) -> tuple[Approach, tuple[str, str, dict]] | None:
    """T9A's two-wheel paths: a first wheel where the block stands (every 5 degrees each
    way, clear of everything), then the coarse one-wheel families from there."""
    poly = target.polygon
    for k in range(1, 19):
        for sign in (-1.0, 1.0):
            angle = sign * 5.0 * k
            if _blocked(wheel_sweep(start, angle), obstacles, poly):
                continue
            turned = wheel(start, angle)
            family = approaches(turned, end, hinges, poly, metric, 2.0, T9A_WHEEL_DEG)
            family += _t9a_touches(turned, end, target, metric, 8, 2.0)
            witness, _ = _first_clash_free(turned, [family], (SECOND_WHEEL_TRIES,), obstacles, poly)
            if witness is not None:
                return witness, ("", "", {})
    return None


def _blocked(area: Polygon, obstacles: list[Obstacle], target: Polygon) -> bool:
    return area.distance(target) <= 1e-9 or any(o.blocks(area, CHECK_DEPTH_IN) for o in obstacles)


def _first_clash_free(
    start: BlockPose,
    stages: Iterable[list[Approach]],
    tries: tuple[int, ...],
    obstacles: list[Obstacle],
    target: Polygon,
    door: bool = False,
) -> tuple[Approach | None, tuple[str, str, dict]]:
    """The first approach (shortest first, then spread) whose moves are clear."""
    clashes: dict[str, int] = {}
    tried, least = 0, math.inf
    for found, n in zip(stages, tries, strict=False):
        found = sorted(found, key=lambda a: a.length_in)
        least = min([least, *(a.length_in for a in found[:1])])
        for a in _spread(found, n):
            tried += 1
            hit = first_clash(start, a, obstacles, target, door=door)
            if hit is None:
                return a, ("", "", {})
            clashes[hit] = clashes.get(hit, 0) + 1
    if not tried:
        return None, (
            "reach_unproven",
            "no forward-wheel-forward path reaches a pose touching the target that the Align "
            "Move (or the door) turns onto this placement",
            {},
        )
    what = ", ".join(sorted(clashes, key=lambda k: -clashes[k]))
    return None, (
        "reach_unproven",
        f'no witness path found: the {tried} sampled paths that fit (shortest {least:.3f}") '
        f"run into {what}; neither reached nor proven unreachable",
        {"distance_in": least},
    )


def _spread(items: list[Approach], n: int) -> list[Approach]:
    """The shortest few, then an even sample of the rest."""
    if len(items) <= n:
        return items
    head = items[: n // 2]
    rest = items[n // 2 :]
    stride = len(rest) / (n - len(head))
    return head + [rest[int(i * stride)] for i in range(n - len(head))]


def _t9a_touches(
    start: BlockPose,
    end: BlockPose,
    target: BlockPose,
    metric: str,
    slides_n: int,
    turn_step_deg: float | None,
) -> list[Approach]:
    """T9A: first touches anywhere the Align Move can come from: a front corner (or the flush
    front, slid along the facing) on a point of the end's shared stretch, the block turned up
    to 90 degrees off flush each way (the Align Move picks it up and keeps that point)."""
    on = touched_facing(end, target)
    if on is None or not on.flush:
        return []
    seg = on.facing
    stretch = shared_stretch(end, seg)
    if stretch is None:
        return []
    lo, hi = stretch
    front = end.facing_segment("front")
    a, b = sorted((seg.along(front.start), seg.along(front.end)))
    d = seg.direction
    slides = [(lo - b) + (hi - a - lo + b) * i / slides_n for i in range(slides_n + 1)]
    across_d = start.local((start.x + d[0], start.y + d[1]))[0]
    if abs(wrap_deg(end.facing - start.facing)) < 1e-6 and abs(across_d) > 1e-9:
        straight = -start.local((end.x, end.y))[0] / across_d
        if lo - b <= straight <= hi - a:
            slides.append(straight)
    poses: list[tuple[Vec, BlockPose]] = []
    corners = [t for t in (0.0, seg.length_in) if lo - 1e-6 <= t <= hi + 1e-6]
    for s in slides:
        kept = seg.point_at(min(max(a + s, lo), hi))
        slid = end.moved(end.x + s * d[0], end.y + s * d[1], end.facing)
        poses.append((kept, slid))
        for t in corners:
            if turn_step_deg and a + s - 1e-6 <= t <= b + s + 1e-6:
                poses += _turned(slid, seg.point_at(t), target, turn_step_deg)
    for i in range(slides_n + 1 if turn_step_deg else 0):
        t = lo + (hi - lo) * i / slides_n
        for corner_at in (a, b):
            s = t - corner_at
            flush = end.moved(end.x + s * d[0], end.y + s * d[1], end.facing)
            poses += _turned(flush, seg.point_at(t), target, turn_step_deg)
    out = []
    for kept, before in poses:
        path = one_wheel_to(start, before, metric, T9A_WHEEL_DEG)
        if path is not None:
            out.append(Approach(before, kept, 0.0, path))
    return out


def _turned(
    flush: BlockPose, c: Vec, target: BlockPose, step_deg: float
) -> list[tuple[Vec, BlockPose]]:
    """`flush` turned about `c` every `step_deg` up to 90 degrees, each way that lifts."""
    return [
        (c, rotate_about(flush, c, sign * k * step_deg))
        for sign in (1.0, -1.0)
        if _lifts(flush, c, sign, target)
        for k in range(1, round(90 / step_deg) + 1)
    ]


def _lifts(flush: BlockPose, c: Vec, sign: float, target: BlockPose) -> bool:
    turned = rotate_about(flush, c, sign * 1.0)
    return turned.polygon.intersection(target.polygon).area <= 1e-7


def _v(kind: str, message: str, unit: str, **extra: object) -> Violation:
    return Violation(kind=kind, message=message, models=(unit,), **extra)
