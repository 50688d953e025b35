"""The seed's charge as a sequence of single-model moves: each model's category at its step
(1 contacts an enemy model not yet engaged, 2 contacts only engaged ones, 3 ends within 2" of
an engaged unit mate, 4 only within 2" of a moved one), the best category it could have taken
instead, and the spots of each model at each step.

Spots a model may take are the candidates plus dense rings (`RING_STEP_DEG`) in base contact
with each target model, the notches in contact with two at once, and, while a step is judged,
rings 1" and 1.9" off each moved engaged unit mate; every spot keeps the charge's margins
(`Charge.margins`: the printed ones off the 1" no-go and the board, inside the 2" chain and
the assault range; none at exact limits), and its move goes round the unit mates standing at
its step (`mates.py`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from chargeopt.geometry import Battlefield, Footprint
from chargeopt.geometry.assault_moves import assault_lengths
from chargeopt.geometry.distance_matrix import edge_distances
from chargeopt.geometry.paths import ObstacleMap, obstacle_map
from chargeopt.geometry.standing import Standing
from chargeopt.models import RoundBase, Scenario, Unit, assault_range_of
from chargeopt.solver.assault_4e.mates import around_mates
from chargeopt.solver.core import clock
from chargeopt.solver.core.candidates import Candidates, surroundings
from chargeopt.solver.core.exact_limits import PRINTED, Margins
from chargeopt.solver.core.tolerances import APART_IN, CONTACT_GAP_IN, JSON_DECIMALS

RING_STEP_DEG = 2.0
"""Angular step of the dense contact rings the steps are judged on (the checker's witnesses
lie on multiples of this step)."""
FRIEND_GAPS_IN = (1.0, 1.9)
"""The edge gaps of the rings of spots around a moved engaged unit mate: mid-way in the 2"
chain, and near its end for a model that only just reaches it."""
NO_SPOT = 5
"""The category of a model with no legal spot at its step (the chain is broken)."""


@dataclass
class Spots:
    """One model's spots: x, y, move length, and the target models each touches."""

    x: np.ndarray
    y: np.ndarray
    moved: np.ndarray
    touches: list[tuple[str, ...]]


