"""A rank-and-file scenario (`t9a-2022`, `whfb-6e`, `tow`): blocks, impassable terrain and a
charge.

Its own document type beside the skirmish `Scenario`: the loader picks it by the ruleset, so
the 40k keys and messages stay as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from .blocks import Block
from .errors import KeyPathError
from .keys import Flag, Whole, format_version, key, whole_roll
from .rulesets import RANK_AND_FILE_EDITIONS
from .scenario import ActionKind, Board, Terrain, TerrainKind

WHEEL_METRICS = {"wheel-arc": "arc", "wheel-chord": "chord"}
"""Modifiers choosing how far a wheel counts: the outer corner's arc (default) or chord."""


@dataclass(frozen=True)
class RankAndFileRules:
    """The numbers and switches of a rank-and-file ruleset."""

    ids: tuple[str, ...]
    edition: str
    wheel_metric: str = "arc"
    charge_range_bonus_in: int = 4
    """Charge Range = D6 + this + Charge Speed."""
    base_contact_tolerance_in: float = 0.005
    """Boundaries this close count as touching (and no deeper overlap is allowed)."""
    wtc_walls: bool = False
    """Never: lets the solver table's `rule_family` treat both scenario kinds alike."""
    charge_move: str = "t9a-roll"
    """How far the charge may go: "t9a-roll" (the rolled Charge Range, unlimited snaking),
    "double-move" (2 x Move), "move-plus-high-d6" (Move + the higher of 2D6)."""
    arc_rule: str = "front-centre"
    """Which arc a charger is in: the one holding its front's centre, "most-of-unit" (the arc
    holding most of its area) or "front-rank-majority" (most of its front rank's models)."""
    wheels: int | None = None
    """Wheels allowed in the charge (None: any, as the snaking move)."""
    failed_move: bool = False
    """A failed charge moves the normal Move towards the target."""
    redirect: bool = False
    """A failed charge may be redirected once to another enemy unit in reach."""
    fight_over_gaps: bool = True
    """Models count in contact across the empty slots of an incomplete rank (T9A)."""
    declaration: bool = True
    """The target must be in the charger's Front Arc and line of sight (T9A)."""
    failed_charge: str = "t9a-snaking"
    """The failed charge move: "t9a-snaking" (wheel then forward, 4"), "normal-move" (6e: the
    Move along the charge path), "high-die" (tow: the higher D6 along the charge path)."""


RANK_AND_FILE_RULES: dict[str, dict[str, object]] = {
    "t9a-2022": {},
    "whfb-6e": {
        "charge_move": "double-move",
        "arc_rule": "most-of-unit",
        "wheels": 1,
        "failed_move": True,
        "redirect": True,
        "fight_over_gaps": False,
        "declaration": False,
        "failed_charge": "normal-move",
    },
    "tow": {
        "charge_move": "move-plus-high-d6",
        "arc_rule": "front-rank-majority",
        "wheels": 1,
        "failed_move": True,
        "redirect": True,
        "fight_over_gaps": False,
        "declaration": False,
        "failed_charge": "high-die",
    },
}
"""Each rank-and-file edition as the values it changes from The Ninth Age's (RULES.md)."""


