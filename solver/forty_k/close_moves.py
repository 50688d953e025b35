"""What the 3" close-combat moves share (pile in, consolidate, heroic intervention; 40k 9th and
10th edition): the move limit, who may make the move at all, which models stay put, each
model's "ends closer" rule, and the candidate positions, made by the charge's candidate
generator aimed at every enemy unit.

Readings (a judge's): a model may stay where it is (each model *can* move up to 3"); only a
model that moves must end closer. "The enemy model that was closest" is the one at the smallest
edge distance (horizontal) at the start; with a tie, ending closer to either is enough. A model
in base contact with an enemy model at the start does not move. The 10th-edition consolidation
toward an objective marker: each moving model ends closer to the marker closest to the unit
(edge to edge), and the unit ends within range of it when one of its models is (3"
horizontally, 5" vertically, to the marker's edge)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from chargeopt.geometry import Battlefield, Footprint, edge_distance
from chargeopt.geometry.distance_matrix import edge_distances
from chargeopt.models import (
    ActionKind,
    GameModel,
    IneligibleMoveError,
    ObjectiveMarker,
    RoundBase,
    Scenario,
)
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core.candidate_pairs import near_pairs
from chargeopt.solver.core.candidate_points import rings
from chargeopt.solver.core.tolerances import CONTACT_GAP_IN, MARGIN_IN
from chargeopt.solver.options import SolveOptions

CLOSER_IN = MARGIN_IN
"""A model that moves ends at least this much closer (edge to edge) than it started: a judge
reading the positions to 0.01" sees it closer."""
OBJECTIVE_VERTICAL_IN = 5.0
"""Vertical reach of an objective marker's range (10th edition: 3" across, 5" up or down)."""
SAME_LEVEL_IN = 0.01
RANGE_SLACK_IN = 1e-6
"""Eligibility at the start reads ranges as the checker does: within, up to rounding."""
NO_ROWS = np.empty((0, 5))


def move_limit_in(scenario: Scenario) -> float:
    """How far each model may move: the ruleset's pile in, consolidation or heroic
    intervention distance."""
    rules, kind = scenario.rules, scenario.action.kind
    if kind == ActionKind.HEROIC_INTERVENTION and rules.heroic_intervention_in is not None:
        return rules.heroic_intervention_in
    return rules.pile_in_in if kind == ActionKind.PILE_IN else rules.consolidate_in


def toward_enemies(scenario: Scenario) -> Scenario:
    """The scenario with every enemy unit as the action's targets: the charge's building
    blocks (candidates, greedy, polish) read `action.targets` as the units a move goes toward,
    and a 3" move goes toward all of them (and keeps out of the range of none)."""
    enemies = tuple(u.id for u in scenario.enemies_of(scenario.acting_unit))
    action = scenario.action.model_copy(update={"targets": enemies})
    return scenario.model_copy(update={"action": action})


def marker_footprint(marker: ObjectiveMarker) -> Footprint:
    """An objective marker as a round footprint, so that edge distances measure to its edge."""
    return Footprint(RoundBase(diameter_mm=marker.diameter_mm), marker.x, marker.y, marker.z)


@dataclass(frozen=True)
class Goal:
    """What moving models must end closer to: enemy models (the closest one of each model) or
    one objective marker."""

    marker: ObjectiveMarker | None = None


