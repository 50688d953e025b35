"""The 40k-assault-4e fall back (seed 001), judged from the models' paths: each model moves
the full distance (the roll, halved if the move of the roll goes into, out of or through
difficult terrain; less only where the unit reaches its own table edge), never away from that
edge and without doubling back (one direction d for the whole unit along which every leg
gains, no model's path turning back across d), around impassable terrain, walls and every
other model (mates one at a time, in some order), never closer than 1" to an enemy that did
not fight it (nor closer than it started, if it started nearer), and ends where it is written,
on the board, not overlapping its mates, in 2" coherency. A placement without `path` moved in
a straight line. Written independently of the solver."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from chargeopt.geometry.checker.coherency import linked_groups
from chargeopt.geometry.checker.fall_back_paths import doubled_back, mates_in_the_way
from chargeopt.geometry.footprints import Footprint, edge_distance
from chargeopt.geometry.terrain import Battlefield
from chargeopt.models import (
    GameModel,
    Placement,
    Scenario,
    ScenarioError,
    TableEdge,
    TerrainKind,
    Violation,
)

FALL_BACK_KINDS = (
    "not_full_move",
    "doubled_back",
    "path_blocked",
    "within_1in_of_enemy",
    "path_mismatch",
)
ZONE_IN = 1.0
COHERENCY_IN = 2.0
EPS_IN = 1e-6
"""Numerical slack on every limit judged exactly."""
FULL_SLACK_IN = 0.002
"""A move counts as the full distance within this: two positions written to 0.001"."""
TOUCH_EDGE_IN = 0.005
"""A base this close to its own table edge has reached it (the contact tolerance)."""


def check_fall_back(
    scenario: Scenario,
    chosen: dict[str, Placement],
    roll: int | None,
    *,
    file: str = "<scenario>",
    precision_in: float = 0.0,
) -> list[Violation]:
    """Every fall back rule the placement breaks (models without a placement stay put). A
    result with no placement and no roll (the Trapped! chance over the dice) has nothing to
    judge."""
    if roll is None:
        if not chosen:
            return []
        raise ScenarioError(
            file, [("action.roll", "checking a fall back needs its roll", "add roll = N")]
        )
    judge = _Judge(scenario, chosen, roll, precision_in)
    return list(judge.violations())


