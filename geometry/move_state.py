"""The move under judgement: every model's start footprint, the acting unit's end footprints,
and the units it charges or must keep clear of. Built once; every check reads it.

Positions may be judged as measured to a precision P (`precision_in`; 0 is exact): each
written x and y is then within P/2 of where the model stands, so its centre within
`error_in` = P/sqrt(2). Base contact and overlap, which are judged within a tolerance, are
judged within the tolerance plus that error for each written model of the pair
(`contact_tolerance_in`); a model written within P/2 of its start on both axes (at its height
and facing) stands where it started. Every other rule reads the positions as written."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from chargeopt.geometry.footprints import Footprint
from chargeopt.geometry.pairs import SAME_HEIGHT_IN, Bases, edge_distances, height_gaps
from chargeopt.geometry.terrain import Battlefield
from chargeopt.models import GameModel, Placement, RuleSet, Scenario, Unit

MOVED_IN = 1e-9


def footprint_at_start(unit: Unit, model: GameModel) -> Footprint:
    return Footprint(unit.base_of(model), model.x, model.y, model.z, model.facing)


def footprint_at_end(unit: Unit, model: GameModel, placement: Placement | None) -> Footprint:
    """Where a placement puts a model (its start if it has none; facing None keeps it)."""
    if placement is None:
        return footprint_at_start(unit, model)
    facing = model.facing if placement.facing is None else placement.facing
    return Footprint(unit.base_of(model), placement.x, placement.y, placement.z, facing)


def measured_at_start(model: GameModel, placement: Placement, precision_in: float) -> bool:
    """Whether a placement measured to `precision_in` (> 0) is the model's start: x and y
    each within half of it, the same height and facing."""
    half = precision_in / 2 + MOVED_IN
    facing = model.facing if placement.facing is None else placement.facing
    return (
        abs(placement.x - model.x) <= half
        and abs(placement.y - model.y) <= half
        and abs(placement.z - model.z) <= MOVED_IN
        and abs(facing - model.facing) <= MOVED_IN
    )


@dataclass(frozen=True)
class MoveState:
    """The acting unit at its start and end, everything else where it stands; the placements
    measured to `precision_in` (0: exact, see the module docstring)."""

    scenario: Scenario
    battlefield: Battlefield
    roll: int
    placements: Mapping[str, Placement]
    precision_in: float = 0.0

    @property
    def rules(self) -> RuleSet:
        return self.scenario.rules

    @property
    def error_in(self) -> float:
        """How far a written centre may stand from the model's: P/sqrt(2) (0 when exact)."""
        return self.precision_in / math.sqrt(2)

    def contact_tolerance_in(self, written: int = 1) -> float:
        """The base-contact tolerance (and how deep a base may overlap a wall or an impassable
        area) between two shapes of which `written` (0, 1 or 2) stand where the placement
        writes them."""
        return self.rules.base_contact_tolerance_in + written * self.error_in

    def overlap_tolerance_in(self, written: int = 1) -> float:
        """How deep two bases may overlap when `written` (0, 1 or 2) of them stand where the
        placement writes them: the rules' numerical epsilon plus the rounding error."""
        return self.rules.base_overlap_tolerance_in + written * self.error_in

    @property
    def unit(self) -> Unit:
        return self.scenario.acting_unit

    @cached_property
    def ids(self) -> tuple[str, ...]:
        """The acting unit's model ids, in file order."""
        return tuple(m.id for m in self.unit.models)

    @cached_property
    def start(self) -> dict[str, Footprint]:
        return {m.id: footprint_at_start(u, m) for u in self.scenario.units for m in u.models}

    @cached_property
    def end(self) -> dict[str, Footprint]:
        out = {}
        for m in self.unit.models:
            placement = self.placements.get(m.id)
            if (
                placement is not None
                and self.precision_in > 0
                and measured_at_start(m, placement, self.precision_in)
            ):
                placement = None
            out[m.id] = footprint_at_end(self.unit, m, placement)
        return out

    def now(self, model_id: str) -> Footprint:
        """A model's footprint after the move (the acting unit's end, others' start)."""
        return self.end.get(model_id) or self.start[model_id]

    def moved(self, model_id: str) -> bool:
        a, b = self.start[model_id], self.end[model_id]
        return (
            abs(a.x - b.x) > MOVED_IN
            or abs(a.y - b.y) > MOVED_IN
            or abs(a.z - b.z) > MOVED_IN
            or abs(a.facing - b.facing) > MOVED_IN
        )

    @cached_property
    def end_bases(self) -> Bases:
        return Bases.of([self.end[i] for i in self.ids])

    @cached_property
    def start_bases(self) -> Bases:
        return Bases.of([self.start[i] for i in self.ids])

    def unit_bases(self, unit: Unit) -> Bases:
        """Another unit's models where they stand."""
        return Bases.of([self.start[m.id] for m in unit.models])

    @cached_property
    def targets(self) -> tuple[Unit, ...]:
        return tuple(self.scenario.unit_by_id[t] for t in self.scenario.action.targets)

    @cached_property
    def non_targets(self) -> tuple[Unit, ...]:
        """Enemy units the acting unit does not charge: it must keep out of their range."""
        chosen = set(self.scenario.action.targets)
        return tuple(u for u in self.scenario.enemies_of(self.unit) if u.id not in chosen)

    @cached_property
    def others(self) -> tuple[str, ...]:
        """Every model that is not in the acting unit (none of them moves)."""
        return tuple(m.id for u in self.scenario.units if u.id != self.unit.id for m in u.models)

    @cached_property
    def in_target_contact(self) -> dict[str, tuple[str, ...]]:
        """For each acting model, the target models it ends in base contact with."""
        tolerance = self.contact_tolerance_in()
        out: dict[str, tuple[str, ...]] = {i: () for i in self.ids}
        for target in self.targets:
            bases = self.unit_bases(target)
            touching = (edge_distances(self.end_bases, bases, tolerance) <= tolerance) & (
                height_gaps(self.end_bases, bases) < SAME_HEIGHT_IN
            )
            for i, model_id in enumerate(self.ids):
                out[model_id] += tuple(m.id for j, m in enumerate(target.models) if touching[i, j])
        return out