def is_rank_and_file(ruleset: object) -> bool:
    """Whether a document's `ruleset` value names a rank-and-file edition."""
    ids = (ruleset,) if isinstance(ruleset, str) else ruleset
    return isinstance(ids, list | tuple) and any(i in RANK_AND_FILE_EDITIONS for i in ids)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class BlockAction(_Frozen):
    """A charge by one block, or a combined charge by several, against one enemy block."""

    kind: Literal[ActionKind.CHARGE] = key(
        "The move: a charge (the only rank-and-file move so far).",
        example="charge",
        default=ActionKind.CHARGE,
    )
    unit: str | None = key("The id of the charging block.", example="A", default=None)
    units: tuple[str, ...] = key(
        "The ids of the blocks of a combined charge (instead of unit), each named once.",
        example=["A", "C"],
        default=(),
    )
    targets: tuple[str, ...] = key("The id of the one enemy block charged.", example=["B"])
    roll: Whole | None = key(
        "The Charge Range rolled (t9a-2022: D6 + 4 + Charge Speed; tow: Movement + the higher "
        "of 2D6; whfb-6e has none, its charge move is twice the Move). Without it, the "
        "smallest range that succeeds and its chance are found.",
        example=9,
        unit="in",
        default=None,
    )
    fled: Flag = key(
        "The target fled out of reach (whfb-6e, tow): the charge fails and may be redirected "
        "once to another enemy unit in reach.",
        example=False,
        default=False,
    )
    rolls: dict[str, Whole] = key(
        "A combined charge's Charge Range per charging block.",
        example={"A": 9, "C": 8},
        unit="in",
        default_factory=dict,
    )

    @model_validator(mode="after")
    def _shape(self) -> BlockAction:
        if (self.unit is None) == (not self.units):
            raise KeyPathError(
                "unit",
                "name the charging unit (unit) or, for a combined charge, the units",
                'write unit = "A" or units = ["A", "C"]',
            )
        if len(self.targets) != 1:
            raise KeyPathError(
                "targets", "a rank-and-file charge has exactly one target", 'targets = ["B"]'
            )
        if self.unit is not None and self.rolls:
            raise KeyPathError(
                "rolls",
                "rolls gives each block of a combined charge its Charge Range; "
                f"this is a single charge by {self.unit!r}",
                f"write roll = {next(iter(self.rolls.values()))} instead",
            )
        return self

    @field_validator("roll", mode="before")
    @classmethod
    def _whole_roll(cls, roll: object) -> object:
        return whole_roll(roll)

    @field_validator("rolls", mode="before")
    @classmethod
    def _whole_rolls(cls, rolls: object) -> object:
        return {k: whole_roll(v) for k, v in rolls.items()} if isinstance(rolls, dict) else rolls

    @property
    def chargers(self) -> tuple[str, ...]:
        return (self.unit,) if self.unit is not None else self.units

    @property
    def target(self) -> str:
        return self.targets[0]

    def roll_of(self, unit: str) -> int | None:
        """The Charge Range given for `unit` (rolls.<unit>, else roll)."""
        return self.rolls.get(unit, self.roll)


