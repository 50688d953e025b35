"""The charge on the candidates at one roll: the CP-SAT model with every rule, its ordered
objectives (base contact, engagement, movement), the ceilings and heuristic starts that settle
stages without it, and the scans over rolls (the smallest that succeeds, the base contact each
roll buys)."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from chargeopt.geometry import Battlefield
from chargeopt.models import Scenario
from chargeopt.solver.bounds.contact_bound import contact_capacity_ceiling, straight_line_ceilings
from chargeopt.solver.bounds.split_bound import split_contact_ceiling
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core import clock
from chargeopt.solver.core.coherency_constraints import (
    add_coherency,
    add_layer_separators,
    neighbours,
)
from chargeopt.solver.core.cpsat_blocks import MOVE_SCALE, add_no_overlap, assignment
from chargeopt.solver.core.exact_limits import margin
from chargeopt.solver.core.greedy import (
    best_completion,
    complete,
    greedy_assignment,
    greedy_packing,
    improve_count,
    satisfies_all,
    shorten_moves,
)
from chargeopt.solver.core.ordered_solve import Objective, SolveState, StageOutcome, solve_ordered
from chargeopt.solver.core.tolerances import ROLL_MARGIN_IN
from chargeopt.solver.forty_k.charge_packing import (
    CONTACT_PACKING_DETERMINISTIC,
    base_classes,
    packing_ceiling,
)
from chargeopt.solver.options import SolveOptions


def build_model(c: cand.Candidates, scenario: Scenario, roll: int, symmetric: bool = True):
    pm = assignment(c, roll, base_classes(c, scenario), symmetric=symmetric)
    if pm is None:
        return None, {}
    rules = scenario.rules
    live = sorted(pm.y)
    adjacency = neighbours(c, live)
    add_no_overlap(pm, c)
    add_coherency(pm, adjacency, rules.coherency_neighbours(len(scenario.acting_unit.models)))
    engaging = {tid: [p for p in live if tid in c.engaged[p]] for tid in scenario.action.targets}
    for spots in engaging.values():
        if not spots:
            return None, {}
        pm.model.AddBoolOr([pm.y[p] for p in spots])
    tids = list(engaging)
    for i, first in enumerate(tids):
        for second in tids[i + 1 :]:
            if add_layer_separators(pm, adjacency, engaging[first], engaging[second]) < 0:
                return None, {}
    return pm, adjacency


def stage_objectives(pm, c: cand.Candidates):
    """Base contact, engagement, and a movement proxy per position (the least any model of
    its base needs to get there); the exact assignment of models then minimises movement."""
    contact = sum(v for p, v in pm.y.items() if c.contact[p])
    engaged = sum(v for p, v in pm.y.items() if c.engaged[p])
    nearest = np.min(np.vstack(list(c.reach.values())), axis=0)
    movement = sum(int(np.ceil(min(nearest[p], 1e3) * MOVE_SCALE)) * v for p, v in pm.y.items())
    return contact, engaged, movement


def contact_model(scenario: Scenario, roll: int, options: SolveOptions):
    """The charge's first objective stage at `roll`, for another solver (benchmarks): the
    candidates, the CP-SAT model with every rule but connectivity (callers add it by cuts,
    `coherency_constraints.add_connectivity_cuts`), its coherency adjacency and the base-contact
    expression to maximise. The model is None when the charge is infeasible on its face."""
    c = cand.generate(scenario, Battlefield.from_scenario(scenario), roll, options)
    pm, adjacency = build_model(c, scenario, roll, options.symmetry_classes)
    return c, pm, adjacency, None if pm is None else stage_objectives(pm, c)[0]


SETUP_S_PER_PAIR = 1.5e-5
"""What one roll's setup (heuristic starts, packing ceilings' models, the CP-SAT model) is
charged on the solver's clock per candidate and model: about what it takes on the reference
machine (scaling-v1 c40-walls-s1, 2,074 candidates and 40 models: 1 to 2 s a roll)."""

TABLE_SETUP_S_PER_PAIR = 2e-7
"""What one row of the roll table (`table_row`: its heuristic starts and cheap ceilings) is
charged on the solver's clock per candidate and model (measured on scaling-v1: 0.005 to
0.04 s a row at 30 and 40 models)."""
TABLE_PACKING_S_PER_PAIR = 8e-6
"""What a row's packing relaxation is charged besides CP-SAT's deterministic time, per
candidate and model: building it and CP-SAT's loading of it, which its deterministic time
leaves out (scaling-v1 c30-open-s1, rolls 8 to 12: 0.2 to 1.0 s of wall for 0.01 to 0.19
units)."""
TABLE_PACKING_MIN_DTIME = 0.02
"""A row's packing relaxation runs only with at least this much deterministic time left."""


