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

    kind: str = Field(
        description="The move solved.",
        json_schema_extra={"enum": ["charge", "pile-in", "consolidate", "heroic-intervention"]},
    )
    unit: str = Field(description="The unit that moved.")
    targets: tuple[str, ...] = Field(default=(), description="The charge's targets.")
    roll: int | None = Field(
        default=None, ge=0, le=36, description="The roll it was solved (or is checked) for."
    )

    @classmethod
    def of(cls, action: Action, roll: int | None) -> ResultAction:
        """The scenario's action as solved with `roll`."""
        return cls(kind=action.kind.value, unit=action.unit, targets=action.targets, roll=roll)


class Placement(_Doc):
    """One model's end position. A hand-written placement needs only model, x and y."""

    model: str = Field(description="The model's id.", examples=["A1"])
    x: Inches = Field(description="End position of the centre, inches.", examples=[15.878])
    y: Inches = Field(description="End position of the centre, inches.", examples=[14.5])
    z: Finite = Field(default=0.0, ge=0, le=100, description="End height, inches.")
    facing: Finite | None = Field(
        default=None, description="End facing in degrees (ovals and hulls)."
    )
    moved: Finite | None = Field(
        default=None, description="Length of its shortest legal path, inches (solver output)."
    )
    contact: tuple[str, ...] = Field(
        default=(), description="Enemy models it ends in base contact with (solver output)."
    )
    engaged: tuple[str, ...] = Field(
        default=(), description="Enemy units it ends within engagement range of (solver output)."
    )
    fights: tuple[str, ...] = Field(
        default=(), description="Close-combat moves: enemy units it can fight after the move."
    )
    token: bool = Field(default=False, description="WTC walls rule: it ends with a token.")
    wall: str | None = Field(default=None, description="WTC walls rule: the wall of its token.")


class Violation(_Doc):
    """One broken rule, with the models, terrain and distances involved."""

    kind: str = Field(description="The rule broken, e.g. moved_too_far, overlap, coherency.")
    message: str = Field(description="The violation in words.")
    models: tuple[str, ...] = Field(default=(), description="The models involved.")
    terrain: tuple[str, ...] = Field(default=(), description="The terrain involved.")
    distance_in: float | None = Field(default=None, description="The distance at fault, inches.")
    limit_in: float | None = Field(default=None, description="The limit it breaks, inches.")


class Result(_Doc):
    """What a solve returns, and what `chargeopt check` reads (only `placements` is required)."""

    format: Literal[1] = Field(default=1, description="The file format version: 1.")
    scenario: str = Field(default="", description="The scenario's name.")
    ruleset: tuple[str, ...] = Field(default=(), description="The ruleset ids solved under.")
    action: ResultAction | None = Field(default=None, description="The move as solved.")
    status: Status = Field(
        default=Status.FEASIBLE,
        description="optimal: proven best; feasible: legal, maybe not best; infeasible: no "
        "legal placement (see proof); unknown: neither found nor disproved in time.",
    )
    min_roll: int | None = Field(
        default=None, description="Charges: the smallest roll with a legal placement."
    )
    success_probability: float | None = Field(
        default=None, ge=0, le=1, description="Chance of rolling at least min_roll."
    )
    success_probability_reroll: float | None = Field(
        default=None, ge=0, le=1, description="The same chance with a re-roll of the charge."
    )
    rolls: tuple[dict[str, Any], ...] = Field(
        default=(),
        description="Charges: base contact for each roll from min_roll up (roll, base_contact, "
        "proven).",
    )
    objective: dict[str, int | float] = Field(
        default_factory=dict,
        description="What the answer achieves: base_contact, engaged (or fights), movement_in.",
    )
    bound: dict[str, int | float] = Field(
        default_factory=dict, description="Proven upper bounds on the objective's counts."
    )
    placements: tuple[Placement, ...] = Field(
        default=(), description="Where each model of the moving unit ends."
    )
    proof: str | None = Field(
        default=None, description="Why no legal placement exists, in words (infeasible)."
    )
    violations: tuple[Violation, ...] = Field(
        default=(), description="What the independent checker found; empty for a legal answer."
    )
    stats: dict[str, Any] = Field(
        default_factory=dict,
        description="How it was solved: seconds, candidate positions, stages, reasons; "
        "cut_short when a time limit or Ctrl-C stopped the solve.",
    )
