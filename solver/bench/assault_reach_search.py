"""An independent search against the 40k-assault-4e reach proof (`assault_4e/ceilings.py`,
`unreachable_targets`): every charger tried on a dense ring of base-contact spots round every
model of a charged unit, each measured along its shortest legal path (mates ignored, exact
limits). A spot it finds refutes a claim that the unit cannot be reached."""

from __future__ import annotations

import numpy as np

from chargeopt.geometry import Battlefield
from chargeopt.geometry.assault_moves import assault_lengths
from chargeopt.models import Scenario, assault_range_of

CONTACT_GAP_IN = 0.0025
"""How far off the enemy base the tried spots stand (inside the 0.005" contact tolerance)."""


def reach_witness(
    scenario: Scenario, unit_id: str, step_deg: float = 1.0
) -> tuple[str, str, float, float, float] | None:
    """(charger, enemy model, x, y, move length) of a base-contact spot with a model of unit
    `unit_id` that some charger reaches within its assault range; None if none is found."""
    battlefield = Battlefield.from_scenario(scenario)
    unit = scenario.acting_unit
    range_in = assault_range_of(unit, scenario.rules)
    foes = scenario.unit_by_id[unit_id]
    angles = np.radians(np.arange(0.0, 360.0, step_deg))
    for m in unit.models:
        r = unit.base_of(m).circumradius_in
        for f in foes.models:
            d = r + foes.base_of(f).circumradius_in + CONTACT_GAP_IN
            xs, ys = f.x + d * np.cos(angles), f.y + d * np.sin(angles)
            lengths = assault_lengths(
                scenario,
                battlefield,
                m.id,
                xs,
                ys,
                0.0,
                range_in=range_in,
                difficult_roll=scenario.action.difficult_roll,
            )
            if np.isfinite(lengths).any():
                k = int(np.argmin(lengths))
                return m.id, f.id, float(xs[k]), float(ys[k]), float(lengths[k])
    return None
