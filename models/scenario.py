"""The scenario: board, terrain, units of models, the ruleset and the move to make."""

from __future__ import annotations

import math
from enum import StrEnum
from functools import cached_property
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, field_validator, model_validator

from .bases import BaseInput, HullBase, OvalBase, RoundBase
from .errors import KeyPathError, UnsupportedRuleError
from .keys import (
    MAX_COORDINATE_IN,
    Angle,
    Coordinate,
    Finite,
    Flag,
    Height,
    Point,
    Whole,
    format_version,
    key,
    whole_roll,
)
from .outline import outline_problem
from .rulesets import FLY_KEYWORD, KNOWN_RULESETS, RULE_KEYWORDS, RuleSet, resolve_ruleset

RulesetId = Annotated[str, Field(json_schema_extra={"enum": list(KNOWN_RULESETS)})]
"""A ruleset id; checked by resolve_ruleset, whose message names the choices."""
RulesetList = Annotated[list[RulesetId], Field(min_length=1)]
Keyword = Annotated[
    str,
    WithJsonSchema(
        {
            "anyOf": [
                {"enum": list(RULE_KEYWORDS), "description": "A keyword some rule reads."},
                {"type": "string", "description": "Any other keyword (kept, read by no rule)."},
            ]
        }
    ),
]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TerrainKind(StrEnum):
    """What a terrain piece is."""

    WALL = "wall"
    FLOOR = "floor"
    IMPASSABLE = "impassable"
    BARRICADE = "barricade"
    DIFFICULT = "difficult"
    DENSE = "dense"
    LIGHT = "light"
    EXPOSED = "exposed"


CATEGORY_KINDS = (TerrainKind.DENSE, TerrainKind.LIGHT, TerrainKind.EXPOSED)
WALL_THICKNESS_IN = 0.25
"""The 11th edition's terrain categories: areas with a height and, optionally, walls."""


class Owner(StrEnum):
    """Which side a unit is on."""

    ATTACKER = "attacker"
    DEFENDER = "defender"


class ActionKind(StrEnum):
    """The moves chargeopt makes and checks."""

    CHARGE = "charge"
    PILE_IN = "pile-in"
    CONSOLIDATE = "consolidate"
    HEROIC_INTERVENTION = "heroic-intervention"
    FALL_BACK = "fall-back"


class HeroicMode(StrEnum):
    """The two modes of the 40k-11e heroic intervention stratagem."""

    LEAP_TO_DEFEND = "leap-to-defend"
    INTO_THE_FRAY = "into-the-fray"


class TableEdge(StrEnum):
    """A board edge: where a unit falls back to (40k-assault-4e)."""

    TOP = "top"
    BOTTOM = "bottom"
    LEFT = "left"
    RIGHT = "right"

    @property
    def toward(self) -> tuple[float, float]:
        """The unit vector pointing at this edge (x right, y down)."""
        return {"top": (0.0, -1.0), "bottom": (0.0, 1.0), "left": (-1.0, 0.0)}.get(
            self.value, (1.0, 0.0)
        )


class Board(_Frozen):
    """The battlefield rectangle, origin top-left, x right, y down, in inches."""

    width: Finite = key(
        "The board's width, from its left edge to its right edge.",
        example=60.0,
        unit="in",
        gt=0,
        le=MAX_COORDINATE_IN,
    )
    height: Finite = key(
        "The board's depth, from its top edge to its bottom edge.",
        example=44.0,
        unit="in",
        gt=0,
        le=MAX_COORDINATE_IN,
    )


class LayoutBoard(Board):
    """A 40k board, which may also name an official terrain layout (the data set's)."""

    layout: str | None = key(
        "A terrain layout of the 40kdc data set by name or id (pip install 'chargeopt[data]'): "
        "its terrain and objectives are added to the scenario's (width and height still give "
        "the board's size, 60 by 44 for most layouts). Powered by 40kdc-data.",
        example="Take vs Take 01",
        default=None,
        min_length=1,
    )


