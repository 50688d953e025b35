"""The result document: status, placements, objective and bound, proof, violations, stats."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .scenario import Action

Finite = Annotated[float, Field(allow_inf_nan=False)]
Inches = Annotated[float, Field(allow_inf_nan=False, ge=-1000, le=1000)]
"""A position in inches: finite, and no farther from the origin than the largest board."""


class Status(StrEnum):
    """How far the answer is proven (CP-SAT's outcomes, mapped one to one)."""

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"
    UNKNOWN = "unknown"


class _Doc(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ResultAction(_Doc):
    """The action as it was solved (the roll may come from the command line)."""

    kind: str
    unit: str
    targets: tuple[str, ...] = ()
    roll: int | None = Field(default=None, ge=0, le=36)

    @classmethod
    def of(cls, action: Action, roll: int | None) -> ResultAction:
        """The scenario's action as solved with `roll`."""
        return cls(kind=action.kind.value, unit=action.unit, targets=action.targets, roll=roll)


class Placement(_Doc):
    """One model's end position. A hand-written placement needs only model, x and y."""

    model: str
    x: Inches
    y: Inches
    z: Finite = Field(default=0.0, ge=0, le=100)
    facing: Finite | None = None
    moved: Finite | None = None
    contact: tuple[str, ...] = ()
    engaged: tuple[str, ...] = ()
    fights: tuple[str, ...] = ()
    token: bool = False
    wall: str | None = None


class Violation(_Doc):
    """One broken rule, with the models, terrain and distances involved."""

    kind: str
    message: str
    models: tuple[str, ...] = ()
    terrain: tuple[str, ...] = ()
    distance_in: float | None = None
    limit_in: float | None = None


class Result(_Doc):
    """What a solve returns, and what `chargeopt check` reads (only `placements` is required)."""

    format: Literal[1] = 1
    scenario: str = ""
    ruleset: tuple[str, ...] = ()
    action: ResultAction | None = None
    status: Status = Status.FEASIBLE
    min_roll: int | None = None
    success_probability: float | None = Field(default=None, ge=0, le=1)
    success_probability_reroll: float | None = Field(default=None, ge=0, le=1)
    rolls: tuple[dict[str, Any], ...] = ()
    objective: dict[str, int | float] = Field(default_factory=dict)
    bound: dict[str, int | float] = Field(default_factory=dict)
    placements: tuple[Placement, ...] = ()
    proof: str | None = None
    violations: tuple[Violation, ...] = ()
    stats: dict[str, Any] = Field(default_factory=dict)
