"""Unit coherency at the end of the move: each model near enough unit mates (horizontally and
vertically), and the whole unit one connected group."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from chargeopt.geometry.move_state import MoveState
from chargeopt.geometry.pairs import RANGE_SLACK_IN, edge_distances, height_gaps
from chargeopt.models import Violation


def coherency_violations(move: MoveState) -> Iterable[Violation]:
    """coherency (one per model short of neighbours) and coherency_split (one per unit)."""
    rules = move.rules
    size = len(move.ids)
    if size < 2:
        return
    need = rules.coherency_neighbours(size)
    bases = move.end_bases
    distance = edge_distances(bases, bases)
    level = np.where(
        height_gaps(bases, bases) <= rules.coherency_vertical_in + RANGE_SLACK_IN, distance, np.inf
    )
    np.fill_diagonal(level, np.inf)
    range_in = rules.coherency_range_in
    links = level <= range_in + RANGE_SLACK_IN
    for i, model_id in enumerate(move.ids):
        count = int(links[i].sum())
        if count >= need:
            continue
        kth = float(np.sort(level[i])[need - 1])
        mates = "unit mate" if count == 1 else "unit mates"
        yield Violation(
            kind="coherency",
            message=f'model {model_id!r} has {count} {mates} within {range_in:.2f}" '
            f"(needs {need} in a unit of {size})",
            models=(model_id,),
            distance_in=None if np.isinf(kth) else kth,
            limit_in=range_in,
        )
    groups = linked_groups(links | links.T)
    if len(groups) > 1:
        labels = [i for g in groups for i in g]
        group_of = {i: k for k, g in enumerate(groups) for i in g}
        apart = [
            distance[i, j] for i in range(size) for j in range(size) if group_of[i] != group_of[j]
        ]
        words = " | ".join(", ".join(move.ids[i] for i in g) for g in groups)
        yield Violation(
            kind="coherency_split",
            message=f"unit {move.unit.id!r} is split into {len(groups)} groups: {words}",
            models=tuple(move.ids[i] for i in labels),
            distance_in=float(min(apart)),
            limit_in=range_in,
        )


def linked_groups(links: np.ndarray) -> list[list[int]]:
    """The connected groups of models under `links` (a symmetric boolean matrix), each sorted,
    in the order of their first model."""
    seen = np.zeros(len(links), dtype=bool)
    groups = []
    for start in range(len(links)):
        if seen[start]:
            continue
        seen[start] = True
        group, stack = [], [start]
        while stack:
            i = stack.pop()
            group.append(i)
            fresh = np.flatnonzero(links[i] & ~seen)
            seen[fresh] = True
            stack.extend(fresh.tolist())
        groups.append(sorted(group))
    return groups
