"""A rank-and-file charge path drawn as it is moved: each forward move a straight line of the
front's centre, each wheel and each door closing an SVG arc about its pivot, the T9A Align Move
a dotted jump (the unit is picked up and put down), with an outline where each step ends and
the ruleset's own words in the labels and tooltips."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from chargeopt.geometry.rank_and_file.frame import BlockPose, Vec
from chargeopt.geometry.rank_and_file.moves import forward, pivot_of, wheel

SCALE = 20.0
"""Pixels per inch (the board's, svg.py's)."""
SAME_POSE_IN = 0.005
"""A door that lands this close to the written end needs no slide drawn after it."""


@dataclass(frozen=True)
class Leg:
    """One step of the drawn path: `kind` is forward, wheel, door (a turn about the contact
    point), align (T9A: picked up and put down) or slide; `centre` is the pivot of a turn."""

    kind: str
    start: BlockPose
    end: BlockPose
    angle_deg: float = 0.0
    centre: Vec | None = None
    words: str = ""
    note: str = ""
    """More for the tooltip: what a wheel's travel counts."""


@dataclass(frozen=True)
class PathWords:
    """The ruleset's names for the parts of a charge path."""

    move: str
    align: str

    @classmethod
    def of(cls, ruleset: tuple[str, ...], failed: bool = False) -> PathWords:
        if failed:
            return cls("failed charge: its normal Move", "")
        if "t9a-2022" in ruleset:
            return cls("the Snaking Forward Move", "the Align Move")
        return cls("the charge move", "closing the door")


def rotated(pose: BlockPose, centre: Vec, angle_deg: float) -> BlockPose:
    """`pose` turned `angle_deg` (clockwise on the table, y down) about `centre`."""
    a = math.radians(angle_deg)
    dx, dy = pose.x - centre[0], pose.y - centre[1]
    x = centre[0] + dx * math.cos(a) - dy * math.sin(a)
    y = centre[1] + dx * math.sin(a) + dy * math.cos(a)
    return pose.moved(x, y, pose.facing + angle_deg)


def replay(
    start: BlockPose,
    path: list[dict[str, Any]],
    end: BlockPose,
    contact: Vec | None,
    words: PathWords,
) -> list[Leg]:
    """The legs of a written path from `start`, closing on the written `end` (a door turned
    about the initial contact point, a T9A Align Move, or a slide for what is left)."""
    legs: list[Leg] = []
    pose = start
    for step in path:
        if step["move"] == "forward":
            after = forward(pose, step["distance_in"])
            if step["distance_in"] > 0:
                legs.append(Leg("forward", pose, after, words=f'{step["distance_in"]:.1f}"'))
            pose = after
        elif step["move"] == "wheel" and step["angle_deg"]:
            angle = step["angle_deg"]
            after = wheel(pose, angle)
            centre = pose.corners[pivot_of(angle)]
            note = ""
            if "travel_in" in step:
                how = "straight chord" if step.get("metric") == "chord" else "arc"
                note = f' (the outer corner counts {step["travel_in"]:.2f}" by its {how})'
            legs.append(Leg("wheel", pose, after, angle, centre, f"wheel {abs(angle):.0f}°", note))
            pose = after
        elif step["move"] == "align":
            legs += _closing(pose, step, end, contact, words)
            pose = end
    if _apart(pose, end):
        legs.append(Leg("slide", pose, end, words="put down"))
    return legs


def _closing(
    arrival: BlockPose, step: dict[str, Any], end: BlockPose, contact: Vec | None, words: PathWords
) -> list[Leg]:
    turn = step.get("turn_deg") or 0.0
    if words.align == "the Align Move" or contact is None:
        return [Leg("align", arrival, end, turn)] if _apart(arrival, end) else []
    door = rotated(arrival, contact, turn)
    legs = [Leg("door", arrival, door, turn, contact, f"door {abs(turn):.0f}°")] if turn else []
    if _apart(door, end):
        legs.append(Leg("slide", door, end, words="slide"))
    return legs


def _apart(a: BlockPose, b: BlockPose) -> bool:
    return math.dist((a.x, a.y), (b.x, b.y)) > SAME_POSE_IN or abs(a.facing - b.facing) > 0.01


def _p(v: Vec) -> str:
    return f"{v[0] * SCALE:.1f},{v[1] * SCALE:.1f}"


def _arc_to(leg: Leg) -> str:
    """SVG arc command taking the front's centre from the leg's start to its end."""
    assert leg.centre is not None
    radius = math.dist(leg.centre, leg.start.front_centre) * SCALE
    large = 1 if abs(leg.angle_deg) > 180 else 0
    sweep = 1 if leg.angle_deg > 0 else 0
    return f"A {radius:.1f} {radius:.1f} 0 {large} {sweep} {_p(leg.end.front_centre)}"


def trail_data(legs: list[Leg]) -> str:
    """SVG path data of the front's centre along every leg but the T9A Align Move."""
    parts: list[str] = []
    at: Vec | None = None
    for leg in legs:
        if leg.kind == "align":
            at = None
            continue
        if at is None or math.dist(at, leg.start.front_centre) > 1e-6:
            parts.append(f"M {_p(leg.start.front_centre)}")
        turn = leg.kind in ("wheel", "door") and leg.centre is not None
        parts.append(_arc_to(leg) if turn else f"L {_p(leg.end.front_centre)}")
        at = leg.end.front_centre
    return " ".join(parts)


