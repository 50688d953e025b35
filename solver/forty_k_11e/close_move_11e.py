"""What the 11th edition's 3" fight-phase moves share (pile in, consolidation; 40k-11e core
rules 12.03 and 12.08): which mode applies, its selected enemy units or objective, which
models stay put, and each model's end rule, on the 10th edition's close-move candidates
(`solver.forty_k.close_moves.CloseMove`, every enemy unit a unit the move may engage).

Readings (a judge's, in models/RULES.md): "the closest pile-in target" is, for each model, the
selected enemy unit nearest it at the start (edge to edge, horizontally; ties: either); a model
that moves ends closer to that unit (to its nearest model). A model that started engaged with
an enemy unit ends engaged with that unit (checked per model on every end it may take). An
objective marker stands for its terrain objective's area: a model is within range of it while
its base touches or overlaps the marker's disc."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from itertools import combinations

import numpy as np
import shapely

from chargeopt.geometry import Battlefield, Footprint, edge_distance
from chargeopt.geometry.terrain_11e import no_end_zones
from chargeopt.models import (
    ActionKind,
    GameModel,
    IneligibleMoveError,
    ObjectiveMarker,
    RoundBase,
    Scenario,
)
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core.tolerances import MARGIN_IN
from chargeopt.solver.forty_k.close_moves import (
    RANGE_SLACK_IN,
    CloseMove,
    Goal,
    marker_footprint,
)
from chargeopt.solver.options import SolveOptions

PILE_IN_TARGETS_IN = 5.0
"""An unengaged unit piles in toward enemy units within 5" of it."""
CONSOLIDATION_REACH_IN = 3.0
"""Engaging and objective consolidation apply within 3" of enemy units or objectives."""
MOST_SUBSETS_OF = 4
"""Without `targets`, every non-empty set of up to this many eligible enemy units is tried;
with more eligible units, each alone and all of them."""


BAND_GAPS_IN = (0.5, 1.0, 1.5, 1.9)
BAND_STEP_DEG = 10.0
RIM_SPOTS = 180
"""Spots on the rim of an objective's range (every 2 degrees): the nearest spot in range
lies on the rim, and the models share it out."""


class Mode(StrEnum):
    """The move made: a pile in, or one of the three consolidation modes."""

    PILE_IN = "pile-in"
    ONGOING = "ongoing"
    ENGAGING = "engaging"
    OBJECTIVE = "objective"


@dataclass(frozen=True)
class Selection:
    """A mode with its selected enemy units (pile-in targets) or objective."""

    mode: Mode
    targets: tuple[str, ...] = ()
    marker: ObjectiveMarker | None = None

    @property
    def words(self) -> str:
        if self.mode == Mode.OBJECTIVE:
            assert self.marker is not None
            return f"objective consolidation toward {self.marker.id!r}"
        names = ", ".join(repr(t) for t in self.targets)
        if self.mode == Mode.PILE_IN:
            return f"pile in toward {names}"
        return f"{self.mode.value} consolidation with {names}"


def marker_radius_in(marker: ObjectiveMarker) -> float:
    return marker.diameter_mm / 25.4 / 2