def solve_at(
    c,
    scenario,
    roll,
    options,
    *,
    full: bool,
    deadline: float,
    previous: dict[str, int] | None = None,
    feasibility: bool = False,
    offer: Callable[[dict[str, int]], None] | None = None,
) -> SolveState:
    """The best placement at one roll (base contact only unless `full`; with `feasibility`,
    any legal placement). A previous roll's placement stays legal at a larger roll, so it is
    the first incumbent considered. `offer` is shown each legal placement the heuristics find
    before the search starts (an answer to fall back on if the search is cut short)."""
    opened = _opening(c, scenario, roll, options, previous, SETUP_S_PER_PAIR)
    if opened is None:
        return SolveState(None, [], "INFEASIBLE")
    n, k, starts, incumbent = opened
    if offer is not None and incumbent is not None:
        offer(incumbent[0])
    quick = n if feasibility else _cheap_ceiling(c, scenario, roll)
    if feasibility:
        ceiling = 0
    elif incumbent is not None and incumbent[1]["base_contact"] >= quick:
        ceiling = quick
    else:
        ceiling, packed = packing_ceiling(
            c, scenario, roll, options, "contact", least_movement=full
        )
        ceiling = quick if ceiling is None else min(ceiling, quick)
        if options.use_hint:
            starts.append(best_completion(c, scenario, roll, packed, k))
            incumbent = best_legal(c, scenario, starts, k)
    if incumbent is not None and not feasibility and incumbent[1]["base_contact"] < (ceiling or 0):
        better = improve_count(c, scenario, incumbent[0], roll, k, c.contact)
        incumbent = best_legal(c, scenario, [better], k) or incumbent
    if offer is not None and incumbent is not None:
        offer(incumbent[0])
    hint = next((list(s.values()) for s in starts if s), None)
    if incumbent is not None:
        hint = list(incumbent[0].values())
    engaged_ceiling, engaged_s = n, 0.0
    if full and (incumbent is None or incumbent[1]["engaged"] < n):
        t_engaged = time.perf_counter()
        engaged_ceiling = straight_line_ceilings(scenario, roll)["engaged"]
        if incumbent is None or incumbent[1]["engaged"] < engaged_ceiling:
            contacts = ceiling if _meets(incumbent, ceiling) else 0
            engaged_ceiling, incumbent = _engaged_ceiling(
                c, scenario, roll, options, k, contacts, engaged_ceiling, incumbent
            )
        engaged_s = time.perf_counter() - t_engaged
    if _meets(incumbent, ceiling):
        settled = [StageOutcome("base_contact", ceiling, ceiling, "OPTIMAL", 0.0)]
        if not full:
            return SolveState(incumbent[0], settled, "OPTIMAL")
        if incumbent[1]["engaged"] >= engaged_ceiling:
            t0 = time.perf_counter()
            placed = shorten_moves(c, scenario, incumbent[0], roll, k)
            moved = sum(c.reach[mid][p] for mid, p in placed.items())
            settled += [
                StageOutcome("engaged", engaged_ceiling, engaged_ceiling, "OPTIMAL", engaged_s),
                StageOutcome(
                    "movement", moved * MOVE_SCALE, 0.0, "LOCAL_SEARCH", time.perf_counter() - t0
                ),
            ]
            return SolveState(placed, settled, "OPTIMAL")
    pm, adjacency = build_model(c, scenario, roll, options.symmetry_classes)
    if pm is None:
        return SolveState(None, [], "INFEASIBLE")
    contact, engaged, movement = stage_objectives(pm, c)
    if not feasibility and ceiling is not None:
        pm.model.Add(contact <= ceiling)
    objectives = [Objective("base_contact", contact, True, ceiling)]
    if full:
        pm.model.Add(engaged <= engaged_ceiling)
        objectives += [
            Objective("engaged", engaged, True, engaged_ceiling),
            Objective("movement", movement, False, tie_break=True),
        ]

    def improve(placed: dict[str, int]) -> tuple[dict[str, int], dict[str, float]]:
        better = improve_count(c, scenario, placed, roll, k, c.engaged)
        return best_legal(c, scenario, [better], k) or best_legal(c, scenario, [placed], k)

    state = solve_ordered(
        pm,
        c,
        objectives,
        adjacency,
        roll=roll,
        time_limit_s=max(0.05, deadline - clock.now()),
        seed=options.seed,
        workers=options.workers,
        presolve=options.presolve,
        hint=hint,
        need_connected=n > 1,
        incumbent=incumbent,
        improve=improve if full else None,
    )
    if full and state.assignment is not None:
        state.assignment = shorten_moves(c, scenario, state.assignment, roll, k)
    return state


