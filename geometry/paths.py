"""Shortest legal path lengths for one moving model.

A visibility graph over the obstacles the mover may not enter, each grown by the mover's
clearance, solved once per start by Dijkstra's algorithm and queried with numpy and shapely 2
array functions, so thousands of candidate end points cost one vectorised pass.

What blocks mover m of unit U (rules = scenario.rules):
- the board edge: the centre stays in [r, W-r] x [r, H-r]; the board is convex, so only the
  end points are tested;
- impassable terrain always; walls and floors unless `rules.moves_through_ruins(U)` or
  `ignore_terrain` (the WTC "as if the wall were not there" distance); barricades and difficult
  ground never;
- other models' bases standing at the mover's start height (|dz| < `SAME_LEVEL_IN`; a base on
  another level is passed over or under): in the 9th edition every model of every other unit,
  in the 10th every enemy model and, for a MONSTER or VEHICLE mover, friendly MONSTER or
  VEHICLE models of other units; unit mates never. Ending on a base that may be crossed is the
  checker's business, not the path's;
- the engagement range of each unit in `avoid_engagement_of`: its models within the vertical
  engagement range of the mover's start, grown by the horizontal engagement range.

Clearance r is a round base's radius, an oval's or hull's inradius (half its smallest width): a
lower bound on the passage it needs, so for non-round movers the lengths are lower bounds.

Conservative polygons. Every obstacle is a core (a base centre, a base polygon, a terrain shape)
grown by a distance g, drawn as a polygon that circumscribes the true grown shape:
- round bases: a regular 4*ARC_QUAD_SEGS-gon with vertices at g / cos(pi / (4*ARC_QUAD_SEGS));
- ovals: the tangent lines of the grown ellipse at 4*ARC_QUAD_SEGS equal steps of the normal;
- terrain and hulls: a buffer with arcs drawn the same way, widened until the boundary is
  measured at least g from the core (GEOS may draw a short fillet with longer chords).
So a path found never enters a true obstacle (by more than `SHRINK_IN`). It is longer than the
true shortest path by at most (1/cos(pi/64) - 1) = 0.12% of g per radian it turns around a base
(0.006" for a half turn around a base grown to 1.6"), 0.27% around terrain and hulls, and for
an oval 0.12% of its largest radius of curvature plus g; plus the escapes below. A gap that
these margins close (about 0.003" for two 32mm bases) is closed. `ARC_QUAD_SEGS` trades this
margin against speed (graph nodes per base).

Touching. An end point is legal unless it lies deeper than `TOUCH_TOLERANCE_IN` inside a true
obstacle (exact distance to the core; an oval's core is its inscribed footprint polygon) or
beyond the board edge. A legal end in the sliver between a true shape and its polygon, and a
start inside any polygon (a start may touch or overlap something within tolerance), **escape**:
they step straight to the nearest free point, and that step counts in the length. The step is
about the polygon margin, up to sqrt(2 g margin) (~0.06") for a base wedged in a gap exactly its
width. Segments and points are tested against the obstacles shrunk by `SHRINK_IN`, so a segment
along an obstacle's edge, and a point on it, are free.
"""

from __future__ import annotations

import copy
import heapq
import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from chargeopt.geometry.identity_cache import cached_by_identity
from chargeopt.geometry.obstacles import (
    MoverProfile,
    Obstacle,
    PathError,
    Point2,
    base_obstacle,
    blocks_path,
    climb_in,
    find_model,
    grown_obstacle,
    mover_profile,
)
from chargeopt.geometry.terrain import Battlefield
from chargeopt.geometry.terrain_11e import movement_blockers, takes_to_the_skies
from chargeopt.models import Scenario, TerrainKind

TOUCH_TOLERANCE_IN = 1e-6
SHRINK_IN = 1e-7
SAME_LEVEL_IN = 0.01
_SIN_TOLERANCE = 1e-9
_QUERY_CHUNK = 2048
_START_NODE = -1
_DIRECT = -1
_NONE = -2


