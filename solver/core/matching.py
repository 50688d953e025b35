"""Least-cost matching of models to spots: the shortest augmenting path method on small problems
(no OR-Tools loaded for them), OR-Tools' linear sum assignment on large ones."""

from __future__ import annotations

import numpy as np

from chargeopt.solver.core.lazy_ortools import linear_sum_assignment

COST_SCALE = 10_000
"""Costs (inches of movement) become integers in ten-thousandths of an inch."""
FORBIDDEN = 1e9
SMALL_SIZE = 64
"""Square problems up to this size are matched in numpy: a unit's models against its spots,
never so many that OR-Tools' faster matching pays for loading it (0.03 s)."""


def least_cost_pairs(cost: np.ndarray) -> list[tuple[int, int]]:
    """(row, column) pairs, min(rows, columns) of them, with the least total cost; entries of
    FORBIDDEN or more are pairs to avoid (taken only when nothing else completes the match)."""
    rows, cols = cost.shape
    size = max(rows, cols)
    if size == 0:
        return []
    padded = np.zeros((size, size))
    padded[:rows, :cols] = np.minimum(
        np.nan_to_num(cost, nan=FORBIDDEN, posinf=FORBIDDEN), FORBIDDEN
    )
    scaled = np.round(padded * COST_SCALE).astype(np.int64)
    if size <= SMALL_SIZE:
        mate = _augmenting_paths(scaled)
        return [(r, int(mate[r])) for r in range(rows) if mate[r] < cols]
    solver = linear_sum_assignment.SimpleLinearSumAssignment()
    left, right = np.meshgrid(np.arange(size), np.arange(size), indexing="ij")
    solver.add_arcs_with_cost(left.ravel(), right.ravel(), scaled.ravel())
    if solver.solve() != solver.OPTIMAL:
        raise RuntimeError("a square assignment problem always has an optimal matching")
    return [(r, solver.right_mate(r)) for r in range(rows) if solver.right_mate(r) < cols]


def _augmenting_paths(cost: np.ndarray) -> np.ndarray:
    """The column matched to each row of the square integer matrix `cost` at least total cost:
    rows join one at a time along a shortest augmenting path under dual potentials (the
    Hungarian method in its O(n^3) form, each step vectorised over the columns)."""
    n = cost.shape[0]
    infinity = np.iinfo(np.int64).max // 4
    u = np.zeros(n + 1, dtype=np.int64)
    v = np.zeros(n + 1, dtype=np.int64)
    row_of = np.zeros(n + 1, dtype=np.int64)
    way = np.zeros(n + 1, dtype=np.int64)
    for i in range(1, n + 1):
        row_of[0] = i
        j0 = 0
        least = np.full(n + 1, infinity, dtype=np.int64)
        used = np.zeros(n + 1, dtype=bool)
        while True:
            used[j0] = True
            i0 = row_of[j0]
            reduced = cost[i0 - 1] - u[i0] - v[1:]
            free = ~used[1:]
            better = free & (reduced < least[1:])
            least[1:][better] = reduced[better]
            way[1:][better] = j0
            open_least = np.where(free, least[1:], infinity)
            j1 = int(np.argmin(open_least)) + 1
            delta = open_least[j1 - 1]
            u[row_of[used]] += delta
            v[used] -= delta
            least[1:][free] -= delta
            j0 = j1
            if row_of[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            row_of[j0] = row_of[j1]
            j0 = j1
    mate = np.empty(n, dtype=np.int64)
    mate[row_of[1:] - 1] = np.arange(n)
    return mate
