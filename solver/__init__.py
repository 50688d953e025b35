"""chargeopt.solver: the command line and the public Python entry points."""

from chargeopt.solver.api import SOLVERS, solve, verified
from chargeopt.solver.loading import load_checked_scenario as load_scenario
from chargeopt.solver.options import SolveOptions

__all__ = ["SOLVERS", "SolveOptions", "load_scenario", "solve", "verified"]
