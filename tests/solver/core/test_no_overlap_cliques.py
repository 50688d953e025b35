"""The no-overlap cliques forbid only placements whose bases really overlap: the packing
relaxation built on them can never claim fewer contacts than a legal placement has."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from repo_paths import REPO_ROOT
from strategies import charges

from chargeopt.geometry import Battlefield
from chargeopt.models import RoundBase, Scenario
from chargeopt.solver import load_scenario
from chargeopt.solver.bounds.contact_bound import (
    contact_capacity_ceiling,
    kissing_capacity,
    straight_line_ceilings,
)
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core.cpsat_blocks import overlap_cliques
from chargeopt.solver.core.greedy import best_completion, complete, greedy_packing, satisfies_all
from chargeopt.solver.forty_k.charge_packing import packing_ceiling
from chargeopt.solver.options import SolveOptions

LAYOUTS = REPO_ROOT / "benchmarks" / "layouts" / "speed-v1"
SCALING = LAYOUTS.parent / "scaling-v1"


def _legal_contacts(scenario: Scenario, options: SolveOptions) -> tuple[int, int, int]:
    """(contacts of a heuristic legal placement, packing ceiling, closed-form ceiling)."""
    roll = scenario.action.roll
    c = cand.generate(scenario, Battlefield.from_scenario(scenario), roll, options)
    k = scenario.rules.coherency_neighbours(len(scenario.acting_unit.models))
    placed = best_completion(c, scenario, roll, greedy_packing(c, scenario, roll), k)
    found = 0
    if placed is not None and satisfies_all(c, scenario, placed, k):
        found = sum(1 for p in placed.values() if c.contact[p])
    ceiling, _ = packing_ceiling(c, scenario, roll, options, "contact")
    return found, ceiling, contact_capacity_ceiling(c, scenario, roll)


def test_partly_blocked_rings_do_not_wrap_into_false_cliques() -> None:
    """c20-walls-s2 has target models whose free contact spots form an arc of about 80
    degrees; a clique that wrapped around the gap once capped the ceiling at 15 while a
    legal placement with 16 contacts exists."""
    scenario = load_scenario(LAYOUTS / "c20-walls-s2.toml")
    found, ceiling, quick = _legal_contacts(scenario, SolveOptions(roll_table=False))
    assert found == 16
    assert ceiling is not None and ceiling >= found
    assert quick >= found


def test_kissing_capacity_of_equal_and_unequal_bases() -> None:
    """floor(pi / asin(r / (R + r))), loosened by the 0.005" contact tolerance and the
    overlap the checker allows: six equal bases around one; 40mm around 25mm: 4.74 -> 4;
    25mm around 40mm: 7.96 -> 7 with no overlap (as the rules have it), 8 only if bases could
    overlap by the contact tolerance."""
    r32, r25, r40 = 16 / 25.4, 12.5 / 25.4, 20 / 25.4
    assert kissing_capacity(r32, r32, 0.005, 1e-6) == 6
    assert kissing_capacity(r32, r32, 0.0, 0.0) == 6
    assert kissing_capacity(r25, r40, 0.005, 1e-6) == 4
    assert np.pi / np.arcsin(r25 / (r40 + r25 + 0.005)) < 8
    assert kissing_capacity(r40, r25, 0.0, 0.0) == 7
    assert kissing_capacity(r40, r25, 0.005, 1e-6) == 7
    assert kissing_capacity(r40, r25, 0.005, 0.005) == 8


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(charges())
def test_ceilings_never_below_a_legal_placement(scenario: Scenario) -> None:
    """Every contact ceiling is at least the contacts of any legal placement found."""
    found, ceiling, quick = _legal_contacts(scenario, SolveOptions(roll_table=False))
    if ceiling is not None:
        assert ceiling >= found
    assert quick >= found
    assert straight_line_ceilings(scenario, scenario.action.roll)["base_contact"] >= found


def _points(xy: list[tuple[float, float]]) -> cand.Candidates:
    """Bare 32mm candidates at `xy` with their overlapping pairs (centres under 1.26" apart)."""
    x, y = (np.array(v, dtype=float) for v in zip(*xy, strict=True))
    n = len(x)
    c = cand.Candidates(
        [RoundBase(diameter_mm=32)],
        np.zeros(n, int),
        x,
        y,
        np.zeros(n),
        np.zeros(n),
        [()] * n,
        [frozenset()] * n,
        np.full(n, -1),
        np.zeros(n),
    )
    i, j = np.triu_indices(n, 1)
    c.conflicts = np.column_stack((i, j))[np.hypot(x[i] - x[j], y[i] - y[j]) < 32 / 25.4]
    return c


def test_overlap_cliques_of_a_square_and_its_centre() -> None:
    """Corners of a 1" square overlap their two neighbours (1" < 1.26") but not the opposite
    corner (1.41"); the centre overlaps all four. The maximal cliques are the four triangles
    of the centre and a side, and they hold every overlapping pair."""
    c = _points([(0, 0), (1, 0), (1, 1), (0, 1), (0.5, 0.5)])
    cliques = overlap_cliques(c, np.arange(5))
    assert sorted(sorted(int(p) for p in q) for q in cliques) == [
        [0, 1, 4],
        [0, 3, 4],
        [1, 2, 4],
        [2, 3, 4],
    ]


def test_overlap_cliques_are_maximal_and_cover_every_conflict() -> None:
    """On a layout's candidates: every two members of a clique overlap, no other candidate
    overlaps all of a clique, and every overlapping pair shares a clique."""
    scenario = load_scenario(LAYOUTS / "c20-walls-s2.toml")
    roll = scenario.action.roll
    c = cand.generate(scenario, Battlefield.from_scenario(scenario), roll, SolveOptions())
    live = np.flatnonzero([bool(f) for f in c.engaged])
    cliques = overlap_cliques(c, live)
    clash = {(int(a), int(b)) for a, b in c.conflicts} | {(int(b), int(a)) for a, b in c.conflicts}
    covered = set()
    for q in cliques:
        members = [int(p) for p in q]
        assert all((a, b) in clash for a in members for b in members if a != b)
        outside = set(live.tolist()) - set(members)
        assert not any(all((p, m) in clash for m in members) for p in outside)
        covered |= {(a, b) for a in members for b in members}
    inside = set(live.tolist())
    assert all((a, b) in covered for a, b in clash if a in inside and b in inside)


def test_engaged_packing_keeping_the_proven_contacts() -> None:
    """scaling-v1 c30-open-s1 at roll 7: only 9 models reach contact spots and 17 reach
    engaged spots (where all 17 fit at once), but with all 9 in contact the others fit in
    the pockets between them for 14 at most, and the packing completes to a legal 14 (15
    on candidates without the margins an answer keeps: the pockets are 0.011" shallower and
    the roll 0.012" shorter)."""
    scenario = load_scenario(SCALING / "c30-open-s1.toml")
    options = SolveOptions(roll_table=False)
    roll = scenario.action.roll
    c = cand.generate(scenario, Battlefield.from_scenario(scenario), roll, options)
    tight, packed = packing_ceiling(c, scenario, roll, options, "engaged", least_contacts=9)
    assert tight == 14
    k = scenario.rules.coherency_neighbours(len(scenario.acting_unit.models))
    placed = complete(c, scenario, roll, packed, k)
    assert placed is not None and satisfies_all(c, scenario, placed, k)
    assert sum(1 for p in placed.values() if c.engaged[p]) == 14


def test_ring_cliques_keep_bases_apart() -> None:
    """curated-v1 k8 (ten 25mm bases, one 40mm target): 7.97 fit around it with no overlap,
    so the first stage's model (ring-arc cliques and pair conflicts, which HiGHS and the CP-SAT
    stages solve) has optimum 7 over the candidates, never 8."""
    from ortools.sat.python import cp_model

    from chargeopt.solver.forty_k.charge_roll import contact_model

    scenario = load_scenario(LAYOUTS.parent / "curated-v1" / "k8-seven-around-40mm.toml")
    _, pm, _, contact = contact_model(scenario, 12, SolveOptions())
    pm.model.Maximize(contact)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 60
    assert solver.Solve(pm.model) == cp_model.OPTIMAL
    assert solver.ObjectiveValue() == 7
