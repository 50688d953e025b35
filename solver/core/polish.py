"""Continuous polishing after the discrete solve: slide each model that is not in base contact
back along its move toward where it started, as far as every rule still allows with the
margins the candidates keep (`tolerances`: the roll, ranges, coherency, the closer rule), so
that no model moves farther than the answer needs. Round bases only; other bases keep their
spot."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields

import numpy as np

from chargeopt.geometry import Battlefield
from chargeopt.geometry.obstacles import climb_in
from chargeopt.geometry.paths import obstacle_map
from chargeopt.models import RoundBase, Scenario
from chargeopt.solver.core.candidates import (
    Candidates,
    Surroundings,
    engagement_limits,
    standable,
    surroundings,
)
from chargeopt.solver.core.exact_limits import at_exact_limits
from chargeopt.solver.core.printed_step import printed_apart
from chargeopt.solver.core.tolerances import (
    APART_FIXED_IN,
    APART_IN,
    MARGIN_IN,
    PAIR_MARGIN_IN,
    ROLL_MARGIN_IN,
)

BISECTIONS = 12
"""Halvings of the slide back toward the start (a resolution of 1/4096 of the move)."""


@dataclass
class Pose:
    """A model's end pose and the length of its legal move there."""

    x: float
    y: float
    z: float
    facing: float
    moved: float


def poses_of(c: Candidates, placed: dict[str, int]) -> dict[str, Pose]:
    """The poses of a discrete answer."""
    return {
        mid: Pose(
            float(c.x[p]), float(c.y[p]), float(c.z[p]), float(c.facing[p]), float(c.reach[mid][p])
        )
        for mid, p in placed.items()
    }


EndCheck = Callable[[dict[str, Pose], str], bool]
"""(poses, moved model id) -> whether the move's own rules still hold (replaces the charge's
"closer to a target" test)."""


def polish(
    scenario: Scenario,
    battlefield: Battlefield,
    poses: dict[str, Pose],
    roll: float,
    allowed: EndCheck | None = None,
) -> dict[str, Pose]:
    """Shorten moves of models not in base contact while every rule still holds; `allowed`,
    when given, is the move's own end rule in place of the charge's. At exact limits the
    poses stay on the written grid, untouched: off it, the JSON's rounding may break a limit
    nothing is kept inside."""
    if at_exact_limits():
        return poses
    unit = scenario.acting_unit
    rules = scenario.rules
    around = _Around.of(surroundings(scenario))
    avoid = [u.id for u in scenario.enemies_of(unit) if u.id not in scenario.action.targets]
    out = dict(poses)
    for mid in sorted(out, key=lambda m: -out[m].moved):
        model = scenario.model_index[mid][1]
        base = unit.base_of(model)
        if not isinstance(base, RoundBase) or _touching(out[mid], base, around, rules):
            continue
        field_ = obstacle_map(scenario, battlefield, mid, avoid_engagement_of=avoid).path_field(
            (model.x, model.y), within_in=roll
        )
        for swing in (False, True, False):
            aim = _direct_line(model, out[mid], around) if swing else None
            slide = _Slide(scenario, battlefield, around, out, mid, base, field_, roll, aim)
            slide.allowed = allowed
            out = slide.furthest() or out
    return out


def _direct_line(model, pose: Pose, around: Surroundings) -> tuple[float, float]:
    """The point as far from the start as the model's end, on the straight line from its
    start to the nearest target model: swinging onto it, then sliding back, shortens moves
    that the discrete lattice left off that line."""
    nearest = min(around.targets, key=lambda t: np.hypot(t.x - model.x, t.y - model.y))
    dx, dy = nearest.x - model.x, nearest.y - model.y
    norm = np.hypot(dx, dy) or 1.0
    reach = np.hypot(pose.x - model.x, pose.y - model.y)
    return model.x + dx / norm * reach, model.y + dy / norm * reach


