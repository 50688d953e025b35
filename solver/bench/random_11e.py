"""The 40k-11e charge (and heroic intervention) by a randomised greedy with restarts, apart from
the solver (geometry, models, the checker and the baseline's table only), to refute its proofs:
a legal answer on a charge proven infeasible, or one better than a proven optimum, is a bug.

Each restart picks a target set (the action's, else a random non-empty set of the units that
may be targets on the roll), then places the models in a random order, each on a random spot
of the best class open to it: within 1" of a target model, else engaged, else closer; spots are
drawn on rings around target models at random gaps, around mates already placed (2" chain)
and anywhere within the roll.
Then a repair pass for the duties (the baseline's snap spots: within 1", then engaged). Paths
are the geometry's legal paths around the bases and terrain standing. Every complete
answer is judged by the checker; the best legal one by (within 1", engaged, least movement) is
kept. `python -m chargeopt.solver.bench.random_11e SCENARIO... [--restarts N]` compares
it with chargeopt's answer on each file and exits 1 on a refutation."""

from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
import time

from chargeopt.geometry import edge_distance
from chargeopt.geometry.checker import check_placement
from chargeopt.models import (
    ActionKind,
    ChargeoptError,
    GameModel,
    Result,
    ResultAction,
    Scenario,
    Status,
    UnsupportedRuleError,
)
from chargeopt.solver.bench.baseline_11e import (
    CHARGE_REACH_IN,
    DECIMALS,
    ENGAGED_GAPS_IN,
    INTO_THE_FRAY_CAP,
    R32_IN,
    ROLL_KEPT_IN,
    SNAP_GAPS_IN,
    _heroic_mode,
    _objective,
    _placements,
    _Table,
    best_spot,
    effective_roll,
    footprint,
    unit_gap_in,
    within_one,
)

RESTARTS = 48
"""Restarts of a run (each a whole charge), unless the time limit ends them sooner."""
RING_DRAWS = 24
"""Random spots per target model per model placed."""
CHAIN_DRAWS = 24
"""Random spots around the mates already placed, per model placed."""
FREE_DRAWS = 24
"""Random spots anywhere within the roll of the model's start, per model placed."""
CHAIN_KEPT_IN = 0.02
"""Chain spots stay this far inside 2" of the mate they are drawn around."""


def eligible_targets(scenario: Scenario, roll: int) -> list[str]:
    """The enemy units that may be targets on this (effective) roll: within 12" and within the
    roll; Leap to Defend only units that charged, Into the Fray only units within 6"."""
    actor = scenario.acting_unit
    reach = min(CHARGE_REACH_IN, float(roll))
    mode = _heroic_mode(scenario)
    if mode == "into-the-fray":
        reach = min(reach, float(INTO_THE_FRAY_CAP))
    charged = set(getattr(scenario.action, "charged_units", ()) or ())
    return [
        u.id
        for u in scenario.units
        if u.owner != actor.owner
        and (mode != "leap-to-defend" or u.id in charged)
        and unit_gap_in(scenario, actor.id, u.id) <= reach
    ]


def _draws(table: _Table, m: GameModel, rng: random.Random) -> list[tuple[int, float, float]]:
    """Random spots for model m as (class, x, y): 0 within 1" of a target model, 1 engaged,
    2 elsewhere (chain spots around placed mates)."""
    start = table.start(m)
    r = start.base.circumradius_in
    out = []
    engagement = table.scenario.rules.engagement_range_in
    for _, _, t in table.targets:
        if math.hypot(t.x - start.x, t.y - start.y) - t.base.circumradius_in - r > table.roll + 2.1:
            continue
        for _ in range(RING_DRAWS):
            gap = rng.choice((rng.uniform(0.003, 0.99), rng.uniform(1.01, engagement - 0.02)))
            a = rng.uniform(0, 2 * math.pi)
            d = t.base.circumradius_in + r + gap
            out.append((0 if gap < 1 else 1, t.x + d * math.cos(a), t.y + d * math.sin(a)))
    reach = table.scenario.rules.coherency_range_in - CHAIN_KEPT_IN
    for e in table.ends.values():
        for _ in range(CHAIN_DRAWS):
            a = rng.uniform(0, 2 * math.pi)
            d = e.base.circumradius_in + r + rng.uniform(0.003, reach)
            out.append((2, e.x + d * math.cos(a), e.y + d * math.sin(a)))
    for _ in range(FREE_DRAWS):
        a, d = rng.uniform(0, 2 * math.pi), table.roll * math.sqrt(rng.random())
        out.append((2, start.x + d * math.cos(a), start.y + d * math.sin(a)))
    return [(c, round(x, DECIMALS), round(y, DECIMALS)) for c, x, y in out]


