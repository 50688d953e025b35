"""Candidates for a charge under the WTC walls rule: the normal charge candidates plus spots
where a round base touches a ruin wall, each marked with the wall and the target units it is
within the barricade range (2") of across that wall.

A token spot stands `CONTACT_GAP_IN` from the wall (touching it, as close as possible), within
the barricade engagement range of a target model whose centre lies across the wall (the
segment between the two centres crosses the wall), and is not in normal engagement range of a
target (there the model is in a normal legal position and takes no token). Ovals and hulls get
no token spots: their distance to a wall depends on the facing (a reading written down in the
README's section on the rule)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely

from chargeopt.geometry import Battlefield, Footprint, TerrainPiece
from chargeopt.models import RoundBase, Scenario
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core.candidate_pairs import pair_relations
from chargeopt.solver.core.tolerances import CONTACT_GAP_IN, MARGIN_IN
from chargeopt.solver.options import SolveOptions

WALL_STEP_IN = 0.15
"""Spacing of token spots along the outline of a wall grown by the base's radius."""


@dataclass
class WallCandidates:
    """Candidates with, per candidate, the wall it takes a token against (None if it is no
    token spot) and the target units within the barricade range across that wall."""

    c: cand.Candidates
    token_wall: list[str | None]
    token_targets: list[frozenset[str]]

    @property
    def is_token(self) -> np.ndarray:
        return np.array([w is not None for w in self.token_wall], dtype=bool)


def generate(
    scenario: Scenario, battlefield: Battlefield, roll_max: float, options: SolveOptions
) -> WallCandidates:
    """The normal charge candidates and the token spots along every wall near a target, with
    reach per model, pair relations over both, and the token facts of each."""
    normal = cand.generate(scenario, battlefield, roll_max, options)
    extra = _token_candidates(scenario, battlefield, roll_max)
    c = _merge(normal, extra) if extra is not None else normal
    if len(scenario.acting_unit.models) > 1:
        c.conflicts, c.coherent = pair_relations(c, scenario.rules)
    walls, targets = token_facts(scenario, battlefield, c)
    return WallCandidates(c, walls, targets)


def wall_points(piece: TerrainPiece, radius_in: float, near: list[Footprint], reach_in: float):
    """Centres of a round base of `radius_in` touching `piece`, every `WALL_STEP_IN` along its
    grown outline, plus the spot nearest each footprint in `near`, kept within `reach_in`
    (centre to centre) of one of them."""
    grown = piece.shape.buffer(radius_in + CONTACT_GAP_IN, quad_segs=16)
    rings = [g.exterior for g in getattr(grown, "geoms", [grown])]
    rings += [i for g in getattr(grown, "geoms", [grown]) for i in g.interiors]
    parts = []
    for ring in rings:
        count = max(8, int(np.ceil(ring.length / WALL_STEP_IN)))
        pts = shapely.line_interpolate_point(
            ring, np.linspace(0, 1, count, endpoint=False), normalized=True
        )
        feet = [ring.interpolate(ring.project(shapely.Point(f.x, f.y))) for f in near]
        parts += [shapely.get_coordinates(pts), *(shapely.get_coordinates(f) for f in feet)]
    xy = np.vstack(parts)
    centres = np.array([(f.x, f.y) for f in near])
    dist = np.hypot(xy[:, None, 0] - centres[None, :, 0], xy[:, None, 1] - centres[None, :, 1])
    return xy[(dist <= reach_in).any(axis=1)]


