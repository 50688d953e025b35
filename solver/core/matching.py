"""Least-cost matching of models to spots (OR-Tools' linear sum assignment)."""

from __future__ import annotations

import numpy as np
from ortools.graph.python import linear_sum_assignment

COST_SCALE = 10_000
"""Costs (inches of movement) become integers in ten-thousandths of an inch."""
FORBIDDEN = 1e9


def least_cost_pairs(cost: np.ndarray) -> list[tuple[int, int]]:
    """(row, column) pairs, min(rows, columns) of them, with the least total cost; entries of
    FORBIDDEN or more are pairs to avoid (taken only when nothing else completes the match)."""
    rows, cols = cost.shape
    size = max(rows, cols)
    if size == 0:
        return []
    solver = linear_sum_assignment.SimpleLinearSumAssignment()
    padded = np.zeros((size, size))
    padded[:rows, :cols] = np.minimum(
        np.nan_to_num(cost, nan=FORBIDDEN, posinf=FORBIDDEN), FORBIDDEN
    )
    left, right = np.meshgrid(np.arange(size), np.arange(size), indexing="ij")
    solver.add_arcs_with_cost(
        left.ravel(), right.ravel(), np.round(padded.ravel() * COST_SCALE).astype(np.int64)
    )
    if solver.solve() != solver.OPTIMAL:
        raise RuntimeError("a square assignment problem always has an optimal matching")
    return [(r, solver.right_mate(r)) for r in range(rows) if solver.right_mate(r) < cols]