def _opening(c, scenario, roll, options, previous, setup_s_per_pair: float):
    """A roll's opening: None if some model reaches no candidate (then no placement exists on
    them); else, with the setup charged on the clock per candidate and model, the unit's size,
    its coherency neighbours, the heuristic starts and the best legal one among them."""
    models = scenario.acting_unit.models
    if any(not (c.reach[m.id] <= roll - margin(ROLL_MARGIN_IN)).any() for m in models):
        return None
    n = len(models)
    clock.spend(len(c) * n * setup_s_per_pair)
    k = scenario.rules.coherency_neighbours(n)
    starts = _starts(c, scenario, roll, options, previous, k)
    return n, k, starts, best_legal(c, scenario, starts, k)


def _starts(c, scenario, roll, options, previous, k) -> list[dict[str, int] | None]:
    """The heuristic starts at `roll`: a smaller roll's placement (legal here too), the
    completion of nothing, the greedy assignment and the completion of the greedy packing."""
    starts = [previous] if previous else []
    if options.use_hint:
        starts += [complete(c, scenario, roll, {}, k), greedy_assignment(c, scenario, roll)]
        packed = greedy_packing(c, scenario, roll)
        starts.append(best_completion(c, scenario, roll, packed, k))
    return starts


def _quick_ceiling(c, scenario, roll) -> int:
    """The contact ceilings that cost no search: the targets' capacity over the candidates
    and the split-unit ceiling."""
    quick = contact_capacity_ceiling(c, scenario, roll)
    split = split_contact_ceiling(scenario)
    return quick if split is None else min(quick, split.base_contact)


def _cheap_ceiling(c, scenario, roll) -> int:
    """The contact ceilings that cost no search, the straight line's among them: where the
    heuristic starts meet it, the first stage is settled without CP-SAT."""
    straight = straight_line_ceilings(scenario, roll)["base_contact"]
    return min(_quick_ceiling(c, scenario, roll), straight)


def table_row(c, scenario, roll, options, previous, deadline: float) -> SolveState:
    """One row of the roll table, without the CP-SAT model of every rule: the most models in
    base contact among the heuristic starts, improved towards the ceiling, proven where it
    meets the least of the ceilings (capacity, split unit, straight line, and the packing
    relaxation where the row's budget before `deadline` pays for it). The full model cost a
    horde's row 0.5 to 2 s of building for a tenth of a second of search, which proved
    nothing on scaling-v1 (issue 32)."""
    opened = _opening(c, scenario, roll, options, previous, TABLE_SETUP_S_PER_PAIR)
    if opened is None:
        return SolveState(None, [], "INFEASIBLE")
    n, k, starts, incumbent = opened
    ceiling = min(
        _quick_ceiling(c, scenario, roll), straight_line_ceilings(scenario, roll)["base_contact"]
    )
    packing_s = len(c) * n * TABLE_PACKING_S_PER_PAIR
    dtime = (deadline - clock.now() - packing_s) * clock.DTIME_PER_S
    dtime = min(CONTACT_PACKING_DETERMINISTIC, dtime)
    if not _meets(incumbent, ceiling) and dtime >= TABLE_PACKING_MIN_DTIME:
        clock.spend(packing_s)
        packed_ceiling, packed = packing_ceiling(c, scenario, roll, options, "contact", dtime=dtime)
        if packed_ceiling is not None:
            ceiling = min(ceiling, packed_ceiling)
        if options.use_hint and packed:
            starts.append(best_completion(c, scenario, roll, packed, k))
            incumbent = best_legal(c, scenario, starts, k)
    if incumbent is not None and not _meets(incumbent, ceiling):
        better = improve_count(c, scenario, incumbent[0], roll, k, c.contact)
        incumbent = best_legal(c, scenario, [better], k) or incumbent
    if incumbent is None:
        return SolveState(None, [], "UNKNOWN")
    value = incumbent[1]["base_contact"]
    status = "OPTIMAL" if value >= ceiling else "FEASIBLE"
    return SolveState(
        incumbent[0], [StageOutcome("base_contact", value, ceiling, status, 0.0)], status
    )


