"""A fall back that bends (40k-assault-4e, seed 001): every model runs its first leg (its own,
or one shared by the whole unit, or none) and then the unit's common heading for the rest of
the move. Legs are tried from the heading nearest straight back outward; the first move whose
paths keep the margins from every blocker, whose ends keep apart and in coherency and whose
models can move one at a time around their mates is returned. A search, not a proof: the
Trapped! proof is `fall_back_trapped`."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import shapely

from chargeopt.solver.assault_4e.fall_back_field import FallBackField
from chargeopt.solver.core.coherency_constraints import one_group
from chargeopt.solver.core.tolerances import APART_IN, JSON_DECIMALS, PAIR_MARGIN_IN

COHERENCY_IN = 2.0
HEADINGS_DEG = tuple(sorted((*range(-90, 91, 5), -89, 89), key=abs))
FIRST_HEADINGS_DEG = (*range(-90, 91, 5), -89, 89)
FIRST_LENGTHS_IN = tuple(k / 20 for k in range(1, 21)) + tuple(1 + k / 5 for k in range(1, 16))
WHOLE_UNIT_LENGTHS_IN = (0.1, 0.2, 0.35, 0.5, 0.75, 1.0, 1.4, 2.0, 2.5, 3.0, 4.0, *range(5, 17))
MAX_TURN_DEG = 89.5
"""A first leg keeps this close to the common heading, so each leg gains along it."""


@dataclass(frozen=True)
class Bent:
    """Every model's path (start, corner, end; the corner dropped when it has no first leg),
    written on the 0.001" grid, and the least progress of a model toward the own edge."""

    paths: tuple[tuple[tuple[float, float], ...], ...]
    heading_rad: float
    progress_in: float


def search_bent(field: FallBackField, length_in: float) -> Bent | None:
    """The first bent fall back of `length_in` found, headings nearest straight back first."""
    if length_in <= 0:
        return None
    firsts = _firsts(field, FIRST_LENGTHS_IN, length_in)
    shared = _firsts(field, WHOLE_UNIT_LENGTHS_IN, length_in)
    for heading_deg in HEADINGS_DEG:
        theta = math.radians(heading_deg)
        steps = [v for v in firsts if _turn_ok(field, v, theta)]
        found = _each_model(field, length_in, theta, steps) or _whole_unit(
            field, length_in, theta, [v for v in shared if _turn_ok(field, v, theta)]
        )
        if found is not None:
            further = _each_model(
                field, length_in, theta, _furthest_first(field, steps, theta, length_in)
            )
            return further if further and further.progress_in > found.progress_in else found
    return None


def _furthest_first(field: FallBackField, steps: list, theta: float, length_in: float) -> list:
    """The first legs ordered by how far toward the edge the path then ends (furthest first)."""
    ahead = field.heading(theta) @ field.toward
    gain = [float(v @ field.toward) + (length_in - float(np.hypot(*v))) * ahead for v in steps]
    return [steps[k] for k in np.argsort(gain)[::-1]]


def _firsts(field: FallBackField, lengths: tuple[float, ...], length_in: float) -> list:
    """No first leg, then first legs by length (shortest first) and heading."""
    return [np.zeros(2)] + [
        ell * field.heading(math.radians(a))
        for ell in lengths
        if ell < length_in
        for a in FIRST_HEADINGS_DEG
    ]


def _turn_ok(field: FallBackField, first: np.ndarray, theta: float) -> bool:
    size = float(np.hypot(*first))
    if size == 0:
        return True
    cos = float(first @ field.heading(theta)) / size
    return cos > math.cos(math.radians(MAX_TURN_DEG))


def _path(field: FallBackField, i: int, first: np.ndarray, theta: float, length_in: float):
    start = tuple(float(c) for c in field.centres[i])
    size = float(np.hypot(*first))
    corner = tuple(round(float(c), JSON_DECIMALS) for c in field.centres[i] + first)
    if size == 0:
        corner = start
    done = math.dist(start, corner)
    end = np.array(corner) + (length_in - done) * field.heading(theta)
    end_xy = tuple(round(float(c), JSON_DECIMALS) for c in end)
    return (start, end_xy) if size == 0 else (start, corner, end_xy)


def _clear(field: FallBackField, i: int, path) -> bool:
    """The path keeps each blocker's clearance (the margin) and its corners on the board."""
    if len(field.blockers):
        line = shapely.linestrings(np.array(path))
        depth = field.radii[i] + field.grows - shapely.distance(line, field.cores)
        if np.any(depth > field.limits[i]):
            return False
    r, lim = field.radii[i], field.board_limits[i]
    for x, y in path[1:]:
        over = np.array([r - x, r - y, x + r - field.width, y + r - field.height])
        if np.any(over > lim):
            return False
    return True


def _each_model(field, length_in, theta, steps) -> Bent | None:
    paths = []
    for i in range(len(field.model_ids)):
        found = next(
            (p for v in steps if _clear(field, i, p := _path(field, i, v, theta, length_in))),
            None,
        )
        if found is None:
            return None
        paths.append(found)
    return _unit(field, tuple(paths), theta)


def _whole_unit(field, length_in, theta, steps) -> Bent | None:
    for v in steps[1:]:
        paths = []
        for i in range(len(field.model_ids)):
            path = _path(field, i, v, theta, length_in)
            if not _clear(field, i, path):
                break
            paths.append(path)
        else:
            found = _unit(field, tuple(paths), theta)
            if found is not None:
                return found
    return None


def _unit(field: FallBackField, paths, theta: float) -> Bent | None:
    """The move if its ends keep apart and in coherency and some order clears the mates."""
    ends = np.array([p[-1] for p in paths])
    gaps = np.hypot(*(ends[:, None, :] - ends[None, :, :]).transpose(2, 0, 1))
    gaps = gaps - field.radii[:, None] - field.radii[None, :]
    np.fill_diagonal(gaps, math.inf)
    if np.any(gaps < APART_IN):
        return None
    if not one_group(gaps <= COHERENCY_IN - PAIR_MARGIN_IN):
        return None
    if not _ordered(field, paths):
        return None
    progress = float(np.min((ends - field.centres) @ field.toward))
    return Bent(tuple(paths), theta, progress)


def _ordered(field: FallBackField, paths) -> bool:
    """Some order of single moves in which no path crosses a mate's base where it stands."""
    lines = [shapely.linestrings(np.array(p)) for p in paths]
    before: dict[int, set[int]] = {i: set() for i in range(len(paths))}
    for j, k in itertools.permutations(range(len(paths)), 2):
        room = field.radii[j] + field.radii[k]
        at_start = shapely.distance(lines[j], shapely.points(paths[k][0])) < room - 1e-7
        at_end = shapely.distance(lines[j], shapely.points(paths[k][-1])) < room + APART_IN
        if at_start and at_end:
            return False
        if at_start:
            before[j].add(k)
        if at_end:
            before[k].add(j)
    left = set(before)
    while left:
        ready = {m for m in left if not before[m] & left}
        if not ready:
            return False
        left -= ready
    return True
