"""The least path length of a one-wheel charge (WHFB 6e, TOW) to each flush end slide, over
every path: forward d1 >= 0, one wheel of 0 to 90 degrees about a front corner, forward d2 >= 0
into contact, then the door closed about the contact point.

The door keeps the contact point: the front point u that touches stands there at the end. So
an end slide s fixes the contact: the front-left corner at s (u = 0), the front-right corner at
s + W (u = W), or an end of the facing on the front (u = -s or length - s). In the charger's
start frame (x across to the right from the front-left corner, y ahead), a right wheel phi
about the front-right corner brings u to c = (cx, cy) when
    d2 sin(phi) = cx - W - (u - W) cos(phi)                       (g2 >= 0)
    d1 sin(phi) = cy sin(phi) - (cx - W) cos(phi) + (u - W)       (g1 >= 0)
    L = cy + (u - W) sin(phi) + (cx - W - (u - W) cos(phi)) tan(phi / 2) + travel(phi)
(a left wheel is the mirror image, x -> W - x). For a fixed phi, c (or u) is affine in s, so
L and the constraints are affine in s: the least L over an s-interval is one of its ends.
Over phi, a branch and bound with Lipschitz constants (|dL/dphi| <= |cx - W| + 4W, the
constraints' likewise) certifies a lower bound on the least L, and its best feasible point is
a witness. Only the facing is touched and nothing blocks the way: a lower bound anywhere on
the table (other units, terrain, the target's other sides can only make paths longer or
impossible), exact in open ground up to `TOL_IN`.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

from chargeopt.geometry.rank_and_file.frame import BlockPose, Segment, Vec

TOL_IN = 1e-4
"""The B&B stops when its lower bound is this close to its best feasible point."""
MAX_BOXES = 6000
"""At most this many phi-intervals per contact kind; the bound found so far stands."""
HALF_PI = math.pi / 2
KINDS = ("front-left", "front-right", "facing-start", "facing-end")


@dataclass(frozen=True)
class Witness:
    """A path the relaxation says reaches `slide_in` with `length_in`: forward d1, wheel
    `phi_deg` (positive: right), forward d2."""

    slide_in: float
    phi_deg: float
    d1_in: float
    d2_in: float
    length_in: float
    kind: str


@dataclass(frozen=True)
class Reach:
    """A certified lower bound on the least path length to a slide in an interval, and the
    best path the relaxation found (None: none meets the constraints)."""

    lower_in: float
    witness: Witness | None


@dataclass(frozen=True)
class _Side:
    """The problem in the frame of a right wheel (mirrored for a left one)."""

    width_in: float
    origin: Vec
    """The facing's start, in the frame."""
    along: Vec
    """The facing's direction, in the frame."""
    normal: Vec
    """The facing's outward normal, in the frame."""
    length_in: float
    mirrored: bool


def _sides(start: BlockPose, facing: Segment) -> list[_Side]:
    w = start.width_in
    o = start.local(facing.start)
    e = start.local(facing.end)
    n_end = start.local((facing.start[0] + facing.normal[0], facing.start[1] + facing.normal[1]))
    length = facing.length_in
    t = ((e[0] - o[0]) / length, (e[1] - o[1]) / length)
    n = (n_end[0] - o[0], n_end[1] - o[1])
    right = _Side(w, o, t, n, length, False)
    left = _Side(w, (w - o[0], o[1]), (-t[0], t[1]), (-n[0], n[1]), length, True)
    return [right, left]


def _travel(width_in: float, phi: float, metric: str) -> float:
    return width_in * phi if metric == "arc" else 2 * width_in * math.sin(phi / 2)


def _contact(side: _Side, kind: str, s: float) -> tuple[float, float, float]:
    """(cx, cy, u) in the side's frame for end slide `s` (u mirrored too)."""
    w = side.width_in
    if kind == "front-left":
        a, u = s, 0.0
    elif kind == "front-right":
        a, u = s + w, w
    elif kind == "facing-start":
        a, u = 0.0, -s
    else:
        a, u = side.length_in, side.length_in - s
    cx = side.origin[0] + a * side.along[0]
    cy = side.origin[1] + a * side.along[1]
    return cx, cy, (w - u if side.mirrored else u)


def _slides_of(kind: str, w: float, length: float) -> tuple[float, float]:
    """The end slides a contact of this kind can give (contact on the facing, on the front)."""
    return {
        "front-left": (0.0, length),
        "front-right": (-w, length - w),
        "facing-start": (-w, 0.0),
        "facing-end": (length - w, length),
    }[kind]


