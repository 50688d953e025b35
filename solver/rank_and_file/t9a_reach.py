"""A T9A charge's answer judged over every Snaking Forward Move, by its length alone.

The initial contact is made by a point of the charger's front, and no point of the front moves
farther than the move counts (a forward move moves it that far, a wheel's outer front corner
farthest), so a contact point p needs a move of at least the distance from p to the front as it
starts. The points of a facing within the Charge Range of the start front are one interval (the
distance along a line to a segment is convex); the best aligned placement keeping one of them
is a ceiling on every charge, whatever blocks the way. It settles `optimal` when the answer
meets it and `infeasible` when no facing point is in range; else the verdict stays over the
paths searched, and the proof says so.
"""

from __future__ import annotations

import math

from shapely.geometry import LineString, Point

from chargeopt.geometry.rank_and_file.frame import FACINGS, BlockPose, Segment
from chargeopt.geometry.rank_and_file.obstacles import table_obstacles
from chargeopt.geometry.rank_and_file.slides import Interval, facing_bases
from chargeopt.models import RankAndFileScenario, Result, Status
from chargeopt.solver.rank_and_file.align import align

WIDEN_IN = 1e-7
"""The interval in range is widened this much each way (a superset: still a ceiling)."""


def in_range(start: BlockPose, facing: Segment, range_in: float) -> Interval | None:
    """The facing's points within `range_in` of the charger's start front (None: none)."""
    front = LineString([start.corners["front-left"], start.corners["front-right"]])

    def dist(a: float) -> float:
        return front.distance(Point(facing.point_at(a)))

    lo, hi = 0.0, facing.length_in
    for _ in range(100):
        m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if dist(m1) <= dist(m2):
            hi = m2
        else:
            lo = m1
    best = (lo + hi) / 2
    if dist(best) > range_in + WIDEN_IN:
        return None
    ends = []
    for edge in (0.0, facing.length_in):
        if dist(edge) <= range_in:
            ends.append(edge)
            continue
        a, b = best, edge
        for _ in range(60):
            m = (a + b) / 2
            a, b = (m, b) if dist(m) <= range_in else (a, m)
        ends.append(b)
    lo_in, hi_in = ends
    return max(0.0, lo_in - WIDEN_IN), min(facing.length_in, hi_in + WIDEN_IN)


def ceiling(
    scenario: RankAndFileScenario, facings: list[str], range_in: float
) -> tuple[int, int, int] | None:
    """(aligned, target models, charger models) at the best aligned placement keeping a facing
    point in range, over `facings`; (0, 0, 0) when points are in range but no aligned slide
    keeps one; None when no point of them is in range."""
    charger, target = scenario.acting_unit, scenario.target
    start, pose = BlockPose.of(charger), BlockPose.of(target)
    obstacles = table_obstacles(scenario, {charger.id, target.id})
    best: tuple[int, int, int] | None = None
    for name in facings:
        facing = pose.facing_segment(name)
        span = in_range(start, facing, range_in)
        if span is None:
            continue
        bases = facing_bases(target, pose, facing, charger)
        choice = align(charger, facing, bases, obstacles, [span]).best
        key = (1, choice.target_models, choice.charger_models) if choice else (0, 0, 0)
        best = key if best is None else max(best, key)
    return best


def judged_over_every_path(scenario: RankAndFileScenario, result: Result) -> Result:
    """The result with its status and proof judged over every Snaking Forward Move."""
    if len(scenario.action.chargers) != 1 or not result.blocks:
        return result
    block = result.blocks[0]
    roll = result.action.roll if result.action else None
    range_in = float(roll) if roll is not None else _most_range(scenario)
    if result.status == Status.INFEASIBLE:
        if block.get("outcome") != "impossible":
            return result
        if ceiling(scenario, list(FACINGS), range_in) is None:
            extra = (
                f"; proven over every Snaking Forward Move: no point of any facing of "
                f"{scenario.target.id} is within {range_in:g}\" of the charger's front"
            )
            return result.model_copy(update={"proof": (result.proof or "") + extra})
        extra = (
            "; a verdict over the paths searched, not proven over every Snaking Forward Move "
            "(a path with more wheels, or through a gap narrower than the grids, is not tried)"
        )
        return result.model_copy(update={"proof": (result.proof or "") + extra})
    if result.status != Status.OPTIMAL:
        return result
    if roll is None:
        range_in = math.inf  # without a roll the charge is solved as if it reached
    facings = list(FACINGS) if block.get("blocked_path") else [block.get("arc")]
    best = ceiling(scenario, [f for f in facings if f], range_in)
    answer = (
        int(bool(block.get("aligned"))),
        block.get("target_models_in_contact", 0),
        block.get("models_in_contact", 0),
    )
    if best is not None and answer == best:
        proof = (
            "proven over every Snaking Forward Move: no aligned placement keeping a facing point "
            f"{_within(range_in)} has more in contact"
        )
        return result.model_copy(update={"proof": proof})
    if best is not None and answer > best:
        return result
    proof = (
        "best over the paths searched (forward-wheel-forward, else two wheels) and the slides "
        f"keeping their contact points; by length alone a placement with {best[1] if best else 0}"
        f" of {scenario.target.id}'s models in contact is not ruled out"
    )
    stats = {**result.stats, "bound_scope": "contact points within the Charge Range (every path)"}
    bound = {
        "aligned": best[0] if best else 0,
        "target_models_in_contact": best[1] if best else 0,
        "models_in_contact": best[2] if best else 0,
    }
    return result.model_copy(
        update={"status": Status.FEASIBLE, "proof": proof, "stats": stats, "bound": bound}
    )


def _within(range_in: float) -> str:
    if range_in == math.inf:
        return "(any point: no roll given)"
    return f"within {range_in:g}\" of the charger's front (the least any path to it needs)"


def _most_range(scenario: RankAndFileScenario) -> float:
    """The highest Charge Range the dice can give: 6 + 4 + Charge Speed."""
    return 10.0 + (scenario.acting_unit.profile.charge_speed or 0.0)
