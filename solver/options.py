"""Solver options: small, validated, immutable."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from chargeopt.models import ChargeoptError

MAX_DEFAULT_WORKERS = 8
"""The default CP-SAT workers stop at this many cores (CP-SAT's own portfolio size)."""


REPAIR_EXTRA = (
    "--repair needs the repair extra (networkx and scipy): pip install 'chargeopt[repair]'"
)
REPAIR_MODULES = ("networkx", "scipy")
"""What only the repair imports (`forty_k.engaged_repair`): an ordinary solve needs neither."""


def repair_installed() -> bool:
    """Whether the repair's extra is installed (found without importing it)."""
    from importlib.util import find_spec

    try:
        return all(find_spec(name) is not None for name in REPAIR_MODULES)
    except (ImportError, ValueError):
        return False


def machine_workers() -> int:
    """The default CP-SAT workers: the machine's cores, at most `MAX_DEFAULT_WORKERS`."""
    return max(1, min(os.cpu_count() or 1, MAX_DEFAULT_WORKERS))


@dataclass(frozen=True)
class SolveOptions:
    """How hard and how finely to search."""

    time_limit_s: float = 20.0
    seed: int = 0
    workers: int = field(default_factory=machine_workers)
    """CP-SAT workers of a charge's stages and its certificate (close moves, the WTC walls
    rule and the packing relaxations use one: see `ordered_solve.REPEATABLE_WORKERS`). Every
    count is repeatable (CP-SAT's deterministic mode, limits in its deterministic time, which
    grows with the workers); a different count searches differently and may give another
    answer of the same quality, so reports name the count (`--workers`)."""
    roll: int | None = None
    contact_step_deg: float = 3.0
    near_spacing_in: float = 0.6
    far_spacing_in: float = 1.0
    oval_facings: int = 4
    use_hint: bool = True
    symmetry_classes: bool = True
    presolve: bool = False
    check: bool = True
    roll_table: bool = True
    repair: bool = False
    """After a charge's certificate, try to bring more models within engagement range by
    shifting the unit off the candidates, one model at a time and then by laying the front out
    again from packings of the bands (`engaged_repair`, up to two fifths of the time limit).
    Off by default: where it finds nothing it spends seconds on a horde, over the 2 s the
    benchmarks hold a 30-model charge to."""

    def __post_init__(self) -> None:
        if self.repair and not repair_installed():
            raise ChargeoptError(REPAIR_EXTRA)
        if self.time_limit_s <= 0:
            raise ChargeoptError(f"--time-limit must be positive, got {self.time_limit_s:g}")
        if self.workers < 1:
            raise ChargeoptError(f"--workers must be at least 1, got {self.workers}")
        if self.roll is not None and self.roll < 0:
            raise ChargeoptError(f"--roll cannot be negative, got {self.roll}")
        if not 0.5 <= self.contact_step_deg <= 30:
            raise ChargeoptError("contact_step_deg must lie between 0.5 and 30 degrees")
        if not 0.1 <= self.near_spacing_in <= self.far_spacing_in <= 3:
            raise ChargeoptError("lattice spacings must satisfy 0.1 <= near <= far <= 3 inches")
