"""The Trapped! proof over every route the reading allows (40k-assault-4e, seed 001): the
directions d, from straight toward the own edge to a quarter turn either way, are taken whole
and then split into ranges; a range [d0, d1] is proven when some model's longest path with
headings within a quarter turn of it (from above, `fall_back_reach`) falls short of the move
and no model could touch its own edge within the move. Ranges neither proven nor too narrow to
split are split in two; what is left is open."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from chargeopt.solver.assault_4e.fall_back_field import FallBackField
from chargeopt.solver.assault_4e.fall_back_reach import CELL_IN, EDGE_TOUCH_IN, ModelCells, Reach

START_RANGES = 8
MIN_RANGE_RAD = math.radians(2.5)
MAX_RANGES = 48
"""Ranges examined at most per move length (each costs a scan per model and cone)."""
QUARTER = math.pi / 2
FINE_CELL_IN = 0.01
FINE_CELLS = 400
"""Open ranges are tried again on cells of reach / 400, at least 0.01"."""
FULL_SLACK_IN = 0.0021
"""The checker counts a path this much short of the move as full (two written positions)."""


@dataclass(frozen=True)
class Blocked:
    """A range of d (radians from straight back) and the model that cannot make the move in
    it, with its longest path from above and what stops it."""

    lo: float
    hi: float
    model: str
    longest_in: float
    stopped_by: tuple[str, ...]


@dataclass
class Verdict:
    """The ranges proven and those left open for one move length."""

    proven: list[Blocked] = field(default_factory=list)
    open: list[tuple[float, float]] = field(default_factory=list)

    @property
    def trapped(self) -> bool:
        return not self.open


class TrappedProver:
    """Built once per scenario for the longest move asked; each range's bounds are kept."""

    def __init__(
        self, field_: FallBackField, longest_move_in: float, cell_in: float = CELL_IN
    ) -> None:
        self.field = field_
        self.cell_in = cell_in
        self.reach_in = longest_move_in + 0.5
        self._fine: TrappedProver | None = None
        self._cells: dict[int, ModelCells] = {}
        self._known: dict[tuple[float, float, int], Reach] = {}
        self._last = 0

    def bound(self, lo: float, hi: float, model: int) -> Reach:
        """One model's reach for d in [lo, hi]: its legs within a quarter turn on either
        side of d, the longer of the two."""
        key = (lo, hi, model)
        if key not in self._known:
            if model not in self._cells:
                self._cells[model] = ModelCells(self.field, model, self.reach_in, self.cell_in)
            cells = self._cells[model]
            one = cells.reach(lo, min(hi + QUARTER, QUARTER))
            other = cells.reach(max(lo - QUARTER, -QUARTER), hi)
            self._known[key] = Reach(
                max(one.longest_in, other.longest_in),
                min(one.edge_in, other.edge_in),
                tuple(sorted(set(one.stopped_by) | set(other.stopped_by))),
            )
        return self._known[key]

    def prove(self, move_in: float, *, most_ranges: int = MAX_RANGES) -> Verdict:
        """Whether no full fall back of `move_in` exists for any d, range by range (at most
        `most_ranges` examined; the rest is left open)."""
        width = math.pi / START_RANGES
        todo = [(-QUARTER + k * width, -QUARTER + (k + 1) * width) for k in range(START_RANGES)]
        todo.reverse()
        out = Verdict()
        examined = 0
        while todo:
            lo, hi = todo.pop()
            examined += 1
            blocked = self._blocked(lo, hi, move_in)
            if blocked is not None:
                out.proven.append(blocked)
            elif hi - lo > 2 * MIN_RANGE_RAD and examined < most_ranges:
                mid = (lo + hi) / 2
                todo += [(mid, hi), (lo, mid)]
            else:
                out.open.append((lo, hi))
        if out.open and most_ranges >= MAX_RANGES:
            self._refine(out, move_in)
        out.proven.sort(key=lambda b: b.lo)
        return out

    def _refine(self, out: Verdict, move_in: float) -> None:
        """The ranges left open tried again on finer cells (a bound closer to the truth)."""
        fine_in = max(FINE_CELL_IN, self.reach_in / FINE_CELLS)
        if fine_in >= self.cell_in:
            return
        self._fine = self._fine or TrappedProver(self.field, self.reach_in - 0.5, fine_in)
        still = []
        for lo, hi in out.open:
            blocked = self._fine._blocked(lo, hi, move_in)
            if blocked is None:
                still.append((lo, hi))
            else:
                out.proven.append(blocked)
        out.open = still

    def _blocked(self, lo: float, hi: float, move_in: float) -> Blocked | None:
        """Some model that cannot make the move for any d of the range, tried in the order
        of the last one found, when no model could reach its own edge within the move."""
        n = len(self.field.model_ids)
        if float(self.field.edge_gaps.min()) - EDGE_TOUCH_IN <= move_in and any(
            self.bound(lo, hi, i).edge_in <= move_in for i in range(n)
        ):
            return None
        for i in sorted(range(n), key=lambda i: i != self._last):
            r = self.bound(lo, hi, i)
            if r.longest_in < move_in - FULL_SLACK_IN:
                self._last = i
                return Blocked(lo, hi, self.field.model_ids[i], r.longest_in, r.stopped_by)
        return None