class ObstacleMap:
    """Obstacles (grown by the mover's clearance) that one model's path may not enter.

    `geometry` is their union (conservative polygons); `obstacles` keeps what each one is.
    The visibility graph is built on first use and shared by every `path_field` and by the
    maps `for_mover` makes for movers with the same obstacles. `nodes_within` (a centre and a
    radius): the graph keeps only the corners that close to it and the edges a path from it
    that long may use, for a map used only for such paths (no other corner or edge is on one).
    """

    def __init__(
        self,
        mover: MoverProfile,
        board_width: float,
        board_height: float,
        obstacles: Iterable[Obstacle],
        *,
        nodes_within: tuple[Point2, float] | None = None,
    ) -> None:
        self.mover = mover
        self.obstacles = tuple(obstacles)
        self.nodes_within = nodes_within
        r = mover.clearance_in
        self.bounds = (r, r, board_width - r, board_height - r)
        self.geometry: BaseGeometry = shapely.union_all([o.shape for o in self.obstacles])
        self._inner = self.geometry.buffer(-SHRINK_IN, join_style="mitre")
        for g in (self.geometry, self._inner):
            shapely.prepare(g)
        self._free_space: list[BaseGeometry] = []
        self._fields: dict[Point2, PathField] = {}
        self._graph: list[VisibilityGraph] = []

    def for_mover(self, mover: MoverProfile) -> ObstacleMap:
        """The same obstacles for another mover with the same clearance, sharing the graph and
        the path fields (neither depends on who moves)."""
        clone = copy.copy(self)
        clone.mover = mover
        return clone

    def path_field(self, start: Point2, within_in: float = math.inf) -> PathField:
        """Shortest legal path lengths from `start` (cached per start); with `within_in`,
        lengths up to that are exact and longer ones are only known to exceed it (a field
        measured further, or without a limit, answers too)."""
        at = (float(start[0]), float(start[1]))
        known = self._fields.get(at)
        if known is not None and known.within_in >= within_in:
            return known
        if known is None and len(self._fields) >= 64:
            self._fields.pop(next(iter(self._fields)))
        self._fields[at] = field_ = PathField(self, at, within_in)
        return field_

    def obstacle_ids_at(self, x: float, y: float) -> tuple[str, ...]:
        """Ids of the obstacles whose true shape holds the centre (x, y), for explanations."""
        p = Point(x, y)
        return tuple(
            dict.fromkeys(
                o.id
                for o in self.obstacles
                if shapely.distance(o.core, p) < o.grow_in - TOUCH_TOLERANCE_IN
            )
        )

    def legal_ends(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Which centres may end a path: on the board and outside every true obstacle, both
        within `TOUCH_TOLERANCE_IN` (a base exactly touching something is legal)."""
        xs, ys = np.asarray(xs, float), np.asarray(ys, float)
        x0, y0, x1, y1 = self.bounds
        tol = TOUCH_TOLERANCE_IN
        ok = (xs >= x0 - tol) & (xs <= x1 + tol) & (ys >= y0 - tol) & (ys <= y1 + tol)
        near = ok & shapely.intersects_xy(self.geometry, xs, ys)
        idx = np.flatnonzero(near)
        points = shapely.points(xs[idx], ys[idx])
        for o in self.obstacles:
            if idx.size == 0:
                break
            inside = shapely.distance(o.core, points) < o.grow_in - tol
            ok[idx[inside]] = False
            idx, points = idx[~inside], points[~inside]
        return ok

    def escape(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The nearest free point to each point (itself if free) and the distance to it
        (nan and inf where there is no free space at all). Points inside a polygon by less than
        `SHRINK_IN` step out too, so that the tangency tests see them outside."""
        x0, y0, x1, y1 = self.bounds
        xs, ys = np.asarray(xs, float), np.asarray(ys, float)
        fx, fy = np.clip(xs, x0, x1), np.clip(ys, y0, y1)
        stuck = shapely.intersects_xy(self.geometry, fx, fy) | (x1 < x0) | (y1 < y0)
        if stuck.any():
            if self._free.is_empty:
                fx[stuck], fy[stuck] = np.nan, np.nan
            else:
                points = shapely.points(fx[stuck], fy[stuck])
                exits = shapely.get_coordinates(shapely.shortest_line(points, self._free))
                fx[stuck], fy[stuck] = exits[1::2, 0], exits[1::2, 1]
        step = np.hypot(fx - xs, fy - ys)
        return fx, fy, np.where(np.isnan(step), np.inf, step)

    def visible(self, ax: np.ndarray, ay: np.ndarray, bx: np.ndarray, by: np.ndarray) -> np.ndarray:
        """Whether each segment a-b stays out of every obstacle's interior."""
        lines = shapely.linestrings(
            np.stack([np.column_stack([ax, ay]), np.column_stack([bx, by])], axis=1)
        )
        return ~shapely.intersects(self._inner, lines)

    @property
    def _free(self) -> BaseGeometry:
        """The board area outside every obstacle (drawn on first use: only escapes need it)."""
        if not self._free_space:
            x0, y0, x1, y1 = self.bounds
            room = box(x0, y0, x1, y1) if x1 >= x0 and y1 >= y0 else Polygon()
            free = room.difference(self.geometry)
            shapely.prepare(free)
            self._free_space.append(free)
        return self._free_space[0]

    @property
    def graph(self) -> VisibilityGraph:
        if not self._graph:
            self._graph.append(VisibilityGraph.build(self))
        return self._graph[0]


@dataclass(frozen=True)
class VisibilityGraph:
    """Nodes: the obstacle vertices that are reflex for the free space (convex for the
    obstacle) and on the mover's board area, with the offsets to their ring neighbours for
    tangency tests. Edges: segments between nodes that are tangent at both ends and cross no
    obstacle."""

    points: np.ndarray
    to_prev: np.ndarray
    to_next: np.ndarray
    slack: np.ndarray
    graph: dict[int, dict[int, float]]
    """Each node's neighbours and the lengths of the edges to them."""

    @classmethod
    def build(cls, omap: ObstacleMap) -> VisibilityGraph:
        points, prev, nxt = _corners(omap.geometry, omap.bounds)
        budget = None
        if omap.nodes_within is not None:
            (cx, cy), radius = omap.nodes_within
            from_centre = np.hypot(points[:, 0] - cx, points[:, 1] - cy)
            keep = from_centre <= radius
            points, prev, nxt = points[keep], prev[keep], nxt[keep]
            budget = radius - from_centre[keep]
        to_prev, to_next = prev - points, nxt - points
        x0, y0, x1, y1 = omap.bounds
        reach = math.hypot(x1 - x0, y1 - y0) + 1.0
        slack = (
            _SIN_TOLERANCE
            * reach
            * np.stack([np.hypot(*to_prev.T), np.hypot(*to_next.T)], axis=1).reshape(-1, 2)
        )
        self = cls(points, to_prev, to_next, slack, {k: {} for k in range(len(points))})
        for i, j in _pairs_in_chunks(len(points)):
            if budget is not None:
                near = np.hypot(*(points[j] - points[i]).T) <= np.maximum(budget[i], budget[j])
                i, j = i[near], j[near]
            d = points[j] - points[i]
            ok = self._leaves(i, d[:, 0], d[:, 1])
            i, j, d = i[ok], j[ok], d[ok]
            ok = self._leaves(j, -d[:, 0], -d[:, 1])
            i, j = i[ok], j[ok]
            seen = omap.visible(points[i, 0], points[i, 1], points[j, 0], points[j, 1])
            i, j = i[seen], j[seen]
            w = np.hypot(*(points[j] - points[i]).T)
            for a, b, length in zip(i.tolist(), j.tolist(), w.tolist(), strict=True):
                self.graph[a][b] = self.graph[b][a] = length
        return self

    def tangent_pairs(
        self, px: np.ndarray, py: np.ndarray, nodes: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Pairs (point index, index into nodes) where the segment node -> point leaves the
        node tangentially (a shortest path may bend there on its way to the point)."""
        dx = px[:, None] - self.points[nodes, 0]
        dy = py[:, None] - self.points[nodes, 1]
        return np.nonzero(self._leaves(nodes, dx, dy))

    def _leaves(self, nodes: np.ndarray, dx: np.ndarray, dy: np.ndarray) -> np.ndarray:
        """Whether the line through each node in direction (dx, dy) leaves both ring neighbours
        on one side (or within a sine of about `_SIN_TOLERANCE` of it)."""
        ua, ub, slack = self.to_prev[nodes], self.to_next[nodes], self.slack[nodes]
        ca = dx * ua[..., 1] - dy * ua[..., 0]
        cb = dx * ub[..., 1] - dy * ub[..., 0]
        ta, tb = slack[..., 0], slack[..., 1]
        return ~(((ca > ta) & (cb < -tb)) | ((ca < -ta) & (cb > tb)))


def _dijkstra(
    adjacency: dict[int, dict[int, float]], first: dict[int, float], within: float = math.inf
) -> tuple[dict[int, float], dict[int, int]]:
    """Shortest distances (up to `within`) over the graph's edge lengths from a virtual
    start joined to the nodes of `first` at the given lengths, and each node's predecessor
    (the start is `_START_NODE`)."""
    dist: dict[int, float] = {}
    pred: dict[int, int] = {}
    heap = [(d, v, _START_NODE) for v, d in first.items()]
    heapq.heapify(heap)
    while heap:
        d, v, via = heapq.heappop(heap)
        if d > within:
            break
        if v in dist:
            continue
        dist[v], pred[v] = d, via
        for u, length in adjacency[v].items():
            if u not in dist:
                heapq.heappush(heap, (d + length, u, v))
    return dist, pred


class PathField:
    """Shortest horizontal legal path lengths from one start point: exact up to
    `within_in`; a longer length (or inf) only says the path is longer than that."""

    def __init__(self, omap: ObstacleMap, start: Point2, within_in: float = math.inf) -> None:
        self.map = omap
        self.start = start
        self.within_in = within_in
        sx, sy, step = omap.escape(np.array([start[0]]), np.array([start[1]]))
        self.escape_in = float(step[0])
        self.exit = (float(sx[0]), float(sy[0]))
        graph = omap.graph
        self.node_dist = np.full(len(graph.points), np.inf)
        self._pred: dict[int, int] = {}
        if math.isinf(self.escape_in) or len(graph.points) == 0:
            return
        nodes = np.arange(len(graph.points))
        ex, ey = np.array([self.exit[0]]), np.array([self.exit[1]])
        nodes = nodes[graph.tangent_pairs(ex, ey, nodes)[1]]
        n = len(nodes)
        nodes = nodes[
            omap.visible(
                np.full(n, ex[0]), np.full(n, ey[0]), graph.points[nodes, 0], graph.points[nodes, 1]
            )
        ]
        w = np.hypot(graph.points[nodes, 0] - ex[0], graph.points[nodes, 1] - ey[0])
        dist, self._pred = _dijkstra(
            graph.graph, dict(zip(nodes.tolist(), w.tolist(), strict=True)), within_in
        )
        for v, d in dist.items():
            self.node_dist[v] = d

    def length_to(self, x: float, y: float) -> float:
        """Path length to one centre; math.inf if unreachable, inside an obstacle or off board."""
        return float(self.lengths_to(np.array([x]), np.array([y]))[0])

    def lengths_to(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Path lengths to many centres at once (any matching shapes), with the semantics of
        `length_to`."""
        xs, ys = np.broadcast_arrays(np.asarray(xs, float), np.asarray(ys, float))
        return self._solve(xs.ravel(), ys.ravel())[0].reshape(xs.shape)

    def path_to(self, x: float, y: float) -> list[Point2]:
        """The path as a polyline from the start to (x, y); [] if unreachable."""
        xs, ys = np.array([float(x)]), np.array([float(y)])
        length, via, ex, ey = self._solve(xs, ys)
        if math.isinf(length[0]):
            return []
        corners: list[int] = []
        v = int(via[0])
        while v >= 0:
            corners.append(v)
            v = self._pred[v]
        points = self.map.graph.points
        path = [
            self.start,
            self.exit,
            *((float(points[c, 0]), float(points[c, 1])) for c in reversed(corners)),
            (float(ex[0]), float(ey[0])),
            (float(x), float(y)),
        ]
        return [p for k, p in enumerate(path) if k == 0 or math.dist(p, path[k - 1]) > 0]

    def _solve(
        self, xs: np.ndarray, ys: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Lengths, the last corner of each path (_DIRECT, or _NONE if unreachable) and the
        escaped end points."""
        n = len(xs)
        length, via = np.full(n, np.inf), np.full(n, _NONE)
        ex, ey = xs.copy(), ys.copy()
        if math.isinf(self.escape_in) or n == 0:
            return length, via, ex, ey
        idx = np.flatnonzero(self.map.legal_ends(xs, ys))
        fx, fy, step = self.map.escape(xs[idx], ys[idx])
        ex[idx], ey[idx] = fx, fy
        idx, fx, fy, step = (a[np.isfinite(step)] for a in (idx, fx, fy, step))
        sx, sy = self.exit
        direct = self.map.visible(np.full(len(idx), sx), np.full(len(idx), sy), fx, fy)
        length[idx[direct]] = np.hypot(fx[direct] - sx, fy[direct] - sy)
        via[idx[direct]] = _DIRECT
        rest = ~direct
        for lo in range(0, int(rest.sum()), _QUERY_CHUNK):
            sel = np.flatnonzero(rest)[lo : lo + _QUERY_CHUNK]
            got, corner = self._around(fx[sel], fy[sel])
            length[idx[sel]], via[idx[sel]] = got, corner
        length[idx] += step + self.escape_in
        return length, via, ex, ey

    def _around(self, fx: np.ndarray, fy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Best dist[v] + |v - end| over corners v seen from each end: candidates tangent at v,
        tried in increasing order, the first visible one wins."""
        m = len(fx)
        best, corner = np.full(m, np.inf), np.full(m, _NONE)
        nodes = np.flatnonzero(np.isfinite(self.node_dist))
        if nodes.size == 0:
            return best, corner
        graph = self.map.graph
        end, slot = graph.tangent_pairs(fx, fy, nodes)
        v = graph.points[nodes[slot]]
        keys = self.node_dist[nodes[slot]] + np.hypot(fx[end] - v[:, 0], fy[end] - v[:, 1])
        order = np.lexsort((keys, end))
        end, slot, keys = end[order], slot[order], keys[order]
        pos = np.searchsorted(end, np.arange(m), side="left")
        stop = np.searchsorted(end, np.arange(m), side="right")
        active = np.flatnonzero(pos < stop)
        while active.size:
            k = pos[active]
            v = nodes[slot[k]]
            seen = self.map.visible(graph.points[v, 0], graph.points[v, 1], fx[active], fy[active])
            won = active[seen]
            best[won], corner[won] = keys[k[seen]], v[seen]
            lost = active[~seen]
            pos[lost] += 1
            active = lost[pos[lost] < stop[lost]]
        return best, corner


def obstacle_map(
    scenario: Scenario,
    battlefield: Battlefield,
    model_id: str,
    *,
    avoid_engagement_of: Iterable[str] = (),
    ignore_terrain: bool = False,
    climbed: Iterable[str] = (),
) -> ObstacleMap:
    """Everything model `model_id` may not move through (see the module docstring). Models of
    one unit with the same clearance on the same level share one cached map and graph.
    40k-11e: the dense areas in `climbed` are left out (a climb over them is counted by
    `geometry.climb_11e`); a unit taking to the skies moves through models and terrain (only
    impassable areas block it)."""
    mover = mover_profile(scenario, model_id)
    unit, _ = find_model(scenario, model_id)
    avoid = tuple(dict.fromkeys(avoid_engagement_of))
    for unit_id in avoid:
        if unit_id not in scenario.unit_by_id:
            raise PathError(
                f"no unit {unit_id!r} to keep out of engagement range of; "
                f"choose one of {', '.join(scenario.unit_by_id)}"
            )
    shared = _shared_map(
        scenario,
        battlefield,
        unit.id,
        mover.clearance_in,
        mover.start_z,
        tuple(sorted(avoid)),
        ignore_terrain,
        tuple(sorted(set(climbed))),
        takes_to_the_skies(scenario, unit.id),
    )
    return shared.for_mover(mover)


def legal_move_length(
    scenario: Scenario,
    battlefield: Battlefield,
    model_id: str,
    end_x: float,
    end_y: float,
    end_z: float = 0.0,
    *,
    avoid_engagement_of: Iterable[str] = (),
    ignore_terrain: bool = False,
    climbed: Iterable[str] = (),
) -> float:
    """Shortest legal horizontal path to (end_x, end_y) plus the climb to end_z (counted only
    above the free climb); math.inf if unreachable. `climbed`: as `obstacle_map`'s (the climb
    over them is not added here)."""
    omap = obstacle_map(
        scenario,
        battlefield,
        model_id,
        avoid_engagement_of=avoid_engagement_of,
        ignore_terrain=ignore_terrain,
        climbed=climbed,
    )
    flat = omap.path_field(omap.mover.start).length_to(end_x, end_y)
    return flat + climb_in(scenario.rules, omap.mover.start_z, end_z)


@cached_by_identity(maxsize=64)
def _shared_map(
    scenario: Scenario,
    battlefield: Battlefield,
    unit_id: str,
    clearance_in: float,
    start_z: float,
    avoid: tuple[str, ...],
    ignore_terrain: bool,
    climbed: tuple[str, ...] = (),
    flying: bool = False,
) -> ObstacleMap:
    """The obstacles for a mover of `unit_id` with this clearance standing at start_z."""
    unit = scenario.unit_by_id[unit_id]
    rules = scenario.rules
    r = clearance_in
    obstacles: list[Obstacle] = []
    anyone = MoverProfile("", r, (math.nan, math.nan), start_z)
    if flying:
        for piece in battlefield.of_kind(TerrainKind.IMPASSABLE):
            obstacles.append(grown_obstacle(piece.id, piece.shape, r))
        return ObstacleMap(anyone, battlefield.width, battlefield.height, obstacles)
    ruins_block = not (ignore_terrain or rules.moves_through_ruins(unit.keyword_set))
    for piece in battlefield.pieces:
        ruin = piece.kind in (TerrainKind.WALL, TerrainKind.FLOOR)
        if piece.kind == TerrainKind.IMPASSABLE or (ruin and ruins_block):
            obstacles.append(grown_obstacle(piece.id, piece.shape, r))
    if rules.terrain_categories and not ignore_terrain:
        for piece_id, shape in movement_blockers(rules, unit.keyword_set, battlefield):
            if piece_id not in climbed:
                obstacles.append(grown_obstacle(piece_id, shape, r))
    for other in scenario.units:
        if not blocks_path(rules, unit, other):
            continue
        for model in other.models:
            if abs(model.z - start_z) < SAME_LEVEL_IN:
                obstacles.append(base_obstacle(model.id, other, model, r))
    for other in (scenario.unit_by_id[u] for u in avoid if u != unit.id):
        for model in other.models:
            if abs(model.z - start_z) <= rules.engagement_vertical_in:
                obstacles.append(
                    base_obstacle(
                        f"engagement:{other.id}", other, model, r + rules.engagement_range_in
                    )
                )
    return ObstacleMap(anyone, battlefield.width, battlefield.height, obstacles)


def _corners(
    geometry: BaseGeometry, bounds: tuple[float, float, float, float]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vertices convex for the obstacles (reflex for the free space) inside the bounds, with
    their previous and next ring vertices, rings oriented with the obstacle on the left."""
    found: list[np.ndarray] = []
    for polygon in shapely.get_parts(geometry):
        if not isinstance(polygon, Polygon) or polygon.is_empty:
            continue
        polygon = shapely.orient_polygons(polygon)
        rings = [polygon.exterior, *polygon.interiors]
        for ring in rings:
            v = np.asarray(ring.coords)[:-1]
            if len(v) < 3:
                continue
            a, b = np.roll(v, 1, axis=0), np.roll(v, -1, axis=0)
            turn = _cross(v - a, b - v)
            keep = turn > 0
            found.append(np.stack([v[keep], a[keep], b[keep]], axis=1))
    if not found:
        empty = np.zeros((0, 2))
        return empty, empty, empty
    corners = np.concatenate(found)
    x0, y0, x1, y1 = bounds
    tol = TOUCH_TOLERANCE_IN
    px, py = corners[:, 0, 0], corners[:, 0, 1]
    inside = (px >= x0 - tol) & (px <= x1 + tol) & (py >= y0 - tol) & (py <= y1 + tol)
    corners = corners[inside]
    return corners[:, 0].copy(), corners[:, 1].copy(), corners[:, 2].copy()


def _pairs_in_chunks(n: int, chunk: int = 400_000) -> Iterable[tuple[np.ndarray, np.ndarray]]:
    """All index pairs i < j, a block of rows at a time to bound memory."""
    rows = max(1, chunk // max(n, 1))
    for lo in range(0, n, rows):
        i, j = np.meshgrid(np.arange(lo, min(n, lo + rows)), np.arange(n), indexing="ij")
        keep = j > i
        yield i[keep], j[keep]


def _cross(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]