def _place(table: _Table, m: GameModel, rng: random.Random) -> bool:
    """Put m on a random spot of the best class open to it (near a placed mate if possible)."""
    start = table.start(m)
    spots = _draws(table, m, rng)
    rng.shuffle(spots)
    best: dict[int, tuple[float, float, float]] = {}
    loose: dict[int, tuple[float, float, float]] = {}
    for cls, x, y in sorted(spots, key=lambda s: s[0]):
        if cls in best or math.hypot(x - start.x, y - start.y) > table.roll - ROLL_KEPT_IN:
            continue
        end = footprint(table.actor, m, x, y)
        if not table.free(m, end) or not _within_span(table, m, end):
            continue
        moved = table.reach(m, x, y)
        if moved > table.roll - ROLL_KEPT_IN:
            continue
        actual = 0 if within_one(table, end) else cls
        if not table.ends or table.near_mate(m, end):
            best.setdefault(actual, (x, y, moved))
            if actual == 0:
                break
        else:
            loose.setdefault(actual, (x, y, moved))
    pick = best or loose
    if not pick:
        return False
    x, y, moved = pick[min(pick)]
    table.ends[m.id] = footprint(table.actor, m, x, y)
    table.moved[m.id] = moved
    return True


def _repair(table: _Table, order: list[GameModel]) -> None:
    """The duties after a random pass: each model not within 1" of a target tries the nearest
    free spot 0 to 0.9" from any target model, then each model not engaged 1.5" or 1.9"."""
    everyone = [f for _, _, f in table.targets]
    engagement = table.scenario.rules.engagement_range_in
    for gaps, done in (
        (SNAP_GAPS_IN, lambda e: within_one(table, e)),
        (ENGAGED_GAPS_IN, lambda e: table.nearest_target_gap(e) <= engagement),
    ):
        for m in order:
            if done(table.ends[m.id]):
                continue
            old, moved = table.ends.pop(m.id), table.moved.pop(m.id)
            spot = best_spot(table, m, everyone, gaps)
            if spot is not None:
                table.ends[m.id] = footprint(table.actor, m, spot.x, spot.y)
                table.moved[m.id] = spot.moved
                if _coherent(table):
                    continue
            table.ends[m.id], table.moved[m.id] = old, moved


def _within_span(table: _Table, m: GameModel, end) -> bool:
    """Whether `end` is within the unit's span (9") of every mate placed, with a margin."""
    span = table.scenario.rules.coherency_unit_span_in
    if span is None:
        return True
    return all(
        edge_distance(end, e) <= span - CHAIN_KEPT_IN
        for mid, e in table.ends.items()
        if mid != m.id
    )


def _coherent(table: _Table) -> bool:
    """Whether the ends form one 2" chain with every pair within the span (with margins)."""
    ends = list(table.ends.values())
    span = table.scenario.rules.coherency_unit_span_in or math.inf
    chain = table.scenario.rules.coherency_range_in - CHAIN_KEPT_IN
    gaps = [[edge_distance(a, b) for b in ends] for a in ends]
    if any(g > span - CHAIN_KEPT_IN for row in gaps for g in row):
        return False
    seen, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j, g in enumerate(gaps[i]):
            if j not in seen and g <= chain:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(ends)


def _rank(result: Result) -> tuple[float, ...]:
    o = result.objective
    return (o["within_1"], o["engaged"], -o["movement_in"])