class RankAndFileScenario(_Frozen):
    """A rank-and-file table: board, impassable terrain, blocks and one (combined) charge."""

    format: Literal[1] = key("The version of the format (only 1 exists).", example=1, default=1)
    name: str = key("A title for people.", example="A charges B", default="")
    ruleset: tuple[str, ...] = key(
        'The rules: "t9a-2022", "whfb-6e" or "tow", optionally with "wheel-chord" (a wheel '
        'counts the outer corner\'s straight line, not its arc) or "wheel-arc" (the default).',
        example="t9a-2022",
        min_length=1,
    )
    board: Board = key(
        "The battlefield's size; the origin is its top-left corner, x to the right, y down.",
        example={"width": 72.0, "height": 48.0},
    )
    terrain: tuple[Terrain, ...] = key(
        "Impassable terrain pieces (polygon rings); no other kind is read yet.",
        example=[{"id": "rock", "kind": "impassable", "path": [[2, 2], [6, 2], [6, 6], [2, 6]]}],
        default=(),
    )
    units: tuple[Block, ...] = key(
        "The blocks on the table.",
        example=[
            {
                "id": "A",
                "owner": "attacker",
                "files": 5,
                "ranks": 4,
                "base": "25x25mm",
                "x": 10.0,
                "y": 30.0,
                "facing": -90.0,
            }
        ],
        min_length=1,
    )
    action: BlockAction = key(
        "The charge: one charging block (unit) or several (units), one target.",
        example={"kind": "charge", "unit": "A", "targets": ["B"], "roll": 9},
    )

    _format_version = field_validator("format", mode="before")(format_version)

    @field_validator("ruleset", mode="before", json_schema_input_type=str | list[str])
    @classmethod
    def _one_or_many(cls, value: object) -> object:
        return (value,) if isinstance(value, str) else value

    @model_validator(mode="after")
    def _references(self) -> RankAndFileScenario:
        self.rules  # noqa: B018 - refuses an unknown modifier
        for i, piece in enumerate(self.terrain):
            if piece.kind != TerrainKind.IMPASSABLE:
                raise KeyPathError(
                    f"terrain[{i}].kind",
                    f"{self.ruleset[0]} reads impassable terrain only, got {piece.kind}",
                    'write kind = "impassable" or remove the piece',
                )
        ids = [u.id for u in self.units]
        for i, uid in enumerate(ids):
            if uid in ids[:i]:
                raise KeyPathError(f"units[{i}].id", f"unit id {uid!r} repeats", "rename it")
        units = {u.id: u for u in self.units}
        for i, uid in enumerate(self.action.units):
            if uid in self.action.units[:i]:
                raise KeyPathError(
                    f"action.units[{i}]",
                    f"unit {uid!r} is named twice: a block charges once",
                    "name each charging unit once",
                )
        choices = f"choose one of {', '.join(ids)}"
        for i, uid in enumerate(self.action.chargers):
            if uid not in units:
                where = "action.unit" if self.action.unit else f"action.units[{i}]"
                raise KeyPathError(where, f"no unit {uid!r}", choices)
        if self.action.target not in units:
            raise KeyPathError("action.targets[0]", f"no unit {self.action.target!r}", choices)
        target = units[self.action.target]
        for uid in self.action.chargers:
            if units[uid].owner == target.owner:
                raise KeyPathError(
                    "action.targets[0]",
                    f"unit {target.id!r} is not an enemy of {uid!r}",
                    "target a unit of the other side",
                )
        for uid in self.action.rolls:
            if uid not in self.action.chargers:
                raise KeyPathError(
                    f"action.rolls.{uid}", f"{uid!r} does not charge", "give rolls of chargers"
                )
        if self.rules.charge_move != "t9a-roll":
            self._one_wheel_charge(units)
            return self
        for name, value in [("roll", self.action.roll), *self.action.rolls.items()]:
            if value is not None and not 0 <= value <= 36:
                raise KeyPathError(
                    "action.roll" if name == "roll" else f"action.rolls.{name}",
                    f"a Charge Range is 0 to 36 inches, got {value}",
                    "give the dice total plus 4 plus the Charge Speed, e.g. roll = 9",
                )
        if self.action.fled:
            raise KeyPathError(
                "action.fled", "t9a-2022 has no fled target here", "remove fled or use whfb-6e"
            )
        return self

    def _one_wheel_charge(self, units: dict[str, Block]) -> None:
        """whfb-6e and tow: one charger, its Move given, a roll only where the dice roll."""
        edition = self.rules.edition
        if len(self.action.chargers) > 1:
            raise KeyPathError(
                "action.units", f"{edition} charges are solved one unit at a time", 'unit = "A"'
            )
        uid = self.action.chargers[0]
        index = next(i for i, u in enumerate(self.units) if u.id == uid)
        movement = units[uid].profile.movement
        if movement is None:
            raise KeyPathError(
                f"units[{index}].profile.movement",
                f"{edition} needs the charging unit's Move",
                "add profile = { movement = 4 }",
            )
        roll = self.action.roll
        if self.rules.charge_move == "double-move" and roll is not None:
            raise KeyPathError(
                "action.roll",
                "whfb-6e rolls no dice: the charge move is twice the Move",
                "remove roll",
            )
        high = self.rules.charge_move == "move-plus-high-d6"
        if high and roll is not None and not movement + 1 <= roll <= movement + 6:
            raise KeyPathError(
                "action.roll",
                f"a tow Charge Range is Movement {movement:g} + the higher of 2D6, so "
                f"{movement + 1:g} to {movement + 6:g}; got {roll}",
                f"give the Movement plus the higher die, e.g. roll = {movement + 4:g}",
            )

    @cached_property
    def rules(self) -> RankAndFileRules:
        editions = [i for i in self.ruleset if i in RANK_AND_FILE_EDITIONS]
        others = [i for i in self.ruleset if i not in RANK_AND_FILE_EDITIONS]
        unknown = [i for i in others if i not in WHEEL_METRICS]
        if len(editions) != 1 or unknown:
            raise KeyPathError(
                "ruleset",
                f"unsupported ruleset {(unknown or self.ruleset)[0]!r} for rank-and-file blocks",
                'write ruleset = "t9a-2022", "whfb-6e" or "tow" (optionally with "wheel-chord")',
            )
        metric = next((WHEEL_METRICS[i] for i in others), "arc")
        return RankAndFileRules(
            ids=self.ruleset,
            edition=editions[0],
            wheel_metric=metric,
            **RANK_AND_FILE_RULES[editions[0]],  # type: ignore[arg-type]
        )

    def retargeted(self, uid: str) -> RankAndFileScenario:
        """The same table with the charge redirected against unit `uid` (its target not fled)."""
        action = self.action.model_copy(update={"targets": (uid,), "fled": False})
        return self.model_copy(update={"action": action})

    @cached_property
    def unit_by_id(self) -> dict[str, Block]:
        return {u.id: u for u in self.units}

    @property
    def acting_unit(self) -> Block:
        return self.unit_by_id[self.action.chargers[0]]

    @property
    def target(self) -> Block:
        return self.unit_by_id[self.action.target]
