"""chargeopt: exact, checked charge and pile-in placements for tabletop wargames.

    from chargeopt import solve, load_scenario, check_placement
    scenario = load_scenario("charge.toml")
    result = solve(scenario)
    assert check_placement(scenario, result.placements, roll=result.action.roll) == []

This file is the package `chargeopt` itself (pyproject.toml maps it from solver/_package/, so
the repository's top level stays models/, geometry/, solver/). Every name loads on first use
(PEP 562): importing any part of chargeopt runs this file, and it must not load OR-Tools.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chargeopt.geometry.checker import check_placement
    from chargeopt.models import ChargeoptError, Result, Scenario, ScenarioError
    from chargeopt.solver.api import solve
    from chargeopt.solver.loading import load_checked_scenario as load_scenario
    from chargeopt.solver.options import SolveOptions

_WHERE = {
    "solve": ("chargeopt.solver.api", "solve"),
    "load_scenario": ("chargeopt.solver.loading", "load_checked_scenario"),
    "check_placement": ("chargeopt.geometry.checker", "check_placement"),
    "SolveOptions": ("chargeopt.solver.options", "SolveOptions"),
    "Scenario": ("chargeopt.models", "Scenario"),
    "Result": ("chargeopt.models", "Result"),
    "ChargeoptError": ("chargeopt.models", "ChargeoptError"),
    "ScenarioError": ("chargeopt.models", "ScenarioError"),
}

__all__ = [
    "ChargeoptError",
    "Result",
    "Scenario",
    "ScenarioError",
    "SolveOptions",
    "__version__",
    "check_placement",
    "load_scenario",
    "solve",
]


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value: Any = version("chargeopt")
        except PackageNotFoundError:  # run from a source tree that was never installed
            value = "0+unknown"
    elif name in _WHERE:
        module, attribute = _WHERE[name]
        value = getattr(import_module(module), attribute)
    else:
        raise AttributeError(f"module 'chargeopt' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