def solve_random_11e(
    scenario: Scenario,
    roll: int | None,
    *,
    restarts: int = RESTARTS,
    seed: int = 0,
    time_limit_s: float = math.inf,
) -> Result:
    """The best of `restarts` random charges that the checker accepts: `feasible`, or `unknown`
    without one (never a proof). stats: tried, complete, refused by the checker."""
    t0 = time.perf_counter()
    if not scenario.rules.charge_targets_after_roll or scenario.action.kind not in (
        ActionKind.CHARGE,
        ActionKind.HEROIC_INTERVENTION,
    ):
        raise UnsupportedRuleError("the 11e random greedy charges (or intervenes) under 40k-11e")
    if roll is None:
        raise UnsupportedRuleError("the 11e random greedy needs a roll: set action.roll")
    used = effective_roll(scenario, roll)
    choices = [scenario.action.targets] if scenario.action.targets else _sets(scenario, used)
    rng = random.Random(seed)
    best: Result | None = None
    tried = complete = refused = 0
    for _ in range(restarts if choices else 0):
        if tried and time.perf_counter() - t0 > time_limit_s:
            break
        tried += 1
        table = _Table(scenario, used, tuple(rng.choice(choices)))
        order = list(table.actor.models)
        rng.shuffle(order)
        if not all(_place(table, m, rng) for m in order):
            continue
        _repair(table, order)
        complete += 1
        result = _result(scenario, roll, table, Status.FEASIBLE)
        if best is not None and _rank(result) <= _rank(best):
            continue
        if check_placement(scenario, result.placements, roll=roll):
            refused += 1
            continue
        best = result
    stats = {
        "method": "random-greedy-11e",
        "seconds": round(time.perf_counter() - t0, 3),
        "restarts": tried,
        "complete": complete,
        "refused_by_checker": refused,
    }
    if best is None:
        return Result(
            scenario=scenario.name,
            ruleset=scenario.ruleset,
            action=ResultAction.of(scenario.action, roll),
            status=Status.UNKNOWN,
            placements=(),
            stats=stats,
        )
    return best.model_copy(update={"stats": {**best.stats, **stats}})


def _sets(scenario: Scenario, roll: int) -> list[tuple[str, ...]]:
    units = eligible_targets(scenario, roll)
    return [s for k in range(1, len(units) + 1) for s in itertools.combinations(units, k)]


def _result(scenario: Scenario, roll: int, table: _Table, status: Status) -> Result:
    return Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=ResultAction.of(scenario.action, roll),
        status=status,
        objective=_objective(table),
        bound={},
        placements=_placements(table),
        stats={"targets": sorted({uid for uid, _, _ in table.targets})},
    )


def refutes(chargeopt: Result, found: Result) -> str | None:
    """Why a legal random answer refutes chargeopt's proof, or None."""
    if found.status != Status.FEASIBLE:
        return None
    if chargeopt.status == Status.INFEASIBLE:
        return "a legal answer where chargeopt proved the charge infeasible"
    if chargeopt.status != Status.OPTIMAL:
        return None
    mine = tuple(found.objective.get(k, 0) for k in ("within_1", "engaged"))
    theirs = tuple(chargeopt.objective.get(k, 0) for k in ("within_1", "engaged"))
    if mine > theirs:
        return f"{mine} (within 1\", engaged) beats chargeopt's proven optimum {theirs}"
    return None


def shorter_move(chargeopt: Result, found: Result) -> float:
    """How much less the random answer moves at chargeopt's first two terms (0 if not less):
    not a refutation while the bound proves those terms only, but worth a look."""
    terms = ("within_1", "engaged")
    if found.status != Status.FEASIBLE or chargeopt.status != Status.OPTIMAL:
        return 0.0
    if any(found.objective.get(k) != chargeopt.objective.get(k) for k in terms):
        return 0.0
    return max(0.0, chargeopt.objective["movement_in"] - found.objective["movement_in"])


