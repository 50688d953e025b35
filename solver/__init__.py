"""chargeopt.solver: the command line and the public Python entry points."""

from .api import SOLVERS, solve, verified
from .loading import load_checked_scenario as load_scenario
from .options import SolveOptions

__all__ = ["SOLVERS", "SolveOptions", "load_scenario", "solve", "verified"]
