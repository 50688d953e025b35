"""chargeopt.solver: the public Python entry points (`solve`, `load_scenario`, `SolveOptions`).
The map of its packages is solver/README.md; the command line lives in `interface/`."""

from chargeopt.solver.api import SOLVERS, solve, verified
from chargeopt.solver.loading import load_checked_scenario as load_scenario
from chargeopt.solver.options import SolveOptions

__all__ = ["SOLVERS", "SolveOptions", "load_scenario", "solve", "verified"]
