"""Generated 11th-edition pile ins for the close moves' speed (10 and 20 models in ranks of
five, a line of six 1.5" to 3.5" ahead, sometimes a second unit of three on the right), each
solved in this process and printed with its status, counts, proven bounds, solve seconds and
whether the construction settled it. Figures on a loaded machine are noise; the counts are not.
`python -m chargeopt.solver.bench.close_11e_speed [OUT_DIR]` (OUT_DIR: write the cases)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from chargeopt.models import Scenario
from chargeopt.solver import solve

CASES = {
    "g10": (10, 3.5, False),
    "g10b": (10, 2.5, False),
    "g10c": (10, 3.0, True),
    "g20": (20, 3.5, False),
    "g20b": (20, 1.5, False),
    "g20c": (20, 3.0, True),
}
"""name: (models, gap from the front rank to the line edge to edge, second unit)."""


def case(name: str, count: int, gap_in: float, second: bool) -> dict:
    """One layout as a scenario document: 32mm bases 1.9" apart in ranks of five."""
    models = [
        {"id": f"A{r * 5 + i + 1}", "x": 10 + 1.9 * i, "y": round(10 - 1.9 * r, 3)}
        for r in range(count // 5)
        for i in range(5)
    ]
    line_y = 10 + 1.26 + gap_in
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
            "models": [{"id": f"B{i + 1}", "x": 9.0 + 1.9 * i, "y": line_y} for i in range(6)],
        },
    ]
    if second:
        units.append(
            {
                "id": "C",
                "owner": "defender",
                "keywords": ["INFANTRY"],
                "base": "32mm",
                "models": [
                    {"id": f"C{i + 1}", "x": 21.5, "y": round(line_y - 2.5 - 1.9 * i, 3)}
                    for i in range(3)
                ],
            }
        )
    return {
        "format": 1,
        "name": f"close-11e-speed {name}",
        "ruleset": "40k-11e",
        "board": {"width": 44, "height": 30},
        "units": units,
        "action": {"kind": "pile-in", "unit": "A", "charged": True},
    }


def scenarios() -> dict[str, Scenario]:
    return {name: Scenario.model_validate(case(name, *spec)) for name, spec in CASES.items()}


def main(argv: list[str]) -> int:
    if argv:
        out = Path(argv[0])
        out.mkdir(parents=True, exist_ok=True)
        for name, spec in CASES.items():
            (out / f"{name}.json").write_text(json.dumps(case(name, *spec), indent=1))
    for name, scenario in scenarios().items():
        r = solve(scenario)
        stages = r.stats["stages"]
        settled = bool(stages) and stages[-1]["status"] == "LOCAL_SEARCH"
        print(
            f"{name:6} {r.status.value:9} {dict(r.objective)} bound={dict(r.bound)} "
            f"solve={r.stats['seconds']:.2f}s {'construction' if settled else 'CP-SAT'}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