class CloseMove11e(CloseMove):
    """One 11th-edition pile in or consolidation under one selection."""

    def __init__(self, scenario: Scenario, battlefield: Battlefield, selection: Selection):
        super().__init__(scenario, battlefield)
        self.selection = selection
        self.target_cols = np.array(
            [j for j, (u, _) in enumerate(self.enemy_ids) if u in selection.targets], dtype=int
        )

    @cached_property
    def fixed(self) -> dict[str, tuple[str, ...]]:
        """Models in base contact with an enemy model do not move in a pile in or an ongoing
        consolidation; in the other two modes every model may move."""
        if self.selection.mode in (Mode.ENGAGING, Mode.OBJECTIVE):
            return {}
        return super().fixed

    def closest_units(self, index: int) -> frozenset[str]:
        """The selected enemy units nearest the `index`-th model at the start (ties kept)."""
        if not len(self.target_cols):
            return frozenset()
        row = self.gaps[index, self.target_cols]
        best = float(row.min())
        return frozenset(
            self.enemy_ids[j][0]
            for j, g in zip(self.target_cols, row, strict=True)
            if g <= best + 1e-9
        )

    def closest(self, index: int) -> tuple[list[Footprint], float]:
        """Every model of the selected units nearest the model, and that unit distance: ending
        closer to one of them is ending closer to the unit."""
        units = self.closest_units(index)
        cols = [j for j in self.target_cols if self.enemy_ids[j][0] in units]
        return [self.enemies[j] for j in cols], float(self.gaps[index, cols].min())

    @cached_property
    def engaged_with_at_start(self) -> list[frozenset[str]]:
        """Per model, the enemy units it is engaged with at the start."""
        within = (self.gaps <= self.engagement_ranges + RANGE_SLACK_IN) & (
            self.heights <= self.rules.engagement_vertical_in
        )
        return [frozenset(self.enemy_ids[j][0] for j in np.flatnonzero(row)) for row in within]

    def in_range(self, base: object, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Poses within range of the selected objective, `MARGIN_IN` inside it: a round base
        overlapping the marker's disc, any other base with its centre on the disc."""
        marker = self.selection.marker
        if marker is None:
            return np.zeros(len(x), bool)
        reach = marker_radius_in(marker)
        if isinstance(base, RoundBase):
            reach += base.radius_in
        return np.hypot(x - marker.x, y - marker.y) <= reach - 2 * MARGIN_IN

    def end_rule(self, goal: Goal) -> cand.EndRule:
        """The 10th edition's rule (fixed models stay, movers end closer to their goal), with
        the objective mode's "within range if possible, else closer" (a spot in range is
        always allowed), and a model engaged at the start keeping every unit it engaged."""
        closer = super().end_rule(goal)
        index = {m.id: i for i, m in enumerate(self.unit.models)}

        def rule(model: GameModel, c: cand.Candidates, idx: np.ndarray, length: np.ndarray):
            out = closer(model, c, idx, length)
            if model.id in self.fixed:
                return out
            own = out == 0.0
            if goal.marker is not None:
                inside = self.in_range(self.unit.base_of(model), c.x[idx], c.y[idx])
                out = np.where(inside & ~own, length, out)
            keep = self.engaged_with_at_start[index[model.id]]
            if keep:
                lost = np.array([not keep <= c.engaged[p] for p in idx], dtype=bool)
                out[lost & ~own] = np.inf
            return out

        return rule

    def candidates(self, options: SolveOptions, goal: Goal) -> cand.Candidates:
        """The 10th edition's close-move candidates less the ends the 11th edition forbids
        (through a wall of an area, inside an enclosed solid block: `no_end_zones`); every
        model's start stays."""
        c = super().candidates(options, goal)
        zones = no_end_zones(self.rules, self.battlefield)
        if not zones or not len(c):
            return c
        bad = np.zeros(len(c), bool)
        for bi, base in enumerate(c.base_keys):
            idx = np.flatnonzero(c.base_of == bi)
            shapes = np.array(
                [
                    Footprint(base, float(c.x[i]), float(c.y[i]), 0.0, float(c.facing[i])).polygon
                    for i in idx
                ],
                dtype=object,
            )
            for zone in zones:
                bad[idx] |= shapely.intersects(shapes, zone.shape.buffer(MARGIN_IN))
        bad[list(self.start_spots(c).values())] = False
        for lengths in c.reach.values():
            lengths[bad] = np.inf
        return c

    def extra_points(self, options: SolveOptions, goal: Goal) -> cand.ExtraPoints:
        """The 10th edition's extra poses toward enemies; toward an objective, centres on
        three circles about the marker (its centre, half way, the rim of the range: there
        every `RIM_SPOTS`-th of a turn, where the least movement into range lies)."""
        if goal.marker is None:
            tenth = super().extra_points(options, goal)
            selected = [self.enemies[j] for j in self.target_cols]

            def engaging(base: object, facing: float, targets: list[Footprint]) -> np.ndarray:
                return np.vstack([tenth(base, facing, targets), _bands(base, selected)])

            return engaging
        marker = goal.marker

        def extra(base: object, facing: float, targets: list[Footprint]) -> np.ndarray:
            reach = marker_radius_in(marker) + (
                base.radius_in if isinstance(base, RoundBase) else 0.0
            )
            rows = [(marker.x, marker.y, marker.z, -1.0, 0.0)]
            count = max(8, round(360.0 / (options.contact_step_deg * 2)))
            for r, n in ((reach / 2, count), (reach - 3 * MARGIN_IN, RIM_SPOTS)):
                if r <= 0:
                    continue
                for a in np.linspace(0, 2 * np.pi, n, endpoint=False):
                    rows.append((marker.x + r * np.cos(a), marker.y + r * np.sin(a), 0.0, -1, 0))
            return np.array(rows, dtype=float)

        return extra


def _bands(base: object, selected: list[Footprint]) -> np.ndarray:
    """Centres at `BAND_GAPS_IN` from each selected enemy model, every `BAND_STEP_DEG`: spots
    engaged with it across the whole 2" band, not only at its edges."""
    if not isinstance(base, RoundBase):
        return np.empty((0, 5))
    angles = np.radians(np.arange(0.0, 360.0, BAND_STEP_DEG))
    rows = [
        np.column_stack(
            (
                e.x + (e.radius_in + base.radius_in + gap) * np.cos(angles),
                e.y + (e.radius_in + base.radius_in + gap) * np.sin(angles),
                np.full(len(angles), e.z),
                np.full(len(angles), -1.0),
                angles,
            )
        )
        for e in selected
        if e.is_round
        for gap in BAND_GAPS_IN
    ]
    return np.vstack(rows) if rows else np.empty((0, 5))


def unit_gaps(scenario: Scenario) -> dict[str, float]:
    """Each enemy unit's edge distance (horizontal) from the acting unit at the start."""
    unit = scenario.acting_unit
    mine = [Footprint(unit.base_of(m), m.x, m.y, m.z, m.facing) for m in unit.models]
    return {
        e.id: min(
            edge_distance(a, Footprint(e.base_of(m), m.x, m.y, m.z, m.facing))
            for a in mine
            for m in e.models
        )
        for e in scenario.enemies_of(unit)
    }


def marker_gaps(scenario: Scenario) -> dict[str, float]:
    """Each objective marker's edge distance from the acting unit at the start."""
    unit = scenario.acting_unit
    return {
        o.id: min(
            edge_distance(Footprint(unit.base_of(m), m.x, m.y, m.z, m.facing), marker_footprint(o))
            for m in unit.models
        )
        for o in scenario.objectives
    }


def target_sets(eligible: list[str], named: tuple[str, ...], what: str) -> list[tuple[str, ...]]:
    """The sets of enemy units to try: the named ones (each must be eligible), else every
    non-empty subset of the eligible ones (largest first; see `MOST_SUBSETS_OF`)."""
    if named:
        wrong = [t for t in named if t not in eligible]
        if wrong:
            raise IneligibleMoveError(
                f"unit {wrong[0]!r} cannot be selected: {what}"
                + (f" (those are: {', '.join(eligible)})" if eligible else " (there are none)")
            )
        return [tuple(named)]
    if len(eligible) > MOST_SUBSETS_OF:
        return [tuple(eligible), *((u,) for u in eligible)]
    return [s for k in range(len(eligible), 0, -1) for s in combinations(eligible, k)]


def selections(scenario: Scenario, battlefield: Battlefield) -> list[Selection]:
    """Every selection the move may make, in the order the rules name them; raises
    IneligibleMoveError (with the reason) when the unit may not make the move."""
    probe = CloseMove(scenario, battlefield)
    engaged = probe.engaged_at_start()
    action = scenario.action
    unit = scenario.acting_unit.id
    gaps = unit_gaps(scenario)
    if action.kind == ActionKind.PILE_IN:
        if engaged:
            _named_are(
                action.targets,
                engaged,
                "an engaged unit piles in toward every enemy unit it is engaged with",
            )
            return [Selection(Mode.PILE_IN, tuple(engaged))]
        if not (action.charged or action.overrun):
            raise IneligibleMoveError(
                f"unit {unit!r} cannot pile in: it is unengaged, did not charge this turn and "
                "was not selected for an overrun fight; if it was, add charged = true or "
                "overrun = true to [action]"
            )
        near = [u for u, g in gaps.items() if g <= PILE_IN_TARGETS_IN + RANGE_SLACK_IN]
        if not near:
            raise IneligibleMoveError(
                f"unit {unit!r} cannot pile in: it is unengaged and no enemy unit is within "
                f'{PILE_IN_TARGETS_IN:g}" of it (the nearest is {min(gaps.values()):.2f}" away)'
            )
        what = f'an unengaged unit piles in toward enemy units within {PILE_IN_TARGETS_IN:g}"'
        return [Selection(Mode.PILE_IN, s) for s in target_sets(near, action.targets, what)]
    if engaged:
        _named_are(
            action.targets,
            engaged,
            "an engaged unit consolidates with every enemy "
            "unit it is engaged with (ongoing consolidation)",
        )
        return [Selection(Mode.ONGOING, tuple(engaged))]
    near = [u for u, g in gaps.items() if g <= CONSOLIDATION_REACH_IN + RANGE_SLACK_IN]
    if near:
        what = f'engaging consolidation selects enemy units within {CONSOLIDATION_REACH_IN:g}"'
        return [Selection(Mode.ENGAGING, s) for s in target_sets(near, action.targets, what)]
    markers = marker_gaps(scenario)
    close = [o for o in scenario.objectives if markers[o.id] <= CONSOLIDATION_REACH_IN + 1e-6]
    if close:
        if action.targets:
            raise IneligibleMoveError(
                f"unit {unit!r} makes an objective consolidation (no enemy unit is within "
                f'{CONSOLIDATION_REACH_IN:g}"), which selects an objective, not enemy units: '
                "remove targets from [action]"
            )
        return [Selection(Mode.OBJECTIVE, marker=o) for o in close]
    raise IneligibleMoveError(
        f"unit {unit!r} cannot consolidate: it is unengaged and neither an enemy unit nor an "
        f'objective is within {CONSOLIDATION_REACH_IN:g}" of it'
    )


def _named_are(named: tuple[str, ...], engaged: list[str], why: str) -> None:
    if named and set(named) != set(engaged):
        raise IneligibleMoveError(
            f"targets {list(named)} are not the units it is engaged with ({', '.join(engaged)}): "
            f"{why}; remove targets from [action] or name exactly those"
        )
