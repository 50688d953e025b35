"""The minimum roll, searched and reported honestly. A placement legal at roll r is legal at
every larger roll (models may move less than the roll), and on one set of candidates a roll
with no placement has none at any smaller roll either; so each roll's outcome settles others,
and the smallest roll with a placement lies in an interval that every answer states. A roll
cut short by the time limit is only that: it is retried (the highest first, since no placement
there settles every roll below it) before the minimum is reported, and if it stays open the
answer says so."""

from __future__ import annotations

from dataclasses import dataclass, field

from chargeopt.solver.core import clock
from chargeopt.solver.forty_k.charge_roll import solve_at

FIRST_PASS_SHARE = 0.5
"""The first pass (each roll in turn, from the smallest, until one has a placement) may use
this share of the search's time; the retries of rolls it cut short have the rest."""
RETRY_MIN_S = 1.0
"""A retried roll gets at least this (a roll a direct solve settles in under a second must be
settled), within the search's time."""
RETRY_ROUNDS = 3
"""Rounds over the rolls left open; each gives every open roll an even share of what is left."""


@dataclass
class RollOutcomes:
    """What is known of each roll from `lower` (below it the straight line rules every roll
    out) to `top`: rolls with a placement on the candidates (with it), rolls with none
    (CP-SAT proved it), and rolls cut short."""

    lower: int
    top: int
    found: dict[int, dict[str, int]] = field(default_factory=dict)
    none: set[int] = field(default_factory=set)
    cut: set[int] = field(default_factory=set)

    def record(self, roll: int, placed: dict[str, int] | None, settled: bool) -> None:
        """One solve's outcome at `roll`: a placement, none (`settled`), or cut short."""
        self.cut.discard(roll)
        if placed is not None:
            self.found[roll] = placed
        elif settled:
            self.none.add(roll)
        else:
            self.cut.add(roll)

    @property
    def min_found(self) -> int | None:
        """The smallest roll with a placement (every larger roll has one too)."""
        return min(self.found) if self.found else None

    @property
    def none_up_to(self) -> int:
        """Every roll up to this has no placement on the candidates (lower - 1 if none known)."""
        return max(self.none, default=self.lower - 1)

    def known(self, roll: int) -> bool:
        """Whether the outcome at `roll` follows from what was found."""
        best = self.min_found
        return roll <= self.none_up_to or (best is not None and roll >= best)

    def open_rolls(self) -> list[int]:
        """The rolls whose outcome is not known, smallest first."""
        return [r for r in range(self.lower, self.top + 1) if not self.known(r)]

    @property
    def settled(self) -> bool:
        """Whether every roll below the smallest with a placement (every roll, if none has one)
        is known to have none on the candidates."""
        return not self.open_rolls()

    def first_placement(self) -> tuple[int | None, dict[str, int] | None]:
        best = self.min_found
        return best, (self.found[best] if best is not None else None)

    def basis(self) -> str:
        """How the minimum roll was found, in words (`stats.min_roll_basis`)."""
        best = self.min_found
        words = [
            f"rolls below {self.lower} cannot bring any model within engagement range of every "
            "target (straight-line edge distance)"
        ]
        last_none = min(self.none_up_to, (best or self.top + 1) - 1)
        if last_none >= self.lower:
            words.append(
                f"rolls {self.lower} to {last_none} found no placement on the candidates"
                if last_none > self.lower
                else f"roll {self.lower} found no placement on the candidates"
            )
        open_ = self.open_rolls()
        if open_:
            words.append(f"{_rolls(open_)} not settled within the time, so a smaller roll may work")
        if len(words) == 1:
            words.append("none between")
        return "; ".join(words)


def _rolls(rolls: list[int]) -> str:
    if len(rolls) == 1:
        return f"roll {rolls[0]} was"
    if rolls == list(range(rolls[0], rolls[-1] + 1)):
        return f"rolls {rolls[0]} to {rolls[-1]} were"
    return "rolls " + ", ".join(str(r) for r in rolls) + " were"


def search_min_roll(c, scenario, options, outcomes: RollOutcomes, deadline: float) -> None:
    """Fill `outcomes` until the smallest roll with a placement is known or the time is up:
    each open roll in turn from the smallest, with an even share of half the time, until one
    has a placement; then rounds over the rolls left open, the highest first, with the rest."""
    first_end = clock.now() + (deadline - clock.now()) * FIRST_PASS_SHARE
    pending = outcomes.open_rolls()
    for i, roll in enumerate(pending):
        if outcomes.min_found is not None:
            break
        share = (first_end - clock.now()) / (len(pending) - i)
        if share <= 0.01:
            break
        _try(c, scenario, options, outcomes, roll, clock.now() + share)
    for _ in range(RETRY_ROUNDS):
        open_ = outcomes.open_rolls()
        for roll in reversed(open_):
            left = deadline - clock.now()
            if left <= 0.05:
                return
            if outcomes.known(roll):
                continue
            still = sum(1 for r in open_ if r <= roll and not outcomes.known(r))
            share = min(left, max(RETRY_MIN_S, left / still))
            _try(c, scenario, options, outcomes, roll, clock.now() + share)
        if not outcomes.open_rolls():
            return


def _try(c, scenario, options, outcomes: RollOutcomes, roll: int, deadline: float) -> None:
    state = solve_at(c, scenario, roll, options, full=False, feasibility=True, deadline=deadline)
    outcomes.record(roll, state.assignment, state.status == "INFEASIBLE")
