"""A randomised greedy search with restarts for 11th-edition pile-in and consolidation
placements, written apart from the solver (no candidates, no CP-SAT), to refute its `optimal`
counts and `infeasible` verdicts. Each restart visits the unit's models in a random order and
tries random spots for each (anywhere within the move, or at a random gap from an enemy model
or on the objective), keeping a spot when the independent checker accepts the whole placement
and the counts improve. Counts are the checker's: under each selection the placement is legal
for, the models engaged with their closest selected unit (objective mode: within range), then
the models engaged with any enemy unit.

`python -m chargeopt.solver.bench.close_11e_random 20 1` runs 20 seeded cases and exits 1 if an
`optimal` answer is beaten or an `infeasible` one refuted."""

from __future__ import annotations

import math
import random
import sys
from dataclasses import dataclass

from chargeopt.geometry import Battlefield
from chargeopt.geometry.checker import check_placement
from chargeopt.geometry.checker.close_11e import (
    closest_units,
    end_engaged,
    in_range,
    selection_violations,
    selections,
)
from chargeopt.geometry.move_state import MoveState
from chargeopt.geometry.start_layout import check_start_layout
from chargeopt.models import (
    ChargeoptError,
    IneligibleMoveError,
    Placement,
    Scenario,
    validate_document,
)
from chargeopt.solver import SolveOptions, solve

SPOTS_PER_MODEL = 14
RESTARTS = 4


def counts(scenario: Scenario, placements: dict[str, Placement]) -> tuple[int, int] | None:
    """(models engaged with their closest selected unit or within range, models engaged) of a
    placement the checker accepts and in which some model moved; None otherwise."""
    move = MoveState(scenario, Battlefield.from_scenario(scenario), 0, placements)
    if not any(move.moved(m) for m in move.ids):
        return None
    if check_placement(scenario, list(placements.values())):
        return None
    ending = end_engaged(move)
    engaged = sum(1 for units in ending.values() if units)
    choices, _ = selections(move)
    best = -1
    for sel in choices:
        if selection_violations(move, sel, None):
            continue
        if sel.marker is not None:
            value = sum(1 for m in move.ids if in_range(move, move.end[m], sel.marker))
        else:
            value = sum(
                1 for i, m in enumerate(move.ids) if ending[m] & set(closest_units(move, sel, i)[0])
            )
        best = max(best, value)
    return (best, engaged) if best >= 0 else None


def _spot(rng: random.Random, scenario: Scenario, model, limit_in: float) -> tuple[float, float]:
    """A random centre within the move: uniform in the disc, or beside an enemy model or on
    an objective marker when one is within reach."""
    near = [
        (e.x, e.y)
        for u in scenario.enemies_of(scenario.acting_unit)
        for e in u.models
        if math.hypot(e.x - model.x, e.y - model.y) < limit_in + 4.0
    ] + [(o.x, o.y) for o in scenario.objectives]
    if near and rng.random() < 0.6:
        cx, cy = rng.choice(near)
        a, r = rng.uniform(0, 2 * math.pi), rng.uniform(0.0, 3.3)
        x, y = cx + r * math.cos(a), cy + r * math.sin(a)
        d = math.hypot(x - model.x, y - model.y)
        if d <= limit_in:
            return round(x, 3), round(y, 3)
    a, r = rng.uniform(0, 2 * math.pi), limit_in * math.sqrt(rng.random())
    return round(model.x + r * math.cos(a), 3), round(model.y + r * math.sin(a), 3)


def search(scenario: Scenario, seed: int = 0) -> tuple[tuple[int, int] | None, dict]:
    """The best counts found (None: no legal move found) and that placement."""
    rng = random.Random(seed)
    unit = scenario.acting_unit
    limit = scenario.rules.consolidate_in
    best: tuple[int, int] | None = None
    best_placed: dict[str, Placement] = {}
    for _ in range(RESTARTS):
        placed = {m.id: Placement(model=m.id, x=m.x, y=m.y, z=m.z) for m in unit.models}
        current = None
        for _sweep in range(2):
            for m in rng.sample(list(unit.models), len(unit.models)):
                for _ in range(SPOTS_PER_MODEL):
                    x, y = _spot(rng, scenario, m, limit)
                    trial = {**placed, m.id: Placement(model=m.id, x=x, y=y, z=m.z)}
                    value = counts(scenario, trial)
                    if value is not None and (current is None or value > current):
                        placed, current = trial, value
        if current is not None and (best is None or current > best):
            best, best_placed = current, placed
    return best, best_placed


