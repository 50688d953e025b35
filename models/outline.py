"""Whether an area's outline is a simple polygon, checked by hand so that models need no geometry
library: a floor whose outline crosses itself is two areas to a geometry library, and both
`solve` and `check` must refuse it at load time instead of treating it differently."""

from __future__ import annotations

import math
from collections.abc import Sequence

Corner = tuple[float, float]


def outline_problem(path: Sequence[Corner]) -> tuple[str, str] | None:
    """(what is wrong, the fix) if the ring `path` (closed or not) crosses or touches itself or
    encloses no area; None if it is a simple polygon."""
    ring = _corners(path)
    flat = (
        "encloses no area (its corners lie on one line)",
        "give the corners of the area in order around its outline",
    )
    if len(ring) < 3 or all(_turn(ring[0], ring[1], p) == 0 for p in ring[2:]):
        return flat
    sides = list(zip(ring, ring[1:] + ring[:1], strict=True))
    for i, (a, b) in enumerate(sides):
        for j in range(i + 1, len(sides)):
            c, d = sides[j]
            neighbours = j == i + 1 or (i == 0 and j == len(sides) - 1)
            if neighbours and not _folds_back(a, b, c, d, shared=b if j == i + 1 else a):
                continue
            if neighbours or _segments_meet(a, b, c, d):
                how = "runs back over" if neighbours else _how_they_meet(a, b, c, d)
                return (
                    f"crosses itself: the side from {_xy(a)} to {_xy(b)} {how} the side from "
                    f"{_xy(c)} to {_xy(d)}",
                    _reorder_fix(ring),
                )
    return flat if abs(_area2(ring)) < 1e-9 else None


def _corners(path: Sequence[Corner]) -> list[Corner]:
    """The ring's corners without the closing repeat and without repeated consecutive points."""
    ring: list[Corner] = []
    for point in path:
        corner = (float(point[0]), float(point[1]))
        if not ring or corner != ring[-1]:
            ring.append(corner)
    while len(ring) > 1 and ring[0] == ring[-1]:
        ring.pop()
    return ring


def _area2(ring: list[Corner]) -> float:
    return sum(
        x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1], strict=True)
    )


def _turn(a: Corner, b: Corner, c: Corner) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _within(a: Corner, b: Corner, p: Corner) -> bool:
    """Whether p, on the line through a and b, lies on the segment ab."""
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def _segments_meet(a: Corner, b: Corner, c: Corner, d: Corner) -> bool:
    """Whether the closed segments ab and cd share a point (crossing or touching)."""
    d1, d2, d3, d4 = _turn(c, d, a), _turn(c, d, b), _turn(a, b, c), _turn(a, b, d)
    if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
        return True
    return (
        (d1 == 0 and _within(c, d, a))
        or (d2 == 0 and _within(c, d, b))
        or (d3 == 0 and _within(a, b, c))
        or (d4 == 0 and _within(a, b, d))
    )


def _how_they_meet(a: Corner, b: Corner, c: Corner, d: Corner) -> str:
    """ "crosses" when each segment has the other's ends on both sides, else "touches"."""
    d1, d2, d3, d4 = _turn(c, d, a), _turn(c, d, b), _turn(a, b, c), _turn(a, b, d)
    return "crosses" if d1 * d2 < 0 and d3 * d4 < 0 else "touches"


def _folds_back(a: Corner, b: Corner, c: Corner, d: Corner, *, shared: Corner) -> bool:
    """Whether two neighbouring sides meeting at `shared` run back over each other."""
    p = a if shared == b else b
    q = d if shared == c else c
    u = (p[0] - shared[0], p[1] - shared[1])
    v = (q[0] - shared[0], q[1] - shared[1])
    return u[0] * v[1] - u[1] * v[0] == 0 and u[0] * v[0] + u[1] * v[1] > 0


def _reorder_fix(ring: list[Corner]) -> str:
    """The fix: the same corners in order around their centre, when that order is simple."""
    cx = sum(x for x, _ in ring) / len(ring)
    cy = sum(y for _, y in ring) / len(ring)
    ordered = sorted(ring, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
    start = ordered.index(ring[0])
    ordered = ordered[start:] + ordered[:start]
    if ordered != ring and len(set(ordered)) == len(ordered) and _is_simple(ordered):
        corners = ", ".join(f"[{x:g}, {y:g}]" for x, y in ordered)
        return f"list the corners in order around the outline, e.g. path = [{corners}]"
    return "list the corners in order around the outline, one area per terrain piece"


def _is_simple(ring: list[Corner]) -> bool:
    sides = list(zip(ring, ring[1:] + ring[:1], strict=True))
    for i, (a, b) in enumerate(sides):
        for j in range(i + 2, len(sides)):
            if i == 0 and j == len(sides) - 1:
                continue
            if _segments_meet(a, b, *sides[j]):
                return False
    return abs(_area2(ring)) >= 1e-9


def _xy(p: Corner) -> str:
    return f"({p[0]:g}, {p[1]:g})"
