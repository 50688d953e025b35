"""What a rank-and-file result's `blocks[]` entry holds, described for the JSON Schema and the
key reference. The result keeps each entry a plain table (the solver writes it, the checker
reads what it needs); these models only say what every key means. Keys a newer solver adds
stay valid (additionalProperties), so an older reader is not broken by them."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from .keys import key

FacingName = Literal["front", "right", "rear", "left"]


class _Described(BaseModel):
    model_config = ConfigDict(frozen=True, extra="allow")


class ForwardStep(_Described):
    """A straight move forward, the facing kept."""

    move: Literal["forward"] = key("A straight move forward.", example="forward")
    distance_in: float = key("How far the block moves.", example=4.913, unit="in", ge=0)


class WheelStep(_Described):
    """A wheel about a front corner; every model counts as moving as far as the outer front
    corner travels."""

    move: Literal["wheel"] = key("A wheel about a front corner.", example="wheel")
    angle_deg: float = key(
        "The turn, positive to the right (about the front-right corner), negative to the left.",
        example=-21.0,
        unit="deg",
    )
    pivot: Literal["front-left", "front-right"] = key(
        "The front corner the block turns about.", example="front-left"
    )
    travel_in: float = key(
        "How far the outer front corner travels (what the wheel costs), by `metric`.",
        example=1.804,
        unit="in",
        ge=0,
    )
    metric: Literal["arc", "chord"] = key(
        "How the wheel is measured: the outer corner's arc, or the straight chord.",
        example="arc",
    )


class AlignStep(_Described):
    """The end of the charge: T9A's Align Move (picked up and put back aligned), or 6e's and
    The Old World's door closed about the initial contact point."""

    move: Literal["align"] = key(
        "The Align Move (t9a-2022) or closing the door (whfb-6e, tow).", example="align"
    )
    shift_in: float = key(
        "How far the front-left corner is picked up and put down.", example=1.437, unit="in"
    )
    turn_deg: float = key(
        "The turn from the arrival to the end, positive to the right.", example=21.0, unit="deg"
    )


PathStep = ForwardStep | WheelStep | AlignStep


