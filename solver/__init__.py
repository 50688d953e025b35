"""chargeopt.solver: the public Python entry points (`solve`, `load_scenario`, `SolveOptions`).
The map of its packages is solver/README.md; the command line lives in `interface/`.

The names load on first use (PEP 562), so that importing any part of the package, as the
command line does for `--help`, `schema` and `check`, does not load OR-Tools."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chargeopt.solver.api import SOLVERS, solve
    from chargeopt.solver.loading import load_checked_scenario as load_scenario
    from chargeopt.solver.options import SolveOptions
    from chargeopt.solver.verify import verified

_WHERE = {
    "SOLVERS": ("chargeopt.solver.api", "SOLVERS"),
    "solve": ("chargeopt.solver.api", "solve"),
    "verified": ("chargeopt.solver.verify", "verified"),
    "load_scenario": ("chargeopt.solver.loading", "load_checked_scenario"),
    "SolveOptions": ("chargeopt.solver.options", "SolveOptions"),
}

__all__ = ["SOLVERS", "SolveOptions", "load_scenario", "solve", "verified"]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'chargeopt.solver' has no attribute {name!r}")
    module, attribute = _WHERE[name]
    value = getattr(import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])
