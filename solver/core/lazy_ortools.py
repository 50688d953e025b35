"""OR-Tools' modules, imported on first use: a charge that a cheap construction settles (its
greedy meets the proven ceilings) never loads CP-SAT (0.2 to 0.45 s of a command's start).
Solver modules import `cp_model` from here instead of from OR-Tools; the first attribute read
imports the real module. The console script asks for CP-SAT without pandas
(`prefer_without_pandas`), which `cp_model` imports only for helpers chargeopt never calls."""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

CP_MODEL = "ortools.sat.python.cp_model"
LINEAR_SUM_ASSIGNMENT = "ortools.graph.python.linear_sum_assignment"

_without_pandas = False


class LazyModule(types.ModuleType):
    """A stand-in for module `target` that imports it at the first attribute read."""

    def __init__(self, target: str) -> None:
        super().__init__(target, f"{target}, imported on first use")
        self._target = target

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        value = getattr(_load(self._target), name)
        setattr(self, name, value)
        return value


def prefer_without_pandas() -> None:
    """Import `cp_model`, when it is first needed, against a pandas stand-in (the command line
    only: a library user's process keeps OR-Tools as it is)."""
    global _without_pandas
    _without_pandas = True


def loaded(target: str = CP_MODEL) -> bool:
    """Whether `target` has been imported in this process."""
    return target in sys.modules


def load_cp_model() -> types.ModuleType:
    """Import CP-SAT now (a batch of solves pays it once, before its children fork)."""
    return _load(CP_MODEL)


def _load(target: str) -> types.ModuleType:
    if target in sys.modules:
        return sys.modules[target]
    if target == CP_MODEL and _without_pandas and "pandas" not in sys.modules:
        return _import_without_pandas()
    return importlib.import_module(target)


def _import_without_pandas() -> types.ModuleType:
    """`cp_model` imported against a stand-in that holds the two names it reads at import; the
    stand-in then leaves `sys.modules`, so a later `import pandas` gets pandas."""
    stand_in = types.ModuleType("pandas", "Stand-in while cp_model loads; never used by it.")
    stand_in.Index = type("Index", (), {})
    stand_in.Series = type("Series", (), {})
    sys.modules["pandas"] = stand_in
    try:
        return importlib.import_module(CP_MODEL)
    finally:
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]


cp_model = LazyModule(CP_MODEL)
linear_sum_assignment = LazyModule(LINEAR_SUM_ASSIGNMENT)