def generated(n: int, seed: int) -> list[Scenario]:
    """Seeded random 11e close moves: 1 to 6 models, one or two enemy units 0 to 4.5" away
    (sometimes a model in base contact; a quarter far away, with a marker near), a pile in or a
    consolidation, sometimes across a dense or light area's wall."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        count = rng.randint(1, 6)
        x0, y0 = 8.0, rng.uniform(6.0, 10.0)
        models = [
            {
                "id": f"A{i + 1}",
                "x": round(x0 + 1.7 * (i % 2) + rng.uniform(-0.2, 0.2), 2),
                "y": round(y0 + 1.7 * (i // 2) + rng.uniform(-0.2, 0.2), 2),
            }
            for i in range(count)
        ]
        far = rng.random() < 0.25
        front = x0 + 1.7 + 1.3 + (rng.uniform(6.0, 9.0) if far else rng.uniform(0.0, 4.5))
        enemy = [
            {"id": f"B{k + 1}", "x": round(front, 2), "y": round(y0 + 1.7 * k, 2)} for k in range(2)
        ]
        if count > 1 and rng.random() < 0.4:
            enemy[0] = {"id": "B1", "x": round(models[1]["x"] + 32 / 25.4, 3), "y": models[1]["y"]}
        units = [
            {
                "id": "A",
                "owner": "attacker",
                "keywords": ["INFANTRY"],
                "base": "32mm",
                "models": models,
            },
            {
                "id": "B",
                "owner": "defender",
                "keywords": ["INFANTRY"],
                "base": "32mm",
                "models": enemy,
            },
        ]
        if not far and rng.random() < 0.5:
            units.append(
                {
                    "id": "C",
                    "owner": "defender",
                    "keywords": ["INFANTRY"],
                    "base": "32mm",
                    "models": [
                        {
                            "id": "C1",
                            "x": round(front + rng.uniform(0, 2), 2),
                            "y": round(y0 + 5.6, 2),
                        }
                    ],
                }
            )
        kind = "consolidate" if far else rng.choice(["pile-in", "consolidate"])
        action = {"kind": kind, "unit": "A", "charged": kind == "pile-in"}
        terrain = []
        if not far and rng.random() < 0.3:
            wall_x = round(x0 + 1.7 + rng.uniform(0.8, 3.0), 2)
            terrain.append(
                {
                    "id": "ruin",
                    "kind": rng.choice(["dense", "light"]),
                    "path": [
                        [wall_x - 1, y0 - 2],
                        [wall_x + 1, y0 - 2],
                        [wall_x + 1, y0 + 3],
                        [wall_x - 1, y0 + 3],
                    ],
                    "height_in": 5.0,
                    "walls": [[[wall_x, y0 - 2], [wall_x, y0 + 3]]],
                }
            )
        doc = {
            "name": f"close-11e-{len(out)}",
            "ruleset": "40k-11e",
            "board": {"width": 30.0, "height": 24.0},
            "action": action,
            "units": units,
            "terrain": terrain,
            "objectives": (
                [
                    {
                        "id": "M1",
                        "x": x0 + 0.8,
                        "y": round(y0 + 1.7 * ((count + 1) // 2) + rng.uniform(1.5, 3.5), 2),
                    }
                ]
                if far or rng.random() < 0.3
                else []
            ),
        }
        try:
            scenario = validate_document(Scenario, doc, doc["name"])
            check_start_layout(scenario)
        except ChargeoptError:
            continue
        out.append(scenario)
    return out


@dataclass
class Row:
    name: str
    status: str
    solver: tuple[int, int] | None
    found: tuple[int, int] | None
    mode: str = ""

    @property
    def beaten(self) -> bool:
        if self.status == "optimal":
            return self.found is not None and self.solver is not None and self.found > self.solver
        return self.status == "infeasible" and self.found is not None


def run(n: int, seed: int, time_limit_s: float = 10.0) -> list[Row]:
    rows = []
    for scenario in generated(n, seed):
        try:
            result = solve(scenario, options=SolveOptions(time_limit_s=time_limit_s))
        except IneligibleMoveError:
            rows.append(Row(scenario.name, "ineligible", None, None, scenario.action.kind))
            continue
        obj = result.objective
        primary = obj.get("engaged_closest", obj.get("on_objective"))
        mine = None if primary is None else (int(primary), int(obj["engaged"]))
        found, _ = search(scenario, seed)
        mode = f"{scenario.action.kind}/{result.stats.get('mode', '-')}"
        rows.append(Row(scenario.name, result.status.value, mine, found, mode))
    return rows


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 20
    seed = int(argv[1]) if len(argv) > 1 else 1
    rows = run(n, seed)
    for r in rows:
        flag = "BEATEN" if r.beaten else ""
        print(f"{r.name:14} {r.mode:22} {r.status:10} solver={r.solver} random={r.found} {flag}")
    beaten = sum(r.beaten for r in rows)
    optimal = sum(r.status == "optimal" for r in rows)
    print(f"{len(rows)} cases, {optimal} optimal, {beaten} beaten or refuted")
    return 1 if beaten else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
