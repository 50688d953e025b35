"""A command's start without pandas: OR-Tools' `cp_model` imports pandas (0.14 s of a solve's
0.8 s start on the reference machine) only for its `*_series` helpers, which chargeopt never
calls. The command imports `cp_model` once against a stand-in that holds the two names it reads
at import; the stand-in then leaves `sys.modules`, so a later `import pandas` gets pandas. Only
the console script does this: a library user's process keeps OR-Tools as it is."""

from __future__ import annotations

import sys
import types

CP_MODEL = "ortools.sat.python.cp_model"


def import_cp_model_without_pandas() -> None:
    """Import `cp_model` with the stand-in, unless it or pandas is already loaded."""
    if CP_MODEL in sys.modules or "pandas" in sys.modules:
        return
    stand_in = types.ModuleType("pandas", "Stand-in while cp_model loads; never used by it.")
    stand_in.Index = type("Index", (), {})
    stand_in.Series = type("Series", (), {})
    sys.modules["pandas"] = stand_in
    try:
        __import__(CP_MODEL)
    finally:
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]
