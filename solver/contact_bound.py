"""A closed-form ceiling on base contacts: no more round bases of radius r can touch a round
base of radius R than floor(pi / asin(r / (R + r))), and a model touches only target models
it can reach. A bipartite flow of models to target models under those capacities bounds
every legal placement's base contact count from above, in milliseconds."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np

from chargeopt.models import RoundBase, Scenario

from .candidates import Candidates


def kissing_capacity(target_radius_in: float, mover_radius_in: float, tolerance_in: float) -> int:
    """Most bases of radius `mover_radius_in` that can touch one of radius `target_radius_in`
    without overlapping, loosened by the contact and overlap tolerance so it stays an upper
    bound of what the checker accepts."""
    ring = target_radius_in + mover_radius_in + tolerance_in
    half = max(mover_radius_in - tolerance_in / 2, 1e-9)
    if half >= ring:
        return 1
    return math.floor(math.pi / math.asin(half / ring) + 1e-9)


def contact_capacity_ceiling(c: Candidates, scenario: Scenario, roll: float) -> int:
    """Upper bound on the models of the acting unit that can end in base contact at `roll`."""
    unit = scenario.acting_unit
    reachable: dict[str, set[str]] = {}
    for m in unit.models:
        spots = np.flatnonzero(c.reach[m.id] <= roll - 1e-6)
        reachable[m.id] = {t for p in spots for t in c.contact[p]}
    movers = [unit.base_of(m) for m in unit.models]
    all_round = all(isinstance(b, RoundBase) for b in movers)
    smallest = min((b.radius_in for b in movers), default=0.0) if all_round else 0.0
    tolerance = scenario.rules.base_contact_tolerance_in
    graph = nx.DiGraph()
    for mid, touched in reachable.items():
        if touched:
            graph.add_edge("source", ("m", mid), capacity=1)
        for t in touched:
            graph.add_edge(("m", mid), ("t", t), capacity=1)
    for t in {t for touched in reachable.values() for t in touched}:
        owner, model = scenario.model_index[t]
        base = owner.base_of(model)
        capacity = (
            kissing_capacity(base.radius_in, smallest, tolerance)
            if all_round and isinstance(base, RoundBase)
            else len(unit.models)
        )
        graph.add_edge(("t", t), "sink", capacity=capacity)
    if "source" not in graph or "sink" not in graph:
        return 0
    return int(nx.maximum_flow_value(graph, "source", "sink"))
