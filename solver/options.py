"""Solver options: small, validated, immutable."""

from __future__ import annotations

from dataclasses import dataclass

from chargeopt.models import ChargeoptError


@dataclass(frozen=True)
class SolveOptions:
    """How hard and how finely to search. Defaults suit a 2-core machine."""

    time_limit_s: float = 20.0
    seed: int = 0
    workers: int = 2
    """CP-SAT workers of a charge's stages (close moves, the WTC walls rule and the packing
    relaxations use one: see `ordered_solve.REPEATABLE_WORKERS`)."""
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
        if self.time_limit_s <= 0:
            raise ChargeoptError(f"--time-limit must be positive, got {self.time_limit_s:g}")
        if self.roll is not None and self.roll < 0:
            raise ChargeoptError(f"--roll cannot be negative, got {self.roll}")
        if not 0.5 <= self.contact_step_deg <= 30:
            raise ChargeoptError("contact_step_deg must lie between 0.5 and 30 degrees")
        if not 0.1 <= self.near_spacing_in <= self.far_spacing_in <= 3:
            raise ChargeoptError("lattice spacings must satisfy 0.1 <= near <= far <= 3 inches")