def _values(
    side: _Side, kind: str, s: float, phi: float, metric: str, corner: bool = False
) -> tuple[float, float, float, float]:
    """(L, g1, g2, g3) at (s, phi): length, d1 sin, d2 sin, and the contact's own condition
    (the other front corner not past the facing's line, or the facing ahead of the front)."""
    w = side.width_in
    cx, cy, u = _contact(side, kind, s)
    sn, cs = math.sin(phi), math.cos(phi)
    length = cy + (u - w) * sn + (cx - w - (u - w) * cs) * math.tan(phi / 2)
    length += _travel(w, phi, metric)
    g1 = cy * sn - (cx - w) * cs + (u - w)
    g2 = cx - w - (u - w) * cs
    right = (cs, -sn)
    ahead = (sn, cs)
    if corner:
        g3 = _cone_gap(side, kind, u, right, ahead)
    elif kind in ("front-left", "front-right"):
        sign = 1.0 if (kind == "front-left") != side.mirrored else -1.0
        g3 = sign * (right[0] * side.normal[0] + right[1] * side.normal[1])
    else:
        sign = 1.0 if kind == "facing-start" else -1.0
        g3 = sign * (ahead[0] * side.along[0] + ahead[1] * side.along[1])
    return length, g1, g2, g3


def _cone_gap(side: _Side, kind: str, u: float, right: Vec, ahead: Vec) -> float:
    """A front corner on an end of the facing: the angular room (radians) between the block's
    corner (the quarter between its front and its flank) and the target's corner (between the
    facing and the target's side); negative when they overlap, which no arrival does."""
    back = (-ahead[0], -ahead[1])
    inward = right if u < side.width_in / 2 else (-right[0], -right[1])
    along = side.along if kind == "facing-start" else (-side.along[0], -side.along[1])
    depth = (-side.normal[0], -side.normal[1])
    d = (_arc_start(along, depth) - _arc_start(inward, back)) % (2 * math.pi)
    return min(d - HALF_PI, 3 * HALF_PI - d)


def _arc_start(a: Vec, b: Vec) -> float:
    """The angle where the quarter between perpendicular a and b starts, counterclockwise."""
    first = a if a[0] * b[1] - a[1] * b[0] > 0 else b
    return math.atan2(first[1], first[0])


def _best_at(
    side: _Side,
    kind: str,
    lo: float,
    hi: float,
    phi: float,
    slack: tuple[float, float, float],
    metric: str,
    corner: bool = False,
) -> tuple[float, float] | None:
    """The least L over s in [lo, hi] at this phi with g_i >= -slack_i (all affine in s):
    (L, s), or None when no s meets them."""
    v0 = _values(side, kind, lo, phi, metric, corner)
    if hi - lo <= 0:
        ok = all(g >= -e for g, e in zip(v0[1:], slack, strict=True))
        return (v0[0], lo) if ok else None
    v1 = _values(side, kind, hi, phi, metric, corner)
    a, b = lo, hi
    for g0, g1, e in zip(v0[1:], v1[1:], slack, strict=True):
        slope = (g1 - g0) / (hi - lo)
        if abs(slope) < 1e-15:
            if g0 < -e:
                return None
            continue
        root = lo + (-e - g0) / slope
        if slope > 0:
            a = max(a, root)
        else:
            b = min(b, root)
        if a > b:
            return None
    ls = (v1[0] - v0[0]) / (hi - lo)
    s = a if ls >= 0 else b
    return v0[0] + ls * (s - lo), s


def _lipschitz(side: _Side, kind: str, lo: float, hi: float) -> tuple[float, float, float, float]:
    """Bounds on |d/dphi| of L, g1, g2, g3 over s in [lo, hi] and phi in [0, 90 degrees]."""
    w = side.width_in
    ends = [_contact(side, kind, s) for s in (lo, hi)]
    dx = max(abs(cx - w) for cx, _, _ in ends)
    dy = max(abs(cy) for _, cy, _ in ends)
    return dx + 4 * w, dx + dy, w, 1.0


def least_length(
    start: BlockPose,
    facing: Segment,
    lo: float,
    hi: float,
    metric: str,
    cap_in: float = math.inf,
) -> Reach:
    """A certified lower bound on the least path length to any end slide in [lo, hi] (capped:
    once above `cap_in` the search stops), and the best path found."""
    best: Reach = Reach(math.inf, None)
    lower = math.inf
    w = start.width_in
    for side in _sides(start, facing):
        for kind in KINDS:
            k0, k1 = _slides_of(kind, w, facing.length_in)
            a, b = max(lo, k0), min(hi, k1)
            if a > b + 1e-12:
                continue
            runs = [_one_kind(side, kind, a, max(a, b), metric, cap_in)]
            runs += [
                _one_kind(side, kind, e, e, metric, cap_in, free=True)
                for e in _corner_to_corner(kind, w, facing.length_in)
                if a - 1e-12 <= e <= b + 1e-12
            ]
            for found in runs:
                lower = min(lower, found.lower_in)
                if found.witness and (
                    best.witness is None or found.witness.length_in < best.witness.length_in
                ):
                    best = Reach(best.lower_in, found.witness)
    return Reach(lower, best.witness)


