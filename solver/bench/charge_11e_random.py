"""The 40k-11e charge by a randomised greedy with restarts, independent of the solver's
candidates, models and proofs (geometry, models and the checker only), to refute its
`optimal` (a placement with more models within 1", or as many and more engaged) and its
`infeasible` (any legal placement). Each restart takes the models in a random order (the
nearest first on even restarts); each model takes the best of many random spots: within 1" or
within 2" of a target model at random gaps and angles, beside a placed mate, or straight toward
the targets; it must reach its spot along a legal path (climbing over tall dense areas as the
checker costs it; taking to the skies, the roll less 2" in a straight line), end closer,
clear of every base and of non-targets' range, beside a placed mate and within 9" of every
one, each limit kept `KEPT_IN` inside as the solver keeps its margins. Every answer is judged
by the checker without its duty witnesses (they test local optimality, not legality).

`python -m chargeopt.solver.bench.charge_11e_random --generated 20 --seed 1` prints one line
per charge and the counts; a refutation exits 1."""

from __future__ import annotations

import argparse
import math
import random
import sys
from dataclasses import dataclass

from chargeopt.geometry import Battlefield, Footprint, edge_distance
from chargeopt.geometry.checker import check_placement
from chargeopt.geometry.checker.path_lengths import path_length
from chargeopt.geometry.move_state import MoveState
from chargeopt.geometry.paths import legal_move_length
from chargeopt.models import Placement, Scenario, ScenarioError, Status
from chargeopt.models.errors import IneligibleMoveError

RESTARTS = 24
KEPT_IN = 0.012
"""Kept inside every limit, as the solver keeps its margins (0.011" to 0.016", so that an
answer is legal as printed): a placement that wins only inside them refutes nothing."""
SPOTS_PER_MODEL = 90
DUTIES = {"could_end_within_1", "could_end_engaged"}


@dataclass(frozen=True)
class Found:
    """A legal placement the greedy found, with its counts."""

    within_1: int
    engaged: int
    movement_in: float
    placements: tuple[Placement, ...]

    def key(self) -> tuple[int, int]:
        return (self.within_1, self.engaged)


def random_greedy(
    scenario: Scenario, roll: int, targets: tuple[str, ...], restarts: int = RESTARTS, seed: int = 0
) -> Found | None:
    """The best legal placement over `restarts` random greedy passes, or None."""
    action = scenario.action.model_copy(update={"targets": tuple(targets)})
    scenario = scenario.model_copy(update={"action": action})
    battlefield = Battlefield.from_scenario(scenario)
    rng = random.Random(seed)
    best: Found | None = None
    for k in range(restarts):
        found = _one_pass(scenario, battlefield, roll, targets, rng, nearest_first=k % 2 == 0)
        if found is not None and (best is None or found.key() > best.key()):
            best = found
    return best


def _fp(scenario: Scenario, model_id: str, x: float, y: float) -> Footprint:
    unit, model = scenario.model_index[model_id]
    return Footprint(unit.base_of(model), x, y, 0.0, model.facing)


