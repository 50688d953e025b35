"""Which headings let the unit make its full fall back, searched over sectors of headings with
a proof for each sector it rules out.

Headings run over [-90, 90] degrees from straight toward the own edge (beyond that the unit
would double back). A sector [lo, hi] with middle m and half-width h is **ruled out** when the
straight move along m runs deeper than L * h into a blocker (or past a board edge), L being a
length every heading of the sector moves at least: turning the heading by at most h moves each
point of a path of length L by at most L * h, so that point stays inside for every heading of
the sector. A heading's distance is the roll, halved when the roll's move would take a base
into, out of or through difficult terrain; a sector is ruled out when its halved move is, or
when no heading of it touches difficult terrain and its full move is. Sectors neither ruled out
nor holding a legal middle are split, best-first by the progress toward the edge they could
still give, down to `MIN_SECTOR_RAD`."""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

from chargeopt.solver.assault_4e.fall_back_field import FallBackField, Hit

SECTORS = 181
"""First split of the half turn: an odd count, so that straight back is a sector's middle."""
MIN_SECTOR_RAD = 1e-5
MAX_PROBES = 20_000
EDGE_KEEP_IN = 0.002
"""A move that reaches the own edge stops this short of it (still touching, as written)."""
SLACK = 1e-9
STOP_GAP_IN = 0.002
"""The search stops once no sector could beat the best heading found by more than this."""
CLOSE_ENOUGH_IN = 0.012
"""The best heading is called optimal when no open sector could beat it by more (about the
margin every chosen move keeps from what blocks it); the bound says how much."""


@dataclass(frozen=True, order=True)
class Sector:
    """Headings from `lo` to `hi` (radians from straight back)."""

    lo: float
    hi: float

    @property
    def mid(self) -> float:
        return (self.lo + self.hi) / 2

    @property
    def half(self) -> float:
        return (self.hi - self.lo) / 2

    @property
    def nearest_straight(self) -> float:
        return 0.0 if self.lo <= 0.0 <= self.hi else min(abs(self.lo), abs(self.hi))

    @property
    def farthest_straight(self) -> float:
        return max(abs(self.lo), abs(self.hi))

    def halves(self) -> tuple[Sector, Sector]:
        return Sector(self.lo, self.mid), Sector(self.mid, self.hi)


@dataclass(frozen=True)
class Probe:
    """One heading tried exactly: the distance it moves, whether it was halved, whether it is a
    legal full fall back (with the margins), and its progress toward the edge."""

    theta: float
    length_in: float
    halved: bool
    legal: bool
    hit: Hit | None

    @property
    def progress_in(self) -> float:
        return self.length_in * math.cos(self.theta)


@dataclass(frozen=True)
class RuledOut:
    sector: Sector
    hit: Hit
    length_in: float


@dataclass
class Search:
    """The outcome: the best legal heading found, the sectors ruled out (with why), and the
    sectors left open (neither ruled out nor searched to the end)."""

    best: Probe | None = None
    ruled_out: list[RuledOut] = field(default_factory=list)
    open: list[Sector] = field(default_factory=list)
    probes: int = 0

    def bound_in(self, field_: FallBackField, roll: float) -> float:
        """The most progress any heading not ruled out could give."""
        ceilings = [upper_progress(field_, roll, s) for s in self.open]
        return max([self.best.progress_in if self.best else 0.0, *ceilings])


def upper_progress(field_: FallBackField, roll: float, sector: Sector) -> float:
    """Progress toward the edge no heading of the sector can beat: the roll (half of it where
    every heading of the sector is halved) times the cosine of its heading nearest straight
    back, and never past the edge."""
    distance = roll / 2 if always_halved(field_, roll, sector) else roll
    return min(distance * math.cos(sector.nearest_straight), field_.edge_stop_gap_in)


def always_halved(field_: FallBackField, roll: float, sector: Sector) -> bool:
    """Whether the roll's move of every heading of the sector enters difficult terrain: at the
    middle, a length every heading moves at least runs into it deeper than length x half-width."""
    if field_.difficult is None:
        return False
    length = min(roll, field_.edge_stop(sector.nearest_straight))
    return -field_.difficult_clearance(sector.mid, length) > length * sector.half + SLACK


def probe(field_: FallBackField, roll: float, theta: float) -> Probe:
    """The straight move along `theta`, judged with the margins."""
    stop = max(0.0, field_.edge_stop(theta) - EDGE_KEEP_IN)
    full = min(roll, stop)
    touch = field_.difficult_clearance(theta, full)
    halved = touch < 0
    length = min(roll / 2, stop) if halved else full
    unsure = abs(touch) < field_.margin_in
    legal = not unsure and field_.clear_with_margin(theta, length)
    hit = None if legal else field_.worst(theta, length)
    return Probe(theta, length, halved, legal, hit)


def ruled_out(field_: FallBackField, roll: float, sector: Sector) -> RuledOut | None:
    """A proof that no heading of the sector is a legal full fall back, or None."""
    shortest = field_.edge_stop(sector.nearest_straight)
    longest = field_.edge_stop(sector.farthest_straight)
    half = min(roll / 2, shortest)
    hit = field_.worst(sector.mid, half)
    if hit.depth_in > half * sector.half + SLACK:
        return RuledOut(sector, hit, half)
    reach = min(roll, longest)
    if field_.difficult_clearance(sector.mid, reach) > reach * sector.half + SLACK:
        full = min(roll, shortest)
        hit = field_.worst(sector.mid, full)
        if hit.depth_in > full * sector.half + SLACK:
            return RuledOut(sector, hit, full)
    return None


def search(field_: FallBackField, roll: float, *, first_legal: bool = False) -> Search:
    """Best-first over sectors by the progress they could give: stops when the best legal
    heading found is proven best, when every sector is ruled out, or (with `first_legal`)
    at the first legal heading."""
    width = math.pi / SECTORS
    start = [
        Sector(-math.pi / 2 + k * width, -math.pi / 2 + (k + 1) * width) for k in range(SECTORS)
    ]
    heap = [(-upper_progress(field_, roll, s), s) for s in start]
    heapq.heapify(heap)
    out = Search()
    while heap:
        ceiling, sector = heap[0]
        if out.best is not None and out.best.progress_in >= -ceiling - STOP_GAP_IN:
            break
        if out.probes >= MAX_PROBES:
            break
        heapq.heappop(heap)
        out.probes += 1
        tried = probe(field_, roll, sector.mid)
        if tried.legal:
            if out.best is None or tried.progress_in > out.best.progress_in + SLACK:
                out.best = tried
            if first_legal:
                break
            if tried.progress_in < -ceiling - STOP_GAP_IN:
                _split(heap, out, field_, roll, sector)
            continue
        proof = ruled_out(field_, roll, sector)
        if proof is not None:
            out.ruled_out.append(proof)
            continue
        _split(heap, out, field_, roll, sector)
    out.open.extend(s for _, s in heap)
    return out


def _split(heap: list, out: Search, field_: FallBackField, roll: float, sector: Sector) -> None:
    if sector.half * 2 <= MIN_SECTOR_RAD:
        out.open.append(sector)
        return
    for part in sector.halves():
        heapq.heappush(heap, (-upper_progress(field_, roll, part), part))
