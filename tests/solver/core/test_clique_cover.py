"""Clique covers of conflict graphs: every edge covered by a clique, the same cliques as the
one-edge-at-a-time walk, across the chunks in which edges are looked up."""

from __future__ import annotations

import numpy as np

from chargeopt.geometry.distance_matrix import pairs_within
from chargeopt.solver.core import cpsat_blocks as cb


def _walk(pairs: np.ndarray, n: int, x: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
    """The reference: each edge in turn, grown to a clique unless one already covers it."""
    adjacent = np.zeros((n, n), bool)
    adjacent[pairs[:, 0], pairs[:, 1]] = adjacent[pairs[:, 1], pairs[:, 0]] = True
    covered = np.zeros((n, n), bool)
    out = []
    for a, b in pairs:
        if not covered[a, b]:
            members = cb._grow_clique(adjacent, x, y, int(a), int(b))
            covered[np.ix_(members, members)] = True
            out.append(members)
    return out


def test_a_dense_graph_over_several_chunks_gets_the_walks_cliques() -> None:
    """1,200 random points in a 6" square, joined within 1.25": 81,741 edges, so 20
    chunks of `COVER_CHUNK`."""
    rng = np.random.default_rng(7)
    x, y = rng.uniform(0, 6, 1200), rng.uniform(0, 6, 1200)
    pairs = pairs_within(x, y, 1.25)
    pairs = pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))]
    assert len(pairs) > 4 * cb.COVER_CHUNK
    cliques = cb.clique_cover(pairs, len(x), x, y)
    reference = _walk(pairs, len(x), x, y)
    assert len(cliques) == len(reference)
    assert all(np.array_equal(a, b) for a, b in zip(cliques, reference, strict=True))
    covered = np.zeros((len(x), len(x)), bool)
    for members in cliques:
        assert all(np.hypot(x[a] - x[b], y[a] - y[b]) <= 1.25 for a in members for b in members)
        covered[np.ix_(members, members)] = True
    assert covered[pairs[:, 0], pairs[:, 1]].all()
