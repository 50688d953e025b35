"""Rank-and-file blocks: a unit of equal rectangular bases in files and ranks (T9A, WHFB).

A block is placed by the front-left corner of its Unit Boundary and its facing: the front runs
from that corner toward the unit's right, the ranks go back behind it. Angles are degrees from
+x toward +y (y points down the table, so a unit facing 0 looks to the right of the board and
its right hand points down the board).
"""

from __future__ import annotations

import math
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, model_validator

from .bases import mm_to_in
from .errors import KeyPathError
from .keys import Angle, Coordinate, Finite, Flag, Whole, key
from .scenario import Owner

_RECT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*mm\s*$", re.IGNORECASE)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RectBase(_Frozen):
    """A rectangular base, width along the unit's front first (e.g. 25x50mm for cavalry)."""

    kind: Literal["rect"] = key("The base's shape: a rectangle.", example="rect", default="rect")
    width_mm: Finite = key(
        "The base's width, along the unit's front.", example=25.0, unit="mm", gt=0, le=500
    )
    depth_mm: Finite = key(
        "The base's depth, front to back.", example=50.0, unit="mm", gt=0, le=500
    )

    @property
    def width_in(self) -> float:
        return mm_to_in(self.width_mm)

    @property
    def depth_in(self) -> float:
        return mm_to_in(self.depth_mm)

    def label(self) -> str:
        return f"{self.width_mm:g}x{self.depth_mm:g}mm"


def _parse_rect(value: Any) -> Any:
    """`"25x50mm"` (width along the front first) or a table with kind = "rect"."""
    if isinstance(value, str):
        match = _RECT.match(value)
        if not match:
            raise KeyPathError(
                "",
                f"{value!r} is not a rectangular base",
                'write width along the front x depth in mm, e.g. base = "25x25mm"',
            )
        return {"kind": "rect", "width_mm": float(match[1]), "depth_mm": float(match[2])}
    if isinstance(value, dict) and value.get("kind", "rect") != "rect":
        raise KeyPathError(
            "kind",
            f"a rank-and-file block stands on rectangular bases, not {value.get('kind')!r}",
            'write kind = "rect" with width_mm and depth_mm, or base = "25x25mm"',
        )
    return value


BlockBase = Annotated[RectBase, BeforeValidator(_parse_rect, json_schema_input_type=str | RectBase)]


class Profile(_Frozen):
    """The profile values the charge rules read (T9A's Charge Speed; WHFB's and TOW's Move)."""

    movement: Finite | None = key(
        "The unit's Move characteristic (whfb-6e: the charge move is twice it; tow: Movement + "
        "the higher of 2D6).",
        example=4.0,
        unit="in",
        default=None,
        ge=0,
        le=20,
    )
    charge_speed: Finite = key(
        "The unit's Charge Speed, added to D6+4 for its Charge Range.",
        example=1.0,
        unit="in",
        default=0.0,
        ge=0,
        le=30,
    )
    maximised_charge: Flag = key(
        "Whether its Charge Range roll is maximised (two dice, the highest counts).",
        example=True,
        default=False,
    )


class Block(_Frozen):
    """A rank-and-file unit: its files, ranks (or model count), base, corner and facing."""

    id: str = key("The unit's name, unique among the units.", example="A", min_length=1)
    owner: Owner = key(
        "The side the unit is on: a charge targets units of the other side.", example="attacker"
    )
    files: Whole = key("How many models wide its front rank is.", example=5, ge=1, le=100)
    ranks: Whole | None = key(
        "How many ranks deep it is (or give models).", example=4, default=None, ge=1, le=100
    )
    models: Whole | None = key(
        "How many models it has; the last rank may be incomplete (or give ranks).",
        example=23,
        default=None,
        ge=1,
        le=10000,
    )
    base: BlockBase = key(
        'Each model\'s rectangular base, width along the front first: "25x25mm" or a table '
        'with kind = "rect".',
        example="25x25mm",
    )
    x: Coordinate = key(
        "The distance of the front-left corner of its Unit Boundary from the board's left edge.",
        example=12.0,
        unit="in",
    )
    y: Coordinate = key(
        "The distance of the front-left corner of its Unit Boundary from the board's top edge.",
        example=20.0,
        unit="in",
    )
    facing: Angle = key(
        "The direction its front faces, from +x toward +y.", example=90.0, unit="deg", default=0.0
    )
    profile: Profile = key(
        "The profile values the charge reads (Charge Speed, a maximised roll).",
        example={"charge_speed": 0.0, "maximised_charge": False},
        default=Profile(),
    )

    @model_validator(mode="after")
    def _size(self) -> Block:
        if self.ranks is None and self.models is None:
            raise KeyPathError("ranks", "a block needs its ranks or its models", "add ranks = 4")
        both = self.ranks is not None and self.models is not None
        if both and not (self.ranks - 1) * self.files < self.models <= self.ranks * self.files:
            raise KeyPathError(
                "models",
                f"{self.models} models do not fill {self.ranks} ranks of {self.files}",
                "give models or ranks, not both",
            )
        return self

    @property
    def model_count(self) -> int:
        return self.models if self.models is not None else self.files * (self.ranks or 0)

    @property
    def rank_count(self) -> int:
        return self.ranks if self.ranks is not None else math.ceil(self.model_count / self.files)

    @property
    def width_in(self) -> float:
        """The front's length: files times the base width."""
        return self.files * self.base.width_in

    @property
    def depth_in(self) -> float:
        """The flank's length: ranks times the base depth."""
        return self.rank_count * self.base.depth_in

    def model_slots(self) -> list[tuple[str, int, int]]:
        """(model id, rank, file) from the front rank, left to right; an incomplete last rank
        stands from the left (ids are `<unit>-r<rank>f<file>`, both from 1)."""
        return [
            (f"{self.id}-r{r + 1}f{f + 1}", r, f)
            for r in range(self.rank_count)
            for f in range(self.files)
            if r * self.files + f < self.model_count
        ]
