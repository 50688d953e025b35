"""An independent search of one-wheel charges (WHFB 6e, TOW), to refute chargeopt's answers
and its least-path-length ceiling: forward d1, one wheel phi, forward into first touch, the door
closed about the touching point, over a dense grid and random draws of (d1, phi), sharing none
of the solver's path sampling or its bound; every end is counted with the bases themselves.

Run: `python -m chargeopt.solver.bench.wheel_search [--generated 40] [--seed 0] [SCENARIO...]`.
"""

from __future__ import annotations

import argparse
import math
import random
from dataclasses import dataclass
from typing import Any

from chargeopt.geometry.rank_and_file.frame import BlockPose, Segment, heading_of, model_bases
from chargeopt.geometry.rank_and_file.moves import (
    forward,
    forward_sweep,
    rotate_about,
    wheel,
    wheel_sweep,
    wheel_travel,
)
from chargeopt.geometry.rank_and_file.obstacles import table_obstacles
from chargeopt.geometry.rank_and_file.translate import travel_until_touch
from chargeopt.models import RankAndFileScenario
from chargeopt.solver.loading import checked_scenario, load_checked_scenario

CONTACT_IN = 1e-6


@dataclass(frozen=True)
class Found:
    """The best end the search found: (both sides, charger) in contact, and its path."""

    key: tuple[int, int]
    d1_in: float
    phi_deg: float
    length_in: float


def search(
    scenario: RankAndFileScenario, facing_name: str, budget_in: float, draws: int, seed: int
) -> Found | None:
    """The best legal end against `facing_name` over a grid of (d1, phi) and `draws` random
    ones, paths of at most `budget_in`."""
    charger, target = scenario.acting_unit, scenario.target
    start, tpose = BlockPose.of(charger), BlockPose.of(target)
    facing = tpose.facing_segment(facing_name)
    obstacles = table_obstacles(scenario, {charger.id, target.id})
    targets = [b for _, _, _, b in model_bases(target, tpose)]
    metric = scenario.rules.wheel_metric
    rng = random.Random(seed)
    d1_top = max(0.0, budget_in)
    grid = [(d1_top * i / 24, -90 + 0.5 * k) for i in range(25) for k in range(361)]
    draws_ = [(rng.uniform(0, d1_top), rng.uniform(-90, 90)) for _ in range(draws)]
    best: Found | None = None
    for d1, phi in grid + draws_:
        arrived = simulate(start, tpose, facing, d1, phi, metric, budget_in)
        if arrived is None:
            continue
        end, d2, length = arrived
        if not _clear(start, d1, phi, d2, end, tpose, obstacles):
            continue
        mine = [b for _, _, _, b in model_bases(charger, end)]
        t = sum(1 for b in targets if any(b.distance(m) <= CONTACT_IN for m in mine))
        c = sum(1 for m in mine if any(m.distance(b) <= CONTACT_IN for b in targets))
        found = Found((t + c, c), d1, phi, length)
        if best is None or (found.key, -found.length_in) > (best.key, -best.length_in):
            best = found
    return best


def simulate(
    start: BlockPose,
    tpose: BlockPose,
    facing: Segment,
    d1: float,
    phi: float,
    metric: str,
    budget_in: float = math.inf,
) -> tuple[BlockPose, float, float] | None:
    """Forward d1, wheel phi, forward until the block first touches the target, the door
    closed about the touching point: (end, d2, path length); None when the first touch is not
    on `facing` or the path is longer than `budget_in`."""
    length0 = d1 + wheel_travel(start.width_in, phi, metric)
    if length0 > budget_in:
        return None
    turned = wheel(forward(start, d1), phi)
    if turned.polygon.intersection(tpose.polygon).area > 1e-9:
        return None
    hit = travel_until_touch(turned.polygon, turned.forward, tpose.polygon)
    if hit is None:
        return None
    d2, point = hit
    if forward(turned, d2).polygon.intersection(tpose.polygon).area > 1e-9:
        return None
    if length0 + d2 > budget_in or abs(facing.out(point)) > 1e-7:
        return None
    if not -1e-7 <= facing.along(point) <= facing.length_in + 1e-7:
        return None
    arrived = forward(turned, d2)
    flush = heading_of((-facing.normal[0], -facing.normal[1]))
    turn = (flush - arrived.facing + 180.0) % 360.0 - 180.0
    end = rotate_about(arrived, point, turn)
    if any(abs(facing.out(end.corners[c])) > 1e-6 for c in ("front-left", "front-right")):
        return None
    return end, d2, length0 + d2


def _clear(start, d1, phi, d2, end, tpose, obstacles) -> bool:
    """No sweep meets an obstacle, the target is not touched before the last move, and the
    end overlaps nothing."""
    moved = forward(start, d1)
    sweeps = [forward_sweep(start, d1), wheel_sweep(moved, phi)]
    last = forward_sweep(wheel(moved, phi), d2)
    for o in obstacles:
        if any(o.blocks(s) for s in [*sweeps, last, end.polygon]):
            return False
    early = [s for s, amount in zip(sweeps, (d1, phi), strict=True) if amount]
    return all(s.distance(tpose.polygon) > 1e-9 for s in early)