def _one_pass(scenario, battlefield, roll, targets, rng, nearest_first: bool) -> Found | None:
    unit = scenario.acting_unit
    rules = scenario.rules
    reach = max(0, roll - 2) if scenario.action.take_to_the_skies else roll
    judged = MoveState(scenario, battlefield, reach, {}, 0.0)
    target_fps = [
        (uid, _fp(scenario, m.id, m.x, m.y))
        for uid in targets
        for m in scenario.unit_by_id[uid].models
    ]
    others = [
        (u, _fp(scenario, m.id, m.x, m.y))
        for u in scenario.units
        if u.id != unit.id
        for m in u.models
    ]

    def start_gap(mid: str) -> float:
        _, m = scenario.model_index[mid]
        here = _fp(scenario, mid, m.x, m.y)
        return min(edge_distance(here, t) for _, t in target_fps)

    order = [m.id for m in unit.models]
    rng.shuffle(order)
    if nearest_first:
        order.sort(key=start_gap)
    placed: dict[str, Footprint] = {}
    moved: dict[str, float] = {}
    for mid in order:
        _, m = scenario.model_index[mid]
        start = _fp(scenario, mid, m.x, m.y)
        before = {
            uid: min(edge_distance(start, t) for u, t in target_fps if u == uid) for uid in targets
        }
        best = None
        for x, y in _spots(scenario, mid, placed, target_fps, roll, rng):
            end = _fp(scenario, mid, x, y)
            if math.hypot(x - m.x, y - m.y) > reach:
                continue
            if x < end.radius_in or y < end.radius_in:
                continue
            if x > battlefield.width - end.radius_in or y > battlefield.height - end.radius_in:
                continue
            if any(edge_distance(end, o) < 1e-4 for _, o in others):
                continue
            if any(edge_distance(end, p) < 1e-4 for p in placed.values()):
                continue
            if any(
                u.owner != unit.owner
                and u.id not in targets
                and edge_distance(end, o) <= rules.engagement_range_in + KEPT_IN
                for u, o in others
            ):
                continue
            if placed and not any(edge_distance(end, p) <= 2.0 - KEPT_IN for p in placed.values()):
                continue
            if any(edge_distance(end, p) > 9.0 - KEPT_IN for p in placed.values()):
                continue
            after = {
                uid: min(edge_distance(end, t) for u, t in target_fps if u == uid)
                for uid in targets
            }
            if not any(after[u] < before[u] - KEPT_IN for u in targets):
                continue
            near = min(after.values())
            score = (near <= 1.0 - KEPT_IN, near <= 2.0 - KEPT_IN, -near)
            if best is not None and score <= best[0]:
                continue
            length = legal_move_length(scenario, battlefield, mid, x, y, 0.0)
            if rules.terrain_categories and length > reach - KEPT_IN:
                length = path_length(judged, mid, end, ())
            if length > reach - KEPT_IN:
                continue
            best = (score, end, length)
        if best is None:
            return None
        placed[mid] = best[1]
        moved[mid] = best[2]
    placements = tuple(
        Placement(model=mid, x=fp.x, y=fp.y, z=0.0, moved=moved[mid]) for mid, fp in placed.items()
    )
    found = [v for v in check_placement(scenario, placements, roll=roll) if v.kind not in DUTIES]
    if found:
        return None
    counts = [0, 0]
    for fp in placed.values():
        gap = min(edge_distance(fp, t) for _, t in target_fps)
        counts[0] += gap <= 1.0 - KEPT_IN
        counts[1] += gap <= 2.0 - KEPT_IN
    return Found(counts[0], counts[1], sum(moved.values()), placements)


def _spots(scenario, mid, placed, target_fps, roll, rng):
    """Random spots: within 1" and within 2" of target models, beside placed mates, and
    straight toward the nearest target."""
    _, m = scenario.model_index[mid]
    r = _fp(scenario, mid, m.x, m.y).radius_in
    out = []
    for _ in range(SPOTS_PER_MODEL):
        kind = rng.random()
        if kind < 0.55 or not placed:
            _, t = rng.choice(target_fps)
            gap = rng.uniform(0.0, 1.0) if rng.random() < 0.6 else rng.uniform(1.0, 2.0)
            a = rng.uniform(0, 2 * math.pi)
            d = t.radius_in + r + gap
            out.append((t.x + d * math.cos(a), t.y + d * math.sin(a)))
        elif kind < 0.85:
            p = rng.choice(list(placed.values()))
            a = rng.uniform(0, 2 * math.pi)
            d = p.radius_in + r + rng.uniform(0.0, 2.0)
            out.append((p.x + d * math.cos(a), p.y + d * math.sin(a)))
        else:
            _, t = min(target_fps, key=lambda ft: math.hypot(ft[1].x - m.x, ft[1].y - m.y))
            span = math.hypot(t.x - m.x, t.y - m.y)
            step = min(roll, span) * rng.uniform(0.5, 1.0) / max(span, 1e-9)
            out.append((m.x + (t.x - m.x) * step, m.y + (t.y - m.y) * step))
    return out