class _Slide:
    """Moving one model a fraction t of the way toward an aim point: its start (shortening
    the move) or a point on the direct line (a swing that must not lengthen it)."""

    def __init__(self, scenario, battlefield, around, poses, mid, base, field_, roll, aim) -> None:
        self.scenario, self.battlefield, self.around = scenario, battlefield, around
        self.poses, self.mid, self.base, self.field, self.roll = poses, mid, base, field_, roll
        self.start = scenario.model_index[mid][1]
        self.aim = aim if aim is not None else (self.start.x, self.start.y)
        self.swing = aim is not None
        self.here = poses[mid]
        self.engaged_before = _engaged(self.here, base, around, battlefield, scenario.rules)
        self.k = scenario.rules.coherency_neighbours(len(poses))
        self.allowed: EndCheck | None = None
        self.unit = scenario.acting_unit
        self.upper = scenario.rules.may_end_on_upper_floor(self.unit.keyword_set)
        self.group = _Group(scenario, poses, mid)

    def at(self, t: float) -> dict[str, Pose] | None:
        """The poses with the model slid back by t, or None if that breaks a rule. The rules
        are all checked; those that cost least or fail most often come first."""
        here, rules = self.here, self.scenario.rules
        x = here.x + t * (self.aim[0] - here.x)
        y = here.y + t * (self.aim[1] - here.y)
        spot = Pose(x, y, here.z, here.facing, here.moved)  # `moved` is not read before it is set
        if not printed_apart(self.start, x, y):
            return None
        if not self.engaged_before <= _engaged(
            spot, self.base, self.around, self.battlefield, rules
        ):
            return None
        if not self.group.holds(x, y, self.k):
            return None
        if self.allowed is None and not _closer(
            self.scenario, self.around, self.mid, spot, self.base
        ):
            return None
        moved = self.field.length_to(x, y) + climb_in(rules, self.start.z, here.z)
        longer = moved > here.moved + 1e-6 if self.swing else moved >= here.moved - 1e-4
        if longer or moved > self.roll - ROLL_MARGIN_IN:
            return None
        trial = {**self.poses, self.mid: Pose(x, y, here.z, here.facing, moved)}
        if self.allowed is not None and not self.allowed(trial, self.mid):
            return None
        if not standable(
            self.base,
            np.array([[x, y, here.z]]),
            np.array([here.facing]),
            self.scenario,
            self.battlefield,
            self.around.fixed,
            self.around.non_target_enemies,
            self.upper,
        )[0]:
            return None
        return trial

    def furthest(self) -> dict[str, Pose] | None:
        """All the way back if legal, else the largest legal t found by bisection."""
        best = self.at(1.0)
        lo, hi = 0.0, 1.0
        for _ in range(0 if best else BISECTIONS):
            t = (lo + hi) / 2
            trial = self.at(t)
            if trial is None:
                hi = t
            else:
                lo, best = t, trial
        return best


class _Group:
    """The unit with one model moving: kept apart from every model on its level (as written:
    `APART_IN`, less where either stands exactly where it started), and
    coherency (each model within range of k others, all in one group). Only the moving model's
    links change, so the other models' links, how many each has and the groups they make
    among themselves are found once: the unit is in one group when the moving model links to
    each of those groups."""

    def __init__(self, scenario, poses: dict[str, Pose], mid: str) -> None:
        rules, unit = scenario.rules, scenario.acting_unit
        ids = list(poses)
        self.me = me = ids.index(mid)
        self.radii = np.array(
            [unit.base_of(scenario.model_index[i][1]).circumradius_in for i in ids]
        )
        self.x = np.array([poses[i].x for i in ids], dtype=float)
        self.y = np.array([poses[i].y for i in ids], dtype=float)
        starts = [scenario.model_index[i][1] for i in ids]
        self.start_x = np.array([m.x for m in starts], dtype=float)
        self.start_y = np.array([m.y for m in starts], dtype=float)
        self.stayed = (np.abs(self.x - self.start_x) <= 1e-9) & (
            np.abs(self.y - self.start_y) <= 1e-9
        )
        z = np.array([poses[i].z for i in ids])
        rise = np.abs(z[:, None] - z[None, :])
        self.others = np.arange(len(ids)) != me
        self.blocking = (rise[me] < 0.01) & self.others
        self.level = rise[me] <= rules.coherency_vertical_in
        self.within = rules.coherency_range_in - PAIR_MARGIN_IN
        gap = np.hypot(self.x[:, None] - self.x[None, :], self.y[:, None] - self.y[None, :]) - (
            self.radii[:, None] + self.radii[None, :]
        )
        near = (gap <= self.within) & (rise <= rules.coherency_vertical_in)
        np.fill_diagonal(near, False)
        near[me, :] = near[:, me] = False
        self.links = near.sum(axis=1)  # each model's links to models other than the moving one
        self.groups, self.count = _groups(near, self.others)

    def holds(self, x: float, y: float, k: int) -> bool:
        me = self.me
        gap = np.hypot(x - self.x, y - self.y) - (self.radii[me] + self.radii)
        home = abs(x - self.start_x[me]) <= 1e-9 and abs(y - self.start_y[me]) <= 1e-9
        apart = np.where(self.stayed, APART_FIXED_IN, APART_IN)
        if home:
            apart = np.where(self.stayed, 0.0, APART_FIXED_IN)
        if (gap < apart)[self.blocking].any():
            return False
        row = (gap <= self.within) & self.level
        row[me] = False
        if k and (row.sum() < k or ((self.links + row) < k)[self.others].any()):
            return False
        return bool(np.bincount(self.groups[row], minlength=self.count).all())