def _meets(incumbent, ceiling: int | None) -> bool:
    """Whether the incumbent's base contacts reach the proven contact ceiling (then that
    ceiling is the first stage's optimum)."""
    return incumbent is not None and ceiling is not None and incumbent[1]["base_contact"] >= ceiling


def _engaged_ceiling(c, scenario, roll, options, k, contacts: int, ceiling: int, incumbent):
    """The engagement ceiling (the packing relaxation's, if lower than `ceiling`) and the
    incumbent, bettered by completing the packing's placement. With `contacts`, the proven
    optimum of the first stage, the packing keeps that many models in contact, as every
    answer of the engagement stage does: the engaged models must then fit in the pockets
    between those in contact, which tightens the ceiling, and the packing's placement
    completes into an answer that meets it (measured on the 20- and 30-model layouts of
    scaling-v1: all eight settled so, without the ordered solve's engagement stage)."""
    packed_value, packed = packing_ceiling(
        c, scenario, roll, options, "engaged", least_contacts=contacts
    )
    ceiling = min(ceiling, packed_value or len(scenario.acting_unit.models))
    if contacts and packed and options.use_hint:
        completed = complete(c, scenario, roll, packed, k)
        incumbent = best_legal(c, scenario, [incumbent and incumbent[0], completed], k)
    return ceiling, incumbent


def best_legal(c, scenario, starts, k):
    """The placement among `starts` that meets every rule with the most base contacts (then
    engaged models), with those counts; None if none is legal."""
    best = None
    for start in starts:
        if not start or not satisfies_all(c, scenario, start, k):
            continue
        values = {
            "base_contact": sum(1 for p in start.values() if c.contact[p]),
            "engaged": sum(1 for p in start.values() if c.engaged[p]),
        }
        key = (values["base_contact"], values["engaged"])
        if best is None or key > (best[1]["base_contact"], best[1]["engaged"]):
            best = (start, values)
    return best


def roll_table(
    c,
    scenario,
    options,
    rolls: range,
    deadline: float,
    previous=None,
    per_roll_s: float = 0.5,
    known: tuple[int, dict[str, int], bool] | None = None,
):
    """Best base contact at each roll in `rolls` (each roll gets an equal share of the time
    left, at most `per_roll_s`, for `table_row`). A placement at one roll is legal at every
    larger one, so a count never falls as the roll grows: a roll whose best is not proven
    keeps at least the count below it, unproven. Once a proven count meets the ceilings of
    the largest roll that cost no search, every larger roll has that count too. `known` is
    the solve's own answer (roll, placement, base contact proven best): its row is taken
    from it and the rows above start from it. Returns the table entries and whether every
    roll got an answer."""
    entries: list[dict[str, object]] = []
    settled = True
    top = None
    if len(rolls):
        top = min(
            _quick_ceiling(c, scenario, rolls[-1]),
            straight_line_ceilings(scenario, rolls[-1])["base_contact"],
        )
    for i, roll in enumerate(rolls):
        if entries and entries[-1]["proven"] and entries[-1]["base_contact"] == top:
            entries.append({"roll": roll, "base_contact": top, "proven": True})
            continue
        below = int(entries[-1]["base_contact"]) if entries else 0
        if known is not None and known[0] == roll:
            value = sum(1 for p in known[1].values() if c.contact[p])
            if value >= below:
                previous = known[1]
                entries.append({"roll": roll, "base_contact": value, "proven": known[2]})
                continue
        share = min(per_roll_s, (deadline - clock.now()) / (len(rolls) - i))
        if share <= 0.01:
            settled = False
            break
        state = table_row(c, scenario, roll, options, previous, clock.now() + share)
        if state.assignment is None:
            settled &= state.status == "INFEASIBLE"
            if entries:
                entries.append({"roll": roll, "base_contact": below, "proven": False})
            continue
        previous = state.assignment
        value = int(state.stages[0].value)
        entries.append(
            {
                "roll": roll,
                "base_contact": max(below, value),
                "proven": state.status == "OPTIMAL",
            }
        )
    return entries, settled
