"""Candidate end positions for a moving unit, filtered by every single-model rule.

Steps, each a pure function: raw points (contact rings, engagement band, a fine lattice near the
targets and a coarser one elsewhere), then `standable` filters (board, terrain, surface, other
bases, engagement of non-targets), then per-model reach along the shortest legal path and the
"ends closer" rule. Pair relations (overlap, coherency) are computed once for the model.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np
import shapely

from chargeopt.geometry import Battlefield, Footprint
from chargeopt.geometry.climb_11e import climbing_lengths
from chargeopt.geometry.distance_matrix import edge_distances, poses_polygons
from chargeopt.geometry.obstacles import climbs_in
from chargeopt.geometry.paths import obstacle_map
from chargeopt.models import GameModel, OvalBase, RoundBase, Scenario, TerrainKind, Unit
from chargeopt.solver.core.candidate_pairs import pair_relations
from chargeopt.solver.core.candidate_points import raw_points
from chargeopt.solver.core.exact_limits import margin
from chargeopt.solver.core.printed_step import printed_apart
from chargeopt.solver.core.tolerances import (
    APART_FIXED_IN,
    FACING_DECIMALS,
    JSON_DECIMALS,
    MARGIN_IN,
    ROLL_MARGIN_IN,
)
from chargeopt.solver.options import SolveOptions


@dataclass
class Candidates:
    """All candidate poses for one move, with their single-model facts and pair relations."""

    base_keys: list[object]
    base_of: np.ndarray  # index into base_keys per candidate
    x: np.ndarray
    y: np.ndarray
    z: np.ndarray
    facing: np.ndarray
    contact: list[tuple[str, ...]]  # target model ids in base contact
    engaged: list[frozenset[str]]  # target unit ids within engagement range
    ring: np.ndarray  # ring number for ring points (contact, band), -1 for lattice points
    angle: np.ndarray  # angle (radians) around the ring's target
    reach: dict[str, np.ndarray] = field(default_factory=dict)  # model id -> move length (inf = no)
    conflicts: np.ndarray = field(default_factory=lambda: np.empty((0, 2), int))
    coherent: np.ndarray = field(default_factory=lambda: np.empty((0, 2), int))
    memo: dict[object, object] = field(default_factory=dict, repr=False)
    _conflict_lists: list[np.ndarray] | None = field(default=None, repr=False)
    _coherent_lists: list[np.ndarray] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.x)

    @property
    def conflict_lists(self) -> list[np.ndarray]:
        """Per candidate, the candidates its base would overlap (computed once)."""
        if self._conflict_lists is None:
            self._conflict_lists = _adjacency_lists(self.conflicts, len(self))
        return self._conflict_lists

    @property
    def coherent_lists(self) -> list[np.ndarray]:
        """Per candidate, the candidates within coherency range of it (computed once)."""
        if self._coherent_lists is None:
            self._coherent_lists = _adjacency_lists(self.coherent, len(self))
        return self._coherent_lists


def _adjacency_lists(pairs: np.ndarray, n: int) -> list[np.ndarray]:
    """For each of n nodes, the array of its neighbours under the undirected `pairs`."""
    if len(pairs) == 0:
        return [np.empty(0, int) for _ in range(n)]
    both = np.vstack([pairs, pairs[:, ::-1]])
    both = both[np.argsort(both[:, 0], kind="stable")]
    cuts = np.searchsorted(both[:, 0], np.arange(n + 1)).tolist()
    ends = both[:, 1]
    return [ends[a:b] for a, b in pairwise(cuts)]


@dataclass(frozen=True)
class Surroundings:
    """The models that do not move, sorted by what they are to the acting unit."""

    fixed: list[Footprint]
    targets: list[Footprint]
    target_ids: list[tuple[str, str]]  # (unit id, model id) per target footprint
    non_target_enemies: list[Footprint]


def surroundings(scenario: Scenario) -> Surroundings:
    """Every other model's footprint; the targets' with their ids; non-target enemies."""
    unit = scenario.acting_unit
    target_ids = set(scenario.action.targets)
    others = [
        (u, Footprint(u.base_of(m), m.x, m.y, m.z, m.facing), m.id)
        for u in scenario.units
        if u.id != unit.id
        for m in u.models
    ]
    return Surroundings(
        fixed=[fp for _, fp, _ in others],
        targets=[fp for u, fp, _ in others if u.id in target_ids],
        target_ids=[(u.id, mid) for u, _, mid in others if u.id in target_ids],
        non_target_enemies=[
            fp for u, fp, _ in others if u.owner != unit.owner and u.id not in target_ids
        ],
    )


EndRule = Callable[[GameModel, Candidates, np.ndarray, np.ndarray], np.ndarray]
"""(model, candidates, indices of its base's candidates, their move lengths) -> the lengths,
inf where the model may not end: a move's own "ends closer" rule replacing the charge's."""
ExtraPoints = Callable[[object, float, list[Footprint]], np.ndarray]
"""(base, facing, target footprints) -> rows (x, y, z, ring, angle) of extra poses to try."""


def generate(
    scenario: Scenario,
    battlefield: Battlefield,
    roll_max: float,
    options: SolveOptions,
    *,
    may_end: EndRule | None = None,
    extra: ExtraPoints | None = None,
    stays: bool = False,
    only_extra: bool = False,
) -> Candidates:
    """All candidates for the acting unit of a charge, filtered and with reach per model.
    Other moves toward the action's targets pass their own end rule (`may_end`), extra poses
    (`extra`, filtered like the rest), `stays` (every model's start pose is a candidate,
    unfiltered: it passed the start-layout checks, and only that model may end there);
    `only_extra`: the extra poses alone (no rings or lattice: a small set around an answer)."""
    rules = scenario.rules
    unit = scenario.acting_unit
    around = surroundings(scenario)
    targets, target_ids_list = around.targets, around.target_ids
    non_target_enemies = around.non_target_enemies
    upper = rules.may_end_on_upper_floor(unit.keyword_set)
    surfaces = [0.0] + ([f.height for f in battlefield.floors] if upper else [])

    bases = list(dict.fromkeys(unit.base_of(m) for m in unit.models))
    parts = []
    for bi, base in enumerate(bases):
        for fi, f in enumerate(_facings(base, unit, options)):
            ring_base = (bi * options.oval_facings + fi) * 3 * len(targets)
            pts = (
                np.empty((0, 5))
                if only_extra
                else raw_points(
                    scenario,
                    unit,
                    base,
                    roll_max,
                    options,
                    targets,
                    sorted(set(surfaces)),
                    ring_base,
                    f,
                    lattice=fi == 0,
                )
            )
            if extra is not None:
                pts = np.vstack([pts, grid_corners(extra(base, f, targets))])
            if stays:
                pts = np.vstack([pts, _starts_of(unit, base)])
            parts.append((bi, base, pts, np.full(len(pts), f)))
    cols: list[list[np.ndarray]] = [[] for _ in range(7)]
    for bi, base, pts, facing in parts:
        pts = on_written_grid(pts)
        keep = standable(
            base, pts, facing, scenario, battlefield, around.fixed, non_target_enemies, upper
        )
        for k, arr in enumerate(
            (pts[:, 0], pts[:, 1], pts[:, 2], facing, np.full(len(pts), bi), pts[:, 3], pts[:, 4])
        ):
            cols[k].append(arr[keep])
    if stays:
        for m in unit.models:
            pose = (m.x, m.y, m.z, m.facing, bases.index(unit.base_of(m)), -1, 0.0)
            for k, value in enumerate(pose):
                cols[k].append(np.array([value], dtype=float))
    x, y, z, facing, base_of, ring, angle = _dedupe(*(np.concatenate(a) for a in cols))
    base_of = base_of.astype(int)
    ring = ring.astype(int)

    contact, engaged, unit_dist = target_relations(
        bases, base_of, x, y, z, facing, targets, target_ids_list, rules, battlefield
    )
    cands = Candidates(bases, base_of, x, y, z, facing, contact, engaged, ring, angle)
    cands.reach = reach_lengths(
        scenario,
        battlefield,
        unit,
        cands,
        bases,
        targets,
        target_ids_list,
        unit_dist,
        roll_max,
        may_end,
    )
    used = np.zeros(len(cands), bool)
    for lengths in cands.reach.values():
        used |= np.isfinite(lengths)
    cands = subset(cands, np.flatnonzero(used))
    if stays:
        _keep_starts_own(cands, unit)
    if len(unit.models) > 1:
        cands.conflicts, cands.coherent = pair_relations(cands, rules)
    return cands


def _starts_of(unit: Unit, base: object) -> np.ndarray:
    """The start centres of the unit's models on `base`, as rows of raw points: written to the
    grid, another model may end where one started."""
    rows = [(m.x, m.y, m.z, -1.0, 0.0) for m in unit.models if unit.base_of(m) == base]
    return np.array(rows, dtype=float).reshape(-1, 5)


def on_written_grid(pts: np.ndarray) -> np.ndarray:
    """Poses (rows x, y, ...) with x and y rounded as the result JSON writes them: an answer
    over candidates is then written exactly as solved, and two bases that touch on the
    candidates touch as written (none overlaps another)."""
    out = np.array(pts, dtype=float, copy=True)
    out[:, :2] = np.round(out[:, :2], JSON_DECIMALS)
    return out


def grid_corners(pts: np.ndarray) -> np.ndarray:
    """Each pose (rows x, y, ...) at the four corners of the written grid's cell around it:
    an extra spot drawn exactly at the edge of what is legal (a sliver's corner) keeps a
    corner on the legal side, where rounding it to the nearest might step out."""
    step = 10.0**-JSON_DECIMALS
    rows = []
    for fx in (np.floor, np.ceil):
        for fy in (np.floor, np.ceil):
            out = np.array(pts, dtype=float, copy=True)
            out[:, 0] = fx(np.round(out[:, 0] / step, 6)) * step
            out[:, 1] = fy(np.round(out[:, 1] / step, 6)) * step
            rows.append(out)
    return np.vstack(rows) if rows else pts


def _keep_starts_own(c: Candidates, unit: Unit) -> None:
    """Let only its own model end on a model's start pose: a model that stays is written
    exactly where it started (off the written grid), another one there would be rounded."""
    for m in unit.models:
        here = (
            (np.abs(c.x - m.x) <= 1e-9)
            & (np.abs(c.y - m.y) <= 1e-9)
            & (np.abs(c.z - m.z) <= 1e-9)
            & (np.abs(c.facing - m.facing) <= 1e-9)
        )
        for other, lengths in c.reach.items():
            if other != m.id:
                lengths[here] = np.inf


def _facings(base: object, unit: Unit, options: SolveOptions) -> list[float]:
    if isinstance(base, RoundBase):
        return [0.0]
    own = [m.facing for m in unit.models if unit.base_of(m) == base]
    start = own[0] if own else 0.0
    span = 180.0 if isinstance(base, OvalBase) else 360.0
    n = options.oval_facings
    return [round(start + k * span / n, FACING_DECIMALS) for k in range(n)]


def standable(
    base: object,
    pts: np.ndarray,
    facing: np.ndarray,
    scenario: Scenario,
    battlefield: Battlefield,
    fixed: list[Footprint],
    non_target_enemies: list[Footprint],
    upper_allowed: bool,
    terrain_margin_in: float | None = None,
) -> np.ndarray:
    """Mask of poses where the base may end: on the board, clear of terrain and of other
    bases, on a surface that holds it, and out of engagement range of non-target enemies;
    `MARGIN_IN` inside the board edge, a floor's edge and engagement range, and
    `terrain_margin_in` off walls, impassable areas and barricades (a token spot touches its
    wall; by default `MARGIN_IN`)."""
    rules = scenario.rules
    if terrain_margin_in is None:
        terrain_margin_in = margin(MARGIN_IN)
    x, y, z = pts[:, 0], pts[:, 1], pts[:, 2]
    round_base = isinstance(base, RoundBase)
    polys = None if round_base else poses_polygons(base, x, y, facing)
    if round_base:
        r = base.radius_in + margin(MARGIN_IN)
        keep = (x >= r) & (x <= battlefield.width - r) & (y >= r) & (y <= battlefield.height - r)
        points = shapely.points(x, y)
    else:
        board = battlefield.board.buffer(-margin(MARGIN_IN), join_style="mitre")
        keep = shapely.within(polys, board)
    for piece in battlefield.of_kind(
        TerrainKind.WALL, TerrainKind.IMPASSABLE, TerrainKind.BARRICADE
    ):
        if round_base:
            keep &= shapely.distance(points, piece.shape) >= base.radius_in + terrain_margin_in
        else:
            keep &= ~shapely.intersects(polys, piece.shape.buffer(terrain_margin_in))
    on_floor = z > 0.0
    if on_floor.any():
        if not upper_allowed:
            keep &= ~on_floor
        ok_floor = np.zeros(len(x), bool)
        for floor in battlefield.floors:
            at = on_floor & (np.abs(z - floor.height) < 1e-9)
            if not at.any():
                continue
            inner = floor.shape.buffer(-margin(MARGIN_IN))
            if round_base:
                ok_floor |= (
                    at
                    & (shapely.distance(points, inner.exterior) >= base.radius_in)
                    & shapely.within(points, inner)
                )
            else:
                ok_floor |= at & shapely.within(polys, inner)
        keep &= ~on_floor | ok_floor
    idx = np.flatnonzero(keep)
    if len(idx) and fixed:
        d = edge_distances(
            base, x[idx], y[idx], facing[idx], fixed, None if polys is None else polys[idx]
        )
        same_level = np.abs(z[idx, None] - np.array([f.z for f in fixed])[None, :]) < 0.01
        if round_base:
            gaps = (
                np.hypot(
                    x[idx, None] - np.array([f.x for f in fixed]),
                    y[idx, None] - np.array([f.y for f in fixed]),
                )
                - base.radius_in
                - np.array([f.radius_in for f in fixed])
            )
            round_fixed = np.array([f.is_round for f in fixed])[None, :]
            clash = same_level & (gaps < APART_FIXED_IN) & round_fixed
            clash |= same_level & (d < APART_FIXED_IN) & ~round_fixed
        else:
            clash = same_level & (d < APART_FIXED_IN)
        keep[idx[clash.any(axis=1)]] = False
    idx = np.flatnonzero(keep)
    if len(idx) and non_target_enemies:
        d = edge_distances(
            base,
            x[idx],
            y[idx],
            facing[idx],
            non_target_enemies,
            None if polys is None else polys[idx],
        )
        limit = engagement_limits(x[idx], y[idx], non_target_enemies, battlefield, rules)
        near_v = (
            np.abs(z[idx, None] - np.array([f.z for f in non_target_enemies])[None, :])
            <= rules.engagement_vertical_in
        )
        keep[idx[((d <= limit + margin(MARGIN_IN)) & near_v).any(axis=1)]] = False
    return keep


def engagement_limits(
    x: np.ndarray, y: np.ndarray, others: list[Footprint], battlefield: Battlefield, rules: object
) -> np.ndarray:
    """Engagement range per (pose, other): the barricade range where the centres' segment
    crosses a barricade, the normal range elsewhere."""
    limits = np.full((len(x), len(others)), rules.engagement_range_in)
    if not battlefield.barricades:
        return limits
    for j, o in enumerate(others):
        segs = shapely.linestrings(
            np.stack([np.column_stack((x, y)), np.tile((o.x, o.y), (len(x), 1))], axis=1)
        )
        crosses = np.zeros(len(x), bool)
        for b in battlefield.barricades:
            crosses |= shapely.intersects(segs, b.shape)
        limits[crosses, j] = rules.barricade_engagement_range_in
    return limits


def _dedupe(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """Drop repeated poses (same x, y, z, facing and base), keeping the first."""
    key = np.column_stack([np.round(a, 6) for a in arrays[:5]])
    _, first = np.unique(key, axis=0, return_index=True)
    first.sort()
    return tuple(a[first] for a in arrays)


def target_relations(bases, base_of, x, y, z, facing, targets, target_ids, rules, battlefield):
    contact: list[tuple[str, ...]] = [()] * len(x)
    engaged: list[frozenset[str]] = [frozenset()] * len(x)
    unit_dist = {u: np.full(len(x), np.inf) for u, _ in target_ids}
    for bi, base in enumerate(bases):
        idx = np.flatnonzero(base_of == bi)
        if not len(idx):
            continue
        d = edge_distances(base, x[idx], y[idx], facing[idx], targets)
        dz = np.abs(z[idx, None] - np.array([t.z for t in targets])[None, :])
        limit = engagement_limits(x[idx], y[idx], targets, battlefield, rules)
        touching = (d <= rules.base_contact_tolerance_in - 0.001) & (dz < 0.01)
        within = (d <= limit - margin(MARGIN_IN)) & (dz <= rules.engagement_vertical_in)
        for j, (uid, _) in enumerate(target_ids):
            unit_dist[uid][idx] = np.minimum(unit_dist[uid][idx], d[:, j])
        for row, i in enumerate(idx):
            if touching[row].any():
                contact[i] = tuple(target_ids[j][1] for j in np.flatnonzero(touching[row]))
            if within[row].any():
                engaged[i] = frozenset(target_ids[j][0] for j in np.flatnonzero(within[row]))
    return contact, engaged, unit_dist


def reach_lengths(
    scenario,
    battlefield,
    unit,
    cands,
    bases,
    targets,
    target_ids,
    unit_dist,
    roll_max,
    may_end=None,
):
    """Per model: the legal move length to each candidate of its base, or inf where the model
    cannot end there (too far, path blocked, not closer to a target and not in contact; or
    what `may_end` forbids, when given). Paths are measured only to candidates within the
    roll in a straight line: no legal path is shorter. Lengths keep `ROLL_MARGIN_IN` inside
    the roll, "closer" means at least `MARGIN_IN` closer, and a model that moves moves
    `MOVED_STEP_IN` along x or y (`printed_step`)."""
    rules = scenario.rules
    avoid = [u.id for u in scenario.enemies_of(unit) if u.id not in scenario.action.targets]
    if rules.charge_targets_after_roll:
        avoid = []  # the 11th edition's charge may pass near other units; it only ends clear
    reach = {}
    tgt_units = sorted(unit_dist)
    for m in unit.models:
        base = unit.base_of(m)
        bi = bases.index(base)
        out = np.full(len(cands), np.inf)
        idx = np.flatnonzero(cands.base_of == bi)
        if len(idx) == 0:
            reach[m.id] = out
            continue
        field_ = obstacle_map(scenario, battlefield, m.id, avoid_engagement_of=avoid).path_field(
            (m.x, m.y), within_in=roll_max
        )
        near = np.hypot(cands.x[idx] - m.x, cands.y[idx] - m.y) <= roll_max + 1e-9
        horiz = np.full(len(idx), np.inf)
        if near.any():
            horiz[near] = field_.lengths_to(cands.x[idx[near]], cands.y[idx[near]])
            if rules.terrain_categories:
                xs, ys = cands.x[idx[near]], cands.y[idx[near]]
                over = climbing_lengths(scenario, battlefield, m.id, xs, ys, roll_max, avoid)
                horiz[near] = np.minimum(horiz[near], over)
        climb = climbs_in(rules, m.z, cands.z[idx])
        turn = 0.0 if isinstance(base, RoundBase) else 1.0
        rotation = (
            turn
            * base.circumradius_in
            * np.radians(np.abs(angle_diff(cands.facing[idx], m.facing)))
        )
        length = horiz + climb + rotation
        length[~printed_apart(m, cands.x[idx], cands.y[idx])] = np.inf
        if may_end is not None:
            length = may_end(m, cands, idx, length)
            ok = length <= roll_max - margin(ROLL_MARGIN_IN)
            out[idx[ok]] = length[ok]
            reach[m.id] = out
            continue
        start_fp = Footprint(base, m.x, m.y, m.z, m.facing)
        start_dist = {
            uid: min(
                _edge(start_fp, t)
                for (u2, _), t in zip(target_ids, targets, strict=True)
                if u2 == uid
            )
            for uid in tgt_units
        }
        closer = np.zeros(len(idx), bool)
        for uid in tgt_units:
            closer |= unit_dist[uid][idx] <= start_dist[uid] - max(margin(MARGIN_IN), 1e-9)
        in_contact = np.array([bool(cands.contact[i]) for i in idx], dtype=bool)
        ok = (length <= roll_max - margin(ROLL_MARGIN_IN)) & (closer | in_contact)
        out[idx[ok]] = length[ok]
        reach[m.id] = out
    return reach


def _edge(a: Footprint, b: Footprint) -> float:
    from chargeopt.geometry import edge_distance

    return edge_distance(a, b)


def angle_diff(a: np.ndarray, b: float) -> np.ndarray:
    d = np.mod(np.abs(a - b), 360.0)
    return np.minimum(d, 360.0 - d)


def subset(c: Candidates, idx: np.ndarray) -> Candidates:
    return Candidates(
        c.base_keys,
        c.base_of[idx],
        c.x[idx],
        c.y[idx],
        c.z[idx],
        c.facing[idx],
        [c.contact[i] for i in idx],
        [c.engaged[i] for i in idx],
        c.ring[idx],
        c.angle[idx],
        {m: v[idx] for m, v in c.reach.items()},
    )
