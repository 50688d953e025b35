"""The fall back as the solver sees it: the whole unit moved in a straight line, and how deep
that straight move runs into what blocks it (40k-assault-4e, seed 001).

A move is a heading (offset `theta` in radians from straight toward the unit's own table
edge) and a length. Model i's centre runs along the segment from its start c_i to
c_i + length * e(theta); its path is blocked by a blocker (core K, growth g) when the segment
comes closer than r_i + g to K. `depths` gives r_i + g - dist(segment, K) for every pair:
positive means blocked, and it is a lower bound of how far a point of the path lies inside."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from chargeopt.geometry.footprints import Footprint, edge_distance
from chargeopt.geometry.terrain import Battlefield
from chargeopt.models import RoundBase, Scenario, TableEdge, TerrainKind, UnsupportedRuleError

ZONE_IN = 1.0
"""A falling back model may not come within 1" of an enemy that did not fight it."""
BLOCKING_TERRAIN = (TerrainKind.IMPASSABLE, TerrainKind.WALL)
OWN_EDGE_KEEP_IN = 0.0015
"""A move that stops at the own edge may end this close to it (the search stops 0.002" short;
the written rounding takes 0.0007" of it): it has reached the edge, within the 0.005" the
checker allows, and stays on the board."""


@dataclass(frozen=True)
class Blocker:
    """Something a falling back model's base may not run into: its core and how far it is
    grown (`grow_in`, the rule's limit)."""

    label: str
    ids: tuple[str, ...]
    core: BaseGeometry
    grow_in: float
    terrain: bool = False


@dataclass(frozen=True)
class Hit:
    """The deepest run-in of a straight move: depth (inches, positive means blocked), the
    model and what it runs into."""

    depth_in: float
    model: str
    what: str
    ids: tuple[str, ...] = ()


