"""Model bases as players write them: round "32mm", oval "60x35mm", or a hull polygon in inches."""

from __future__ import annotations

import math
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from .errors import KeyPathError
from .keys import Finite, HullPoint, key

MM_PER_INCH = 25.4


def mm_to_in(mm: float) -> float:
    """The one place where millimetres become inches."""
    return mm / MM_PER_INCH


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RoundBase(_Frozen):
    """A round base, such as 32mm."""

    kind: Literal["round"] = key("The base's shape: round.", example="round", default="round")
    diameter_mm: Finite = key("The base's diameter.", example=32.0, unit="mm", gt=0, le=500)

    @property
    def radius_in(self) -> float:
        return mm_to_in(self.diameter_mm) / 2

    @property
    def circumradius_in(self) -> float:
        return self.radius_in

    @property
    def inradius_in(self) -> float:
        return self.radius_in

    def label(self) -> str:
        return f"{self.diameter_mm:g}mm"


class OvalBase(_Frozen):
    """An oval base, long axis first; the long axis points along the model's facing."""

    kind: Literal["oval"] = key("The base's shape: oval.", example="oval", default="oval")
    length_mm: Finite = key(
        "The oval's long axis, along the model's facing.", example=60.0, unit="mm", gt=0, le=500
    )
    width_mm: Finite = key("The oval's short axis.", example=35.0, unit="mm", gt=0, le=500)

    @model_validator(mode="after")
    def _long_axis_first(self) -> OvalBase:
        if self.width_mm > self.length_mm:
            raise ValueError(
                f"an oval is written long axis first: {self.length_mm:g}x{self.width_mm:g}mm "
                f"should be {self.width_mm:g}x{self.length_mm:g}mm"
            )
        return self

    @property
    def semi_axes_in(self) -> tuple[float, float]:
        return mm_to_in(self.length_mm) / 2, mm_to_in(self.width_mm) / 2

    @property
    def circumradius_in(self) -> float:
        return self.semi_axes_in[0]

    @property
    def inradius_in(self) -> float:
        return self.semi_axes_in[1]

    def label(self) -> str:
        return f"{self.length_mm:g}x{self.width_mm:g}mm"


class HullBase(_Frozen):
    """A hull footprint for a model without a base: polygon vertices in inches around the
    model's position, drawn for facing 0 (rotated with the model's facing)."""

    kind: Literal["hull"] = key(
        "The footprint's shape: a hull polygon.", example="hull", default="hull"
    )
    points: tuple[HullPoint, ...] = key(
        "The hull's corners, [x, y] in inches from the model's centre, drawn for facing 0.",
        example=[[-2.0, -1.25], [2.0, -1.25], [2.0, 1.25], [-2.0, 1.25]],
        unit="in",
        min_length=3,
    )

    @model_validator(mode="after")
    def _simple_polygon(self) -> HullBase:
        area2 = sum(
            x0 * y1 - x1 * y0
            for (x0, y0), (x1, y1) in zip(
                self.points, self.points[1:] + self.points[:1], strict=True
            )
        )
        if abs(area2) < 1e-9:
            raise KeyPathError(
                "points",
                "a hull polygon needs a non-zero area",
                "give the corners of the footprint in order around it",
            )
        return self

    @property
    def circumradius_in(self) -> float:
        return max(math.hypot(x, y) for x, y in self.points)

    @property
    def inradius_in(self) -> float:
        """Half the hull's smallest width (over its edge directions, i.e. of its convex hull)."""
        pts = self.points
        best = math.inf
        for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1], strict=True):
            ex, ey = x1 - x0, y1 - y0
            norm = math.hypot(ex, ey)
            if norm == 0:
                continue
            nx, ny = -ey / norm, ex / norm
            proj = [nx * x + ny * y for x, y in pts]
            best = min(best, max(proj) - min(proj))
        return best / 2

    def label(self) -> str:
        return "hull"


Base = Annotated[RoundBase | OvalBase | HullBase, Field(discriminator="kind")]

_NUMBER = r"(\d+(?:\.\d+)?)"
_ROUND = re.compile(rf"^\s*{_NUMBER}\s*mm\s*$", re.IGNORECASE)
_OVAL = re.compile(rf"^\s*{_NUMBER}\s*(?:mm)?\s*[x×]\s*{_NUMBER}\s*mm\s*$", re.IGNORECASE)

BASE_HELP = (
    'write a round base as "32mm", an oval as "60x35mm" (long axis first), '
    'or a hull as a table {kind = "hull", points = [[x, y], ...]} in inches'
)


def parse_base_string(text: str) -> dict[str, Any]:
    """Turn a base string into the table form; raise ValueError with a fix if it does not parse."""
    if m := _ROUND.match(text):
        return {"kind": "round", "diameter_mm": float(m.group(1))}
    if m := _OVAL.match(text):
        return {"kind": "oval", "length_mm": float(m.group(1)), "width_mm": float(m.group(2))}
    raise ValueError(f"cannot read base {text!r}: {BASE_HELP}")


def _coerce_base(value: Any) -> Any:
    return parse_base_string(value) if isinstance(value, str) else value


BaseInput = Annotated[
    Base,
    BeforeValidator(_coerce_base, json_schema_input_type=str | RoundBase | OvalBase | HullBase),
]


def parse_base(value: str | dict[str, Any]) -> RoundBase | OvalBase | HullBase:
    """Parse a base from its string or table form (the Python-side equivalent of the file keys)."""
    from pydantic import TypeAdapter

    return TypeAdapter(BaseInput).validate_python(value)
