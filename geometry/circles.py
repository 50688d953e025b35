"""Where two circles meet: the spots that touch two round bases at once (notches) or stand at
given distances from two centres."""

from __future__ import annotations

import math


def circle_crossings(
    ax: float, ay: float, da: float, bx: float, by: float, db: float
) -> list[tuple[float, float]]:
    """Where the circle of radius `da` about a meets the circle of radius `db` about b (none
    when they miss, are nested or touch at one point)."""
    apart = math.hypot(bx - ax, by - ay)
    if not abs(da - db) < apart < da + db:
        return []
    along = (da**2 - db**2 + apart**2) / (2 * apart)
    side = math.sqrt(max(da**2 - along**2, 0.0))
    ux, uy = (bx - ax) / apart, (by - ay) / apart
    return [(ax + along * ux - s * side * uy, ay + along * uy + s * side * ux) for s in (1.0, -1.0)]