class ResultBlock(_Described):
    """One block of a rank-and-file result: where it ends and why."""

    unit: str = key("The id of the block.", example="A")
    role: Literal["charger", "target"] = key(
        "charger (a charging block) or target (the charged block, when it turns).",
        example="charger",
        default="charger",
    )
    x: float = key(
        "Where the front-left corner of its Unit Boundary ends, from the board's left edge.",
        example=26.057318,
        unit="in",
    )
    y: float = key(
        "Where the front-left corner ends, from the board's top edge.", example=10.0, unit="in"
    )
    facing: float = key("The direction its front faces at the end.", example=-90.0, unit="deg")
    outcome: str = key(
        "What happened: charges, fails (too short or no path; a 6e failed charge moves its "
        "normal Move along `path`), impossible (a combined charge's member that cannot charge), "
        "rotates (the target's turn about the contact point, T9A Unaligned Charge).",
        example="charges",
        default="charges",
    )
    arc: FacingName = key(
        "The target's arc the charger is in (holding its front's centre, or by the ruleset's "
        "reading for a straddling charger).",
        example="front",
        default=None,
    )
    arc_margin_deg: float = key(
        "How far inside that arc: the smaller angle to its two 45-degree lines.",
        example=39.85,
        unit="deg",
        default=None,
    )
    arc_margin_in: float = key(
        "How far inside that arc: the shorter distance to its two lines.",
        example=3.86,
        unit="in",
        default=None,
    )
    target_facing: FacingName = key(
        "The facing of the target the charger is put against.", example="front", default=None
    )
    blocked_path: bool = key(
        "T9A Blocked Path: the target is the first obstacle straight ahead, so any facing.",
        example=True,
        default=False,
    )
    distance_in: float = key(
        "The distance between the two Unit Boundaries at the start.",
        example=6.0,
        unit="in",
        default=None,
    )
    range_needed: int = key(
        "The least whole Charge Range (or charge move) that covers the distance.",
        example=6,
        unit="in",
        default=None,
    )
    charge_range: int = key(
        "The Charge Range rolled (t9a-2022, tow).", example=8, unit="in", default=None
    )
    path: tuple[PathStep, ...] = key(
        "The charge move as made, in order: forward moves and wheels (T9A's Snaking Forward "
        "Move; 6e/tow: forward, one wheel, forward), then the align step.",
        example=[
            {
                "move": "wheel",
                "angle_deg": -21.0,
                "pivot": "front-left",
                "travel_in": 1.804,
                "metric": "arc",
            },
            {"move": "forward", "distance_in": 4.913},
            {"move": "align", "shift_in": 1.437, "turn_deg": 21.0},
        ],
        default=(),
    )
    initial_contact: tuple[float, float] = key(
        "[x, y] of the initial point of contact on the target, kept in contact by the end.",
        example=[30.0, 10.0],
        unit="in",
        default=None,
    )
    aligned: bool = key(
        "Whether the front ends flush against the Target Facing.", example=True, default=None
    )
    unaligned: bool = key(
        "Placed by T9A's Unaligned Charge rules (no aligned placement keeps the contact point).",
        example=True,
        default=False,
    )
    angle_deg: float = key(
        "The angle left between the charger's front and the Target Facing (0: flush).",
        example=0.0,
        unit="deg",
        default=None,
    )
    target_rotation_deg: float = key(
        "T9A Unaligned Charge: the target's turn about the contact point.",
        example=-11.312,
        unit="deg",
        default=None,
    )
    slide_in: float = key(
        "Where along the Target Facing the front ends, against the initial contact.",
        example=0.9786,
        unit="in",
        default=None,
    )
    target_models_in_contact: int = key(
        "The target's models in base contact with the charger.", example=5, ge=0, default=None
    )
    models_in_contact: int = key(
        "The charger's models in base contact with the target.", example=5, ge=0, default=None
    )
    most_possible: tuple[int, int] = key(
        "[target, charger] models in contact of the best flush placement on that facing, "
        "whatever the path (what the answer is measured against).",
        example=[5, 5],
        default=None,
    )
    order: int = key(
        "A combined charge: this charger's place in the order of moves (1 moves first).",
        example=1,
        ge=1,
        default=None,
    )
    chance: float = key(
        "The chance of rolling at least the range needed, from 0 to 1.",
        example=0.9722,
        ge=0,
        le=1,
        default=None,
    )
    reason: str = key(
        "Why this charger does not charge, in words.",
        example='the charge move of 5" is short of the 6.000" between A and B',
        default=None,
    )
    charge_move_in: float = key(
        "whfb-6e and tow: how far the charge may go (6e: twice the Move; tow: the Charge Range).",
        example=8.0,
        unit="in",
        default=None,
    )
    moved_in: float = key(
        "whfb-6e and tow: how far the path counts (forward moves plus the wheel's travel).",
        example=6.717,
        unit="in",
        default=None,
    )
    wheel_metric: Literal["arc", "chord"] = key(
        "whfb-6e and tow: how a wheel is measured.", example="arc", default=None
    )
    min_roll: int = key(
        "whfb-6e: the least Move that succeeds; tow: the least Charge Range.",
        example=6,
        default=None,
    )
    chance_fraction: str = key(
        "tow: the exact chance of rolling at least the least Charge Range, as a fraction.",
        example="35/36",
        default=None,
    )
    redirected_from: str = key(
        "whfb-6e and tow: the unit the charge was first declared on (it fled or was out of "
        "reach); the charge was redirected once to this target.",
        example="B",
        default=None,
    )


__all__ = ["AlignStep", "ForwardStep", "PathStep", "ResultBlock", "WheelStep"]
