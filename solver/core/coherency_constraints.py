"""Coherency as CP-SAT constraints over the candidates: each used spot has enough unit mates within
range, layer separators between the targets' spots, and connectivity cuts added lazily where an
answer splits into groups."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from chargeopt.solver.core.candidates import Candidates
from chargeopt.solver.core.cpsat_blocks import PlacementModel
from chargeopt.solver.core.lazy_ortools import cp_model


def neighbours(c: Candidates, live: Sequence[int]) -> dict[int, list[int]]:
    """Coherency neighbours of each live candidate among the live candidates."""
    mask = np.zeros(len(c), bool)
    mask[np.asarray(live, dtype=int)] = True
    lists = c.coherent_lists
    return {int(p): [int(q) for q in lists[p] if mask[q]] for p in live}


def add_coherency(pm: PlacementModel, adjacency: dict[int, list[int]], k: int) -> None:
    """Every occupied candidate has at least k occupied coherency neighbours."""
    if k <= 0:
        return
    for p, near in adjacency.items():
        if len(near) < k:
            pm.model.Add(pm.y[p] == 0)
        else:
            pm.model.Add(cp_model.LinearExpr.Sum([pm.y[q] for q in near]) >= k).OnlyEnforceIf(
                pm.y[p]
            )


def bfs_layers(adjacency: dict[int, list[int]], sources: Sequence[int]) -> dict[int, int]:
    """Hops from the nearest source to every node reachable in the coherency graph."""
    dist = {int(s): 0 for s in sources}
    frontier = list(dist)
    while frontier:
        nxt = []
        for p in frontier:
            for q in adjacency[p]:
                if q not in dist:
                    dist[q] = dist[p] + 1
                    nxt.append(q)
        frontier = nxt
    return dist


def add_layer_separators(
    pm: PlacementModel,
    adjacency: dict[int, list[int]],
    sources: Sequence[int],
    sinks: Sequence[int],
    condition: list[cp_model.IntVar] | None = None,
) -> int:
    """A connected unit with a position in `sources` and one in `sinks` holds a position in
    every BFS layer between them (each layer separates the two sets). Posted for every layer,
    under `condition` (all true) if given. Returns the number of constraints, or -1 when no
    path joins the sets at all (then the condition is forbidden)."""
    dist = bfs_layers(adjacency, sources)
    reach = [dist[b] for b in sinks if b in dist]
    enforce = condition or []
    if not reach:
        pm.model.AddBoolOr([v.Not() for v in enforce]) if enforce else pm.model.AddBoolOr([])
        return -1
    hops = min(reach)
    layers: dict[int, list[int]] = {}
    for p, d in dist.items():
        if 0 < d < hops:
            layers.setdefault(d, []).append(p)
    for t in range(1, hops):
        clause = [pm.y[p] for p in layers[t]] + [v.Not() for v in enforce]
        pm.model.AddBoolOr(clause)
    return max(0, hops - 1)


def add_gapless_layers(
    pm: PlacementModel,
    adjacency: dict[int, list[int]],
    sources: Sequence[int],
    sources_used: bool = False,
) -> int:
    """Connectivity as a family of separators: layer the coherency graph by hops from
    `sources`; if a connected unit holds a position nearer than layer t and one beyond it,
    it holds one in layer t. So the used positions' layers form a gapless interval, and a
    position no path joins to the sources stays empty while a source is used. With
    `sources_used` (some source is used in every solution) only the far side is needed.
    Encoded with one literal per layer and side, implied along chains. Returns the number
    of separator clauses."""
    dist = bfs_layers(adjacency, sources)
    if not dist:
        return 0
    depth = max(dist.values())
    layers: list[list[int]] = [[] for _ in range(depth + 1)]
    for p, d in dist.items():
        layers[d].append(p)
    model = pm.model
    beyond = [model.NewBoolVar(f"beyond{t}") for t in range(depth + 1)]
    for t in range(depth):
        model.AddImplication(beyond[t + 1], beyond[t])
        for p in layers[t + 1]:
            model.AddImplication(pm.y[p], beyond[t])
    model.Add(beyond[depth] == 0)
    outside = [p for p in pm.y if p not in dist]
    if sources_used:
        near = [model.NewConstant(1)] * (depth + 2)
        for p in outside:
            model.Add(pm.y[p] == 0)
    else:
        near = [model.NewConstant(0)]
        for t in range(1, depth + 2):
            near.append(model.NewBoolVar(f"near{t}"))
            model.AddImplication(near[t - 1], near[t])
            for p in layers[t - 1]:
                model.AddImplication(pm.y[p], near[t])
        for p in outside:
            model.AddImplication(near[depth + 1], pm.y[p].Not())
    posted = 0
    for t in range(1, depth):
        model.AddBoolOr([*(pm.y[p] for p in layers[t]), near[t].Not(), beyond[t].Not()])
        posted += 1
    return posted


def add_connectivity_cuts(
    pm: PlacementModel, groups: list[set[int]], adjacency: dict[int, list[int]]
) -> int:
    """Cut off a split answer: the used positions' hop layers from each group but the
    largest must be gapless (see `add_gapless_layers`); the split answer has a gap."""
    posted = 0
    for group in sorted(groups, key=len)[:-1]:
        posted += max(1, add_gapless_layers(pm, adjacency, sorted(group)))
    return posted


def one_group(links: np.ndarray) -> bool:
    """Whether models linked by `links` (a symmetric boolean matrix) form one group."""
    return len(links) <= 1 or len(linked_groups(links)) == 1


def linked_groups(links: np.ndarray) -> list[set[int]]:
    """The connected groups of models (indices) linked by `links`, a symmetric boolean matrix."""
    adjacency = {i: np.flatnonzero(row).tolist() for i, row in enumerate(links)}
    return components(list(range(len(links))), adjacency)


def components(used: Sequence[int], adjacency: dict[int, list[int]]) -> list[set[int]]:
    """Connected groups of the occupied candidates under coherency."""
    used_set = set(used)
    seen: set[int] = set()
    groups = []
    for start in used:
        if start in seen:
            continue
        seen.add(start)
        group, frontier = {start}, [start]
        while frontier:
            p = frontier.pop()
            for q in adjacency[p]:
                if q in used_set and q not in seen:
                    seen.add(q)
                    group.add(q)
                    frontier.append(q)
        groups.append(group)
    return groups