class Terrain(_Frozen):
    """A terrain piece. Walls and barricades are thick polylines (closed if the last point
    repeats the first); floors, impassable and difficult areas are polygon rings, and so are
    the 11th edition's dense, light and exposed areas (with a height and optional walls)."""

    id: str = key(
        "The piece's name, unique among the terrain (messages and results use it).",
        example="ruin-1-north",
        min_length=1,
    )
    kind: TerrainKind = key(
        "What the piece is: a ruin wall, a ruin floor, an impassable or difficult area, "
        "a barricade, or (40k-11e) a dense, light or exposed area.",
        example="wall",
    )
    path: tuple[Point, ...] = key(
        "The piece's shape as [x, y] points: for a wall or barricade the line along its "
        "middle (closed if the last point repeats the first); for the others the corners of "
        "the area, in order around its outline.",
        example=[[20.0, 10.0], [30.0, 10.0]],
        unit="in",
        min_length=2,
    )
    thickness: Finite | None = key(
        "How thick a wall or barricade is (walls and barricades need it, the others have none).",
        example=0.25,
        unit="in",
        default=None,
        gt=0,
        le=12,
    )
    height: Height | None = key(
        "How tall a wall is, or the height of a floor's surface above the ground (a floor "
        "needs it).",
        example=5.0,
        unit="in",
        default=None,
    )

    height_in: Height | None = key(
        "The height of a dense, light or exposed area: its tallest section above the ground "
        "(40k-11e; those kinds need it).",
        example=5.0,
        unit="in",
        default=None,
    )
    walls: tuple[tuple[Point, ...], ...] = key(
        "The walls inside a dense, light or exposed area, each a line of [x, y] points along "
        "its middle (no model ends partway through one).",
        example=[[[20.0, 10.0], [24.0, 10.0], [24.0, 14.0]]],
        unit="in",
        default=(),
    )
    wall_thickness_in: Finite = key(
        "How thick the walls of a dense, light or exposed area are.",
        example=0.25,
        unit="in",
        default=WALL_THICKNESS_IN,
        gt=0,
        le=12,
    )
    enclosed: Flag = key(
        "Whether a dense area is a closed solid block at ground level (a container, a sealed "
        'building): no model ends through it where it is 3" high or less.',
        example=False,
        default=False,
    )

    @model_validator(mode="after")
    def _category_keys(self) -> Terrain:
        category = self.kind in CATEGORY_KINDS
        if category and self.height is not None:
            raise KeyPathError(
                "height", f"a {self.kind} area gives its height as height_in", "rename it height_in"
            )
        if category and self.height_in is None:
            raise KeyPathError(
                "height_in",
                f"a {self.kind} area needs its height",
                "add height_in = 5.0 (its tallest section, in inches)",
            )
        if not category:
            given = [("height_in", self.height_in is not None), ("walls", bool(self.walls))]
            given += [("wall_thickness_in", self.wall_thickness_in != WALL_THICKNESS_IN)]
            given += [("enclosed", self.enclosed)]
            for name, present in given:
                if present:
                    raise KeyPathError(
                        name,
                        f"a {self.kind} does not use {name} (only dense, light and exposed "
                        "areas do)",
                        f"remove {name}",
                    )
        if self.enclosed and self.kind != TerrainKind.DENSE:
            raise KeyPathError(
                "enclosed", f"only a dense area may be enclosed, not a {self.kind}", "remove it"
            )
        for i, wall in enumerate(self.walls):
            if len(wall) < 2:
                raise KeyPathError(
                    f"walls[{i}]",
                    "a wall needs at least 2 points",
                    "give the line along its middle, e.g. [[20.0, 10.0], [24.0, 10.0]]",
                )
        return self

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
            raise KeyPathError(
                "path",
                f"a {self.kind} is an area: its path needs at least 3 corners",
                "give the corners in order around its outline, "
                "e.g. path = [[2.0, 2.0], [6.0, 2.0], [6.0, 6.0], [2.0, 6.0]]",
            )
        if not linear and (problem := outline_problem(self.path)):
            raise KeyPathError(
                "path", f"the outline of {self.kind} {self.id!r} {problem[0]}", problem[1]
            )
        if self.kind == TerrainKind.FLOOR and self.height is None:
            raise KeyPathError(
                "height", "a floor needs the height of its surface", "add height = 3.0"
            )
        return self

    @property
    def is_closed(self) -> bool:
        return len(self.path) > 2 and self.path[0] == self.path[-1]


