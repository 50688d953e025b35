"""The scenario: board, terrain, units of models, the ruleset and the move to make."""

from __future__ import annotations

import math
from enum import StrEnum
from functools import cached_property
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .bases import BaseInput, HullBase, OvalBase, RoundBase
from .errors import KeyPathError, UnsupportedRuleError
from .rulesets import KNOWN_RULESETS, RuleSet, resolve_ruleset

Point = tuple[float, float]
Finite = Annotated[float, Field(allow_inf_nan=False)]
Inches = Annotated[float, Field(allow_inf_nan=False, ge=-1000, le=1000)]
"""A position in inches: finite, and no farther from the origin than the largest board."""
RulesetId = Literal[KNOWN_RULESETS]  # type: ignore[valid-type]
RulesetInput = RulesetId | Annotated[list[RulesetId], Field(min_length=1)]
"""What a file may write as `ruleset` (the schema lists the choices)."""
RULESET_CHOICES = ", ".join(f'"{r}"' for r in KNOWN_RULESETS)
RULE_KEYWORDS = ("INFANTRY", "BEAST", "BEASTS", "SWARM", "FLY", "MONSTER", "VEHICLE", "CHARACTER")
"""Keywords that change how chargeopt applies a rule."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TerrainKind(StrEnum):
    WALL = "wall"
    FLOOR = "floor"
    IMPASSABLE = "impassable"
    BARRICADE = "barricade"
    DIFFICULT = "difficult"


class Owner(StrEnum):
    ATTACKER = "attacker"
    DEFENDER = "defender"


class ActionKind(StrEnum):
    CHARGE = "charge"
    PILE_IN = "pile-in"
    CONSOLIDATE = "consolidate"
    HEROIC_INTERVENTION = "heroic-intervention"


class Board(_Frozen):
    """The battlefield rectangle, origin top-left, x right, y down, in inches."""

    width: Finite = Field(
        gt=0, le=1000, description="Board width in inches (x runs 0 to width).", examples=[44.0]
    )
    height: Finite = Field(
        gt=0,
        le=1000,
        description="Board height in inches (y runs 0 to height, downward).",
        examples=[30.0],
    )


class Terrain(_Frozen):
    """A terrain piece. Walls and barricades are thick polylines (closed if the last point
    repeats the first); floors, impassable and difficult areas are polygon rings."""

    id: str = Field(
        min_length=1, description="A name for the piece, unique among terrain.", examples=["ruin-1"]
    )
    kind: TerrainKind = Field(
        description="wall (ruin wall), floor (a ruin's upper floor), impassable, barricade "
        '(2" engagement across it) or difficult (ground that slows a move).'
    )
    path: tuple[tuple[Inches, Inches], ...] = Field(
        min_length=2,
        description="Corner points [x, y] in inches: a polyline for walls and barricades "
        "(closed if the last point repeats the first), a ring for areas.",
        examples=[[[20.0, 4.0], [20.0, 10.0], [26.0, 10.0]]],
    )
    thickness: Finite | None = Field(
        default=None,
        gt=0,
        le=12,
        description="Walls and barricades only: thickness in inches.",
        examples=[0.25],
    )
    height: Finite | None = Field(
        default=None,
        ge=0,
        le=100,
        description="Inches: a wall's height, or the height of a floor's surface (required "
        "for floors).",
        examples=[5.0],
    )

    @model_validator(mode="after")
    def _shape_fits_kind(self) -> Terrain:
        linear = self.kind in (TerrainKind.WALL, TerrainKind.BARRICADE)
        if linear and self.thickness is None:
            raise KeyPathError(
                "thickness", f"a {self.kind} needs a thickness", "add thickness = 0.25"
            )
        if not linear and self.thickness is not None:
            raise KeyPathError("thickness", f"a {self.kind} has no thickness", "remove it")
        if not linear and len(self.path) < 3:
            raise KeyPathError("path", f"a {self.kind} is a polygon ring: give at least 3 points")
        if self.kind == TerrainKind.FLOOR and self.height is None:
            raise KeyPathError(
                "height", "a floor needs the height of its surface", "add height = 3.0"
            )
        return self

    @property
    def is_closed(self) -> bool:
        return len(self.path) > 2 and self.path[0] == self.path[-1]


class GameModel(_Frozen):
    """One model (miniature) at its start position; `base` overrides the unit's default."""

    id: str = Field(
        min_length=1, description="The model's name, unique in the scenario.", examples=["A1"]
    )
    x: Inches = Field(description="Centre, inches from the board's left edge.", examples=[10.0])
    y: Inches = Field(description="Centre, inches from the board's top edge.", examples=[5.0])
    z: Finite = Field(
        default=0.0,
        ge=0,
        le=100,
        description="Height it stands at, in inches (0: the ground; a floor's height: on it).",
    )
    facing: Finite = Field(
        default=0.0,
        description="Degrees from +x toward +y; turns ovals and hulls (round bases ignore it).",
    )
    base: BaseInput | None = Field(
        default=None, description="This model's base, if not the unit's.", examples=["40mm"]
    )
    token: bool = Field(
        default=False,
        description="WTC walls rule: the model holds a token from touching a ruin wall.",
    )
    token_wall: str | None = Field(
        default=None, min_length=1, description="WTC walls rule: the wall its token is for."
    )