def _groups(near: np.ndarray, members: np.ndarray) -> tuple[np.ndarray, int]:
    """The connected groups of the graph with adjacency matrix `near` (symmetric) among
    `members`: each member's group number (-1 for others) and how many groups there are."""
    groups = np.full(len(near), -1)
    count = 0
    for seed in np.nonzero(members)[0]:
        if groups[seed] >= 0:
            continue
        seen = np.zeros(len(near), dtype=bool)
        seen[seed] = True
        frontier = seen.copy()
        while frontier.any():
            frontier = near[frontier].any(axis=0) & ~seen
            seen |= frontier
        groups[seen] = count
        count += 1
    return groups, count


def _touching(pose: Pose, base: RoundBase, around: Surroundings, rules) -> bool:
    return any(
        np.hypot(pose.x - t.x, pose.y - t.y) - base.radius_in - t.radius_in
        <= rules.base_contact_tolerance_in
        for t in around.targets
        if abs(t.z - pose.z) < 0.01
    )


def _engaged(pose: Pose, base: RoundBase, around: _Around, battlefield, rules) -> set[str]:
    """The target units the model is within engagement range of (with the solver's margin)."""
    if not around.targets:
        return set()
    limits = engagement_limits(
        np.array([pose.x]), np.array([pose.y]), around.targets, battlefield, rules
    )[0]
    gaps = np.maximum(
        0.0, np.hypot(pose.x - around.tx, pose.y - around.ty) - base.radius_in - around.tr
    )
    ok = (gaps <= limits - MARGIN_IN) & (np.abs(around.tz - pose.z) <= rules.engagement_vertical_in)
    return {around.target_units[i] for i in np.nonzero(ok)[0]}


@dataclass(frozen=True)
class _Around(Surroundings):
    """`Surroundings` with the target models also as arrays (centres, heights, radii) and
    their units, in `targets` order."""

    tx: np.ndarray
    ty: np.ndarray
    tz: np.ndarray
    tr: np.ndarray
    target_units: tuple[str, ...]

    @classmethod
    def of(cls, around: Surroundings) -> _Around:
        ts = around.targets
        return cls(
            **{f.name: getattr(around, f.name) for f in fields(Surroundings)},
            tx=np.array([t.x for t in ts], dtype=float),
            ty=np.array([t.y for t in ts], dtype=float),
            tz=np.array([t.z for t in ts], dtype=float),
            tr=np.array([t.radius_in for t in ts], dtype=float),
            target_units=tuple(uid for uid, _ in around.target_ids),
        )


def _closer(scenario, around: Surroundings, mid: str, pose: Pose, base: RoundBase) -> bool:
    """At least `MARGIN_IN` closer (edge to edge) to one target unit than at the start."""
    m = scenario.model_index[mid][1]
    for uid in scenario.action.targets:
        tgt = [t for (u, _), t in zip(around.target_ids, around.targets, strict=True) if u == uid]
        before = min(np.hypot(m.x - t.x, m.y - t.y) - base.radius_in - t.radius_in for t in tgt)
        after = min(
            np.hypot(pose.x - t.x, pose.y - t.y) - base.radius_in - t.radius_in for t in tgt
        )
        if max(after, 0.0) <= max(before, 0.0) - MARGIN_IN:
            return True
    return False
