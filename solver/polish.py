"""Continuous polishing after the discrete solve: slide each model that is not in base contact
back along its move toward where it started, as far as every rule still allows, so that no
model moves farther than the answer needs. Round bases only; other bases keep their spot."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import networkx as nx
import numpy as np

from chargeopt.geometry import Battlefield
from chargeopt.geometry.paths import climb_in, obstacle_map
from chargeopt.models import RoundBase, Scenario

from .candidates import (
    MARGIN_IN,
    Candidates,
    Surroundings,
    engagement_limits,
    standable,
    surroundings,
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
    when given, is the move's own end rule in place of the charge's."""
    unit = scenario.acting_unit
    rules = scenario.rules
    around = surroundings(scenario)
    avoid = [u.id for u in scenario.enemies_of(unit) if u.id not in scenario.action.targets]
    out = dict(poses)
    for mid in sorted(out, key=lambda m: -out[m].moved):
        model = scenario.model_index[mid][1]
        base = unit.base_of(model)
        if not isinstance(base, RoundBase) or _touching(out[mid], base, around, rules):
            continue
        field_ = obstacle_map(scenario, battlefield, mid, avoid_engagement_of=avoid).path_field(
            (model.x, model.y)
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

    def at(self, t: float) -> dict[str, Pose] | None:
        """The poses with the model slid back by t, or None if that breaks a rule."""
        here, rules = self.here, self.scenario.rules
        x = here.x + t * (self.aim[0] - here.x)
        y = here.y + t * (self.aim[1] - here.y)
        moved = self.field.length_to(x, y) + climb_in(rules, self.start.z, here.z)
        longer = moved > here.moved + 1e-6 if self.swing else moved >= here.moved - 1e-4
        if longer or moved > self.roll - 1e-6:
            return None
        trial = {**self.poses, self.mid: Pose(x, y, here.z, here.facing, moved)}
        ok = _legal(
            self.scenario,
            self.battlefield,
            self.around,
            trial,
            self.mid,
            self.base,
            self.engaged_before,
            self.k,
            self.allowed,
        )
        return trial if ok else None

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


def _touching(pose: Pose, base: RoundBase, around: Surroundings, rules) -> bool:
    return any(
        np.hypot(pose.x - t.x, pose.y - t.y) - base.radius_in - t.radius_in
        <= rules.base_contact_tolerance_in
        for t in around.targets
        if abs(t.z - pose.z) < 0.01
    )


def _engaged(pose: Pose, base: RoundBase, around: Surroundings, battlefield, rules) -> set[str]:
    if not around.targets:
        return set()
    limits = engagement_limits(
        np.array([pose.x]), np.array([pose.y]), around.targets, battlefield, rules
    )[0]
    gaps = [
        max(0.0, np.hypot(pose.x - t.x, pose.y - t.y) - base.radius_in - t.radius_in)
        for t in around.targets
    ]
    return {
        uid
        for (uid, _), t, gap, lim in zip(
            around.target_ids, around.targets, gaps, limits, strict=True
        )
        if gap <= lim - MARGIN_IN and abs(t.z - pose.z) <= rules.engagement_vertical_in
    }


def _legal(
    scenario, battlefield, around, poses, mid, base, engaged_before, k, allowed=None
) -> bool:
    """Every rule that moving `mid` to its new pose could break, checked locally."""
    rules = scenario.rules
    unit = scenario.acting_unit
    pose = poses[mid]
    pts = np.array([[pose.x, pose.y, pose.z]])
    upper = rules.may_end_on_upper_floor(unit.keyword_set)
    if not standable(
        base,
        pts,
        np.array([pose.facing]),
        scenario,
        battlefield,
        around.fixed,
        around.non_target_enemies,
        upper,
    )[0]:
        return False
    if not engaged_before <= _engaged(pose, base, around, battlefield, rules):
        return False
    if allowed is None and not _closer(scenario, around, mid, pose, base):
        return False
    ids = list(poses)
    radii = np.array([unit.base_of(scenario.model_index[i][1]).circumradius_in for i in ids])
    xy = np.array([(poses[i].x, poses[i].y) for i in ids])
    z = np.array([poses[i].z for i in ids])
    gap = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    gap -= radii[:, None] + radii[None, :]
    same_level = np.abs(z[:, None] - z[None, :]) < 0.01
    me = ids.index(mid)
    if ((gap[me] < 0.0) & same_level[me] & (np.arange(len(ids)) != me)).any():
        return False
    near = (gap <= rules.coherency_range_in - MARGIN_IN) & (
        np.abs(z[:, None] - z[None, :]) <= rules.coherency_vertical_in
    )
    np.fill_diagonal(near, False)
    if k and (near.sum(axis=1) < k).any():
        return False
    connected = len(ids) == 1 or nx.is_connected(nx.from_numpy_array(near.astype(int)))
    return connected and (allowed is None or allowed(poses, mid))


def _closer(scenario, around: Surroundings, mid: str, pose: Pose, base: RoundBase) -> bool:
    """Strictly closer (edge to edge) to one target unit than at the start."""
    m = scenario.model_index[mid][1]
    for uid in scenario.action.targets:
        tgt = [t for (u, _), t in zip(around.target_ids, around.targets, strict=True) if u == uid]
        before = min(np.hypot(m.x - t.x, m.y - t.y) - base.radius_in - t.radius_in for t in tgt)
        after = min(
            np.hypot(pose.x - t.x, pose.y - t.y) - base.radius_in - t.radius_in for t in tgt
        )
        if max(after, 0.0) < max(before, 0.0) - 1e-6:
            return True
    return False
