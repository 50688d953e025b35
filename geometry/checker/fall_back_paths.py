"""Two fall back rules judged on the models' paths together (40k-assault-4e, seed 001): no
doubling back (one direction d for the whole unit along which every leg gains, each path
turning one way only and keeping to a quarter turn on one side of d), and mates not walked
through (some order of single moves in which each path clears the mates already moved, at
their ends, and those not yet moved, at their starts)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping, Sequence

import numpy as np
import shapely
from shapely.geometry import LineString, Point

from chargeopt.models import Violation

Path = Sequence[tuple[float, float]]
RIGHT_DEG = 90.0


def doubled_back(
    paths: Mapping[str, Path], toward: np.ndarray, slack_in: float
) -> Iterator[Violation]:
    """`doubled_back` when a path turns both ways (a zig-zag: its legs' headings do not turn
    one way only), or when no direction d (within 90 degrees of straight toward the own edge)
    has every leg of every path gaining strictly along it with each path's legs within a
    quarter turn on one side of d (a there-and-back, or a path sweeping more than a quarter
    turn)."""
    legs = {m: _leg_angles(path, toward, slack_in) for m, path in paths.items()}
    both_ways = [m for m, a in legs.items() if not _one_way(a)]
    for m in both_ways:
        yield Violation(
            kind="doubled_back",
            models=(m,),
            message=f"model {m!r} doubles back: its path turns one way and then the other "
            "(a zig-zag), not around an obstruction",
        )
    if both_ways:
        return
    moved = {m: a for m, a in legs.items() if a}
    if moved and not _one_direction(list(moved.values())):
        yield Violation(
            kind="doubled_back",
            models=tuple(moved),
            message="the unit doubles back: no one direction has every leg of every model's "
            "path gaining along it, each path keeping to a quarter turn on one side of it",
        )


def _leg_angles(path: Path, toward: np.ndarray, slack_in: float) -> list[tuple[float, float]]:
    """Each leg's heading (degrees from straight toward the edge) and how far its written
    ends may bend it (degrees)."""
    out = []
    for a, b in itertools.pairwise(path):
        step = np.subtract(b, a)
        size = float(np.hypot(*step))
        if size <= 1e-12:
            continue
        ahead = float(np.dot(step, toward))
        across = float(toward[0] * step[1] - toward[1] * step[0])
        lean = math.degrees(math.asin(min(1.0, slack_in / size)))
        out.append((math.degrees(math.atan2(across, ahead)), lean))
    return out


def _one_way(angles: list[tuple[float, float]]) -> bool:
    """Whether the headings never turn back: all turns one way (within the legs' leans)."""
    turns = [(b - a, la + lb) for (a, la), (b, lb) in itertools.pairwise(angles)]
    return all(t >= -lean for t, lean in turns) or all(t <= lean for t, lean in turns)


def _one_direction(models: list[list[tuple[float, float]]]) -> bool:
    """Whether some d in [-90, 90] has |phi - d| < 90 for every leg (strict: a leg straight
    across d gains nothing) and each model's legs all at or past d on one side (within their
    leans): between d and d + 90, or between d - 90 and d."""
    every = [leg for legs in models for leg in legs]
    ends = {-RIGHT_DEG, RIGHT_DEG}
    for phi, lean in every:
        ends |= {phi - RIGHT_DEG, phi + RIGHT_DEG, phi + lean, phi - lean}
    points = sorted(e for e in ends if -RIGHT_DEG <= e <= RIGHT_DEG)
    tries = points + [(a + b) / 2 for a, b in itertools.pairwise(points)]
    return any(_fits(d, every, models) for d in tries)


def _fits(d: float, every: list[tuple[float, float]], models: list[list]) -> bool:
    if any(abs(phi - d) >= RIGHT_DEG for phi, _ in every):
        return False
    return all(
        all(phi >= d - lean for phi, lean in legs) or all(phi <= d + lean for phi, lean in legs)
        for legs in models
    )


def mates_in_the_way(
    paths: Mapping[str, Path], radii: Mapping[str, float], slack_in: float
) -> Iterator[Violation]:
    """`path_blocked` when a path runs through a mate both where it stood and where it ends,
    or when no order of the single moves keeps every path clear of the mates' bases."""
    lines = {
        m: LineString(p) if len(p) > 1 and p[0] != p[-1] else Point(p[0]) for m, p in paths.items()
    }
    first: dict[str, set[str]] = {m: set() for m in paths}
    """first[k]: the models that must move before k."""
    for j, k in itertools.permutations(paths, 2):
        if paths[j][0] == paths[j][-1] and len(paths[j]) <= 2:
            continue
        room = radii[j] + radii[k] - slack_in
        through_start = float(shapely.distance(lines[j], Point(paths[k][0]))) < room
        through_end = float(shapely.distance(lines[j], Point(paths[k][-1]))) < room
        if through_start and through_end:
            yield Violation(
                kind="path_blocked",
                models=(j, k),
                message=f"model {j!r}'s path runs through its mate {k!r} both where {k!r} "
                "stands and where it ends, in whatever order they move",
            )
            return
        if through_start:
            first[j].add(k)
        if through_end:
            first[k].add(j)
    left = dict(first)
    while left:
        ready = [m for m, before in left.items() if not before & set(left)]
        if not ready:
            yield Violation(
                kind="path_blocked",
                models=tuple(sorted(left)),
                message="no order of single moves lets every path go around its mates: "
                f"{', '.join(sorted(left))} each run through another's start or end",
            )
            return
        for m in ready:
            del left[m]
