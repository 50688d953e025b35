"""Continuous repair of a charge answer: bring one more model within engagement range by moving
it into its exact engagement region while the rest of the unit shifts a little, every rule
written as a smooth inequality on the centres (least squares, then SLSQP): reach in a straight
line, no overlap, no base on a wall or impassable footprint, base contact and engagement kept,
the closer rule, coherency. A lattice cannot make those small shifts of many models at once:
on scaling-v1 c30-open-s2 the repair engages a 24th model where the candidates' best has 23.
Where no model alone can be added, the whole front is laid out again from a packing of the
bands (`packing_seeds`) and squeezed the same way (c30-walls-s1: 18 where the answer has 17).
Paths are left to `_moved` and `accept` (the independent checker and the counts), which every
repaired layout must pass: a repair can only fail, never break a rule."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import networkx as nx
import numpy as np
from shapely.geometry import Point
from shapely.ops import nearest_points

from chargeopt.geometry import Battlefield
from chargeopt.geometry.paths import obstacle_map
from chargeopt.models import RoundBase, Scenario, TerrainKind
from chargeopt.solver.bounds.contact_bound import engagement_reach_in
from chargeopt.solver.bounds.engagement_regions import engagement_regions
from chargeopt.solver.bounds.ring_packing import applies
from chargeopt.solver.core import clock
from chargeopt.solver.core.polish import Pose
from chargeopt.solver.core.tolerances import MARGIN_IN, PAIR_MARGIN_IN, ROLL_MARGIN_IN
from chargeopt.solver.forty_k.packing_seeds import SEED_DTIME, Seeds, packed_seeds

SLACK_IN = 2e-3
"""Bases of the unit keep this far apart, and a base in contact this far inside the contact
tolerance (the checker's own slack is 1e-6"); every other limit keeps the answers' margins
(`solver.core.tolerances`: the roll, ranges, terrain, the board, the closer rule, coherency)."""
EASED_IN = 0.01
"""How far past a limit a model that does not join may stand and keep its place (`_eased`)."""
NEAR_IN = 1.0
"""Only bases closer than this (edge to edge) where the models stand are kept apart by rows; a
repair that shifts a model farther and onto another base fails the checker, never passes it."""
HOPELESS = 0.01
"""A least-squares start still this far from some row (in squared inches) is not handed to
SLSQP: on scaling-v1 c30-open-s2 the one SLSQP made feasible was 0.0025 short."""
FAR = 3
"""When the unshaken start stays more than FAR * HOPELESS short, no shaken start is tried."""
MAX_ITERATIONS = 60
"""SLSQP's iterations per start."""
EASING_ITERATIONS = 150
"""L-BFGS-B's iterations per start, on the squared shortfalls."""
TRIALS = 3
JITTER_IN = 0.15
"""Starts per spot: the layout as it stands, then TRIALS - 1 shaken by this much (normal)."""
REPACK_TRIES = 3
"""Packings tried (CP-SAT seeds) for each model more before the repacking stops: on
c30-walls-s1 two starts in three squeeze into a legal layout with an 18th model. Where no
packing is found (CP-SAT proves there is none, or runs out of work) no other seed is tried:
on c20-open-s2 and c40-walls-s1 none of five seeds found one."""

ATTEMPT_COST_S = 0.05
SQUEEZE_COST_S = 0.3
"""What one model's attempt and one squeeze of a packed front are charged on the solver's
clock (`solver.core.clock`: the repair's least squares are not CP-SAT's work; about what
each takes on the reference machine)."""

Accept = Callable[[dict[str, Pose], int], bool]
"""Whether repaired poses are legal, have at least as many models in base contact as the answer
and at least the given number of models engaged (the caller checks them with the independent
checker)."""


@dataclass(frozen=True)
class Repair:
    """The repaired poses and the models brought within engagement range, in order."""

    poses: dict[str, Pose]
    added: tuple[str, ...]


def applies_to(scenario: Scenario, battlefield: Battlefield) -> bool:
    """Round bases everywhere on one level, no barricade: where the centres' distances are the
    whole rule."""
    if not applies(scenario, battlefield):
        return False
    if engagement_reach_in(scenario) != scenario.rules.engagement_range_in:
        return False
    return all(isinstance(u.base_of(m), RoundBase) for u in scenario.units for m in u.models)


def repair_engaged(
    scenario: Scenario,
    battlefield: Battlefield,
    poses: dict[str, Pose],
    engaged: set[str],
    contact: dict[str, str],
    roll: float,
    ceiling: int,
    deadline: float,
    accept: Accept,
) -> Repair | None:
    """Poses with more models engaged than `engaged`, one model at a time (nearest to its
    region first; the others tried again after each pass that added one), then by laying the
    front out again from packings of the bands (`_repack`), until `ceiling` or `deadline`;
    None if no model could be added. `contact` maps each model in base contact to a target
    model it touches; one at a time, it keeps touching it; a repacked front keeps at least as
    many contacts."""
    regions = engagement_regions(scenario, roll, outer=False)
    layout = _Layout.of(scenario, battlefield, roll)
    engaged = set(engaged)
    added: list[str] = []
    waiting = [m for m in regions if m not in engaged]
    while waiting:
        here = {m: Point(poses[m].x, poses[m].y) for m in waiting}
        spots = {m: nearest_points(regions[m].area, here[m])[0] for m in waiting}
        for mid in sorted(waiting, key=lambda m: spots[m].distance(here[m])):
            if len(engaged) >= ceiling or clock.now() >= deadline or clock.overrun("repair"):
                return Repair(poses, tuple(added)) if added else None
            for spot in (spots[mid], regions[mid].area.representative_point()):
                clock.spend(ATTEMPT_COST_S)
                trial = layout.attempt(poses, mid, (spot.x, spot.y), engaged, contact)
                moved = None if trial is None else _moved(scenario, battlefield, poses, trial, roll)
                if moved is not None and accept(moved, len(engaged) + 1):
                    poses, engaged = moved, engaged | {mid}
                    added.append(mid)
                    break
        if len(waiting) == len(left := [m for m in waiting if m not in engaged]):
            break
        waiting = left
    repacked = _repack(layout, poses, engaged, contact, ceiling, deadline, accept)
    if repacked is not None:
        poses = repacked.poses
        added += [m for m in repacked.added if m not in added]
    return Repair(poses, tuple(added)) if added else None


def _repack(
    layout: _Layout,
    poses: dict[str, Pose],
    engaged: set[str],
    contact: dict[str, str],
    ceiling: int,
    deadline: float,
    accept: Accept,
) -> Repair | None:
    """The front laid out again from packings of the bands (`packing_seeds`), each placing one
    model more than the last legal layout and squeezed by the rows from its start; stops where
    none of `REPACK_TRIES` packings squeezes into a legal layout, at `ceiling` or at
    `deadline`. `added` lists the models newly engaged (a repacked front may leave out models
    the answer had; the caller names them)."""
    scenario, battlefield, roll = layout.scenario, layout.battlefield, layout.roll
    added: list[str] = []
    while len(engaged) < ceiling and clock.now() < deadline and not clock.overrun("repair"):
        moved = None
        for seed in range(REPACK_TRIES):
            work = (deadline, SEED_DTIME, seed)
            seeds = packed_seeds(scenario, battlefield, roll, len(contact), len(engaged) + 1, work)
            if seeds is None:
                break
            clock.spend(SQUEEZE_COST_S)
            moved = _squeezed(layout, poses, engaged, seeds, accept)
            if moved is not None or clock.now() >= deadline:
                break
        if moved is None:
            break
        added += [m for m in layout.ids if m in seeds.centres and m not in engaged]
        poses, engaged, contact = moved, set(seeds.centres), seeds.contact
    return Repair(poses, tuple(added)) if added else None


def _squeezed(
    layout: _Layout, poses: dict[str, Pose], engaged: set[str], seeds: Seeds, accept: Accept
) -> dict[str, Pose] | None:
    """The unit squeezed from the seeds' start (the seeded models there, the other models the
    answer had engaged back at their starts, the rest where they stand): legal poses with
    every seeded model engaged, or None. A second squeeze starts where the first ended, with
    rows for the bases that came near on the way. No row is eased (`_eased`): a packed start
    is no legal layout, and bases it sets up to 0.01" into each other would stay there."""
    now = np.array([[poses[m].x, poses[m].y] for m in layout.ids])
    for k, mid in enumerate(layout.ids):
        if mid in seeds.centres:
            now[k] = seeds.centres[mid]
        elif mid in engaged:
            now[k] = layout.start[k]
    scenario, battlefield, roll = layout.scenario, layout.battlefield, layout.roll
    for _ in range(2):
        rows = _Rows(layout, now, None, eased=False)
        rows.add_rules(set(seeds.centres), seeds.contact)
        centres = rows.solve()
        if centres is None:
            return None
        moved = _moved(scenario, battlefield, poses, centres, roll)
        if moved is not None and accept(moved, len(seeds.centres)):
            return moved
        now = centres
    return None


@dataclass(frozen=True)
class _Layout:
    """The fixed geometry of the charge: starts, radii, other models, targets."""

    scenario: Scenario
    battlefield: Battlefield
    roll: float
    ids: tuple[str, ...]
    other_ids: tuple[str, ...]
    start: np.ndarray
    radius: np.ndarray
    others: np.ndarray
    others_radius: np.ndarray
    others_reach: np.ndarray
    target_rows: np.ndarray
    board: tuple[float, float]
    edges: np.ndarray
    """The edges of every wall and impassable footprint, (n, 2, 2): no base ends on them."""

    @classmethod
    def of(cls, scenario: Scenario, battlefield: Battlefield, roll: float) -> _Layout:
        unit = scenario.acting_unit
        rules = scenario.rules
        targets = set(scenario.action.targets)
        enemies = {u.id for u in scenario.enemies_of(unit)}
        rows = [
            (m.x, m.y, u.base_of(m).radius_in, u.id, m.id)
            for u in scenario.units
            if u.id != unit.id
            for m in u.models
        ]
        reach = [
            rules.engagement_range_in if uid in enemies and uid not in targets else 0.0
            for _, _, _, uid, _ in rows
        ]
        return cls(
            scenario,
            battlefield,
            roll,
            tuple(m.id for m in unit.models),
            tuple(oid for *_, oid in rows),
            np.array([[m.x, m.y] for m in unit.models]),
            np.array([unit.base_of(m).radius_in for m in unit.models]),
            np.array([[row[0], row[1]] for row in rows]).reshape(-1, 2),
            np.array([row[2] for row in rows]),
            np.array(reach),
            np.array([row[3] in targets for row in rows], dtype=bool),
            (scenario.board.width, scenario.board.height),
            _edges(battlefield),
        )

    def attempt(
        self,
        poses: dict[str, Pose],
        mid: str,
        spot: tuple[float, float],
        engaged: set[str],
        contact: dict[str, str],
    ) -> np.ndarray | None:
        """Centres of the unit with `mid` engaged, or None where the solver finds none. Every
        model may shift: coherency can pull a model from the far side of the unit."""
        now = np.array([[poses[m].x, poses[m].y] for m in self.ids])
        newcomer = self.ids.index(mid)
        now[newcomer] = spot
        rows = _Rows(self, now, newcomer)
        rows.add_rules(engaged | {mid}, contact)
        return rows.solve()


class _Rows:
    """Inequalities sign * (|p_i - q|^2 - c) >= 0 on the unit's centres p, where q is another
    centre of the unit or a fixed point; `eased` lets the limits give way to a legal layout
    where the models stand (`_eased`), which a packed start is not."""

    def __init__(
        self, layout: _Layout, now: np.ndarray, newcomer: int | None, eased: bool = True
    ) -> None:
        self.layout, self.now, self.newcomer, self.eased = layout, now, newcomer, eased
        self.i: list[int] = []
        self.j: list[int] = []
        self.anchor: list[tuple[float, float]] = []
        self.c: list[float] = []
        self.sign: list[float] = []
        self.edge_of: list[int] = []
        self.edge: list[int] = []
        self.edge_c: list[float] = []

    def _row(self, i: int, q: int | np.ndarray, limit: float, sign: float) -> None:
        """|p_i - q| >= limit (sign 1) or <= limit (sign -1); q a model of the unit (its index)
        or a fixed point. Where `eased`, the limit gives way to where the models stand
        (`_eased`)."""
        fixed = not isinstance(q, int)
        point = q if fixed else self.now[q]
        if self.eased and self.newcomer not in (i, None if fixed else q):
            limit = _eased(limit, float(np.hypot(*(self.now[i] - point))), sign)
        self.i.append(i)
        self.j.append(-1 if fixed else q)
        self.anchor.append((float(q[0]), float(q[1])) if fixed else (0.0, 0.0))
        self.c.append(limit * limit)
        self.sign.append(sign)

    def add_rules(self, engaged: set[str], contact: dict[str, str]) -> None:
        """Every rule a centre must keep: its reach, no overlap, no engagement range of
        non-targets, its base contact or engagement (else the closer rule), coherency."""
        lay = self.layout
        rules = lay.scenario.rules
        ids, now, r = lay.ids, self.now, lay.radius
        targets = np.flatnonzero(lay.target_rows)
        for i, mid in enumerate(ids):
            self._row(i, lay.start[i], lay.roll - ROLL_MARGIN_IN, -1.0)
            for j in range(i + 1, len(ids)):
                if np.hypot(*(now[j] - now[i])) < r[i] + r[j] + NEAR_IN:
                    self._row(i, j, r[i] + r[j] + SLACK_IN, 1.0)
            keep = np.where(lay.others_reach > 0, MARGIN_IN, SLACK_IN / 2)
            apart = r[i] + lay.others_radius + lay.others_reach + keep
            near = np.hypot(*(lay.others - now[i]).T) < apart + NEAR_IN
            for xy, limit in zip(lay.others[near], apart[near], strict=True):
                self._row(i, xy, limit, 1.0)
            to_edges = _to_edges(now[i], lay.edges)
            for e in np.flatnonzero(to_edges < r[i] + NEAR_IN):
                limit = r[i] + MARGIN_IN
                if self.eased and i != self.newcomer:
                    limit = _eased(limit, float(to_edges[e]), 1.0)
                self.edge_of.append(i)
                self.edge.append(int(e))
                self.edge_c.append(limit**2)
            gap = np.hypot(*(lay.others[targets] - now[i]).T) - lay.others_radius[targets]
            t = int(targets[np.argmin(gap)])
            if mid in contact:
                t = lay.other_ids.index(contact[mid])
                reach = rules.base_contact_tolerance_in - SLACK_IN / 2
            elif mid in engaged:
                reach = rules.engagement_range_in - MARGIN_IN
            else:
                start_gap = np.hypot(*(lay.others[targets] - lay.start[i]).T)
                reach = float((start_gap - lay.others_radius[targets]).min()) - r[i] - MARGIN_IN
            self._row(i, lay.others[t], r[i] + lay.others_radius[t] + reach, -1.0)
        limit = rules.coherency_range_in - PAIR_MARGIN_IN
        for a, b in _coherency_edges(now, rules.coherency_neighbours(len(ids))):
            self._row(a, b, r[a] + r[b] + limit, -1.0)

    def solve(self) -> np.ndarray | None:
        """Centres meeting every row, sought from where the models stand (then from shaken
        starts): least squares on the shortfall, then SLSQP for exact feasibility."""
        i, j, sign = np.array(self.i), np.array(self.j), np.array(self.sign)
        on, edges = np.array(self.edge_of, dtype=int), self.layout.edges[self.edge]
        edge_c = np.array(self.edge_c)
        anchor, c = np.array(self.anchor), np.array(self.c)
        paired = j >= 0
        rows = np.arange(len(i))
        x0 = self.now.ravel()

        def other(p: np.ndarray) -> np.ndarray:
            q = anchor.copy()
            q[paired] = p[j[paired]]
            return q

        def g(x: np.ndarray) -> np.ndarray:
            p = x.reshape(-1, 2)
            d = p[i] - other(p)
            off = p[on] - _nearest_on(p[on], edges)
            return np.concatenate([sign * ((d * d).sum(1) - c), (off * off).sum(1) - edge_c])

        def jac(x: np.ndarray) -> np.ndarray:
            p = x.reshape(-1, 2)
            d = 2 * (p[i] - other(p)) * sign[:, None]
            out = np.zeros((len(i) + len(on), len(x)))
            off = 2 * (p[on] - _nearest_on(p[on], edges))
            walls = np.arange(len(i), len(i) + len(on))
            out[walls, 2 * on] = off[:, 0]
            out[walls, 2 * on + 1] = off[:, 1]
            out[rows, 2 * i] += d[:, 0]
            out[rows, 2 * i + 1] += d[:, 1]
            out[rows[paired], 2 * j[paired]] -= d[paired, 0]
            out[rows[paired], 2 * j[paired] + 1] -= d[paired, 1]
            return out

        def shortfall(x: np.ndarray) -> tuple[float, np.ndarray]:
            short = np.minimum(g(x), 0.0)
            return float((short * short).sum()), 2 * jac(x).T @ short

        from scipy.optimize import minimize  # only a repair pays for importing scipy (0.3 s)

        lay = self.layout
        radius = np.repeat(lay.radius, 2)
        top = np.tile(lay.board, len(lay.ids))
        bounds = list(zip(radius + MARGIN_IN, top - radius - MARGIN_IN, strict=True))
        rng = np.random.default_rng(0)
        for trial in range(TRIALS):
            start = x0 + (rng.normal(0.0, JITTER_IN, x0.shape) if trial else 0.0)
            eased = minimize(
                shortfall,
                start,
                jac=True,
                bounds=bounds,
                method="L-BFGS-B",
                options={"maxiter": EASING_ITERATIONS},
            )
            worst = g(eased.x).min()
            if worst >= 0:
                return eased.x.reshape(-1, 2)
            if trial == 0 and worst < -HOPELESS * FAR:
                return None
            if worst < -HOPELESS:
                continue
            found = minimize(
                lambda x: 0.0,
                eased.x,
                jac=np.zeros_like,
                bounds=bounds,
                constraints=[{"type": "ineq", "fun": g, "jac": jac}],
                method="SLSQP",
                options={"maxiter": MAX_ITERATIONS},
            )
            if g(found.x).min() >= 0:
                return found.x.reshape(-1, 2)
        return None


def _eased(limit: float, now: float, sign: float) -> float:
    """The limit, or where the model stands where that is at most EASED_IN beyond it: a legal
    layout may sit inside the slack (the checker's own tolerances, e.g. bases touching a wall
    within 0.005"), and a row it cannot meet where it stands makes the repair fail."""
    if sign > 0 and limit - EASED_IN <= now < limit:
        return now
    if sign < 0 and limit < now <= limit + EASED_IN:
        return now
    return limit


def _edges(battlefield: Battlefield) -> np.ndarray:
    """The edges of the footprints of walls and impassable terrain, (n, 2, 2)."""
    rings = []
    for piece in battlefield.of_kind(TerrainKind.WALL, TerrainKind.IMPASSABLE):
        for polygon in getattr(piece.shape, "geoms", [piece.shape]):
            rings += [polygon.exterior, *polygon.interiors]
    out = [np.asarray(ring.coords) for ring in rings]
    pairs = [np.stack([xy[:-1], xy[1:]], axis=1) for xy in out]
    return np.concatenate(pairs) if pairs else np.empty((0, 2, 2))


def _nearest_on(points: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """The nearest point of each edge to each point (row by row)."""
    a, b = edges[:, 0], edges[:, 1]
    ab = b - a
    length2 = np.maximum((ab * ab).sum(1), 1e-18)
    t = np.clip(((points - a) * ab).sum(1) / length2, 0.0, 1.0)
    return a + t[:, None] * ab


def _to_edges(point: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """The distance from one point to every edge."""
    if not len(edges):
        return np.empty(0)
    nearest = _nearest_on(np.broadcast_to(point, (len(edges), 2)), edges)
    return np.hypot(*(point - nearest).T)


def _coherency_edges(now: np.ndarray, k: int) -> set[tuple[int, int]]:
    """Pairs that must stay within coherency range: each model's k nearest mates where they
    stand now and a spanning tree of the unit."""
    n = len(now)
    gaps = np.hypot(*(now[:, None] - now[None]).transpose(2, 0, 1))
    np.fill_diagonal(gaps, np.inf)
    edges: set[tuple[int, int]] = set()
    for a in range(n):
        for b in np.argsort(gaps[a])[:k]:
            edges.add((min(a, int(b)), max(a, int(b))))
    tree = nx.Graph()
    tree.add_weighted_edges_from((a, b, gaps[a, b]) for a in range(n) for b in range(a + 1, n))
    for a, b in nx.minimum_spanning_edges(tree, data=False):
        edges.add((min(a, b), max(a, b)))
    return edges


def _moved(
    scenario: Scenario,
    battlefield: Battlefield,
    poses: dict[str, Pose],
    centres: np.ndarray,
    roll: float,
) -> dict[str, Pose] | None:
    """The poses at the new centres with each moved model's legal path length, or None if a
    path is longer than the roll."""
    unit = scenario.acting_unit
    avoid = [u.id for u in scenario.enemies_of(unit) if u.id not in scenario.action.targets]
    out = dict(poses)
    for m, (x, y) in zip(unit.models, centres, strict=True):
        old = poses[m.id]
        if abs(old.x - x) < 1e-12 and abs(old.y - y) < 1e-12:
            continue
        field_ = obstacle_map(scenario, battlefield, m.id, avoid_engagement_of=avoid).path_field(
            (m.x, m.y), within_in=roll
        )
        length = field_.length_to(float(x), float(y))
        if not np.isfinite(length) or length > roll - ROLL_MARGIN_IN:
            return None
        out[m.id] = replace(old, x=float(x), y=float(y), moved=float(length))
    return out
