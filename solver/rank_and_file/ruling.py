"""One charger's ruling: everything the result, the summary and the picture say about it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from chargeopt.geometry.rank_and_file.frame import BlockPose


@dataclass
class Ruling:
    """What happened to one charging block (or, with role "target", the target's rotation)."""

    unit: str
    role: str
    start: BlockPose
    end: BlockPose | None = None
    arc: str | None = None
    arc_margin_deg: float | None = None
    arc_margin_in: float | None = None
    target_facing: str | None = None
    blocked_path: bool = False
    distance_in: float | None = None
    range_needed: int | None = None
    charge_range: int | None = None
    path: list[dict[str, Any]] = field(default_factory=list)
    initial_contact: tuple[float, float] | None = None
    aligned: bool | None = None
    unaligned: bool = False
    """Placed by the Unaligned Charge rules (the target's turn may still align them)."""
    angle_deg: float | None = None
    target_rotation_deg: float | None = None
    slide_in: float | None = None
    target_models: int | None = None
    charger_models: int | None = None
    most_possible: tuple[int, int] | None = None
    outcome: str = "charges"
    order: int | None = None
    reason: str | None = None
    """Why this charger does not charge (a combined charge's failing member)."""
    chance: float | None = None
    """The chance of rolling at least range_needed (D6 + 4 + Charge Speed, maximised or not)."""
    """In a combined charge, this charger's place in the order of moves (1 moves first)."""
    charge_move_in: float | None = None
    """whfb-6e and tow: how far the charge may go (2 x Move; Movement + the higher die)."""
    moved_in: float | None = None
    """How far the path counts (forward moves plus the wheel's outer-corner travel)."""
    wheel_metric: str | None = None
    min_roll: int | None = None
    """whfb-6e: the least Move that succeeds; tow: the least Charge Range (M + higher D6)."""
    chance_fraction: str | None = None
    redirected_from: str | None = None
    """The charge was redirected from this unit (its target fled or was out of reach)."""
    line_of_sight: tuple[tuple[float, float], tuple[float, float]] | None = None
    """T9A: a line of sight from the charger's Front Facing to the target, declaring it."""
    failed_move_in: float | None = None
    """A failed charge moved: how far it may go (T9A 4", tow the higher die, 6e the Move)."""
    failed_move: str | None = None
    """Which failed charge move it made: the ruleset's `failed_charge`."""

    def as_dict(self) -> dict[str, Any]:
        """The result's `blocks[]` entry (lengths rounded to 0.001", angles to 0.01 deg)."""
        pose = self.end or self.start
        out: dict[str, Any] = {
            "unit": self.unit,
            "role": self.role,
            "x": round(pose.x, 6),
            "y": round(pose.y, 6),
            "facing": round(pose.facing, 6),
            "outcome": self.outcome,
        }
        optional = {
            "arc": self.arc,
            "arc_margin_deg": _r(self.arc_margin_deg, 2),
            "arc_margin_in": _r(self.arc_margin_in, 3),
            "target_facing": self.target_facing,
            "blocked_path": self.blocked_path or None,
            "distance_in": _r(self.distance_in, 3),
            "range_needed": self.range_needed,
            "charge_range": self.charge_range,
            "path": self.path or None,
            "initial_contact": [round(v, 6) for v in self.initial_contact]
            if self.initial_contact
            else None,
            "aligned": self.aligned,
            "unaligned": self.unaligned or None,
            "angle_deg": _r(self.angle_deg, 3),
            "target_rotation_deg": _r(self.target_rotation_deg, 3),
            "slide_in": _r(self.slide_in, 4),
            "target_models_in_contact": self.target_models,
            "models_in_contact": self.charger_models,
            "most_possible": list(self.most_possible) if self.most_possible else None,
            "order": self.order,
            "chance": _r(self.chance, 4),
            "reason": self.reason,
            "charge_move_in": _r(self.charge_move_in, 3),
            "moved_in": _r(self.moved_in, 3),
            "wheel_metric": self.wheel_metric,
            "min_roll": self.min_roll,
            "chance_fraction": self.chance_fraction,
            "redirected_from": self.redirected_from,
            "line_of_sight": [[round(v, 6) for v in p] for p in self.line_of_sight]
            if self.line_of_sight
            else None,
            "failed_move_in": _r(self.failed_move_in, 3),
            "failed_move": self.failed_move,
        }
        out.update({k: v for k, v in optional.items() if v is not None})
        return out


def _r(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)
