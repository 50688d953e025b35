"""The Align Move for a fully aligned charge, as a lexicographic CP-SAT model.

The charger's front lies on the Target Facing's line; its one free number is the slide (see
geometry/rank_and_file/slides.py). Priority 1 (the initial contact point stays in contact) and
the legality of the placement are constraints: the slide must bring the front over a reachable
contact point and must not be blocked. Priorities 3 and 4 (the target's, then the charger's
models in contact) are the objective, weighted so that one more target model outweighs every
charger model: a higher priority is never traded for a lower one.

Candidates are every breakpoint of the two counts, every end of a legal or kept-contact
interval, inside both: the counts are constant between breakpoints and at least as high on
them, so the best candidate is the best slide on the continuous board.
"""

from __future__ import annotations

from dataclasses import dataclass

from chargeopt.geometry.rank_and_file.frame import Segment
from chargeopt.geometry.rank_and_file.obstacles import Obstacle
from chargeopt.geometry.rank_and_file.slides import (
    FAR_IN,
    FacingBases,
    Interval,
    blocked_slides,
    free_slides,
)
from chargeopt.models import Block
from chargeopt.solver.core.lazy_ortools import cp_model

EPS = 1e-9


@dataclass(frozen=True)
class SlideChoice:
    """A chosen slide with its counts (target models, charger models in contact)."""

    slide_in: float
    target_models: int
    charger_models: int


@dataclass(frozen=True)
class AlignOutcome:
    """The best aligned slide keeping a contact point (None when there is none), the best
    ignoring the contact point, the candidates weighed, and who blocks the flush slides."""

    best: SlideChoice | None
    best_anywhere: SlideChoice | None
    candidates: int
    legal: tuple[Interval, ...]
    blockers: tuple[str, ...]


def legal_slides(
    charger: Block, facing: Segment, obstacles: list[Obstacle]
) -> tuple[list[Interval], list[str]]:
    """The flush slides touching the facing that no obstacle blocks, and the obstacles that
    block some of them."""
    blocked, names = [], []
    lo, hi = -charger.width_in, facing.length_in
    for obstacle in obstacles:
        spans = blocked_slides(charger, facing, obstacle.shape, obstacle.clearance_in)
        spans = [s for s in spans if s[1] > lo and s[0] < hi]
        if spans:
            names.append(obstacle.name)
            blocked += spans
    return free_slides(lo, hi, blocked), names


def kept_slides(charger: Block, contact_set: list[Interval]) -> list[Interval]:
    """Slides whose front covers some point of the contact set."""
    return [(lo - charger.width_in, hi) for lo, hi in contact_set]


def intersect(a: list[Interval], b: list[Interval]) -> list[Interval]:
    out = []
    for a0, a1 in a:
        for b0, b1 in b:
            lo, hi = max(a0, b0), min(a1, b1)
            if lo <= hi + EPS:
                out.append((lo, max(lo, hi)))
    return out


def candidates_in(allowed: list[Interval], bases: FacingBases) -> list[float]:
    """Breakpoints inside `allowed`, and the ends of `allowed`."""
    points = {p for iv in allowed for p in iv}
    for p in bases.breakpoints():
        if any(lo - EPS <= p <= hi + EPS for lo, hi in allowed):
            points.add(p)
    return sorted(points)


def best_choice(slides: list[float], bases: FacingBases) -> SlideChoice | None:
    """The lexicographically best slide (target models, then charger models) by CP-SAT."""
    if not slides:
        return None
    counts = [bases.counts(s) for s in slides]
    weight = bases.charger_files + 1
    model = cp_model.CpModel()
    pick = [model.new_bool_var(f"slide{i}") for i in range(len(slides))]
    model.add_exactly_one(pick)
    model.maximize(sum(p * (t * weight + c) for p, (t, c) in zip(pick, counts, strict=True)))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    status = solver.solve(model)
    assert status == cp_model.OPTIMAL
    i = next(i for i, p in enumerate(pick) if solver.value(p))
    # among equals, the slide nearest the facing's middle (the owner's free choice)
    top = counts[i]
    mid = (bases.length_in - bases.charger_base_in * bases.charger_files) / 2
    best = min(
        (s for s, c in zip(slides, counts, strict=True) if c == top), key=lambda s: abs(s - mid)
    )
    return SlideChoice(best, *top)


def align(
    charger: Block,
    facing: Segment,
    bases: FacingBases,
    obstacles: list[Obstacle],
    contact_set: list[Interval],
) -> AlignOutcome:
    """The best fully aligned placement keeping a reachable initial contact point."""
    legal, names = legal_slides(charger, facing, obstacles)
    allowed = intersect(legal, kept_slides(charger, contact_set))
    slides = candidates_in(allowed, bases)
    anywhere = candidates_in(legal, bases)
    return AlignOutcome(
        best_choice(slides, bases),
        best_choice(anywhere, bases),
        len(slides),
        tuple(legal),
        tuple(names),
    )


__all__ = ["FAR_IN", "AlignOutcome", "SlideChoice", "align", "best_choice", "legal_slides"]
