"""Starts for the continuous repair from a packing of the engagement bands: where a lattice
answer and one-model repairs leave a horde a model short, the whole front may need to be laid
out again. Spots stand on a few circles across each target model's engagement band and at the
middle of its contact ring's short sectors; CP-SAT places one more model than the answer, each
on a spot it reaches (by the lower bounds on its legal path of `ring_packing`), no two bases
overlapping by more than `OVERLAP_IN`, at least the answer's base contacts on contact spots.
Not a placement, only a start: the repair squeezes it and the checker judges it (on
scaling-v1 c30-walls-s1 it engages an 18th model where the lattice and one-model repairs stop
at 17)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import networkx as nx
import numpy as np
import shapely

from chargeopt.geometry import Battlefield
from chargeopt.models import Scenario
from chargeopt.solver.bounds import cells as cl
from chargeopt.solver.bounds.cell_reach import reachable, within_straight_reach
from chargeopt.solver.bounds.relaxation_zones import Zones, zones
from chargeopt.solver.bounds.ring_packing import pack_points, ring_sectors

BAND_ARC_IN = 0.1
"""Spacing of the spots along each circle of a band, and the arc of the contact rings' sectors."""
BAND_LAYERS = 4
"""Circles of spots across a band's depth: the innermost and outermost give the zigzag of
contacts and second-line models. On scaling-v1 c30-walls-s1, with 4 circles two CP-SAT seeds
in three give a start that squeezes into a legal 18 (1.1 to 1.4 s each), with 3 circles as
many (0.9 to 1.0 s); 4 is what the random medium charges of RESULTS.md were measured with."""
DEPTH_MARGIN_IN = 0.02
"""The band's outer circle of spots stands this far inside engagement range (and the inner one
outside base contact), so that a squeezed base keeps within it."""
OVERLAP_IN = 0.05
"""How far two started bases may overlap; the squeeze closes it. On c30-walls-s1 spots kept
fully apart hold no 18 (CP-SAT proves it for three seeds), 0.05" gives legal 18s from two seeds
in three, 0.1" from one; sectors 0.5" deep judged by their far corners let bases start up to
0.27" into each other, and none of six such starts squeezed."""
MAX_SPOTS = 6_000
SEED_DTIME = 4.0
"""CP-SAT's deterministic work allowed to one packing."""


@dataclass(frozen=True)
class Seeds:
    """Start centres of the models the packing places, and the target model each one on a
    contact spot is to touch."""

    centres: dict[str, tuple[float, float]]
    contact: dict[str, str]


def packed_seeds(
    scenario: Scenario,
    battlefield: Battlefield,
    roll: float,
    contacts: int,
    engaged: int,
    work: tuple[float, float, int],
) -> Seeds | None:
    """Starts for `engaged` models within engagement range, `contacts` of them in base contact,
    or None where the packing finds none within `work` (deadline, deterministic time, seed)."""
    z = zones(scenario, battlefield)
    rings, ring_base = ring_sectors(z, True, BAND_ARC_IN)
    band, band_base = _band_layers(z)
    cells = cl.concat([rings, band])
    base_of = np.concatenate([ring_base, band_base])
    near = within_straight_reach(scenario, z, roll, cells, base_of)
    near &= _legal_centres(z, cells, base_of)[None, :]
    allowed = reachable(scenario, battlefield, z, roll, cells, near)
    counted = np.arange(len(cells)) < len(rings)
    centres = cells.centres
    spots = cl.points(centres[:, 0], centres[:, 1])
    chosen = pack_points(
        spots,
        allowed,
        base_of,
        z,
        work,
        engaged,
        engaged,
        counted=counted,
        counted_at_least=contacts,
        overlap_in=OVERLAP_IN,
        max_points=MAX_SPOTS,
    )
    if chosen is None:
        return None
    ids = [m.id for m in scenario.acting_unit.models]
    match = _assign(allowed, chosen)
    return Seeds(
        {ids[i]: (float(centres[q, 0]), float(centres[q, 1])) for i, q in match.items()},
        {ids[i]: z.rings[int(cells.ring[q])].model for i, q in match.items() if counted[q]},
    )


def _band_layers(z: Zones) -> tuple[cl.Cells, np.ndarray]:
    """Spots of every engagement band on `BAND_LAYERS` circles from just outside base contact
    to just inside engagement range, `BAND_ARC_IN` apart along each, with each one's base
    kind."""
    parts, bases = [], []
    for g, r in enumerate(z.rings):
        if r.contact:
            continue
        for rho in np.linspace(r.rho0 + DEPTH_MARGIN_IN, r.rho1 - DEPTH_MARGIN_IN, BAND_LAYERS):
            count = max(8, math.ceil(2 * math.pi * rho / BAND_ARC_IN))
            th = np.linspace(0.0, 2 * np.pi, count, endpoint=False)
            xy = np.column_stack((r.x + rho * np.cos(th), r.y + rho * np.sin(th)))
            part = cl.points(xy[:, 0], xy[:, 1])
            parts.append(cl.Cells(part.corners, part.kind, np.full(count, g), part.shape))
            bases.append(np.full(count, r.base))
    return cl.concat(parts), np.concatenate(bases) if bases else np.empty(0, int)


def _legal_centres(z: Zones, cells: cl.Cells, base_of: np.ndarray) -> np.ndarray:
    """Spots (the cells' centres) legal for their base kind: on the board's allowed area and in
    no forbidden zone (a start must not begin inside a wall or a base)."""
    ok = np.zeros(len(cells), bool)
    centres = shapely.points(cells.centres)
    for b in np.unique(base_of):
        mine = np.flatnonzero(base_of == b)
        keep = shapely.contains(z.board_ok[b], centres[mine])
        for zone in z.forbidden[b].values():
            keep &= ~shapely.intersects(zone, centres[mine])
        ok[mine] = keep
    return ok


def _assign(allowed: np.ndarray, chosen: np.ndarray) -> dict[int, int]:
    """A model for every chosen spot, each on a spot it reaches (the packing has one). Nodes
    are integers (models, then n + spot): a matching over tuples of strings would depend on
    the process's hash seed."""
    n = allowed.shape[0]
    graph = nx.Graph()
    for q in chosen:
        graph.add_edges_from((int(i), n + int(q)) for i in np.flatnonzero(allowed[:, q]))
    models = sorted(v for v in graph if v < n)
    match = nx.bipartite.hopcroft_karp_matching(graph, top_nodes=models)
    return {v: match[v] - n for v in models if v in match}
