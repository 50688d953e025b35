"""Builders for tiny scenarios written inline in tests."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, Phase, settings

from chargeopt.models import Scenario

BARRICADE = {
    "id": "fence",
    "kind": "barricade",
    "path": [[21.0, 5.0], [21.0, 15.0]],
    "thickness": 0.25,
    "height": 1.0,
}
"""A 1" high barricade across the board at x = 21 (engagement range 2" across it)."""


def make_scenario(
    attackers: list[tuple[float, float]],
    defenders: dict[str, list[tuple[float, float]]],
    *,
    targets: tuple[str, ...] = ("B",),
    ruleset: str = "40k-10e",
    base: str = "32mm",
    enemy_base: str = "32mm",
    roll: int | None = None,
    board: tuple[float, float] = (44.0, 30.0),
    terrain: list[dict[str, Any]] | None = None,
    keywords: tuple[str, ...] = ("INFANTRY",),
    action: dict[str, Any] | None = None,
    objectives: list[dict[str, Any]] | None = None,
) -> Scenario:
    """A scenario: unit A (attacker) charging, one defender unit per entry of `defenders`;
    `action` replaces the charge (e.g. {"kind": "pile-in", "unit": "A"})."""
    units = [
        {
            "id": "A",
            "owner": "attacker",
            "keywords": list(keywords),
            "base": base,
            "models": [{"id": f"A{i + 1}", "x": x, "y": y} for i, (x, y) in enumerate(attackers)],
        }
    ]
    for uid, pts in defenders.items():
        units.append(
            {
                "id": uid,
                "owner": "defender",
                "keywords": ["INFANTRY"],
                "base": enemy_base,
                "models": [{"id": f"{uid}{i + 1}", "x": x, "y": y} for i, (x, y) in enumerate(pts)],
            }
        )
    if action is None:
        action = {"kind": "charge", "unit": "A", "targets": list(targets)}
        if roll is not None:
            action["roll"] = roll
    return Scenario.model_validate(
        {
            "name": "test",
            "ruleset": ruleset,
            "board": {"width": board[0], "height": board[1]},
            "terrain": terrain or [],
            "units": units,
            "objectives": objectives or [],
            "action": action,
        }
    )


def eight_around_one() -> Scenario:
    """Eight marines (32mm) 3" edge to edge from one marine at (20, 15), evenly around it."""
    ring = 32 / 25.4 + 3.0
    attackers = [
        (20 + ring * math.cos(2 * math.pi * i / 8), 15 + ring * math.sin(2 * math.pi * i / 8))
        for i in range(8)
    ]
    return make_scenario(attackers, {"B": [(20.0, 15.0)]})


def sampled_layouts(max_examples: int) -> settings:
    """Hypothesis settings for tests over sampled layouts: repeatable, no deadline, and
    tolerant of the samples the test itself rejects."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        derandomize=True,
        database=None,
        phases=(Phase.explicit, Phase.generate),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
