"""How a document's keys are declared: what each one is, its unit, an example and its range.

One declaration feeds the JSON Schema (`chargeopt schema`), the key reference in
models/README.md and the error messages, so the three cannot drift apart.
"""

from __future__ import annotations

import numbers
from typing import Annotated, Any

from pydantic import AfterValidator, Field, StrictBool
from pydantic_core import PydanticCustomError

from .errors import OffTheTableError

MAX_COORDINATE_IN = 1000.0
"""No board is larger than this (a board's width and height are capped at it too)."""
MAX_HEIGHT_IN = 100.0
MAX_HULL_OFFSET_IN = 100.0

UNIT_WORDS = {"in": "inches", "mm": "millimetres", "deg": "degrees"}
"""The units a key may be measured in, as the reference and the messages say them."""


def key(description: str, *, example: Any, unit: str | None = None, **field: Any) -> Any:
    """A documented key: `description` (its first sentence names the key in the game's words,
    for messages), one example value, its unit ("in", "mm" or "deg") and pydantic's Field
    arguments (default, bounds)."""
    if unit:
        field["json_schema_extra"] = {"unit": unit}
    return Field(description=description, examples=[example], **field)


def _on_some_table(value: float) -> float:
    """Refuse a coordinate no board could hold (the message adds this board's size)."""
    if abs(value) > MAX_COORDINATE_IN:
        raise OffTheTableError(value)
    return value


Finite = Annotated[float, Field(allow_inf_nan=False, strict=True)]
"""A number, written as one: a text such as "7" or true is refused, never converted."""
Whole = Annotated[int, Field(strict=True)]
"""A whole number, written as one: a text ("7"), true/false or 7.5 is refused (a roll also
takes 7.0, see `whole_roll`)."""
Flag = StrictBool
"""true or false, written so: "yes", "true" or 1 are refused."""
MAX_ANGLE_DEG = 360.0
Angle = Annotated[
    float, Field(allow_inf_nan=False, strict=True, ge=-MAX_ANGLE_DEG, le=MAX_ANGLE_DEG)
]
"""Degrees, at most a full turn either way."""
Coordinate = Annotated[
    float,
    Field(
        allow_inf_nan=False,
        strict=True,
        json_schema_extra={"minimum": -MAX_COORDINATE_IN, "maximum": MAX_COORDINATE_IN},
    ),
    AfterValidator(_on_some_table),
]
"""Inches from the board's top-left corner: finite, and within reach of the largest board."""
Height = Annotated[float, Field(allow_inf_nan=False, strict=True, ge=0, le=MAX_HEIGHT_IN)]
"""Inches above the ground: 0 stands on the ground."""
Point = Annotated[
    tuple[Coordinate, Coordinate],
    Field(description="A corner or bend of the piece: [x, y] in inches."),
]
HullOffset = Annotated[
    float, Field(allow_inf_nan=False, strict=True, ge=-MAX_HULL_OFFSET_IN, le=MAX_HULL_OFFSET_IN)
]
HullPoint = Annotated[
    tuple[HullOffset, HullOffset],
    Field(description="A corner of the hull: [x, y] in inches from the model's centre."),
]


def whole_roll(roll: object) -> object:
    """A dice total written 7.0 (or given as a numpy integer) as 7; any other value goes on to
    be judged as it is."""
    if isinstance(roll, float) and roll.is_integer() and abs(roll) < 1e6:
        return int(roll)
    if isinstance(roll, numbers.Integral) and not isinstance(roll, bool | int):
        return int(roll)
    return roll


def format_version(value: object) -> object:
    """`format = true` is not format 1 (pydantic would read true as 1)."""
    if isinstance(value, bool):
        raise PydanticCustomError("literal_error", "Input should be 1", {"expected": "1"})
    return value
