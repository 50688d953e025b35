"""A one-wheel charge (WHFB 6e, TOW) against one target, planned: the Target Facing from the
ruleset's arc rule, the legal flush slides and the best count any of them allows (the bound),
the enumerated paths and, for every end slide, the least path length over every path
(`wheel_reach.py`) with the path that attains it; then the best path within a charge move, and
the shortest path."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from chargeopt.geometry.rank_and_file.frame import BlockPose, Segment
from chargeopt.geometry.rank_and_file.obstacles import Obstacle, table_obstacles
from chargeopt.geometry.rank_and_file.slides import FacingBases, Interval, facing_bases
from chargeopt.models import Block, RankAndFileScenario
from chargeopt.solver.rank_and_file.align import candidates_in, legal_slides
from chargeopt.solver.rank_and_file.one_wheel import (
    Family,
    WheelCharge,
    enumerate_charges,
    path_blocker,
    path_charge,
)
from chargeopt.solver.rank_and_file.opening import open_ruling
from chargeopt.solver.rank_and_file.ruling import Ruling
from chargeopt.solver.rank_and_file.wheel_reach import (
    SlideRegion,
    Witness,
    paths_to,
    slide_regions,
)

REACH_EPS_IN = 1e-9
OTHER_STEPS = 36
"""Where the least path to a better slide is blocked, paths to it at 37 wheel angles a side
(every 2.5 degrees) are tried too."""
CLEAR_CHECKS = 40
"""At most this many of the best paths are checked for a clear one before trying others."""


@dataclass
class WheelPlan:
    """Everything about charging one target that does not depend on the charge move."""

    ruling: Ruling
    charger: Block
    target: Block
    start: BlockPose
    target_pose: BlockPose
    facing: Segment
    bases: FacingBases
    legal: list[Interval]
    obstacles: list[Obstacle]
    family: Family
    bound: tuple[int, int] | None
    """(both sides, charger) in contact at the best legal flush slide, reach ignored."""
    blocked: set[int]
    regions: list[SlideRegion]
    """Every legal end slide with its counts and least path length (over every path)."""

    def path_bound(self, charge_move_in: float) -> tuple[int, int] | None:
        """(both sides, charger) at the best end slide some path of at most `charge_move_in`
        may reach (open ground: a ceiling anywhere on the table)."""
        keys = [r.key() for r in self.regions if r.reach.lower_in <= charge_move_in + REACH_EPS_IN]
        return max(keys, default=None)

    def least_lower(self, key: tuple[int, int] = (0, 0), strict: bool = False) -> float:
        """No path shorter than this brings at least `key` in contact (more, if `strict`;
        inf: none at all)."""
        return min(
            (
                r.reach.lower_in
                for r in self.regions
                if (r.key() > key if strict else r.key() >= key)
            ),
            default=math.inf,
        )

    def best_within(self, charge_move_in: float) -> WheelCharge | None:
        """The best path of at most `charge_move_in` whose sweeps are clear."""
        fits = [c for c in self.family.charges if c.total_in <= charge_move_in + 1e-9]
        return self._first_clear(sorted(fits, key=WheelCharge.key, reverse=True))

    def shortest(self) -> WheelCharge | None:
        """The clear path of least movement (any count in contact)."""
        return self._first_clear(sorted(self.family.charges, key=lambda c: c.total_in))

    def _first_clear(self, ordered: list[WheelCharge]) -> WheelCharge | None:
        for charge in ordered:
            if id(charge) in self.blocked:
                continue
            if path_blocker(self.start, charge.moves, self.target_pose, self.obstacles) is None:
                return charge
            self.blocked.add(id(charge))
        return None


def plan_charge(
    scenario: RankAndFileScenario, roll: int | None, budget_in: float = math.inf
) -> WheelPlan:
    """The plan of the scenario's charger against the scenario's target, over the paths of at
    most `budget_in`."""
    charger, target = scenario.acting_unit, scenario.target
    ruling = open_ruling(scenario, charger.id, roll)
    ruling.outcome = "charges"
    start, target_pose = BlockPose.of(charger), BlockPose.of(target)
    assert ruling.arc is not None
    facing = target_pose.facing_segment(ruling.arc)
    obstacles = table_obstacles(scenario, {charger.id, target.id})
    bases = facing_bases(target, target_pose, facing, charger)
    legal, _ = legal_slides(charger, facing, obstacles)
    counts = [bases.counts(s) for s in candidates_in(legal, bases)]
    bound = max(((t + c, c) for t, c in counts), default=None)
    family = enumerate_charges(
        start,
        target_pose,
        facing,
        bases,
        legal,
        obstacles,
        scenario.rules.wheel_metric,
        budget_in,
        bound,
    )
    regions = slide_regions(
        start, facing, bases.counts, bases.breakpoints(), legal, scenario.rules.wheel_metric
    )
    exact = tuple(
        c
        for r in regions
        if r.reach.witness is not None
        and (c := _exact(start, target_pose, facing, bases, legal, r, scenario.rules.wheel_metric))
    )
    family = replace(family, charges=family.charges + exact, tried=family.tried + len(regions))
    found = _clear_best(start, target_pose, obstacles, family, budget_in)
    others = tuple(
        c
        for r in regions
        if budget_in < math.inf and r.key() > found and r.reach.lower_in <= budget_in + REACH_EPS_IN
        for w in paths_to(start, facing, r.lo_in, r.hi_in, scenario.rules.wheel_metric, OTHER_STEPS)
        if w.length_in <= budget_in + REACH_EPS_IN
        and (c := _replay(start, target_pose, facing, bases, legal, w, scenario.rules.wheel_metric))
    )
    family = replace(family, charges=family.charges + others, tried=family.tried + len(others))
    return WheelPlan(
        ruling,
        charger,
        target,
        start,
        target_pose,
        facing,
        bases,
        legal,
        obstacles,
        family,
        bound,
        set(),
        regions,
    )


def _exact(
    start: BlockPose,
    target_pose: BlockPose,
    facing: Segment,
    bases: FacingBases,
    legal: list[Interval],
    region: SlideRegion,
    metric: str,
) -> WheelCharge | None:
    """The least path to the region, replayed by ray casts (None: it touches elsewhere)."""
    assert region.reach.witness is not None
    return _replay(start, target_pose, facing, bases, legal, region.reach.witness, metric)


def _replay(
    start: BlockPose,
    target_pose: BlockPose,
    facing: Segment,
    bases: FacingBases,
    legal: list[Interval],
    w: Witness,
    metric: str,
) -> WheelCharge | None:
    return path_charge(start, w.d1_in, w.phi_deg, target_pose.ring, facing, bases, legal, metric)


def _clear_best(
    start: BlockPose,
    target_pose: BlockPose,
    obstacles: list[Obstacle],
    family: Family,
    budget_in: float,
) -> tuple[int, int]:
    """The best count a clear path of the family brings within `budget_in` ((0, 0): none)."""
    fits = sorted(
        (c for c in family.charges if c.total_in <= budget_in + REACH_EPS_IN),
        key=WheelCharge.key,
        reverse=True,
    )
    for c in fits[:CLEAR_CHECKS]:
        if path_blocker(start, c.moves, target_pose, obstacles) is None:
            return c.key()[:2]
    return (0, 0)