class GameModel(_Frozen):
    """One model (miniature) at its start position. Its own base, if given, replaces its
    unit's."""

    id: str = key(
        "The model's name, unique in the scenario (results name models by it).",
        example="A1",
        min_length=1,
    )
    x: Coordinate = key(
        "The distance of the model's centre from the board's left edge.", example=12.0, unit="in"
    )
    y: Coordinate = key(
        "The distance of the model's centre from the board's top edge.", example=20.0, unit="in"
    )
    z: Height = key(
        "The height the model stands at: 0 on the ground, else the height of the floor under it.",
        example=3.0,
        unit="in",
        default=0.0,
    )
    facing: Angle = key(
        "The direction the model faces, from +x toward +y (it turns oval and hull bases).",
        example=90.0,
        unit="deg",
        default=0.0,
    )
    base: BaseInput | None = key(
        'The model\'s own base, in place of its unit\'s: "40mm", "60x35mm" (an oval, long '
        "axis first) or a hull table.",
        example="40mm",
        default=None,
    )
    token: Flag = key(
        "Whether the model holds a wtc-walls token (it stands against a ruin wall, engaging "
        "across it).",
        example=True,
        default=False,
    )
    token_wall: str | None = key(
        "The id of the ruin wall the model's wtc-walls token is on.",
        example="ruin-1-north",
        default=None,
        min_length=1,
    )


class ObjectiveMarker(_Frozen):
    """An objective marker on the board (10th-edition consolidation may move toward one)."""

    id: str = key("The marker's name, unique among the objectives.", example="obj-1", min_length=1)
    x: Coordinate = key(
        "The distance of the marker's centre from the board's left edge.", example=30.0, unit="in"
    )
    y: Coordinate = key(
        "The distance of the marker's centre from the board's top edge.", example=22.0, unit="in"
    )
    z: Height = key(
        "The height the marker lies at: 0 on the ground.", example=0.0, unit="in", default=0.0
    )
    diameter_mm: Finite = key(
        "The marker's diameter.", example=40.0, unit="mm", default=40.0, gt=0, le=200
    )