class ObjectiveMarker(_Frozen):
    """An objective marker on the board (10th-edition consolidation may move toward one)."""

    id: str = Field(min_length=1, description="The marker's name.", examples=["obj-1"])
    x: Inches = Field(description="Centre, inches from the board's left edge.")
    y: Inches = Field(description="Centre, inches from the board's top edge.")
    z: Finite = Field(default=0.0, ge=0, le=100, description="Height, in inches.")
    diameter_mm: Finite = Field(
        default=40.0, gt=0, le=200, description="Marker diameter in millimetres."
    )


class Unit(_Frozen):
    """A unit: an owner, keywords (compared upper-case) and its models."""

    id: str = Field(min_length=1, description="The unit's name, unique.", examples=["A"])
    owner: Owner = Field(description="attacker (the player moving) or defender.")
    keywords: tuple[str, ...] = Field(
        default=(),
        description="Datasheet keywords, any case. Those that change rules: INFANTRY, BEAST, "
        "BEASTS, SWARM (move through ruins), FLY (upper floors), MONSTER, VEHICLE (big models "
        "block paths), CHARACTER (heroic intervention); others are kept and ignored.",
        examples=[["INFANTRY"]],
        json_schema_extra={"items": {"anyOf": [{"enum": list(RULE_KEYWORDS)}, {"type": "string"}]}},
    )
    base: BaseInput | None = Field(
        default=None,
        description='Default base of its models: "32mm" (round), "60x35mm" (oval, long axis '
        'first) or a hull {kind = "hull", points = [[x, y], ...]} in inches.',
        examples=["32mm"],
    )
    models: tuple[GameModel, ...] = Field(min_length=1, description="Its models, at least one.")
    charged_units: tuple[str, ...] = Field(
        default=(),
        description="Units this unit charged this turn (WTC walls rule tokens hold against them).",
    )

    @field_validator("keywords")
    @classmethod
    def _upper(cls, keywords: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(k.strip().upper() for k in keywords)

    @model_validator(mode="after")
    def _every_model_has_a_base(self) -> Unit:
        if self.base is None:
            for i, m in enumerate(self.models):
                if m.base is None:
                    raise KeyPathError(
                        f"models[{i}].base",
                        f"model {m.id!r} has no base",
                        'give the unit a default (base = "32mm") or the model its own',
                    )
        return self

    @cached_property
    def keyword_set(self) -> frozenset[str]:
        return frozenset(self.keywords)

    def base_of(self, model: GameModel) -> RoundBase | OvalBase | HullBase:
        chosen = model.base or self.base
        assert chosen is not None  # guaranteed by the validator above
        return chosen


class Action(_Frozen):
    """The move to make (or to check)."""

    kind: ActionKind = Field(
        description="The move: charge, pile-in, consolidate or heroic-intervention."
    )
    unit: str = Field(min_length=1, description="The id of the unit that moves.", examples=["A"])
    targets: tuple[str, ...] = Field(
        default=(), description="Charge targets (unit ids); a charge needs one.", examples=[["B"]]
    )
    roll: int | None = Field(
        default=None,
        ge=0,
        le=36,
        description="The charge roll (the dice total, inches). Without it chargeopt finds the "
        "minimum roll.",
        examples=[7],
    )
    charged: bool = Field(
        default=False, description="Close-combat moves: the unit charged this turn."
    )

    @field_validator("roll", mode="before")
    @classmethod
    def _roll_is_whole(cls, roll: object) -> object:
        if isinstance(roll, float) and not roll.is_integer():
            raise KeyPathError(
                "",
                f"a roll is a whole number of inches, got {roll}",
                "give the dice total, e.g. roll = 7",
            )
        if isinstance(roll, int | float) and roll < 0:
            raise KeyPathError(
                "", f"a roll cannot be negative, got {roll:g}", "give the dice total, e.g. roll = 7"
            )
        return roll


class Scenario(_Frozen):
    """A whole scenario, validated: ids unique, references resolved, ruleset supported."""

    format: Literal[1] = Field(default=1, description="The file format version: 1.")
    name: str = Field(default="", description="A title shown in the output.")
    ruleset: tuple[str, ...] = Field(
        min_length=1,
        description="One edition, and modifiers after it: " + RULESET_CHOICES + ".",
        examples=["40k-10e", ["40k-10e", "wtc-walls"]],
    )
    board: Board = Field(description="The battlefield rectangle.")
    terrain: tuple[Terrain, ...] = Field(default=(), description="Walls, floors and areas.")
    units: tuple[Unit, ...] = Field(
        min_length=1, description="Every unit on the table, the moving one and the others."
    )
    objectives: tuple[ObjectiveMarker, ...] = Field(
        default=(), description="Objective markers (a 10th-edition consolidation may head for one)."
    )
    action: Action = Field(description="The move to make.")

    @field_validator("ruleset", mode="before", json_schema_input_type=RulesetInput)
    @classmethod
    def _one_or_many(cls, value: object) -> object:
        return (value,) if isinstance(value, str) else value

    @model_validator(mode="after")
    def _references(self) -> Scenario:
        try:
            resolve_ruleset(self.ruleset)
        except UnsupportedRuleError as exc:
            raise KeyPathError("ruleset", str(exc)) from None
        _unique("terrain", [t.id for t in self.terrain], "terrain id")
        _unique("units", [u.id for u in self.units], "unit id")
        _unique("objectives", [o.id for o in self.objectives], "objective id")
        seen: dict[str, str] = {}
        walls = {t.id for t in self.terrain if t.kind == TerrainKind.WALL}
        for ui, unit in enumerate(self.units):
            for mi, model in enumerate(unit.models):
                if model.id in seen:
                    raise KeyPathError(
                        f"units[{ui}].models[{mi}].id",
                        f"model id {model.id!r} repeats (also in unit {seen[model.id]!r})",
                        "give every model its own id",
                    )
                seen[model.id] = unit.id
                if model.token_wall is not None and model.token_wall not in walls:
                    raise KeyPathError(
                        f"units[{ui}].models[{mi}].token_wall",
                        f"no wall {model.token_wall!r}",
                        f"choose one of {', '.join(sorted(walls))}"
                        if walls
                        else "this table has no ruin wall; remove token_wall",
                    )
        units = {u.id: u for u in self.units}
        ids = ", ".join(units)
        if self.action.unit not in units:
            raise KeyPathError(
                "action.unit", f"no unit {self.action.unit!r}", f"choose one of {ids}"
            )
        for ui, unit in enumerate(self.units):
            for ci, charged in enumerate(unit.charged_units):
                if charged not in units:
                    raise KeyPathError(
                        f"units[{ui}].charged_units[{ci}]",
                        f"no unit {charged!r}",
                        f"choose one of {ids}",
                    )
        actor = units[self.action.unit]
        if self.action.kind == ActionKind.CHARGE and not self.action.targets:
            raise KeyPathError("action.targets", "a charge needs at least one target unit")
        for ti, target in enumerate(self.action.targets):
            if target not in units:
                raise KeyPathError(
                    f"action.targets[{ti}]", f"no unit {target!r}", f"choose one of {ids}"
                )
            if units[target].owner == actor.owner:
                raise KeyPathError(
                    f"action.targets[{ti}]",
                    f"unit {target!r} is not an enemy of {actor.id!r} (both {actor.owner})",
                    "target a unit of the other side",
                )
        _unique("action.targets", list(self.action.targets), "target")
        return self

    @cached_property
    def rules(self) -> RuleSet:
        return resolve_ruleset(self.ruleset)

    @cached_property
    def unit_by_id(self) -> dict[str, Unit]:
        return {u.id: u for u in self.units}

    @cached_property
    def model_index(self) -> dict[str, tuple[Unit, GameModel]]:
        """Every model id mapped to its unit and its start state."""
        return {m.id: (u, m) for u in self.units for m in u.models}

    @property
    def acting_unit(self) -> Unit:
        return self.unit_by_id[self.action.unit]

    def enemies_of(self, unit: Unit) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.owner != unit.owner)

    def terrain_by_id(self, terrain_id: str) -> Terrain:
        return next(t for t in self.terrain if t.id == terrain_id)


def _unique(key: str, values: list[str], what: str) -> None:
    seen: set[str] = set()
    for i, value in enumerate(values):
        if value in seen:
            raise KeyPathError(
                f"{key}[{i}].id" if what != "target" else f"{key}[{i}]",
                f"{what} {value!r} repeats",
                "give each its own id",
            )
        seen.add(value)


def angle_between_deg(a: float, b: float) -> float:
    """Smallest absolute difference between two facings, in degrees."""
    d = math.fmod(abs(a - b), 360.0)
    return min(d, 360.0 - d)