class _Judge:
    def __init__(
        self, scenario: Scenario, chosen: dict[str, Placement], roll: int, precision_in: float
    ) -> None:
        self.scenario = scenario
        self.unit = scenario.acting_unit
        self.roll = roll
        self.slack = EPS_IN + precision_in / math.sqrt(2)
        self.field = Battlefield.from_scenario(scenario)
        edge = scenario.action.table_edge or TableEdge.BOTTOM
        self.edge = edge
        self.toward = np.array(edge.toward)
        self.models = self.unit.models
        self.starts = {m.id: self._footprint(m, m.x, m.y) for m in self.models}
        self.paths = {m.id: self._path(m, chosen.get(m.id)) for m in self.models}
        self.written = {m.id: chosen[m.id] for m in self.models if m.id in chosen}

    def _footprint(self, m: GameModel, x: float, y: float) -> Footprint:
        return Footprint(self.unit.base_of(m), x, y, m.z, m.facing)

    def _path(self, m: GameModel, p: Placement | None) -> list[tuple[float, float]]:
        if p is None:
            return [(m.x, m.y)]
        if p.path:
            return [tuple(q) for q in p.path]  # type: ignore[misc]
        return [(m.x, m.y), (p.x, p.y)]

    def violations(self) -> Iterator[Violation]:
        yield from self._path_ends()
        yield from self._distance()
        away = list(self._direction())
        yield from away or doubled_back(self.paths, self.toward, self.slack)
        yield from self._obstacles()
        yield from mates_in_the_way(
            self.paths, {m: fp.radius_in for m, fp in self.starts.items()}, self.slack
        )
        yield from self._on_board()
        yield from self._end()

    def _path_ends(self) -> Iterator[Violation]:
        for m in self.models:
            path = self.paths[m.id]
            if math.dist(path[0], (m.x, m.y)) > self.slack:
                yield Violation(
                    kind="path_mismatch",
                    models=(m.id,),
                    message=f"model {m.id!r}'s path starts at {_xy(path[0])}, not where it "
                    f"stands ({_xy((m.x, m.y))})",
                )
            p = self.written.get(m.id)
            if p is not None and math.dist(path[-1], (p.x, p.y)) > self.slack:
                yield Violation(
                    kind="path_mismatch",
                    models=(m.id,),
                    message=f"model {m.id!r} is written at {_xy((p.x, p.y))} but its path ends "
                    f"at {_xy(path[-1])}",
                    distance_in=math.dist(path[-1], (p.x, p.y)),
                    limit_in=0.0,
                )

    def _length(self, model_id: str) -> float:
        path = self.paths[model_id]
        return sum(math.dist(a, b) for a, b in itertools.pairwise(path))

    def _line(self, model_id: str) -> BaseGeometry:
        path = self.paths[model_id]
        return LineString(path) if self._length(model_id) > 0 else Point(path[0])

    def reached_edge(self) -> bool:
        return any(self._edge_gap(m.id) <= TOUCH_EDGE_IN + self.slack for m in self.models)

    def _edge_gap(self, model_id: str) -> float:
        end = self.paths[model_id][-1]
        r = self.starts[model_id].radius_in
        board = self.scenario.board
        return {
            TableEdge.TOP: end[1] - r,
            TableEdge.BOTTOM: board.height - end[1] - r,
            TableEdge.LEFT: end[0] - r,
            TableEdge.RIGHT: board.width - end[0] - r,
        }[self.edge]

    def halved(self) -> bool:
        """Whether the move of the full roll, each path carried on along its last leg (as far
        as the board lets the centre go), goes into, out of or through difficult terrain."""
        difficult = [p.shape for p in self.field.of_kind(TerrainKind.DIFFICULT)]
        if not difficult:
            return False
        area = shapely.union_all(difficult)
        for m in self.models:
            line = _carried_on(self.paths[m.id], self.roll, self._centre_room(m.id))
            if shapely.distance(line, area) < self.starts[m.id].radius_in - EPS_IN:
                return True
        return False

    def _centre_room(self, model_id: str) -> Polygon:
        r = self.starts[model_id].radius_in
        board = self.scenario.board
        return box(r, r, max(r, board.width - r), max(r, board.height - r))

    def _distance(self) -> Iterator[Violation]:
        allowed = self.roll / 2 if self.halved() else float(self.roll)
        words = (
            f'{allowed:g}" (the roll of {self.roll}"{", halved" if allowed < self.roll else ""})'
        )
        at_edge = self.reached_edge()
        for m in self.models:
            length = self._length(m.id)
            if length > allowed + FULL_SLACK_IN + self.slack:
                yield Violation(
                    kind="moved_too_far",
                    models=(m.id,),
                    message=f'model {m.id!r} falls back {length:.3f}", more than {words}',
                    distance_in=length,
                    limit_in=allowed,
                )
            elif length < allowed - FULL_SLACK_IN - self.slack and not at_edge:
                yield Violation(
                    kind="not_full_move",
                    models=(m.id,),
                    message=f'model {m.id!r} falls back {length:.3f}", not the full {words}, '
                    "and the unit has not reached its table edge",
                    distance_in=length,
                    limit_in=allowed,
                )

    def _direction(self) -> Iterator[Violation]:
        for m in self.models:
            path = self.paths[m.id]
            for a, b in itertools.pairwise(path):
                back = float(np.dot(np.subtract(b, a), self.toward))
                if back < -self.slack:
                    yield Violation(
                        kind="doubled_back",
                        models=(m.id,),
                        message=f'model {m.id!r} moves {-back:.3f}" away from its {self.edge} '
                        f"table edge between {_xy(a)} and {_xy(b)}",
                        distance_in=-back,
                        limit_in=0.0,
                    )
                    break

    def _obstacles(self) -> Iterator[Violation]:
        fought = set(self.scenario.action.fought_by)
        blockers: list[tuple[str, BaseGeometry, float, bool, str]] = [
            (p.id, p.shape, 0.0, False, f"{p.kind} {p.id!r}")
            for p in self.field.of_kind(TerrainKind.IMPASSABLE, TerrainKind.WALL)
        ]
        for other in self.scenario.units:
            if other.id == self.unit.id:
                continue
            enemy = other.owner != self.unit.owner
            for m in other.models:
                fp = Footprint(other.base_of(m), m.x, m.y, m.z, m.facing)
                core, grow = (Point(fp.x, fp.y), fp.radius_in) if fp.is_round else (fp.polygon, 0.0)
                if enemy and other.id not in fought:
                    start = min(edge_distance(fp, mine) for mine in self.starts.values())
                    blockers.append((m.id, core, grow + min(ZONE_IN, start), True, f"enemy {m.id}"))
                else:
                    blockers.append((m.id, core, grow, False, f"model {m.id}"))
        for m in self.models:
            line = self._line(m.id)
            swept = self._swept(m.id, line)
            r = self.starts[m.id].radius_in if swept is None else 0.0
            target = line if swept is None else swept
            for ident, core, grow, zone, words in blockers:
                gap = float(shapely.distance(target, core)) - r - grow
                if gap >= -self.slack:
                    continue
                if zone:
                    yield Violation(
                        kind="within_1in_of_enemy",
                        models=(m.id, ident),
                        message=f'model {m.id!r} comes {-gap:.3f}" inside 1" of {words}, '
                        "which did not fight it this turn",
                        distance_in=-gap,
                        limit_in=0.0,
                    )
                else:
                    is_terrain = ident not in self.scenario.model_index
                    yield Violation(
                        kind="path_blocked",
                        models=(m.id,) if is_terrain else (m.id, ident),
                        terrain=(ident,) if is_terrain else (),
                        message=f"model {m.id!r}'s path runs {-gap:.3f}\" into {words}",
                        distance_in=-gap,
                        limit_in=0.0,
                    )

    def _swept(self, model_id: str, line: BaseGeometry) -> BaseGeometry | None:
        """The area a non-round base covers along its path (None for a round one, judged by
        its centre's path and radius)."""
        start = self.starts[model_id]
        if start.is_round:
            return None
        path = self.paths[model_id]
        feet = [Footprint(start.base, x, y, start.z, start.facing).polygon for x, y in path]
        legs = [shapely.convex_hull(shapely.union(a, b)) for a, b in itertools.pairwise(feet)]
        return shapely.union_all(legs or feet)

    def _on_board(self) -> Iterator[Violation]:
        """Every corner of a round base's path keeps the base on the board (its legs then do)."""
        board = self.scenario.board
        for m in self.models:
            start = self.starts[m.id]
            if not start.is_round:
                continue
            r = start.radius_in
            for x, y in self.paths[m.id][1:-1]:
                over = max(r - x, r - y, x + r - board.width, y + r - board.height)
                if over > self.slack:
                    yield Violation(
                        kind="off_board",
                        models=(m.id,),
                        message=f"model {m.id!r}'s path passes {_xy((x, y))}, {over:.3f}\" "
                        "beyond the board's edge",
                        distance_in=over,
                        limit_in=0.0,
                    )
                    break

    def _end(self) -> Iterator[Violation]:
        ends = {m.id: self._footprint(m, *self.paths[m.id][-1]) for m in self.models}
        board = self.scenario.board
        for model_id, fp in ends.items():
            poly = fp.polygon if not fp.is_round else None
            minx, miny, maxx, maxy = (
                poly.bounds
                if poly is not None
                else (
                    fp.x - fp.radius_in,
                    fp.y - fp.radius_in,
                    fp.x + fp.radius_in,
                    fp.y + fp.radius_in,
                )
            )
            over = max(-minx, -miny, maxx - board.width, maxy - board.height)
            if over > self.slack:
                yield Violation(
                    kind="off_board",
                    models=(model_id,),
                    message=f"model {model_id!r} ends {over:.3f}\" beyond the board's edge",
                    distance_in=over,
                    limit_in=0.0,
                )
        ids = list(ends)
        links = np.zeros((len(ids), len(ids)), bool)
        for i, a in enumerate(ids):
            for j, b in enumerate(ids[i + 1 :], start=i + 1):
                fa, fb = ends[a], ends[b]
                gap = (
                    math.hypot(fa.x - fb.x, fa.y - fb.y) - fa.radius_in - fb.radius_in
                    if fa.is_round and fb.is_round
                    else float(shapely.distance(fa.polygon, fb.polygon))
                )
                if gap < -self.slack:
                    yield Violation(
                        kind="overlap",
                        models=(a, b),
                        message=f'model {a!r} ends overlapping {b!r} by {-gap:.3f}"',
                        distance_in=-gap,
                    )
                if gap <= COHERENCY_IN + self.slack:
                    links[i, j] = links[j, i] = True
        if len(ids) < 2:
            return
        for model_id, linked in zip(ids, links, strict=True):
            if not linked.any():
                yield Violation(
                    kind="coherency",
                    models=(model_id,),
                    message=f'model {model_id!r} ends more than 2" from every unit mate',
                    limit_in=COHERENCY_IN,
                )
        groups = [[ids[k] for k in g] for g in linked_groups(links)]
        if len(groups) > 1:
            words = " | ".join(", ".join(sorted(g)) for g in groups)
            yield Violation(
                kind="coherency_split",
                models=tuple(ids),
                message=f"unit {self.unit.id!r} ends split into {len(groups)} groups: {words}",
                limit_in=COHERENCY_IN,
            )


def _carried_on(path: Sequence[tuple[float, float]], roll: float, room: Polygon) -> BaseGeometry:
    """The path continued along its last leg to the roll's length, inside `room`."""
    legs = list(itertools.pairwise(path))
    done = sum(math.dist(a, b) for a, b in legs)
    points = list(path)
    last = next((leg for leg in reversed(legs) if math.dist(*leg) > 0), None)
    if last is not None and done < roll:
        a, b = last
        step = np.subtract(b, a) / math.dist(a, b) * (roll - done)
        tail = LineString([b, tuple(np.add(b, step))]).intersection(room)
        if not tail.is_empty and tail.geom_type == "LineString":
            points.append(tail.coords[-1])
    return LineString(points) if len(points) > 1 else Point(points[0])


def _xy(q: Sequence[float]) -> str:
    return f"({q[0]:.3f}, {q[1]:.3f})"