class Unit(_Frozen):
    """A unit: an owner, keywords (compared upper-case) and its models."""

    datasheet: str | None = key(
        "The unit's datasheet in the 40kdc data set (pip install 'chargeopt[data]'): it fills "
        "the base and keywords the unit does not give. Powered by 40kdc-data.",
        example="Intercessor Squad",
        default=None,
        min_length=1,
    )

    id: str = key(
        "The unit's name, unique among the units (the action names units by it).",
        example="A",
        min_length=1,
    )
    owner: Owner = key(
        "The side the unit is on: a charge targets units of the other side.", example="attacker"
    )
    keywords: tuple[Keyword, ...] = key(
        "The unit's keywords, upper or lower case; those some rule reads are listed, any others "
        "are kept.",
        example=["INFANTRY"],
        default=(),
    )
    base: BaseInput | None = key(
        'The base of each of its models that does not give its own: "32mm", "60x35mm" (an '
        "oval, long axis first) or a hull table.",
        example="32mm",
        default=None,
    )
    models: tuple[GameModel, ...] = key(
        "The unit's models, each with its start position.",
        example=[{"id": "A1", "x": 12.0, "y": 20.0}],
        min_length=1,
    )
    charged_units: tuple[str, ...] = key(
        "The ids of the units this unit charged this turn (its wtc-walls tokens hold against "
        "them).",
        example=["B"],
        default=(),
    )
    locked_with: tuple[str, ...] = key(
        "The ids of the enemy units this unit is locked in close combat with (40k-assault-4e: "
        "its reinforcement move contacts them; empty: every enemy unit one of its models "
        "touches).",
        example=["B"],
        default=(),
    )
    assault_range_in: Finite | None = key(
        "The unit's assault range under 40k-assault-4e: 6 (empty), or 9 or 12 where its special "
        "rules say so.",
        example=6.0,
        unit="in",
        default=None,
    )

    @model_validator(mode="before")
    @classmethod
    def _from_datasheet(cls, data: object) -> object:
        if isinstance(data, dict) and isinstance(data.get("datasheet"), str) and data["datasheet"]:
            from .datasheets import datasheet_fill

            return datasheet_fill(data)
        return data

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

    kind: ActionKind = key("The move to make.", example="charge")
    unit: str = key("The id of the unit that moves.", example="A", min_length=1)
    targets: tuple[str, ...] = key(
        "The ids of the enemy units the charge is declared against (a charge needs one).",
        example=["B"],
        default=(),
    )
    roll: Whole | None = key(
        "The dice total rolled for the move (a charge's roll; a fall back's 2D6, or 3D6 if "
        "fast). Without it, a solve finds the smallest roll that succeeds.",
        example=7,
        unit="in",
        default=None,
        ge=0,
        le=36,
    )
    charged: Flag = key(
        "Whether the unit made a charge move this turn (a unit that charged may pile in).",
        example=True,
        default=False,
    )
    overrun: Flag = key(
        "40k-11e: whether the unit was selected for an overrun fight (it may then pile in "
        "though unengaged).",
        example=False,
        default=False,
    )
    take_to_the_skies: Flag = key(
        '40k-11e: whether a FLY unit takes to the skies for its charge (2" less to move; its '
        "models move through models and terrain, no vertical distance counted).",
        example=False,
        default=False,
    )
    heroic_mode: HeroicMode | None = key(
        "40k-11e heroic intervention: the stratagem's mode (leap-to-defend or into-the-fray).",
        example="into-the-fray",
        default=None,
    )
    charged_units: tuple[str, ...] = key(
        "40k-11e heroic intervention: the enemy units that made a charge move this phase "
        "(Leap to Defend may only target them).",
        example=["B"],
        default=(),
    )
    table_edge: TableEdge | None = key(
        "The unit's own table edge, which a fall back moves toward (a fall back needs it).",
        example="bottom",
        default=None,
    )
    fast: Flag = key(
        "Whether the unit falls back 3D6 instead of 2D6 (bikes, jump packs).",
        example=False,
        default=False,
    )
    fought_by: tuple[str, ...] = key(
        "The ids of the enemy units that fought the unit this turn (a fall back may come "
        'within 1" of them).',
        example=["B"],
        default=(),
    )
    difficult_roll: Whole | None = key(
        "40k-assault-4e: the highest of the 2D6 rolled for models moving into, out of or "
        "through difficult terrain, the farthest such a model may move (empty: they may not).",
        example=4,
        unit="in",
        default=None,
        ge=1,
        le=6,
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
        return whole_roll(roll)


class Scenario(_Frozen):
    """A whole scenario, validated: ids unique, references resolved, ruleset supported."""

    format: Literal[1] = key(
        "The version of the scenario format (only 1 exists).", example=1, default=1
    )
    name: str = key(
        "A title for people, shown in summaries and results.",
        example="Ten marines charge through a ruin",
        default="",
    )
    ruleset: tuple[str, ...] = key(
        "The rules to play by: an edition, or a list of an edition and the modifiers on top of it.",
        example="40k-10e",
        min_length=1,
    )
    board: LayoutBoard = key(
        "The battlefield's size; the origin is its top-left corner, x to the right, y down.",
        example={"width": 60.0, "height": 44.0},
    )
    terrain: tuple[Terrain, ...] = key(
        "The terrain pieces on the table: ruin walls and floors, impassable and difficult areas, "
        "barricades; under 40k-11e also dense, light and exposed areas.",
        example=[
            {
                "id": "ruin-1-north",
                "kind": "wall",
                "path": [[20.0, 10.0], [30.0, 10.0]],
                "thickness": 0.25,
                "height": 5.0,
            }
        ],
        default=(),
    )
    units: tuple[Unit, ...] = key(
        "The units on the table: the one that moves and the others around it.",
        example=[
            {
                "id": "A",
                "owner": "attacker",
                "keywords": ["INFANTRY"],
                "base": "32mm",
                "models": [{"id": "A1", "x": 12.0, "y": 20.0}],
            }
        ],
        min_length=1,
    )
    objectives: tuple[ObjectiveMarker, ...] = key(
        "The objective markers on the table (a 10th-edition consolidation may move toward one).",
        example=[{"id": "obj-1", "x": 30.0, "y": 22.0}],
        default=(),
    )
    action: Action = key(
        "The move to make: its kind, the unit that moves and, for a charge, its targets and roll.",
        example={"kind": "charge", "unit": "A", "targets": ["B"], "roll": 7},
    )

    _format_version = field_validator("format", mode="before")(format_version)

    @model_validator(mode="before")
    @classmethod
    def _from_layout(cls, data: object) -> object:
        board = data.get("board") if isinstance(data, dict) else None
        if isinstance(board, dict) and isinstance(board.get("layout"), str) and board["layout"]:
            from .layouts import layout_fill

            return layout_fill(data)  # type: ignore[arg-type]
        return data

    @field_validator("ruleset", mode="before", json_schema_input_type=RulesetId | RulesetList)
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
        for ui, unit in enumerate(self.units):
            for li, locked in enumerate(unit.locked_with):
                if locked not in units or units[locked].owner == unit.owner:
                    raise KeyPathError(
                        f"units[{ui}].locked_with[{li}]",
                        f"no enemy unit {locked!r}",
                        "name an enemy unit it is locked with",
                    )
            _assault_range_ok(ui, unit, self.rules)
        actor = units[self.action.unit]
        _terrain_fits_edition(self.terrain, self.rules)
        after_roll = self.rules.charge_targets_after_roll
        if self.action.kind == ActionKind.CHARGE and not self.action.targets and not after_roll:
            raise KeyPathError(
                "action.targets",
                "a charge needs at least one target unit",
                'name the enemy unit it charges, e.g. targets = ["B"]',
            )
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
        _check_fall_back(self.action, units, actor)
        _keys_the_move_uses(self.action, self.rules)
        _take_to_the_skies_ok(self.action, actor, self.rules)
        _assault_keys_only_under_4e(self.units, self.action, self.rules)
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


def _terrain_fits_edition(terrain: tuple[Terrain, ...], rules: RuleSet) -> None:
    """Dense, light and exposed areas are the 11th edition's terrain: refused elsewhere (10th
    and 9th read walls, floors, barricades), rather than ignored."""
    if rules.terrain_categories:
        return
    for i, piece in enumerate(terrain):
        if piece.kind in CATEGORY_KINDS:
            raise KeyPathError(
                f"terrain[{i}].kind",
                f"{rules.edition} has no {piece.kind} terrain (terrain categories are 40k-11e's)",
                'write ruleset = "40k-11e", or draw the piece as walls, floors, barricades or '
                "impassable areas",
            )


def _check_fall_back(action: Action, units: dict[str, Unit], actor: Unit) -> None:
    """A fall back names its table edge; the units that fought it are enemy units."""
    ids = ", ".join(units)
    if action.kind == ActionKind.FALL_BACK and action.table_edge is None:
        raise KeyPathError(
            "action.table_edge",
            "a fall back needs the unit's own table edge",
            'add table_edge = "bottom" (top, bottom, left or right)',
        )
    for i, fought in enumerate(action.fought_by):
        if fought not in units:
            raise KeyPathError(
                f"action.fought_by[{i}]", f"no unit {fought!r}", f"choose one of {ids}"
            )
        if units[fought].owner == actor.owner:
            raise KeyPathError(
                f"action.fought_by[{i}]",
                f"unit {fought!r} is not an enemy of {actor.id!r} (both {actor.owner})",
                "name enemy units that fought it",
            )


def _keys_the_move_uses(action: Action, rules: RuleSet) -> None:
    """Refuse a key the move does not read, rather than ignore it: a roll on a 4e charge (its
    range is fixed), targets on a fall back, the fall-back keys on any other move."""
    fall_back = action.kind == ActionKind.FALL_BACK
    if fall_back and action.targets:
        raise KeyPathError(
            "action.targets",
            "a fall back has no targets: it moves away from every enemy unit",
            "remove targets (fought_by names the enemy units that fought it)",
        )
    if action.kind == ActionKind.CHARGE and action.roll is not None and rules.assault_range_in:
        raise KeyPathError(
            "action.roll",
            f"a {rules.edition} charge rolls no dice: each model moves its unit's assault range "
            f"({rules.assault_range_in:g}\", or the unit's assault_range_in)",
            "remove roll",
        )
    if action.charged and (action.kind != ActionKind.PILE_IN or rules.assault_range_in):
        reads = "only a 9th/10th-edition pile in" if rules.assault_range_in else "only a pile in"
        raise KeyPathError(
            "action.charged",
            f"a {rules.edition} {action.kind} does not read charged ({reads} does: a unit that "
            "charged this turn may pile in)",
            "remove charged",
        )
    if fall_back and action.roll is not None:
        dice = 3 if action.fast else 2
        if not dice <= action.roll <= 6 * dice:
            raise KeyPathError(
                "action.roll",
                f"a fall back rolls {dice}D6{' (fast)' if action.fast else ''}, so its roll is "
                f"{dice} to {6 * dice}, not {action.roll}",
                "give the dice total"
                + (", or fast = true if it falls back 3D6" if action.roll > 12 >= 6 * dice else ""),
            )
    if not fall_back:
        given = [("table_edge", action.table_edge is not None), ("fast", action.fast)]
        given.append(("fought_by", bool(action.fought_by)))
        for name, present in given:
            if present:
                raise KeyPathError(
                    f"action.{name}",
                    f"a {action.kind} does not use {name} (only a fall back does)",
                    f"remove {name}",
                )


def _take_to_the_skies_ok(action: Action, actor: Unit, rules: RuleSet) -> None:
    """Taking to the skies (11th edition, 21.03): a FLY unit's charge (a heroic intervention
    resolves one); refused elsewhere rather than ignored."""
    if not action.take_to_the_skies:
        return
    where = "action.take_to_the_skies"
    if not rules.terrain_categories:
        raise KeyPathError(
            where,
            f"{rules.edition} has no taking to the skies (only 40k-11e reads it)",
            "remove it",
        )
    if action.kind not in (ActionKind.CHARGE, ActionKind.HEROIC_INTERVENTION):
        raise KeyPathError(
            where,
            f"a {action.kind} cannot take to the skies (a charge or a heroic intervention can)",
            "remove it",
        )
    if FLY_KEYWORD not in actor.keyword_set:
        raise KeyPathError(
            where,
            f"unit {actor.id!r} cannot FLY (it has no FLY keyword)",
            'add "FLY" to its keywords, or remove take_to_the_skies',
        )


def _assault_keys_only_under_4e(units: tuple[Unit, ...], action: Action, rules: RuleSet) -> None:
    """`locked_with` and `difficult_roll` are read by 40k-assault-4e only: refused elsewhere
    rather than ignored."""
    if rules.assault_ranges_in:
        return
    for ui, unit in enumerate(units):
        if unit.locked_with:
            raise KeyPathError(
                f"units[{ui}].locked_with",
                f"{rules.edition} does not read locked_with (only 40k-assault-4e does)",
                "remove it",
            )
    if action.difficult_roll is not None:
        raise KeyPathError(
            "action.difficult_roll",
            f"{rules.edition} does not read difficult_roll (only 40k-assault-4e does)",
            "remove it",
        )


def _assault_range_ok(ui: int, unit: Unit, rules: RuleSet) -> None:
    """An assault range is one of the ruleset's (6, 9 or 12 under 40k-assault-4e), and only
    under a ruleset that has one."""
    if unit.assault_range_in is None:
        return
    where = f"units[{ui}].assault_range_in"
    if not rules.assault_ranges_in:
        raise KeyPathError(where, f"{rules.edition} has no assault range", "remove it")
    if unit.assault_range_in not in rules.assault_ranges_in:
        choices = ", ".join(f"{r:g}" for r in rules.assault_ranges_in)
        raise KeyPathError(
            where, f"an assault range is {choices}, not {unit.assault_range_in:g}", "choose one"
        )


def assault_range_of(unit: Unit, rules: RuleSet) -> float:
    """How far each model of the unit may move in a charge under 40k-assault-4e."""
    if unit.assault_range_in is not None:
        return unit.assault_range_in
    return rules.assault_range_in or 0.0


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
