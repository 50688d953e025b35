"""The words of a Trapped! verdict, and the unit's coherency at the start (a move of the whole
unit keeps it)."""

from __future__ import annotations

import math

import numpy as np

from chargeopt.solver.assault_4e.fall_back_field import FallBackField
from chargeopt.solver.assault_4e.fall_back_search import RuledOut, Search
from chargeopt.solver.core.coherency_constraints import one_group

COHERENCY_IN = 2.0
MAX_RANGES = 6


def coherent(field: FallBackField) -> bool:
    """Every model within 2" (edge to edge) of another, in one group."""
    n = len(field.model_ids)
    if n <= 1:
        return True
    gaps = np.hypot(*(field.centres[:, None, :] - field.centres[None, :, :]).transpose(2, 0, 1))
    gaps = gaps - field.radii[:, None] - field.radii[None, :]
    return one_group(gaps <= COHERENCY_IN + 1e-9)


def trapped_proof(field: FallBackField, roll: int, found: Search) -> str:
    """Why no heading has a full fall back: the ruled-out sectors merged into ranges of
    headings with the same model and blocker, and what the argument covers."""
    ranges = _ranges(found.ruled_out)
    described = [
        f'{_deg(field, lo)}-{_deg(field, hi)}: {model} runs into {what} ({depth:.2f}" deep)'
        for lo, hi, model, what, depth in ranges[:MAX_RANGES]
    ]
    if len(ranges) > MAX_RANGES:
        described.append(f"and {len(ranges) - MAX_RANGES} more ranges")
    edge = field.scenario.action.table_edge
    halved = f' (halved to {roll / 2:g}" where it meets difficult terrain)'
    return (
        f'No full fall back of {roll}"{halved if field.difficult else ""} in any '
        f"heading within 90 degrees of straight toward the {edge} edge (headings in degrees "
        f"from +x toward +y): {'; '.join(described)}. Covered: every straight move of the whole "
        f"unit; each of the {len(found.ruled_out)} sectors of headings is ruled out at its "
        "middle by a run-in deeper than the path length times its half-width, which no "
        "heading of the sector can clear."
    )


def blocked_headings(field: FallBackField, found: Search) -> list[dict[str, object]]:
    """The ruled-out sectors merged into ranges of headings (degrees from +x toward +y) with
    the model and what it runs into (the deepest run-in found in the range)."""
    return [
        {
            "from_deg": round(field.heading_deg(lo), 1),
            "to_deg": round(field.heading_deg(hi), 1),
            "model": model,
            "runs_into": what,
            "depth_in": round(depth, 3),
        }
        for lo, hi, model, what, depth in _ranges(found.ruled_out)
    ]


def _ranges(ruled: list[RuledOut]) -> list[tuple[float, float, str, str, float]]:
    merged: list[list] = []
    for r in sorted(ruled, key=lambda r: r.sector.lo):
        if (
            merged
            and merged[-1][2:4] == [r.hit.model, r.hit.what]
            and math.isclose(merged[-1][1], r.sector.lo, abs_tol=1e-12)
        ):
            merged[-1][1] = r.sector.hi
            merged[-1][4] = max(merged[-1][4], r.hit.depth_in)
        else:
            merged.append([r.sector.lo, r.sector.hi, r.hit.model, r.hit.what, r.hit.depth_in])
    return [tuple(m) for m in merged]  # type: ignore[misc]


def _deg(field: FallBackField, theta: float) -> str:
    return f"{field.heading_deg(theta):.1f}"