def _token_candidates(scenario: Scenario, battlefield: Battlefield, roll_max: float):
    rules = scenario.rules
    unit = scenario.acting_unit
    around = cand.surroundings(scenario)
    bases = list(dict.fromkeys(unit.base_of(m) for m in unit.models))
    reach_in = rules.barricade_engagement_range_in
    rows = []
    for bi, base in enumerate(bases):
        if not isinstance(base, RoundBase):
            continue
        movers = [m for m in unit.models if unit.base_of(m) == base]
        for piece in battlefield.walls:
            grow = reach_in + base.radius_in + max(t.radius_in for t in around.targets)
            xy = wall_points(piece, base.radius_in, around.targets, grow)
            if not len(xy):
                continue
            start = np.array([(m.x, m.y) for m in movers])
            far = np.hypot(xy[:, None, 0] - start[None, :, 0], xy[:, None, 1] - start[None, :, 1])
            xy = xy[(far <= roll_max + 1e-9).any(axis=1)]
            for z in sorted({t.z for t in around.targets} | {0.0}):
                pts = cand.on_written_grid(
                    np.column_stack(
                        (xy, np.full(len(xy), z), np.full(len(xy), -1.0), np.zeros(len(xy)))
                    )
                )
                keep = cand.standable(
                    base,
                    pts,
                    np.zeros(len(pts)),
                    scenario,
                    battlefield,
                    around.fixed,
                    around.non_target_enemies,
                    rules.may_end_on_upper_floor(unit.keyword_set),
                    terrain_margin_in=CONTACT_GAP_IN / 2,
                )
                if z > 0.0:
                    keep &= _on_a_floor(battlefield, pts, base.radius_in, z)
                rows.append((bi, pts[keep]))
    rows = [(bi, pts) for bi, pts in rows if len(pts)]
    if not rows:
        return None
    base_of = np.concatenate([np.full(len(p), bi) for bi, p in rows]).astype(int)
    pts = np.vstack([p for _, p in rows])
    x, y, z = pts[:, 0], pts[:, 1], pts[:, 2]
    facing = np.zeros(len(pts))
    contact, engaged, unit_dist = cand.target_relations(
        bases, base_of, x, y, z, facing, around.targets, around.target_ids, rules, battlefield
    )
    c = cand.Candidates(
        bases, base_of, x, y, z, facing, contact, engaged, np.full(len(x), -1), np.zeros(len(x))
    )
    c.reach = cand.reach_lengths(
        scenario,
        battlefield,
        unit,
        c,
        bases,
        around.targets,
        around.target_ids,
        unit_dist,
        roll_max,
    )
    used = np.zeros(len(c), bool)
    for lengths in c.reach.values():
        used |= np.isfinite(lengths)
    return cand.subset(c, np.flatnonzero(used))


def _on_a_floor(battlefield: Battlefield, pts: np.ndarray, radius: float, z: float) -> np.ndarray:
    ok = np.zeros(len(pts), bool)
    for floor in battlefield.floors:
        if abs(floor.height - z) < 1e-9:
            inner = floor.shape.buffer(-(radius + MARGIN_IN))
            ok |= shapely.within(shapely.points(pts[:, :2]), inner)
    return ok


def _merge(a: cand.Candidates, b: cand.Candidates) -> cand.Candidates:
    """One candidate set: `b`'s poses appended after `a`'s (both of the same bases)."""
    assert a.base_keys == b.base_keys or not len(b)
    return cand.Candidates(
        a.base_keys,
        np.concatenate([a.base_of, b.base_of]),
        np.concatenate([a.x, b.x]),
        np.concatenate([a.y, b.y]),
        np.concatenate([a.z, b.z]),
        np.concatenate([a.facing, b.facing]),
        a.contact + b.contact,
        a.engaged + b.engaged,
        np.concatenate([a.ring, b.ring]),
        np.concatenate([a.angle, b.angle]),
        {m: np.concatenate([a.reach[m], b.reach[m]]) for m in a.reach},
    )


def token_facts(
    scenario: Scenario, battlefield: Battlefield, c: cand.Candidates
) -> tuple[list[str | None], list[frozenset[str]]]:
    """Per candidate: the wall a round base there touches and the target units it is within
    the barricade range of across that wall; (None, {}) where it is no token spot (not
    touching, nothing across, or already in normal engagement range of a target)."""
    rules = scenario.rules
    around = cand.surroundings(scenario)
    walls: list[str | None] = [None] * len(c)
    units: list[frozenset[str]] = [frozenset()] * len(c)
    if not battlefield.walls or not rules.wtc_walls:
        return walls, units
    tx = np.array([t.x for t in around.targets])
    ty = np.array([t.y for t in around.targets])
    tz = np.array([t.z for t in around.targets])
    tr = np.array([t.radius_in for t in around.targets])
    for bi, base in enumerate(c.base_keys):
        if not isinstance(base, RoundBase):
            continue
        idx = np.flatnonzero((c.base_of == bi) & np.array([not e for e in c.engaged]))
        if not len(idx):
            continue
        pts = shapely.points(c.x[idx], c.y[idx])
        gap = np.hypot(c.x[idx, None] - tx, c.y[idx, None] - ty) - base.radius_in - tr
        near = (gap <= rules.barricade_engagement_range_in - MARGIN_IN) & (
            np.abs(c.z[idx, None] - tz) <= rules.engagement_vertical_in
        )
        for piece in battlefield.walls:
            touching = shapely.distance(pts, piece.shape) - base.radius_in <= 0.004
            for row in np.flatnonzero(touching & near.any(axis=1)):
                i = idx[row]
                if walls[i] is not None:
                    continue
                across = [
                    j
                    for j in np.flatnonzero(near[row])
                    if shapely.intersects(
                        piece.shape, shapely.LineString([(c.x[i], c.y[i]), (tx[j], ty[j])])
                    )
                ]
                if across:
                    walls[i] = piece.id
                    units[i] = frozenset(around.target_ids[j][0] for j in across)
    return walls, units
