"""Seeded random 40k-assault-4e charges, for comparing the solver with the random greedy
(`assault_random_greedy.py`): 3-10 marines in a loose block, 1-6 enemy models 2.5-6" ahead in a
line, a clump or a spread (spreads need a 2" chain that bridges), sometimes a unit not charged
beside them, a rock in the way or difficult ground. Layouts whose bases overlap are redrawn."""

from __future__ import annotations

import random
from typing import Any

from chargeopt.geometry.start_layout import check_start_layout
from chargeopt.models import Scenario, ScenarioError


def sampled_charges(count: int = 40, seed: int = 0) -> list[Scenario]:
    """`count` legal charges drawn from `seed` (the same list for the same arguments)."""
    rng = random.Random(seed)
    out: list[Scenario] = []
    while len(out) < count:
        data = _draw(rng, len(out))
        try:
            scenario = Scenario.model_validate(data)
            check_start_layout(scenario)
        except (ValueError, ScenarioError):
            continue
        out.append(scenario)
    return out


def _draw(rng: random.Random, k: int) -> dict[str, Any]:
    n = rng.randint(3, 10)
    cols = rng.choice((1, 2, 3))
    step = rng.uniform(1.5, 2.4)
    x0, y0 = 10.0, 15.0 - (n // cols) * step / 2
    attackers = [
        (
            x0 - step * (i % cols) + rng.uniform(-0.3, 0.3),
            y0 + step * (i // cols) + rng.uniform(-0.3, 0.3),
        )
        for i in range(n)
    ]
    gap = rng.uniform(2.5, 6.0)
    m = rng.randint(1, 6)
    shape = rng.choice(("line", "clump", "spread"))
    spacing = {"line": 1.4, "clump": 1.3, "spread": rng.uniform(2.5, 4.5)}[shape]
    fx = x0 + gap
    defenders = []
    for j in range(m):
        if shape == "clump":
            defenders.append((fx + 1.3 * (j % 2), 15.0 + 1.3 * (j // 2) - 1.3))
        else:
            defenders.append((fx + rng.uniform(-0.5, 0.5), 15.0 + spacing * (j - (m - 1) / 2)))
    units = [_unit("A", "attacker", attackers), _unit("B", "defender", defenders)]
    if rng.random() < 0.3:
        side = rng.choice((-1, 1))
        cy = 15.0 + side * (spacing * m / 2 + rng.uniform(2.5, 4.0))
        units.append(_unit("C", "defender", [(fx + rng.uniform(-2, 0), cy)]))
    terrain = []
    roll = None
    pick = rng.random()
    if pick < 0.25:
        cx, cy = x0 + gap / 2 + 0.3, 15.0 + rng.uniform(-2.5, 2.5)
        w, h = rng.uniform(0.4, 1.0), rng.uniform(1.0, 3.0)
        terrain.append(_box("rock", "impassable", cx, cy, w, h))
    elif pick < 0.4:
        cx, cy = x0 + gap / 2, 15.0 + rng.uniform(-2.0, 2.0)
        terrain.append(_box("mud", "difficult", cx, cy, rng.uniform(1.0, 2.0), 3.0))
        roll = rng.randint(3, 6)
    action: dict[str, Any] = {"kind": "charge", "unit": "A", "targets": ["B"]}
    if roll is not None:
        action["difficult_roll"] = roll
    return {
        "name": f"sampled-{k:02d}",
        "ruleset": "40k-assault-4e",
        "board": {"width": 44.0, "height": 30.0},
        "terrain": terrain,
        "units": units,
        "objectives": [],
        "action": action,
    }


def _unit(uid: str, owner: str, pts: list[tuple[float, float]]) -> dict[str, Any]:
    return {
        "id": uid,
        "owner": owner,
        "keywords": ["INFANTRY"],
        "base": "32mm",
        "models": [
            {"id": f"{uid}{i + 1}", "x": round(x, 2), "y": round(y, 2)}
            for i, (x, y) in enumerate(pts)
        ],
    }


def _box(tid: str, kind: str, cx: float, cy: float, w: float, h: float) -> dict[str, Any]:
    x0, x1, y0, y1 = cx - w / 2, cx + w / 2, cy - h / 2, cy + h / 2
    path = [[round(x0, 2), round(y0, 2)], [round(x1, 2), round(y0, 2)]]
    path += [[round(x1, 2), round(y1, 2)], [round(x0, 2), round(y1, 2)]]
    return {"id": tid, "kind": kind, "path": path}