class CloseMove:
    """One 3" move of the acting unit: its limit, the enemy models around it, the models that
    stay put, and each model's distances at the start."""

    def __init__(self, scenario: Scenario, battlefield: Battlefield) -> None:
        self.scenario = scenario
        self.battlefield = battlefield
        self.view = toward_enemies(scenario)
        self.untargeted = scenario.model_copy(
            update={"action": scenario.action.model_copy(update={"targets": ()})}
        )
        """The scenario with no targets, for the charge's rule checks that would demand
        engaging every target."""
        self.rules = scenario.rules
        self.unit = scenario.acting_unit
        self.limit_in = move_limit_in(scenario)
        self.enemy_ids = [(u.id, m.id) for u in scenario.enemies_of(self.unit) for m in u.models]
        self.enemies = [
            Footprint(u.base_of(m), m.x, m.y, m.z, m.facing)
            for u in scenario.enemies_of(self.unit)
            for m in u.models
        ]
        if not self.enemies:
            raise IneligibleMoveError(
                f"unit {self.unit.id!r} has no enemy unit on the board to move toward"
            )

    def footprint(self, model: GameModel) -> Footprint:
        return Footprint(self.unit.base_of(model), model.x, model.y, model.z, model.facing)

    @cached_property
    def gaps(self) -> np.ndarray:
        """Edge distances (models of the unit x enemy models) at the start."""
        return np.array(
            [[_edge(self.footprint(m), e) for e in self.enemies] for m in self.unit.models]
        )

    @cached_property
    def heights(self) -> np.ndarray:
        """Vertical separations (models of the unit x enemy models) at the start."""
        return np.array([[abs(m.z - e.z) for e in self.enemies] for m in self.unit.models])

    @cached_property
    def engagement_ranges(self) -> np.ndarray:
        """Engagement range per (model, enemy model): the barricade range across one."""
        xs = np.array([m.x for m in self.unit.models])
        ys = np.array([m.y for m in self.unit.models])
        return cand.engagement_limits(xs, ys, self.enemies, self.battlefield, self.rules)

    @cached_property
    def fixed(self) -> dict[str, tuple[str, ...]]:
        """Models in base contact with an enemy model at the start (they do not move), with the
        enemy models they touch."""
        touching = (self.gaps <= self.rules.base_contact_tolerance_in) & (
            self.heights < SAME_LEVEL_IN
        )
        return {
            m.id: tuple(self.enemy_ids[j][1] for j in np.flatnonzero(touching[i]))
            for i, m in enumerate(self.unit.models)
            if touching[i].any()
        }

    def nearest_enemy_unit(self) -> tuple[str, float]:
        """The enemy unit nearest the acting unit at the start and its edge distance."""
        i, j = np.unravel_index(np.argmin(self.gaps), self.gaps.shape)
        return self.enemy_ids[j][0], float(self.gaps[i, j])

    def engaged_at_start(self) -> list[str]:
        """Enemy units within engagement range of the acting unit at the start."""
        within = (self.gaps <= self.engagement_ranges + RANGE_SLACK_IN) & (
            self.heights <= self.rules.engagement_vertical_in
        )
        return list(
            dict.fromkeys(self.enemy_ids[j][0] for _, j in zip(*np.nonzero(within), strict=True))
        )

    def closest(self, index: int) -> tuple[list[Footprint], float]:
        """The enemy models closest to the unit's `index`-th model at the start (ties kept)
        and their edge distance."""
        row = self.gaps[index]
        best = float(row.min())
        return [self.enemies[j] for j in np.flatnonzero(row <= best + 1e-9)], best

    def closest_marker(self) -> ObjectiveMarker | None:
        """The objective marker closest (edge to edge) to the acting unit at the start."""
        markers = self.scenario.objectives
        if not markers:
            return None
        return min(
            markers,
            key=lambda o: min(
                _edge(self.footprint(m), marker_footprint(o)) for m in self.unit.models
            ),
        )

    def end_rule(self, goal: Goal) -> cand.EndRule:
        """The reach filter of the candidates: a fixed model only stays; any other model may
        stay, or end where it is strictly closer to its goal (its closest enemy model, or the
        marker); no model ends on a fixed model's start."""
        index = {m.id: i for i, m in enumerate(self.unit.models)}
        fixed_starts = [(m.x, m.y, m.z) for m in self.unit.models if m.id in self.fixed]

        def rule(model: GameModel, c: cand.Candidates, idx: np.ndarray, length: np.ndarray):
            own = _at(c, idx, model.x, model.y, model.z) & (
                np.abs(cand.angle_diff(c.facing[idx], model.facing)) < 1e-6
            )
            out = np.full(len(idx), np.inf)
            if model.id not in self.fixed:
                if goal.marker is None:
                    toward, before = self.closest(index[model.id])
                else:
                    toward = [marker_footprint(goal.marker)]
                    before = _edge(self.footprint(model), toward[0])
                base = self.unit.base_of(model)
                after = edge_distances(base, c.x[idx], c.y[idx], c.facing[idx], toward)
                out = np.where((after <= before - CLOSER_IN).any(axis=1), length, np.inf)
                for x, y, z in fixed_starts:
                    out[_at(c, idx, x, y, z)] = np.inf
            out[own] = 0.0
            return out

        return rule

    def extra_points(self, options: SolveOptions, goal: Goal) -> cand.ExtraPoints:
        """Poses the charge's generator does not lay: a second rank behind every contact spot
        (touching it from behind, where a model can fight beside a friend in base contact) and
        behind every fixed model; rings around the objective marker in its mode."""

        def extra(base: object, facing: float, targets: list[Footprint]) -> np.ndarray:
            if not isinstance(base, RoundBase):
                return NO_ROWS
            if goal.marker is not None:
                marker = marker_footprint(goal.marker)
                reach = self.rules.objective_range_in
                rows = rings(
                    [marker],
                    [CONTACT_GAP_IN, reach / 2, reach - MARGIN_IN - CONTACT_GAP_IN],
                    options.contact_step_deg * 2,
                    base,
                    facing,
                    0,
                )
            else:
                behind = 2 * base.radius_in + 2 * CONTACT_GAP_IN
                rows = rings(targets, [behind], options.contact_step_deg, base, facing, 0)
                rows = np.vstack([rows, self._behind_fixed(base)])
            rows[:, 3] = -1.0
            return rows

        return extra

    def _behind_fixed(self, base: RoundBase) -> np.ndarray:
        """Spots touching each fixed model of this base from straight behind (away from the
        enemy model it touches)."""
        rows = []
        by_id = dict(zip((mid for _, mid in self.enemy_ids), self.enemies, strict=True))
        for m in self.unit.models:
            if m.id not in self.fixed or self.unit.base_of(m) != base:
                continue
            for enemy_id in self.fixed[m.id]:
                e = by_id[enemy_id]
                dx, dy = m.x - e.x, m.y - e.y
                norm = np.hypot(dx, dy) or 1.0
                step = 2 * base.radius_in + CONTACT_GAP_IN
                rows.append((m.x + dx / norm * step, m.y + dy / norm * step, m.z, -1.0, 0.0))
        return np.array(rows) if rows else NO_ROWS

    def candidates(self, options: SolveOptions, goal: Goal) -> cand.Candidates:
        """Candidates for the move: every model's start, and the ends its rule allows within
        the limit. Fixed models are marked in contact with the enemy models they touch, and
        two starts never conflict (the start layout was checked)."""
        c = cand.generate(
            self.view,
            self.battlefield,
            self.limit_in,
            options,
            may_end=self.end_rule(goal),
            extra=self.extra_points(options, goal),
            stays=True,
        )
        starts = self.start_spots(c)
        for mid, touched in self.fixed.items():
            c.contact[starts[mid]] = touched
        if len(c.conflicts):
            spots = np.array(sorted(starts.values()))
            both = np.isin(c.conflicts[:, 0], spots) & np.isin(c.conflicts[:, 1], spots)
            c.conflicts = c.conflicts[~both]
            c._conflict_lists = None
        return c

    def start_spots(self, c: cand.Candidates) -> dict[str, int]:
        """Each model's start among the candidates (its move of length 0)."""
        out = {}
        for m in self.unit.models:
            here = np.flatnonzero(c.reach[m.id] == 0.0)
            near = here[_at(c, here, m.x, m.y, m.z)]
            out[m.id] = int(near[0])
        return out


