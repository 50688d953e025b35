"""A randomised search for a legal bent fall back (40k-assault-4e), written apart from the
solver's fall back code to refute its Trapped! verdicts: random directions d, random paths of
one to three legs per model within a quarter turn of d (turning one way), kept when clear of
what blocks them (its own test), combined into moves of the unit (the same path for every
model, or each its own), and judged by the independent checker. Returns the first move the
checker accepts, or None after `tries` directions."""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import LineString, Point

from chargeopt.geometry import Battlefield, Footprint
from chargeopt.geometry.checker import check_placement
from chargeopt.models import Placement, Scenario, TerrainKind

ZONE_IN = 1.0
PATHS_PER_MODEL = 40
MIXES_PER_DIRECTION = 25


@dataclass(frozen=True)
class _Model:
    ident: str
    x: float
    y: float
    radius_in: float


def random_fall_back(
    scenario: Scenario, roll: int, *, tries: int = 60, seed: int = 0
) -> tuple[Placement, ...] | None:
    """A fall back of `roll` the checker accepts, found at random, or None."""
    rng = random.Random(seed)
    models = _models(scenario)
    walls = _obstacles(scenario, models)
    edge = scenario.action.table_edge
    assert edge is not None
    toward = np.array(edge.toward, dtype=float)
    across = np.array([-toward[1], toward[0]])
    difficult = Battlefield.from_scenario(scenario).of_kind(TerrainKind.DIFFICULT)
    lengths = [float(roll)] + ([roll / 2] if difficult else [])
    for _ in range(tries):
        d = rng.uniform(-90.0, 90.0)
        length = rng.choice(lengths)
        pools = []
        for m in models:
            pool = [
                p
                for p in (
                    _random_path(rng, m, d, length, toward, across) for _ in range(PATHS_PER_MODEL)
                )
                if _clear(p, m, walls[m.ident])
            ]
            pools.append(pool)
        for shape in _shared_shapes(rng, d, length, toward, across):
            paths = [_shifted(shape, m) for m in models]
            if all(_clear(p, m, walls[m.ident]) for p, m in zip(paths, models, strict=True)):
                found = _judged(scenario, models, roll, paths)
                if found:
                    return found
        if all(pools):
            for _ in range(MIXES_PER_DIRECTION):
                found = _judged(scenario, models, roll, [rng.choice(pool) for pool in pools])
                if found:
                    return found
    return None


def _models(scenario: Scenario) -> list[_Model]:
    unit = scenario.acting_unit
    return [
        _Model(m.id, m.x, m.y, Footprint(unit.base_of(m), m.x, m.y).radius_in) for m in unit.models
    ]


def _obstacles(scenario: Scenario, models: list[_Model]) -> dict[str, list]:
    """Per model: (core, how close its centre may come) for terrain, other bases and the 1"
    of enemies that did not fight it (or nearer, if one already stands nearer)."""
    unit = scenario.acting_unit
    fought = set(scenario.action.fought_by)
    field = Battlefield.from_scenario(scenario)
    pieces = [p.shape for p in field.of_kind(TerrainKind.IMPASSABLE, TerrainKind.WALL)]
    out: dict[str, list] = {}
    for m in models:
        rows = [(shape, m.radius_in) for shape in pieces]
        for other in scenario.units:
            if other.id == unit.id:
                continue
            for o in other.models:
                r_o = Footprint(other.base_of(o), o.x, o.y).radius_in
                room = m.radius_in + r_o
                if other.owner != unit.owner and other.id not in fought:
                    nearest = min(
                        math.dist((o.x, o.y), (a.x, a.y)) - r_o - a.radius_in for a in models
                    )
                    room += min(ZONE_IN, max(nearest, 0.0))
                rows.append((Point(o.x, o.y), room))
        out[m.ident] = rows
    return out


def _random_path(rng, m: _Model, d: float, length: float, toward, across) -> list:
    """One to three legs within a quarter turn on one side of d, turning one way."""
    side = rng.choice((-1, 1))
    legs = rng.choice((1, 2, 2, 3))
    headings = sorted(d + side * rng.uniform(0.0, 89.9) for _ in range(legs))
    headings = [min(90.0, max(-90.0, h)) for h in headings]
    if rng.random() < 0.5:
        headings.reverse()
    cuts = sorted(rng.random() for _ in range(legs - 1))
    parts = [b - a for a, b in itertools.pairwise([0.0, *cuts, 1.0])]
    points = [(m.x, m.y)]
    for h, share in zip(headings, parts, strict=True):
        step = (
            share
            * length
            * (math.cos(math.radians(h)) * toward + math.sin(math.radians(h)) * across)
        )
        x, y = points[-1]
        points.append((x + float(step[0]), y + float(step[1])))
    return points


def _shared_shapes(rng, d: float, length: float, toward, across) -> list[list]:
    """A few paths from the origin for the whole unit to follow."""
    origin = _Model("", 0.0, 0.0, 0.0)
    return [_random_path(rng, origin, d, length, toward, across) for _ in range(6)]


def _shifted(shape: list, m: _Model) -> list:
    return [(m.x + x, m.y + y) for x, y in shape]


def _clear(path: list, m: _Model, rows: list) -> bool:
    line = LineString(path)
    return all(shapely.distance(line, core) >= room for core, room in rows)


def _judged(
    scenario: Scenario, models: list[_Model], roll: int, paths: list
) -> tuple[Placement, ...] | None:
    """The move written to 0.001" (every corner), if the checker accepts it."""
    placements = []
    for m, path in zip(models, paths, strict=True):
        written = [(m.x, m.y)] + [(round(x, 3), round(y, 3)) for x, y in path[1:]]
        moved = sum(math.dist(a, b) for a, b in itertools.pairwise(written))
        placements.append(
            Placement(
                model=m.ident,
                x=written[-1][0],
                y=written[-1][1],
                moved=round(moved, 3),
                path=tuple(written),
            )
        )
    if check_placement(scenario, placements, roll=roll):
        return None
    return tuple(placements)
