"""The one-wheel charge of WHFB 6e and TOW, enumerated: forward d1, one wheel of phi about a
front corner (the outer corner's travel counted by the ruleset's metric), forward d2 until the
front first touches the Target Facing, then the free alignment ("closing the door": a turn
about the contact point until flush). Every path gives one end placement (its slide along the
facing), so the charge is a choice among the enumerated paths of those that fit the charge move.

Enumerated rather than a CP-SAT model: each (d1, phi) fixes d2, the slide and both counts by
ray casts, so the choice is a sort, and a path's swept areas (the costly part) are checked
only for the best candidates, lazily. d1 runs over a grid and phi every `PHI_STEP_DEG` plus
the flush angle, then every `FINE_STEP_DEG` around the best angles; between grid points where
the counts change, d1 is bisected to the breakpoint (counts are closed at it), so the reachable
slides are followed closely (to 1/65536 of the grid step) for the few pairs that reach the best
count with the least movement.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from chargeopt.geometry.rank_and_file.frame import BlockPose, Segment, Vec
from chargeopt.geometry.rank_and_file.moves import (
    forward,
    forward_sweep,
    wheel,
    wheel_sweep,
    wheel_travel,
)
from chargeopt.geometry.rank_and_file.obstacles import Obstacle, overlaps
from chargeopt.geometry.rank_and_file.slides import FacingBases, Interval
from chargeopt.geometry.rank_and_file.translate import travel_until_touch
from chargeopt.solver.rank_and_file.approach import first_contact, flush_wheel

PHI_STEP_DEG = 2.0
FINE_STEP_DEG = 0.25
FINE_STEPS = 7
"""Around the best coarse angles (and the shortest path's), phi is swept again this finely."""
MAX_WHEEL_DEG = 90.0
MAX_DOOR_DEG = 90.0
"""A front meeting the facing turned this much or more faces another facing (or meets it
edge-on): no door closes onto it (the checker's door turns less, too)."""
D1_STEP_IN = 0.25
D1_MAX_STEPS = 16
BISECT_STEPS = 16
BISECT_PAIRS = 8
"""At most this many neighbour pairs are bisected: those reaching the best count, least
movement first."""
CLEAR_IN = 0.02
"""A first forward move stops this short of whatever is straight ahead."""
EPS = 1e-9


@dataclass(frozen=True)
class WheelCharge:
    """One path of the family and where closing the door puts the charger."""

    d1_in: float
    phi_deg: float
    d2_in: float
    total_in: float
    point: Vec
    """The initial contact point (on the facing) the door closes about."""
    slide_in: float
    target_models: int
    charger_models: int
    arrival: BlockPose

    @property
    def moves(self) -> tuple[tuple[str, float], ...]:
        return (("forward", self.d1_in), ("wheel", self.phi_deg), ("forward", self.d2_in))

    def key(self) -> tuple[int, int, float]:
        """Most models of both sides, then of the charger, then the least movement."""
        return (self.target_models + self.charger_models, self.charger_models, -self.total_in)


@dataclass(frozen=True)
class Family:
    """What the enumeration covers, for the proof."""

    charges: tuple[WheelCharge, ...]
    tried: int
    d1_step_in: float
    d1_max_in: float
    straight: bool = False
    """Only the straight charge: it covers just the gap and brings in the most possible."""

    def scope(self) -> str:
        """The paths searched, in words."""
        if self.straight:
            return "straight ahead, as short as the gap between the units, so no path is shorter"
        return (
            f'forward 0 to {self.d1_max_in:.2f}" every {self.d1_step_in:.2f}" (count '
            f"breakpoints bisected), one wheel every {PHI_STEP_DEG:g} degrees ({FINE_STEP_DEG:g} "
            "near the best) and the flush angle, forward into contact"
        )


def enumerate_charges(
    start: BlockPose,
    target: BlockPose,
    facing: Segment,
    bases: FacingBases,
    legal: list[Interval],
    obstacles: list[Obstacle],
    metric: str,
    budget_in: float = math.inf,
    best_flush: tuple[int, int] | None = None,
) -> Family:
    """Every path of the family of at most `budget_in` whose door closes onto a legal flush
    slide (sweeps unchecked: see `path_blocker`); only the straight charge when it covers just
    the gap between the units and brings in `best_flush` (both sides, charger), the most any
    flush slide allows: then no path is better on any count."""
    ring = target.ring
    gap = start.polygon.distance(target.polygon)
    straight = path_charge(start, 0.0, 0.0, ring, facing, bases, legal, metric)
    if (
        straight is not None
        and straight.key()[:2] == best_flush
        and straight.total_in <= min(gap + EPS, budget_in)
        and path_blocker(start, straight.moves, target, obstacles) is None
    ):
        return Family((straight,), 1, 0.0, 0.0, straight=True)
    ahead = min(
        straight_room(start, obstacles, target),
        math.dist(start.front_centre, target.front_centre) + target.depth_in,
        budget_in,
    )
    step = max(D1_STEP_IN, ahead / D1_MAX_STEPS)
    d1s = [i * step for i in range(int(max(ahead, 0.0) / step) + 1)]
    n = int(MAX_WHEEL_DEG / PHI_STEP_DEG)
    flush = round(flush_wheel(start, facing), 9)
    grid = Grid(start, ring, facing, bases, legal, metric, budget_in, d1s)
    grid.sweep(sorted({i * PHI_STEP_DEG for i in range(-n, n + 1)} | {flush}))
    picks = set()
    if grid.found:
        picks.add(max(grid.found, key=WheelCharge.key).phi_deg)
        picks.add(min(grid.found, key=lambda c: c.total_in).phi_deg)
    fine = {
        round(p + k * FINE_STEP_DEG, 9)
        for p in picks
        for k in range(-FINE_STEPS, FINE_STEPS + 1)
        if k != 0
    }
    grid.sweep(sorted(fine - grid.swept))
    grid.bisect()
    return Family(tuple(grid.found), grid.tried, step, d1s[-1] if d1s else 0.0)


@dataclass
class Grid:
    """The paths swept so far over (phi, d1), and neighbours whose counts differ."""

    start: BlockPose
    ring: list[Vec]
    facing: Segment
    bases: FacingBases
    legal: list[Interval]
    metric: str
    budget_in: float
    d1s: list[float]
    found: list[WheelCharge] = field(default_factory=list)
    pairs: list[tuple[WheelCharge, WheelCharge]] = field(default_factory=list)
    swept: set[float] = field(default_factory=set)
    tried: int = 0

    def one(self, d1: float, phi: float) -> WheelCharge | None:
        return path_charge(
            self.start, d1, phi, self.ring, self.facing, self.bases, self.legal, self.metric
        )

    def sweep(self, phis: list[float]) -> None:
        for phi in phis:
            if abs(phi) > MAX_WHEEL_DEG + EPS:
                continue
            self.swept.add(phi)
            travel = wheel_travel(self.start.width_in, phi, self.metric)
            row: list[WheelCharge | None] = []
            for d1 in self.d1s if phi != 0 else [0.0]:
                if d1 + travel > self.budget_in + EPS:
                    break
                self.tried += 1
                row.append(self.one(d1, phi))
            self.pairs += [
                (a, b)
                for a, b in itertools.pairwise(row)
                if a is not None and b is not None and a.key()[:2] != b.key()[:2]
            ]
            self.found += [c for c in row if c is not None and c.total_in <= self.budget_in + EPS]

    def best(self) -> tuple[int, int]:
        return max((c.key()[:2] for c in self.found), default=(0, 0))

    def bisect(self) -> None:
        """Each pair of neighbours straddling the best count, bisected in d1 to the count's
        breakpoint (counts are closed there)."""
        best = self.best()
        pairs = [
            (a, b)
            for a, b in self.pairs
            if max(a.key()[:2], b.key()[:2]) >= best
            and min(a.total_in, b.total_in) <= self.budget_in
        ]
        pairs.sort(key=lambda ab: min(ab[0].total_in, ab[1].total_in))
        for a, b in pairs[:BISECT_PAIRS]:
            self.tried += BISECT_STEPS
            lo, hi = a, b
            for _ in range(BISECT_STEPS):
                mid = self.one((lo.d1_in + hi.d1_in) / 2, a.phi_deg)
                if mid is None:
                    break
                if mid.key()[:2] == lo.key()[:2]:
                    lo = mid
                else:
                    hi = mid
            self.found += [c for c in (lo, hi) if c.total_in <= self.budget_in + EPS]


def path_charge(
    start: BlockPose,
    d1: float,
    phi: float,
    ring: list[Vec],
    facing: Segment,
    bases: FacingBases,
    legal: list[Interval],
    metric: str,
) -> WheelCharge | None:
    """The path forward d1, wheel phi, forward into contact, the door closed: where it ends
    (None: the front does not meet the facing, the door would turn 90 degrees or more (the
    front then meets the facing edge-on or faces another facing), or the end slide is not legal)."""
    met = first_contact(forward(start, d1), phi, ring, facing)
    if met is None:
        return None
    _, d2, _, (lo, hi), arrival = met
    if abs(flush_wheel(arrival, facing)) >= MAX_DOOR_DEG - EPS:
        return None
    if hi > lo:
        slide = facing.along(arrival.corners["front-left"])
        s = (lo + hi) / 2
    else:
        s = lo
        slide = s - arrival.local(facing.point_at(s))[0]
    if not any(a - EPS <= slide <= b + EPS for a, b in legal):
        return None
    t, c = bases.counts(slide)
    total = d1 + wheel_travel(start.width_in, phi, metric) + d2
    return WheelCharge(d1, phi, d2, total, facing.point_at(s), slide, t, c, arrival)


def straight_room(start: BlockPose, obstacles: list[Obstacle], target: BlockPose) -> float:
    """How far the block can go straight ahead before touching anything (the target too)."""
    best = math.inf
    for shape in [o.shape for o in obstacles] + [target.polygon]:
        hit = travel_until_touch(start.polygon, start.forward, shape)
        if hit is not None:
            best = min(best, hit[0])
    return max(0.0, best - CLEAR_IN)


def path_blocker(
    start: BlockPose,
    moves: tuple[tuple[str, float], ...],
    target: BlockPose,
    obstacles: list[Obstacle],
    ends_in_contact: bool = True,
) -> str | None:
    """What a path runs into (None: clear): an obstacle its sweeps meet, or the target
    touched before the last move (at all, unless `ends_in_contact`) or overlapped."""
    pose = start
    for n, (kind, amount) in enumerate(moves):
        if kind == "forward":
            area, pose = forward_sweep(pose, amount), forward(pose, amount)
        else:
            area, pose = wheel_sweep(pose, amount), wheel(pose, amount)
        if amount == 0 and n < len(moves) - 1:
            continue
        for o in obstacles:
            if o.blocks(area):
                return o.name
        last = n == len(moves) - 1 and ends_in_contact
        if (not last and area.distance(target.polygon) <= EPS) or overlaps(area, target.polygon):
            return "the target itself"
    return None