def support_pairs(c: cand.Candidates, limit_in: float, same_level: bool) -> np.ndarray:
    """Index pairs (i < j) of candidates whose bases would stand within `limit_in` of each
    other, not overlapping: friends close enough to help each other fight. With `same_level`
    the edge distance counts and the heights must be equal (10th-edition base contact);
    otherwise the distance is in three dimensions (the 9th edition's 1/2")."""
    if len(c) < 2:
        return np.empty((0, 2), int)
    outer = np.array([c.base_keys[b].circumradius_in for b in c.base_of])
    pairs = near_pairs(c, limit_in + 2 * outer.max())
    if len(pairs) == 0:
        return np.empty((0, 2), int)
    i, j = pairs[:, 0], pairs[:, 1]
    gap = np.hypot(c.x[i] - c.x[j], c.y[i] - c.y[j]) - outer[i] - outer[j]
    round_ = np.array([isinstance(b, RoundBase) for b in c.base_keys])[c.base_of]
    for k in np.flatnonzero(~(round_[i] & round_[j])):
        gap[k] = _edge(_pose(c, i[k]), _pose(c, j[k]))
    rise = np.abs(c.z[i] - c.z[j])
    if same_level:
        ok = (gap >= 0.0) & (gap <= limit_in) & (rise < SAME_LEVEL_IN)
    else:
        ok = (gap >= 0.0) & (np.hypot(np.maximum(gap, 0.0), rise) <= limit_in)
    return pairs[ok]


