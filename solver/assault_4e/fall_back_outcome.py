"""The results of a fall back that is not one straight move: a bent move (each model's own
path) and the Trapped! verdict proven over every route (40k-assault-4e, seed 001)."""

from __future__ import annotations

import itertools
import math

from chargeopt.models import Placement, Result, ResultAction, Scenario, Status
from chargeopt.solver.assault_4e.fall_back_bent import Bent
from chargeopt.solver.assault_4e.fall_back_field import FallBackField
from chargeopt.solver.assault_4e.fall_back_proof import blocked_headings
from chargeopt.solver.assault_4e.fall_back_reach import furthest_in
from chargeopt.solver.assault_4e.fall_back_search import Search
from chargeopt.solver.assault_4e.fall_back_trapped import Blocked, Verdict
from chargeopt.solver.core.tolerances import JSON_DECIMALS


def bent_result(scenario: Scenario, field: FallBackField, roll: int, bent: Bent) -> Result:
    """A bent move: legal, not proven best (the bound is the roll or the edge)."""
    placements = []
    for m, path in zip(scenario.acting_unit.models, bent.paths, strict=True):
        moved = round(sum(math.dist(a, b) for a, b in itertools.pairwise(path)), JSON_DECIMALS)
        placements.append(
            Placement(model=m.id, x=path[-1][0], y=path[-1][1], z=m.z, moved=moved, path=path)
        )
    length = max(p.moved or 0.0 for p in placements)
    bound = min(float(roll), field.edge_stop_gap_in, furthest_in(field, float(roll)))
    stats: dict[str, object] = {
        "bound_scope": "bent routes",
        "trapped": False,
        "bent": True,
        "heading_deg": round(field.heading_deg(bent.heading_rad), 2),
        "off_straight_deg": round(math.degrees(bent.heading_rad), 2),
        "halved": field.difficult is not None,
        "reached_edge": False,
    }
    return Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=ResultAction.of(scenario.action, roll),
        status=Status.FEASIBLE,
        placements=tuple(placements),
        objective={"progress_in": round(bent.progress_in, 3), "distance_in": length},
        bound={"progress_in": round(bound, 3)},
        stats=stats,
    )


def trapped_result(
    scenario: Scenario, field: FallBackField, roll: int, verdict: Verdict, found: Search
) -> Result:
    """Trapped!, with each range of directions, the model that cannot make the move in it
    and what stops it."""
    ranges = merged(verdict.proven)
    stats: dict[str, object] = {
        "bound_scope": "bent routes",
        "trapped": True,
        "ranges_proven": len(verdict.proven),
        "sectors_ruled_out": len(verdict.proven),
        "blocked_headings": [
            {
                "from_deg": round(field.heading_deg(b.lo), 1),
                "to_deg": round(field.heading_deg(b.hi), 1),
                "model": b.model,
                "runs_into": " and ".join(b.stopped_by),
                "longest_in": round(b.longest_in, 2),
            }
            for b in ranges
        ],
        "blocking": sorted(
            {i for b in field.blockers for r in ranges if b.label in r.stopped_by for i in b.ids}
        ),
        "straight_headings": blocked_headings(field, found),
        "edge": str(scenario.action.table_edge),
    }
    if field.difficult is not None:
        stats["halved_to_in"] = roll / 2
    return Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=ResultAction.of(scenario.action, roll),
        status=Status.INFEASIBLE,
        proof=trapped_words(field, roll, verdict),
        objective={"trapped": 1},
        stats=stats,
    )


def merged(proven: list[Blocked]) -> list[Blocked]:
    """Neighbouring ranges with the same model and the same blockers as one range."""
    out: list[Blocked] = []
    for b in sorted(proven, key=lambda b: b.lo):
        last = out[-1] if out else None
        if last and (last.model, last.stopped_by) == (b.model, b.stopped_by):
            longest = max(last.longest_in, b.longest_in)
            out[-1] = Blocked(last.lo, b.hi, b.model, longest, b.stopped_by)
        else:
            out.append(b)
    return out


def trapped_words(field: FallBackField, roll: int, verdict: Verdict) -> str:
    """The proof in words."""
    move = roll / 2 if field.difficult is not None else float(roll)
    parts = [
        f"{field.heading_deg(b.lo):.1f}-{field.heading_deg(b.hi):.1f}: {b.model} has no route "
        f'longer than {b.longest_in:.2f}" (stopped by {" and ".join(b.stopped_by)})'
        for b in merged(verdict.proven)
    ]
    edge = field.scenario.action.table_edge
    return (
        f'No full fall back of {move:g}" for any direction d within 90 degrees of straight '
        f"toward the {edge} edge (headings in degrees from +x toward +y): {'; '.join(parts)}. "
        "Covered: every route of every model whose legs keep within a quarter turn of d "
        "(every bent route the reading allows; mates and coherency ignored), each bounded "
        f'from above on cells of 0.05" (finer where needed) over {len(verdict.proven)} ranges '
        "of d."
    )