def generated(n: int, seed: int) -> list[Scenario]:
    """`n` seeded 11e charges: 2-8 attackers, B 3-9" away, C near B every other one (behind
    the unit every fifth, with B farther: the pair too far apart for the 9" span), a dense
    block between every third, VEHICLES every fourth; a roll of 6-12; no named targets."""
    from chargeopt.geometry.start_layout import check_start_layout

    rng = random.Random(seed)
    out: list[Scenario] = []
    k = 0
    while len(out) < n:
        k += 1
        ax, ay = rng.uniform(6, 12), rng.uniform(8, 18)
        count = rng.randint(2, 8)
        attackers = [
            (
                ax + 1.7 * (i % 3) + rng.uniform(-0.2, 0.2),
                ay + 1.7 * (i // 3) + rng.uniform(-0.2, 0.2),
            )
            for i in range(count)
        ]
        tx, ty = ax + 3.4 + rng.uniform(3.0, 9.0), ay + rng.uniform(-3.0, 3.0)
        units = [_unit("A", "attacker", attackers, ["VEHICLE"] if k % 4 == 0 else ["INFANTRY"])]
        units.append(_unit("B", "defender", [(tx + 1.7 * i, ty) for i in range(rng.randint(1, 3))]))
        roll = rng.randint(6, 12)
        if k % 5 == 0:
            tx, roll = ax + 3.4 + rng.uniform(6.0, 9.0), rng.randint(9, 12)
            units[1] = _unit("B", "defender", [(tx, ty)])
            cx, cy = ax - 1.3 - rng.uniform(6.5, 8.5), ay + rng.uniform(-1.0, 1.0)
            units.append(_unit("C", "defender", [(cx, cy)]))
        elif k % 2 == 0:
            cx, cy = tx + rng.uniform(-3.0, 3.0), ty + rng.uniform(3.5, 6.0)
            units.append(
                _unit("C", "defender", [(cx + 1.7 * i, cy) for i in range(rng.randint(1, 2))])
            )
        terrain = []
        if k % 3 == 0:
            wx, wy = rng.uniform(ax + 4.0, max(ax + 4.1, tx - 1.5)), ay + rng.uniform(-3.0, 0.0)
            terrain.append(
                {
                    "id": "block",
                    "kind": "dense",
                    "path": [[wx, wy], [wx + 1.0, wy], [wx + 1.0, wy + 3.0], [wx, wy + 3.0]],
                    "height_in": 5.0,
                }
            )
        document = {
            "name": f"generated 11e charge {seed}-{k}",
            "ruleset": "40k-11e",
            "board": {"width": 44.0, "height": 30.0},
            "terrain": terrain,
            "units": units,
            "action": {"kind": "charge", "unit": "A", "roll": roll},
        }
        try:
            scenario = Scenario.model_validate(document)
            check_start_layout(scenario)
        except (ScenarioError, ValueError):
            continue
        out.append(scenario)
    return out


def _unit(uid: str, owner: str, pts, keywords=("INFANTRY",)) -> dict:
    return {
        "id": uid,
        "owner": owner,
        "keywords": list(keywords),
        "base": "32mm",
        "models": [{"id": f"{uid}{i + 1}", "x": x, "y": y} for i, (x, y) in enumerate(pts)],
    }


def refute(scenario: Scenario, time_limit_s: float = 10.0, seed: int = 0) -> dict[str, object]:
    """Solve the charge, then try to beat each set's `optimal` and find a placement for each
    `infeasible` set at the roll; the counts and what refuted what."""
    from chargeopt.solver.api import solve

    roll = scenario.action.roll
    assert roll is not None
    try:
        result = solve(scenario, time_limit=time_limit_s)
    except IneligibleMoveError:
        return {"skipped": "starts engaged"}
    out: dict[str, object] = {"status": result.status.value, "beaten": [], "false_infeasible": []}
    rows = [r for r in result.target_sets if r["roll"] == roll] or []
    if not result.target_sets and result.status == Status.INFEASIBLE:
        rows = []
    out["sets"] = len(rows)
    for row in rows:
        targets = tuple(row["targets"])
        found = random_greedy(scenario, roll, targets, seed=seed)
        mine = row.get("objective") or {}
        beats = found is not None and row["status"] == "optimal"
        if beats and found.key() > (mine["within_1"], mine["engaged"]):
            out["beaten"].append((targets, found.key(), (mine["within_1"], mine["engaged"])))
        if row["status"] == "infeasible" and found is not None:
            out["false_infeasible"].append((targets, found.key()))
        out.setdefault("greedy", []).append(
            (
                targets,
                row["status"],
                None if found is None else found.key(),
                (mine.get("within_1"), mine.get("engaged")) if mine else None,
            )
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generated", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=10.0)
    args = parser.parse_args(argv)
    totals = {"charges": 0, "optimal_sets": 0, "infeasible_sets": 0, "beaten": 0, "false": 0}
    for scenario in generated(args.generated, args.seed):
        report = refute(scenario, args.time_limit, args.seed)
        totals["charges"] += 1
        for _, status, _, _ in report.get("greedy", []):
            totals["optimal_sets"] += status == "optimal"
            totals["infeasible_sets"] += status == "infeasible"
        totals["beaten"] += len(report.get("beaten", []))
        totals["false"] += len(report.get("false_infeasible", []))
        print(scenario.name, report, flush=True)
    print(
        f"{totals['charges']} charges, {totals['optimal_sets']} optimal target sets and "
        f"{totals['infeasible_sets']} infeasible ones at the roll: {totals['beaten']} optimal "
        f"beaten, {totals['false']} false infeasible"
    )
    return 1 if totals["beaten"] or totals["false"] else 0


if __name__ == "__main__":
    sys.exit(main())