@dataclass
class Charge:
    """Everything a step needs: the unit, its range, the targets, the static spots per model."""

    scenario: Scenario
    battlefield: Battlefield
    unit: Unit
    range_in: float
    target_ids: list[tuple[str, str]]
    targets: list[Footprint]
    non_targets: list[Footprint]
    spots: dict[str, Spots] = field(default_factory=dict)
    friend_rings: dict[tuple[str, str, float, float], Spots] = field(default_factory=dict)
    margins: Margins = PRINTED
    first_cache: dict[tuple[str, str], np.ndarray] = field(default_factory=dict)
    starts: dict[str, Footprint] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        scenario: Scenario,
        battlefield: Battlefield,
        c: Candidates,
        margins: Margins = PRINTED,
    ) -> Charge:
        around = surroundings(scenario)
        unit = scenario.acting_unit
        charge = cls(
            scenario,
            battlefield,
            unit,
            assault_range_of(unit, scenario.rules),
            list(around.target_ids),
            list(around.targets),
            list(around.non_target_enemies),
            margins=margins,
        )
        for m in unit.models:
            charge.spots[m.id] = charge._static_spots(m.id, c)
        return charge

    def start(self, model_id: str) -> Footprint:
        fp = self.starts.get(model_id)
        if fp is None:
            m = next(m for m in self.unit.models if m.id == model_id)
            fp = self.starts[model_id] = Footprint(self.unit.base_of(m), m.x, m.y, m.z, m.facing)
        return fp

    def lengths(
        self,
        model_id: str,
        xs: np.ndarray,
        ys: np.ndarray,
        standing: Standing | None = None,
    ) -> np.ndarray:
        """Assault move lengths to (xs, ys), inf where not allowed (the roll's margin kept);
        `standing`: unit mates that block the path at this moment."""
        avoid = [u for u, _ in self._non_target_units()]
        out = assault_lengths(
            self.scenario,
            self.battlefield,
            model_id,
            xs,
            ys,
            0.0,
            range_in=self.range_in,
            difficult_roll=self.scenario.action.difficult_roll,
            avoid_units=sorted(set(avoid)),
            margin_in=self.margins.roll_in,
            standing=standing,
        )
        return out

    def path_map(self, model_id: str) -> ObstacleMap:
        """What blocks the model's assault move besides its unit mates (the 1" no-go of the
        enemy units not charged included)."""
        avoid = sorted({u for u, _ in self._non_target_units()})
        return obstacle_map(self.scenario, self.battlefield, model_id, avoid_engagement_of=avoid)

    def _non_target_units(self) -> list[tuple[str, str]]:
        targets = set(self.scenario.action.targets)
        return [
            (u.id, m.id)
            for u in self.scenario.enemies_of(self.unit)
            if u.id not in targets
            for m in u.models
        ]

    def _static_spots(self, model_id: str, c: Candidates) -> Spots:
        """Candidates the model reaches, plus the dense contact rings, filtered for the board,
        terrain, other units' bases and the 1" no-go (by the path lengths) with margins."""
        start = self.start(model_id)
        own = np.flatnonzero(np.isfinite(c.reach[model_id]))
        xs, ys, moved = c.x[own], c.y[own], c.reach[model_id][own]
        if isinstance(start.base, RoundBase):
            rx, ry = self._rings(start.base.radius_in)
            rm = self.lengths(model_id, rx, ry)
            ok = np.isfinite(rm) & self._clear(start, rx, ry)
            xs, ys, moved = (
                np.concatenate([xs, rx[ok]]),
                np.concatenate([ys, ry[ok]]),
                np.concatenate([moved, rm[ok]]),
            )
        return Spots(xs, ys, moved, self.touching(start, xs, ys))

    def _rings(self, radius_in: float) -> tuple[np.ndarray, np.ndarray]:
        """Spots in base contact with each round target model every `RING_STEP_DEG`, and the
        notches in contact with two at once (where their contact rings cross)."""
        angles = np.radians(np.arange(0.0, 360.0, RING_STEP_DEG))
        round_ = [t for t in self.targets if t.is_round]
        xs, ys = [], []
        for t in round_:
            d = radius_in + t.radius_in + CONTACT_GAP_IN
            xs.append(np.round(t.x + d * np.cos(angles), JSON_DECIMALS))
            ys.append(np.round(t.y + d * np.sin(angles), JSON_DECIMALS))
        for i, a in enumerate(round_):
            for b in round_[i + 1 :]:
                da = radius_in + a.radius_in + CONTACT_GAP_IN
                db = radius_in + b.radius_in + CONTACT_GAP_IN
                apart = math.hypot(b.x - a.x, b.y - a.y)
                if not abs(da - db) < apart < da + db:
                    continue
                along = (da**2 - db**2 + apart**2) / (2 * apart)
                side = math.sqrt(max(da**2 - along**2, 0.0))
                ux, uy = (b.x - a.x) / apart, (b.y - a.y) / apart
                for sign in (1.0, -1.0):
                    xs.append(np.round([a.x + along * ux - sign * side * uy], JSON_DECIMALS))
                    ys.append(np.round([a.y + along * uy + sign * side * ux], JSON_DECIMALS))
        if not xs:
            return np.empty(0), np.empty(0)
        return np.concatenate(xs), np.concatenate(ys)

    def _clear(self, start: Footprint, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Board edge, other bases and the 1" no-go kept with the candidates' margins."""
        r = start.base.circumradius_in + self.margins.one_in
        bf = self.battlefield
        ok = (xs >= r) & (xs <= bf.width - r) & (ys >= r) & (ys <= bf.height - r)
        others = [
            Footprint(u.base_of(m), m.x, m.y, m.z, m.facing)
            for u in self.scenario.units
            if u.id != self.unit.id
            for m in u.models
        ]
        facing = np.full(len(xs), start.facing)
        if others:
            ok &= (edge_distances(start.base, xs, ys, facing, others) >= APART_IN / 2).all(axis=1)
        if self.non_targets:
            gaps = edge_distances(start.base, xs, ys, facing, self.non_targets)
            no_go = self.scenario.rules.engagement_range_in + self.margins.one_in
            ok &= (gaps > no_go).all(axis=1)
        return ok

    def touching(self, start: Footprint, xs: np.ndarray, ys: np.ndarray) -> list[tuple[str, ...]]:
        """The target models a base at each spot is in base contact with."""
        if not self.targets or len(xs) == 0:
            return [()] * len(xs)
        gaps = edge_distances(start.base, xs, ys, np.full(len(xs), start.facing), self.targets)
        tol = self.scenario.rules.base_contact_tolerance_in - 0.001
        out: list[tuple[str, ...]] = [()] * len(xs)
        rows, cols = np.nonzero(gaps <= tol)
        for r in np.unique(rows):
            out[r] = tuple(self.target_ids[j][1] for j in cols[rows == r])
        return out


@dataclass
class State:
    """The table during the charge: where moved models ended, which enemy models are engaged."""

    ends: dict[str, tuple[float, float, tuple[str, ...]]] = field(default_factory=dict)

    @property
    def engaged(self) -> set[str]:
        return {e for _, _, touches in self.ends.values() for e in touches}


def category(touches: tuple[str, ...], near_engaged: bool, engaged: set[str]) -> int:
    """The seed's preference at a step: 1 a new enemy, 2 an engaged one, 3 near an engaged
    friend, 4 near a moved friend."""
    if any(e not in engaged for e in touches):
        return 1
    if touches:
        return 2
    return 3 if near_engaged else 4


def options_at(charge: Charge, state: State, model_id: str) -> tuple[np.ndarray, Spots]:
    """The spots of the best category open to the model now (NO_SPOT elsewhere: callers take
    the best category only): clear of moved models' ends and unmoved models' starts, within
    2" of a moved model, along a path that goes around both (their move lengths are measured
    so; the worse categories are left unmeasured, which keeps the paths' cost down)."""
    start = charge.start(model_id)
    sp = _with_friend_rings(charge, state, model_id, charge.spots[model_id])
    n = len(sp.x)
    cats = np.full(n, NO_SPOT)
    if n == 0:
        return cats, sp
    facing = np.full(n, start.facing)
    moved_fp = [_end_fp(charge, mid, state) for mid in state.ends]
    still = [
        charge.start(m.id)
        for m in charge.unit.models
        if m.id not in state.ends and m.id != model_id
    ]
    ok = np.ones(n, bool)
    if still:
        ok &= (edge_distances(start.base, sp.x, sp.y, facing, still) >= APART_IN / 2).all(axis=1)
    if not moved_fp:
        return cats, sp
    gaps = edge_distances(start.base, sp.x, sp.y, facing, moved_fp)
    ok &= (gaps >= APART_IN / 2).all(axis=1)
    pair = charge.margins.pair_in
    limit = charge.scenario.rules.coherency_range_in - pair
    chained = (gaps <= limit).any(axis=1)
    support = charge.scenario.rules.fight_support_range_in or 0.0
    engaged_mates = np.array([bool(state.ends[mid][2]) for mid in state.ends])
    near_engaged = (gaps[:, engaged_mates] <= support - pair).any(axis=1)
    legal = ok & chained & np.isfinite(sp.moved)
    engaged = state.engaged
    touching = np.fromiter((bool(t) for t in sp.touches), bool, n)
    cats[legal] = np.where(near_engaged[legal], 3, 4)
    for i in np.flatnonzero(legal & touching):
        cats[i] = 1 if any(e not in engaged for e in sp.touches[i]) else 2
    standing = standing_at(charge, state, model_id)
    clock.spend(STEP_COST_S)
    for c in range(1, NO_SPOT):
        best = cats == c
        if not best.any():
            continue
        quick = around_mates(charge, model_id, standing, sp, best, thorough=False)
        if not (best & np.isfinite(quick.moved)).any():
            quick = around_mates(charge, model_id, standing, sp, best)
        sp = quick
        cats[best & ~np.isfinite(sp.moved)] = NO_SPOT
        if (cats == c).any():
            cats[cats > c] = NO_SPOT
            break
    return cats, sp


def standing_at(charge: Charge, state: State, model_id: str) -> dict[str, Footprint]:
    """The unit mates standing while `model_id` moves: moved ones where they ended, the
    others where they start."""
    out = {}
    for m in charge.unit.models:
        if m.id == model_id:
            continue
        out[m.id] = _end_fp(charge, m.id, state) if m.id in state.ends else charge.start(m.id)
    return out


STEP_COST_S = 0.02
"""Work charged to the solver's clock for the spots of one model at one step (paths around
its standing mates), so that trying tied first moves stops at the same point on any machine."""


def _with_friend_rings(charge: Charge, state: State, model_id: str, sp: Spots) -> Spots:
    """The static spots plus the rings `FRIEND_GAPS_IN` off each moved engaged unit mate
    (where a model that touches no enemy would stand to support)."""
    start = charge.start(model_id)
    if not isinstance(start.base, RoundBase) or not state.ends:
        return sp
    parts = [sp]
    for mid, (x, y, touches) in state.ends.items():
        if touches and _end_fp(charge, mid, state).is_round:
            key = (model_id, mid, x, y)
            if key not in charge.friend_rings:
                charge.friend_rings[key] = _friend_ring(charge, model_id, mid, state)
            parts.append(charge.friend_rings[key])
    if len(parts) == 1:
        return sp
    return Spots(
        np.concatenate([p.x for p in parts]),
        np.concatenate([p.y for p in parts]),
        np.concatenate([p.moved for p in parts]),
        [t for p in parts for t in p.touches],
    )


def _friend_ring(charge: Charge, model_id: str, mate: str, state: State) -> Spots:
    """The legal spots of `model_id` on the rings `FRIEND_GAPS_IN` off moved unit mate `mate`
    (the same wherever the others stand: which are clear of them is judged per step)."""
    start = charge.start(model_id)
    fp = _end_fp(charge, mate, state)
    angles = np.radians(np.arange(0.0, 360.0, RING_STEP_DEG))
    d = start.base.radius_in + fp.radius_in + np.array(FRIEND_GAPS_IN)[:, None]
    xs = np.round(fp.x + d * np.cos(angles), JSON_DECIMALS).ravel()
    ys = np.round(fp.y + d * np.sin(angles), JSON_DECIMALS).ravel()
    moved = charge.lengths(model_id, xs, ys)
    ok = np.isfinite(moved) & charge._clear(start, xs, ys)
    xs, ys, moved = xs[ok], ys[ok], moved[ok]
    return Spots(xs, ys, moved, charge.touching(start, xs, ys))


def _end_fp(charge: Charge, model_id: str, state: State) -> Footprint:
    start = charge.start(model_id)
    x, y, _ = state.ends[model_id]
    return Footprint(start.base, x, y, start.z, start.facing)


def first_model(charge: Charge) -> tuple[str, str]:
    """The model nearest the primary target and the target model nearest it (the first of
    `tied_firsts`: ties go to the first in the scenario's order)."""
    return tied_firsts(charge)[0]


def tied_firsts(charge: Charge) -> list[tuple[str, str]]:
    """Every (first model, enemy model) the seed's "nearest" allows: the models of the unit
    nearest the primary target (the first target named), and for each the models of that
    target nearest it, edge to edge, ties within the base contact tolerance (the player
    chooses among them); in the scenario's order, the nearest first."""
    primary = charge.scenario.action.targets[0]
    foes = [
        (mid, fp)
        for (uid, mid), fp in zip(charge.target_ids, charge.targets, strict=True)
        if uid == primary
    ]
    tie = charge.scenario.rules.base_contact_tolerance_in
    fps = [fp for _, fp in foes]
    gaps = []
    for m in charge.unit.models:
        fp = charge.start(m.id)
        gaps.append(
            edge_distances(
                fp.base, np.array([fp.x]), np.array([fp.y]), np.array([fp.facing]), fps
            )[0]
        )
    table = np.vstack(gaps)
    nearest = float(table.min())
    out = []
    for i in np.argsort(table.min(axis=1), kind="stable"):
        if table[i].min() > nearest + tie:
            break
        for j in np.argsort(table[i], kind="stable"):
            if table[i, j] <= table[i].min() + tie:
                out.append((charge.unit.models[int(i)].id, foes[int(j)][0]))
    return out