def _corner_to_corner(kind: str, w: float, length: float) -> tuple[float, ...]:
    """The slides where an end of the facing meets a front corner: the facing may then run
    beside the charger, so only the two corners must not overlap (`_cone_gap`)."""
    if kind == "facing-start":
        return (-w, 0.0)
    if kind == "facing-end":
        return (length - w, length)
    return ()


def _one_kind(
    side: _Side, kind: str, lo: float, hi: float, metric: str, cap_in: float, free: bool = False
) -> Reach:
    """The branch and bound over phi in [0, 90 degrees] for one contact kind and side (with
    `free`, at a corner-to-corner slide: the corners' own condition instead of the kind's)."""
    k_len, *k_g = _lipschitz(side, kind, lo, hi)
    witness: Witness | None = None
    upper = math.inf

    def bound(p0: float, p1: float) -> tuple[float, float]:
        nonlocal witness, upper
        mid, half = (p0 + p1) / 2, (p1 - p0) / 2
        slack = tuple(k * half for k in k_g)
        relaxed = _best_at(side, kind, lo, hi, mid, slack, metric, free)
        exact = _best_at(side, kind, lo, hi, mid, (1e-9, 1e-9, 1e-9), metric, free)
        if exact is not None and exact[0] < upper:
            upper = exact[0]
            witness = _witness(side, kind, exact[1], mid, exact[0])
        return (math.inf if relaxed is None else relaxed[0] - k_len * half), mid

    heap: list[tuple[float, float, float]] = []
    for p0, p1 in ((0.0, 0.0), (HALF_PI, HALF_PI), (0.0, HALF_PI)):
        lb, _ = bound(p0, p1)
        if p1 > p0:
            heapq.heappush(heap, (lb, p0, p1))
    boxes = 0
    while heap:
        lb, p0, p1 = heap[0]
        if lb > cap_in or lb >= upper - TOL_IN or boxes >= MAX_BOXES or lb == math.inf:
            break
        heapq.heappop(heap)
        boxes += 1
        m = (p0 + p1) / 2
        for q0, q1 in ((p0, m), (m, p1)):
            qlb, _ = bound(q0, q1)
            if qlb < upper and qlb < math.inf:
                heapq.heappush(heap, (max(qlb, lb), q0, q1))
    lower = min(heap[0][0] if heap else math.inf, upper)
    return Reach(lower, witness)


def _witness(side: _Side, kind: str, s: float, phi: float, length: float) -> Witness:
    _, g1, g2, _ = _values(side, kind, s, phi, "arc")
    sn = math.sin(phi)
    if sn < 1e-12:
        _, cy, _ = _contact(side, kind, s)
        d1, d2 = 0.0, cy
    else:
        d1, d2 = max(0.0, g1 / sn), max(0.0, g2 / sn)
    deg = math.degrees(phi) * (-1 if side.mirrored else 1)
    return Witness(s, deg, d1, d2, length, kind)


@dataclass(frozen=True)
class SlideRegion:
    """End slides in [lo, hi] (a point when lo == hi) with the same counts, and how short a
    path to them can be."""

    lo_in: float
    hi_in: float
    target_models: int
    charger_models: int
    reach: Reach

    def key(self) -> tuple[int, int]:
        """Both sides in contact, then the charger's (the answer's order)."""
        return (self.target_models + self.charger_models, self.charger_models)


def slide_regions(
    start: BlockPose,
    facing: Segment,
    counts: Callable[[float], tuple[int, int]],
    cuts: list[float],
    legal: list[tuple[float, float]],
    metric: str,
) -> list[SlideRegion]:
    """Every legal end slide, cut at `cuts` (where the counts can change) into points and open
    intervals, each with its counts and its least path length; slides touching nobody left
    out."""
    out = []
    for lo, hi in legal:
        inside = sorted({lo, hi, *(c for c in cuts if lo < c < hi)})
        pieces = [(p, p) for p in inside] + list(itertools.pairwise(inside))
        for a, b in pieces:
            t, c = counts((a + b) / 2)
            if t + c == 0:
                continue
            out.append(SlideRegion(a, b, t, c, least_length(start, facing, a, b, metric)))
    return out


def paths_to(
    start: BlockPose, facing: Segment, lo: float, hi: float, metric: str, steps: int
) -> list[Witness]:
    """Paths (none of them checked for what is in the way) ending at a slide in [lo, hi]: at
    `steps` + 1 wheel angles a side, for each contact kind, the shortest such path at that
    angle. The owner's other ways in when the least path is blocked."""
    out = []
    w = start.width_in
    for side in _sides(start, facing):
        for kind in KINDS:
            k0, k1 = _slides_of(kind, w, facing.length_in)
            a, b = max(lo, k0), min(hi, k1)
            if a > b + 1e-12:
                continue
            for i in range(steps + 1):
                phi = HALF_PI * i / steps
                found = _best_at(side, kind, a, max(a, b), phi, (1e-9, 1e-9, 1e-9), metric)
                if found is not None:
                    out.append(_witness(side, kind, found[1], phi, found[0]))
    return out