def generated(n: int, seed: int) -> list[RankAndFileScenario]:
    """`n` seeded 6e/TOW charges: a target near the middle, a charger 2-11" from it at a
    random bearing and facing roughly toward it; every third with a rock part way between."""
    rng = random.Random(seed)
    out: list[RankAndFileScenario] = []
    while len(out) < n:
        k = len(out)
        ruleset = "whfb-6e" if k % 2 == 0 else "tow"
        files, ranks = rng.randint(3, 6), rng.randint(2, 3)
        bearing = rng.uniform(0, 360)
        dist = rng.uniform(2, 11)
        tfacing = rng.choice([0.0, 90.0, 180.0, -90.0]) + rng.uniform(-20, 20)
        cx, cy = (
            24 + dist * math.cos(math.radians(bearing)),
            24 + dist * math.sin(math.radians(bearing)),
        )
        facing = bearing + 180 + rng.uniform(-50, 50)
        doc: dict[str, Any] = {
            "name": f"generated-{seed}-{k}",
            "ruleset": ruleset,
            "board": {"width": 48.0, "height": 48.0},
            "units": [
                _unit("A", "attacker", cx, cy, facing, files, ranks, rng.randint(3, 6)),
                _unit("B", "defender", 24.0, 24.0, tfacing, rng.randint(3, 6), 2, 4),
            ],
            "action": {"kind": "charge", "targets": ["B"], "unit": "A"},
        }
        if ruleset == "tow":
            doc["action"]["roll"] = rng.randint(7, 12)
        if k % 3 == 2:  # a rock across the way, part way between the units
            t = rng.uniform(0.3, 0.7)
            mx, my = cx + t * (24 - cx), cy + t * (24 - cy)
            a = math.radians(bearing + 90 + rng.uniform(-30, 30))
            half, deep = rng.uniform(0.5, 1.5), 0.25
            u, v = (math.cos(a), math.sin(a)), (-math.sin(a), math.cos(a))
            corners = [(sx, sy) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
            doc["terrain"] = [
                {
                    "id": "rock-0",
                    "kind": "impassable",
                    "path": [
                        [
                            round(mx + sx * half * u[0] + sy * deep * v[0], 4),
                            round(my + sx * half * u[1] + sy * deep * v[1], 4),
                        ]
                        for sx, sy in corners
                    ],
                }
            ]
        try:
            scenario = checked_scenario(doc, doc["name"])
        except Exception:
            continue
        out.append(scenario)  # type: ignore[arg-type]
    return out


def _unit(uid, owner, x, y, facing, files, ranks, movement) -> dict[str, Any]:
    # the block's (x, y) is its front-left corner: put the front centre at (x, y)
    w = files * 25 / 25.4
    r = (-math.sin(math.radians(facing)), math.cos(math.radians(facing)))
    return {
        "id": uid,
        "owner": owner,
        "files": files,
        "ranks": ranks,
        "base": "25x25mm",
        "x": round(x - r[0] * w / 2, 4),
        "y": round(y - r[1] * w / 2, 4),
        "facing": round(facing, 3),
        "profile": {"movement": movement},
    }


def compare(scenario: RankAndFileScenario, draws: int, seed: int) -> dict[str, Any]:
    """chargeopt's answer, its ceiling and the search's best, for one charge."""
    from chargeopt.solver.options import SolveOptions
    from chargeopt.solver.rank_and_file.wheel_charge import charge_move_of, solve_wheel_charge
    from chargeopt.solver.rank_and_file.wheel_plan import plan_charge

    result = solve_wheel_charge(scenario, SolveOptions())
    budget = charge_move_of(scenario, scenario.action.roll)
    block = result.blocks[0] if result.blocks else {}
    answer = None
    if result.status.value in ("optimal", "feasible") and not block.get("redirected_from"):
        t, c = block.get("target_models_in_contact", 0), block.get("models_in_contact", 0)
        answer = (t + c, c)
    plan = plan_charge(scenario, scenario.action.roll)
    facing = plan.facing.name
    ceiling = plan.path_bound(budget)
    found = search(scenario, facing, budget, draws, seed)
    return {
        "name": scenario.name,
        "status": result.status.value,
        "answer": answer,
        "ceiling": ceiling,
        "search": found.key if found else None,
        "beaten": found is not None and (answer is None or found.key > answer),
        "above_ceiling": found is not None and (ceiling is None or found.key > ceiling),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("scenarios", nargs="*")
    parser.add_argument("--generated", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--draws", type=int, default=3000)
    args = parser.parse_args()
    cases = [load_checked_scenario(p) for p in args.scenarios]
    cases += generated(args.generated, args.seed)
    beaten = above = 0
    for scenario in cases:
        row = compare(scenario, args.draws, args.seed)  # type: ignore[arg-type]
        beaten += row["beaten"]
        above += row["above_ceiling"]
        print(row)
    print(f"{len(cases)} charges: the search beats chargeopt on {beaten}, its ceiling on {above}")


if __name__ == "__main__":
    main()