def generated(count: int, seed: int) -> list[tuple[str, Scenario]]:
    """Seeded random 11e charges: one to six marines (or a 60mm MONSTER) 2.5 to 8" from one to
    five enemy marines, a roll that lets them be targets, every third with an enclosed 5"
    dense block part way between and every fourth with a second enemy unit beside the first."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        monster = i % 5 == 4
        n = 1 if monster else rng.randint(1, 6)
        gap = rng.uniform(2.5, 8.0)
        a_y, r_a = 8.0, (60 / 25.4 / 2 if monster else R32_IN)
        b_y = a_y + r_a + R32_IN + gap
        mine = [
            {"id": f"A{k + 1}", "x": 12.0 + 1.9 * (k % 3), "y": a_y - 1.9 * (k // 3)}
            for k in range(n)
        ]
        width = rng.randint(1, 5)
        x0 = rng.uniform(9.0, 15.0)
        theirs = [{"id": f"B{k + 1}", "x": x0 + 1.9 * k, "y": b_y} for k in range(width)]
        units = [
            {
                "id": "A",
                "owner": "attacker",
                "keywords": ["MONSTER" if monster else "INFANTRY"],
                "base": "60mm" if monster else "32mm",
                "models": mine,
            },
            {
                "id": "B",
                "owner": "defender",
                "keywords": ["INFANTRY"],
                "base": "32mm",
                "models": theirs,
            },
        ]
        if i % 4 == 3:
            cx = x0 + 1.9 * width + rng.uniform(1.5, 4.0)
            units.append(
                {
                    "id": "C",
                    "owner": "defender",
                    "keywords": ["INFANTRY"],
                    "base": "32mm",
                    "models": [{"id": "C1", "x": cx, "y": b_y}],
                }
            )
        terrain = []
        if i % 3 == 2 and gap > 4.0:
            y0 = a_y + r_a + 1.0
            terrain.append(
                {
                    "id": "block",
                    "kind": "dense",
                    "height_in": 5.0,
                    "enclosed": True,
                    "path": [[11.0, y0], [14.0, y0], [14.0, y0 + 1.0], [11.0, y0 + 1.0]],
                }
            )
        nearest = min(
            math.hypot(a["x"] - b["x"], a["y"] - b["y"]) - r_a - R32_IN
            for a in mine
            for b in theirs
        )
        roll = rng.randint(max(2, math.ceil(nearest)), 12)
        name = f"sampled-{i}"
        doc = {
            "format": 1,
            "name": name,
            "ruleset": "40k-11e",
            "board": {"width": 44.0, "height": 30.0},
            "terrain": terrain,
            "units": units,
            "action": {"kind": "charge", "unit": "A", "roll": roll},
        }
        out.append((name, Scenario.model_validate(doc)))
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the random greedy against chargeopt on each scenario (or on `--generated N`
    seeded charges); exit 1 on a refutation."""
    from chargeopt.solver import load_scenario
    from chargeopt.solver.api import solve

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenarios", nargs="*")
    parser.add_argument("--generated", type=int, default=0)
    parser.add_argument("--restarts", type=int, default=RESTARTS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=20.0)
    args = parser.parse_args(argv)
    cases = [(p, load_scenario(p)) for p in args.scenarios]
    cases += generated(args.generated, args.seed)
    bad = shorter = 0
    statuses: dict[str, int] = {}
    for path, scenario in cases:
        roll = scenario.action.roll
        found = solve_random_11e(scenario, roll, restarts=args.restarts, seed=args.seed)
        try:
            theirs = solve(scenario, roll=roll, time_limit=args.time_limit)
        except ChargeoptError as exc:
            print(
                f"{path}: chargeopt refuses ({str(exc).splitlines()[0]}); random "
                f"{found.status.value} {dict(found.objective)}"
            )
            statuses["refused"] = statuses.get("refused", 0) + 1
            continue
        statuses[theirs.status.value] = statuses.get(theirs.status.value, 0) + 1
        why = refutes(theirs, found)
        bad += why is not None
        less = shorter_move(theirs, found)
        shorter += less > 0.05
        print(
            f"{path}: chargeopt {theirs.status.value} {dict(theirs.objective)}; random "
            f"{found.status.value} {dict(found.objective)} ({found.stats.get('complete')} "
            f"complete of {found.stats.get('restarts')}, {found.stats.get('refused_by_checker')}"
            f" refused){'; REFUTED: ' + why if why else ''}"
            f"{f'; moves {less:.2f} in less' if less > 0.05 else ''}"
        )
    print(f"{len(cases)} charges: chargeopt {statuses}; {bad} refuted; {shorter} moved less")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