class FallBackField:
    """The acting unit, its own table edge and every blocker, built once per scenario."""

    def __init__(self, scenario: Scenario, *, margin_in: float) -> None:
        action = scenario.action
        unit = scenario.acting_unit
        if action.table_edge is None:
            raise UnsupportedRuleError("a fall back needs the unit's own table edge")
        self.scenario = scenario
        self.margin_in = margin_in
        self.model_ids = tuple(m.id for m in unit.models)
        self.footprints = tuple(
            Footprint(unit.base_of(m), m.x, m.y, m.z, m.facing) for m in unit.models
        )
        for m, fp in zip(unit.models, self.footprints, strict=True):
            if not isinstance(fp.base, RoundBase):
                raise UnsupportedRuleError(
                    f"fall back of model {m.id!r}: only round bases are solved for a fall back"
                )
        self.centres = np.array([(fp.x, fp.y) for fp in self.footprints])
        self.radii = np.array([fp.radius_in for fp in self.footprints])
        self.toward = np.array(action.table_edge.toward)
        self.width = scenario.board.width
        self.height = scenario.board.height
        self.edge_gaps = self._edge_gaps(action.table_edge)
        self.blockers = self._blockers()
        self.cores = np.array([b.core for b in self.blockers], dtype=object)
        self.grows = np.array([b.grow_in for b in self.blockers])
        start = self.depths(0.0, 0.0)
        self.allowed = np.maximum(start, 0.0)
        """How deep each model already stands in each blocker (touching within tolerance, or
        inside the 1" of an enemy it started nearer than that): the rule is not to go deeper."""
        self.limits = np.where(start <= -margin_in, -margin_in, start + 1e-9)
        board = self.board_depths(0.0, 0.0)
        self.board_allowed = np.maximum(board, 0.0)
        self.board_limits = np.where(board <= -margin_in, -margin_in, board + 1e-9)
        """Per model and blocker, the deepest a chosen move may run: the margin's clearance,
        or for a base that starts closer than that (in contact with an enemy that fought it),
        no deeper than it starts."""
        own = {TableEdge.LEFT: 0, TableEdge.TOP: 1, TableEdge.RIGHT: 2, TableEdge.BOTTOM: 3}
        side = own[action.table_edge]
        self.board_limits[:, side] = np.maximum(self.board_limits[:, side], -OWN_EDGE_KEEP_IN)
        field = Battlefield.from_scenario(scenario)
        difficult = [p.shape for p in field.of_kind(TerrainKind.DIFFICULT)]
        self.difficult = shapely.union_all(difficult) if difficult else None

    def _edge_gaps(self, edge: TableEdge) -> np.ndarray:
        x, y, r = self.centres[:, 0], self.centres[:, 1], self.radii
        gaps = {
            TableEdge.TOP: y - r,
            TableEdge.BOTTOM: self.height - y - r,
            TableEdge.LEFT: x - r,
            TableEdge.RIGHT: self.width - x - r,
        }
        return gaps[edge]

    def _blockers(self) -> tuple[Blocker, ...]:
        scenario, unit = self.scenario, self.scenario.acting_unit
        fought = set(scenario.action.fought_by)
        found: list[Blocker] = []
        for piece in Battlefield.from_scenario(scenario).of_kind(*BLOCKING_TERRAIN):
            found.append(
                Blocker(f"{piece.kind} {piece.id!r}", (piece.id,), piece.shape, 0.0, terrain=True)
            )
        for other in scenario.units:
            if other.id == unit.id:
                continue
            enemy = other.owner != unit.owner
            for m in other.models:
                fp = Footprint(other.base_of(m), m.x, m.y, m.z, m.facing)
                core, grow = _core(fp)
                if enemy and other.id not in fought:
                    start_gap = min(edge_distance(fp, mine) for mine in self.footprints)
                    zone = min(ZONE_IN, start_gap)
                    found.append(Blocker(f'1" of enemy {m.id}', (m.id,), core, grow + zone))
                else:
                    what = "enemy" if enemy else "friendly model"
                    found.append(Blocker(f"{what} {m.id}", (m.id,), core, grow))
        return tuple(found)

    @cached_property
    def edge_stop_gap_in(self) -> float:
        """How far the unit moves straight back before its first base reaches the edge."""
        return float(self.edge_gaps.min())

    def heading(self, theta: float) -> np.ndarray:
        """The unit vector `theta` radians from straight toward the own edge (toward +y from
        +x positive, the scenario's sense of angles)."""
        c, s = math.cos(theta), math.sin(theta)
        tx, ty = self.toward
        return np.array([c * tx - s * ty, s * tx + c * ty])

    def heading_deg(self, theta: float) -> float:
        e = self.heading(theta)
        return math.degrees(math.atan2(e[1], e[0])) % 360.0

    def edge_stop(self, theta: float) -> float:
        """How far the unit moves along `theta` before its first base touches the own edge."""
        c = math.cos(theta)
        return math.inf if c <= 1e-12 else self.edge_stop_gap_in / c

    def segments(self, theta: float, length: float) -> np.ndarray:
        ends = self.centres + length * self.heading(theta)
        if length <= 0:
            return shapely.points(self.centres)
        return shapely.linestrings(np.stack([self.centres, ends], axis=1))

    def depths(self, theta: float, length: float) -> np.ndarray:
        """(models x blockers): r_i + g_j - dist(path_i, core_j)."""
        if not len(self.blockers):
            return np.zeros((len(self.model_ids), 0))
        dist = shapely.distance(self.segments(theta, length)[:, None], self.cores[None, :])
        return self.radii[:, None] + self.grows[None, :] - dist

    def board_depths(self, theta: float, length: float) -> np.ndarray:
        """(models x 4): how far each base ends beyond the left, top, right, bottom edge."""
        ends = self.centres + length * self.heading(theta)
        x, y, r = ends[:, 0], ends[:, 1], self.radii
        return np.stack([r - x, r - y, x + r - self.width, y + r - self.height], axis=1)

    def worst(self, theta: float, length: float) -> Hit:
        """The deepest run-in of the move (into a blocker or past a board edge), beyond how
        deep the model already stood at the start."""
        d = self.depths(theta, length) - self.allowed
        b = self.board_depths(theta, length) - self.board_allowed
        best = Hit(-math.inf, "", "")
        if d.size:
            i, j = np.unravel_index(int(np.argmax(d)), d.shape)
            best = Hit(
                float(d[i, j]), self.model_ids[i], self.blockers[j].label, self.blockers[j].ids
            )
        i, k = np.unravel_index(int(np.argmax(b)), b.shape)
        if b[i, k] > best.depth_in:
            edge = ("left", "top", "right", "bottom")[k]
            best = Hit(float(b[i, k]), self.model_ids[i], f"the board's {edge} edge")
        return best

    def clear_with_margin(self, theta: float, length: float) -> bool:
        """Whether every path keeps each blocker's clearance and every base stays on the board
        with the margin."""
        d = self.depths(theta, length)
        if d.size and bool(np.any(d > self.limits)):
            return False
        return bool(np.all(self.board_depths(theta, length) <= self.board_limits))

    def difficult_clearance(self, theta: float, length: float) -> float:
        """The smallest gap between a base along its path and difficult terrain (negative:
        the base enters it); infinite without difficult terrain."""
        if self.difficult is None:
            return math.inf
        dist = shapely.distance(self.segments(theta, length), self.difficult)
        return float(np.min(dist - self.radii))


def _core(fp: Footprint) -> tuple[BaseGeometry, float]:
    """A base as a core and growth: a round base is its centre grown by its radius, exactly;
    another base its footprint polygon (inscribed, so never larger than the base)."""
    if fp.is_round:
        return Point(fp.x, fp.y), fp.radius_in
    return fp.polygon, 0.0