def _pose(c: cand.Candidates, p: int) -> Footprint:
    base = c.base_keys[c.base_of[p]]
    return Footprint(base, float(c.x[p]), float(c.y[p]), float(c.z[p]), float(c.facing[p]))


def _at(c: cand.Candidates, idx: np.ndarray, x: float, y: float, z: float) -> np.ndarray:
    return (
        (np.abs(c.x[idx] - x) < 1e-6)
        & (np.abs(c.y[idx] - y) < 1e-6)
        & (np.abs(c.z[idx] - z) < 1e-6)
    )


def _edge(a: Footprint, b: Footprint) -> float:
    return edge_distance(a, b)


def require_pile_in(move: CloseMove) -> None:
    """A unit may pile in only if it is within engagement range of an enemy unit or charged
    this turn (`action.charged`)."""
    if move.scenario.action.charged or move.engaged_at_start():
        return
    unit_id, gap = move.nearest_enemy_unit()
    raise IneligibleMoveError(
        f"unit {move.unit.id!r} cannot pile in: it is not within engagement range "
        f'({move.rules.engagement_range_in:g}") of an enemy unit and did not charge this turn '
        f'(the nearest enemy unit, {unit_id!r}, is {gap:.2f}" away edge to edge); '
        "if it charged, add charged = true to [action]"
    )


def require_heroic_intervention(move: CloseMove) -> None:
    """A heroic intervention (9th edition) is made by a CHARACTER unit that is not within
    engagement range of any enemy unit but is within 3" horizontally and 5" vertically of one."""
    unit = move.unit
    what = f"unit {unit.id!r} cannot perform a heroic intervention"
    if "CHARACTER" not in unit.keyword_set:
        raise IneligibleMoveError(f"{what}: it is not a CHARACTER unit (add the keyword if it is)")
    engaged = move.engaged_at_start()
    if engaged:
        raise IneligibleMoveError(
            f"{what}: it is already within engagement range of enemy unit {engaged[0]!r}"
        )
    reach = move.limit_in
    near = (move.gaps <= reach + RANGE_SLACK_IN) & (
        move.heights <= move.rules.engagement_vertical_in
    )
    if not near.any():
        unit_id, gap = move.nearest_enemy_unit()
        raise IneligibleMoveError(
            f'{what}: no enemy unit is within {reach:g}" horizontally and '
            f'{move.rules.engagement_vertical_in:g}" vertically of it (the nearest, '
            f'{unit_id!r}, is {gap:.2f}" away edge to edge)'
        )
