"""Where a moved model may end so that its printed position reads as moved: the checker at the
summary's precision reads a position within half a printed step of the start on both axes as
the start, so a model that moves keeps `MOVED_STEP_IN` from its start along x or y."""

from __future__ import annotations

import numpy as np

from chargeopt.models import GameModel
from chargeopt.solver.core.tolerances import MOVED_STEP_IN

AT_START_IN = 1e-9


def printed_apart(model: GameModel, x: np.ndarray | float, y: np.ndarray | float) -> np.ndarray:
    """Whether each centre is the model's start or at least `MOVED_STEP_IN` from it along x or
    y (a diagonal step of 0.011" may print within half a step of the start on both axes)."""
    dx, dy = np.abs(np.asarray(x) - model.x), np.abs(np.asarray(y) - model.y)
    at_start = (dx <= AT_START_IN) & (dy <= AT_START_IN)
    return at_start | (np.maximum(dx, dy) >= MOVED_STEP_IN - AT_START_IN)
