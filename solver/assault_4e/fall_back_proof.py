"""The unit's coherency at the start, and the straight-move sectors ruled out merged into
ranges of headings (kept beside the Trapped! proof as `straight_headings`)."""

from __future__ import annotations

import math

import numpy as np

from chargeopt.solver.assault_4e.fall_back_field import FallBackField
from chargeopt.solver.assault_4e.fall_back_search import RuledOut, Search
from chargeopt.solver.core.coherency_constraints import one_group

COHERENCY_IN = 2.0


def coherent(field: FallBackField) -> bool:
    """Every model within 2" (edge to edge) of another, in one group."""
    n = len(field.model_ids)
    if n <= 1:
        return True
    gaps = np.hypot(*(field.centres[:, None, :] - field.centres[None, :, :]).transpose(2, 0, 1))
    gaps = gaps - field.radii[:, None] - field.radii[None, :]
    return one_group(gaps <= COHERENCY_IN + 1e-9)


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