def swinging_corner(leg: Leg) -> str:
    """The front corner that travels furthest in a turn: the one away from its pivot."""
    assert leg.centre is not None
    left, right = leg.start.corners["front-left"], leg.start.corners["front-right"]
    return (
        "front-left"
        if math.dist(left, leg.centre) > math.dist(right, leg.centre)
        else ("front-right")
    )


def _swing(leg: Leg, tip: str) -> str:
    """The arc the outer front corner sweeps about the pivot (what a wheel's distance counts)."""
    assert leg.centre is not None
    corner = swinging_corner(leg)
    a, b = leg.start.corners[corner], leg.end.corners[corner]
    radius = math.dist(leg.centre, a) * SCALE
    large = 1 if abs(leg.angle_deg) > 180 else 0
    sweep = 1 if leg.angle_deg > 0 else 0
    return (
        f'<path class="swing" d="M {_p(a)} A {radius:.1f} {radius:.1f} 0 {large} {sweep} '
        f'{_p(b)}" marker-end="url(#arrow)">{tip}</path>'
    )


def _label_at(leg: Leg) -> tuple[Vec, str]:
    """Where a leg's words go and their anchor: beside the middle of a forward move, clear of
    the block's band; beyond the middle of a turn, away from its pivot."""
    a, b = leg.start.front_centre, leg.end.front_centre
    if leg.centre is not None and leg.kind in ("wheel", "door"):
        m = rotated(leg.start, leg.centre, leg.angle_deg / 2).front_centre
        away, gap = (m[0] - leg.centre[0], m[1] - leg.centre[1]), 0.6
    else:
        m = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        away, gap = (b[1] - a[1], -(b[0] - a[0])), leg.start.width_in / 2 + 0.3
    n = math.hypot(*away) or 1.0
    ux, uy = away[0] / n, away[1] / n
    anchor = "start" if ux > 0.3 else "end" if ux < -0.3 else "middle"
    return (m[0] + gap * ux, m[1] + gap * uy), anchor


def _tooltip(leg: Leg, unit: str, words: PathWords) -> str:
    if leg.kind == "forward":
        return f"{unit}, {words.move}: {leg.words} forward"
    if leg.kind == "wheel":
        side = "right" if leg.angle_deg > 0 else "left"
        return (
            f"{unit}, {words.move}: wheels {abs(leg.angle_deg):.1f} degrees to the {side} about "
            f"its {pivot_of(leg.angle_deg)} corner{leg.note}"
        )
    if leg.kind == "door":
        return (
            f"{unit}, {words.align}: turns {abs(leg.angle_deg):.1f} degrees about the initial "
            "contact point, flush with the target"
        )
    if leg.kind == "align":
        return f"{unit}, {words.align}: picked up and put back aligned with the target"
    return f"{unit}: put down where the answer places it"


def trail_svg(legs: list[Leg], unit: str, owner: str, words: PathWords) -> list[str]:
    """The path as SVG: outlines where steps end, the front's trail with an arrow, one hover
    strip per leg, pivots, the Align Move's jump, and a short label beside each leg."""
    out: list[str] = []
    for leg in legs[:-1]:
        ring = " ".join(_p(c) for c in leg.end.corners.values())
        out.append(f'<polygon class="ghost {owner}-ghost" points="{ring}"/>')
    data = trail_data(legs)
    if data:
        tip = escape(f"{unit}: {words.move}" + (f", then {words.align}" if words.align else ""))
        out.append(
            f'<path class="move" d="{data}" marker-end="url(#arrow)"><title>{tip}</title></path>'
        )
    for leg in legs:
        tip = f"<title>{escape(_tooltip(leg, unit, words))}</title>"
        if leg.kind == "align":
            (x1, y1), (x2, y2) = leg.start.front_centre, leg.end.front_centre
            out.append(
                f'<line class="jump" x1="{x1 * SCALE:.1f}" y1="{y1 * SCALE:.1f}" '
                f'x2="{x2 * SCALE:.1f}" y2="{y2 * SCALE:.1f}" marker-end="url(#arrow)">{tip}</line>'
            )
        else:
            turn = leg.kind in ("wheel", "door") and leg.centre is not None
            step = _arc_to(leg) if turn else f"L {_p(leg.end.front_centre)}"
            out.append(f'<path class="leg" d="M {_p(leg.start.front_centre)} {step}">{tip}</path>')
        if leg.centre is not None:
            out.append(_swing(leg, tip))
            out.append(
                f'<circle class="pivot" cx="{leg.centre[0] * SCALE:.1f}" '
                f'cy="{leg.centre[1] * SCALE:.1f}" r="2.5">{tip}</circle>'
            )
        if leg.words:
            (x, y), anchor = _label_at(leg)
            out.append(
                f'<text class="step-label" x="{x * SCALE:.1f}" y="{y * SCALE:.1f}" '
                f'dy="0.35em" text-anchor="{anchor}">{escape(leg.words)}{tip}</text>'
            )
    return out


__all__ = ["Leg", "PathWords", "replay", "rotated", "trail_data", "trail_svg"]
