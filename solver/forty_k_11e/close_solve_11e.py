"""An 11th-edition pile in or consolidation solved end to end: for each selection the move may
make (`close_move_11e.selections`), the CP-SAT model on the close-move candidates, then the
best selection's answer as a result.

Objective, read globally (each model that moves must end engaged with its closest selected
unit "if possible": the placement with the most such models leaves none that could):
1. `engaged_closest`: models engaged with the selected unit closest to them (objective mode:
   `on_objective`, models within range of the objective);
2. `engaged`: models engaged with any enemy unit (who can fight, 2");
3. the least movement (tie break, per model: every model has its own variables).
Hard rules: no overlap, coherency, fixed models pinned, per-model end rules (closer, keep the
units engaged at the start), and after the move: pile in, the unit engaged; engaging
consolidation, engaged with every selected unit; objective consolidation, a model in range."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from chargeopt.geometry import Battlefield
from chargeopt.models import Placement, Result, ResultAction, Scenario, Status
from chargeopt.solver.core import candidates as cand
from chargeopt.solver.core import clock, progress
from chargeopt.solver.core.coherency_constraints import add_coherency, neighbours
from chargeopt.solver.core.cpsat_blocks import MOVE_SCALE, add_no_overlap, assignment
from chargeopt.solver.core.lazy_ortools import cp_model
from chargeopt.solver.core.ordered_solve import (
    REPEATABLE_WORKERS,
    Objective,
    SolveState,
    solve_ordered,
)
from chargeopt.solver.core.polish import poses_of
from chargeopt.solver.core.tolerances import ROLL_MARGIN_IN
from chargeopt.solver.forty_k.close_moves import Goal
from chargeopt.solver.forty_k.placements import placements_at
from chargeopt.solver.forty_k_11e.close_move_11e import (
    CloseMove11e,
    Mode,
    Selection,
    selections,
)
from chargeopt.solver.forty_k_11e.close_settle_11e import (
    Counts,
    Settler,
    ceilings_of,
    construct,
    levels_of,
    meets,
    settled,
)
from chargeopt.solver.forty_k_11e.fights import fights_of
from chargeopt.solver.options import SolveOptions

PRIMARY = ("engaged_closest", "on_objective", "engaged")


@dataclass
class Attempt:
    """One selection's discrete answer."""

    selection: Selection
    move: CloseMove11e
    state: SolveState
    c: cand.Candidates
    starts: dict[str, int]

    def key(self) -> tuple[float, ...]:
        """Primary values then -movement, to compare selections (failed ones last)."""
        if self.state.assignment is None:
            return (-1.0,)
        values = {s.name: s.value for s in self.state.stages}
        values.setdefault("engaged", values.get("engaged_closest", 0.0))
        moved = sum(self.c.reach[m][p] for m, p in self.state.assignment.items())
        return (*(values.get(n, 0.0) for n in PRIMARY), -moved)


def solve_close_11e(scenario: Scenario, options: SolveOptions) -> Result:
    """The best 11th-edition pile in or consolidation over every selection it may make. First
    each selection's construction: one that meets its proven ceilings is settled. Then, by
    ceilings, highest first, the others: one whose ceilings do not exceed the best counts found
    cannot beat them (its construction fell short, so it cannot tie either) and is not solved
    (`DOMINATED`); the rest go to CP-SAT with their construction as incumbent."""
    t0 = time.perf_counter()
    deadline = clock.now() + options.time_limit_s
    battlefield = Battlefield.from_scenario(scenario)
    ready = sorted(
        (
            prepare(CloseMove11e(scenario, battlefield, s), options)
            for s in selections(scenario, battlefield)
        ),
        key=Prepared.reach,
        reverse=True,
    )
    tried: list[Attempt] = []
    found: tuple[float, ...] = ()
    built = {}
    for i, one in enumerate(ready):
        progress.stage(one.move.selection.words)
        built[i] = (
            construct(one.settler, one.starts, options.seed, one.ceilings)
            if options.use_hint
            else None
        )
        if built[i] is not None and meets(built[i][1], one.ceilings):
            tried.append(one.attempt(settled(one.settler, built[i][0], one.ceilings)))
            found = max(found, tried[-1].key()[:3])
    for i, one in enumerate(ready):
        if built[i] is not None and meets(built[i][1], one.ceilings):
            continue
        if found and one.reach() <= found:
            tried.append(one.attempt(SolveState(None, [], "DOMINATED")))
            continue
        progress.stage(one.move.selection.words)
        tried.append(solve_selection(one, built[i], options, deadline))
        if tried[-1].state.assignment is not None:
            found = max(found, tried[-1].key()[:3])
    best = max(tried, key=Attempt.key)
    return _result(scenario, battlefield, best, tried, t0)


@dataclass
class Prepared:
    """One selection's candidates, count levels, proven ceilings and construction search."""

    move: CloseMove11e
    c: cand.Candidates
    starts: dict[str, int]
    ceilings: dict[str, int]
    settler: Settler

    def reach(self) -> tuple[float, ...]:
        """The ceilings as `Attempt.key` orders the counts (movement left out)."""
        first = self.ceilings.get("engaged_closest", 0)
        return (first, self.ceilings.get("on_objective", 0), self.ceilings.get("engaged", first))

    def attempt(self, state: SolveState) -> Attempt:
        return Attempt(self.move.selection, self.move, state, self.c, self.starts)


def prepare(move: CloseMove11e, options: SolveOptions) -> Prepared:
    """The candidates of one selection and what is proven about them before any search."""
    sel = move.selection
    goal = Goal(sel.marker) if sel.mode == Mode.OBJECTIVE else Goal()
    c = move.candidates(options, goal)
    starts = move.start_spots(c)
    names = [PRIMARY[1] if sel.mode == Mode.OBJECTIVE else PRIMARY[0]]
    names += [] if one_count(move) else ["engaged"]
    levels = levels_of(move, c, names)
    ceilings = ceilings_of(move, c, levels, starts)
    return Prepared(move, c, starts, ceilings, Settler(move, c, levels, starts))


def solve_selection(
    ready: Prepared,
    built: tuple[dict[str, int], Counts] | None,
    options: SolveOptions,
    deadline: float,
) -> Attempt:
    """The best placement on the candidates for one selection by CP-SAT, with the
    construction `built` (short of a ceiling) as its incumbent and hint."""
    move, c, starts, settler = ready.move, ready.c, ready.starts, ready.settler
    classes: dict[int, list[str]] = {}
    for m in move.unit.models:
        if m.id not in move.fixed:
            classes.setdefault(c.base_keys.index(move.unit.base_of(m)), []).append(m.id)
    sel = move.selection
    pm = assignment(c, move.limit_in, classes, symmetric=not _own_goals(move))
    if pm is None:
        return Attempt(sel, move, SolveState(None, [], "INFEASIBLE"), c, starts)
    for mid in move.fixed:
        pinned = pm.model.NewBoolVar(f"fixed[{mid}]")
        pm.model.Add(pinned == 1)
        pm.y[starts[mid]] = pinned
    live = sorted(pm.y)
    adjacency = neighbours(c, live)
    add_no_overlap(pm, c)
    add_coherency(pm, adjacency, move.rules.coherency_neighbours(len(move.unit.models)))
    add_span(pm, c, live, move)
    objs = _objectives(move, pm, c)
    if objs is None:
        return Attempt(sel, move, SolveState(None, [], "INFEASIBLE"), c, starts)
    state = solve_ordered(
        pm,
        c,
        objs,
        adjacency,
        roll=move.limit_in,
        time_limit_s=max(0.05, deadline - clock.now()),
        seed=options.seed,
        workers=REPEATABLE_WORKERS,
        presolve=options.presolve,
        hint=list((built[0] if built else starts).values()),
        need_connected=len(move.unit.models) > 1,
        incumbent=built,
        improve=_improver(settler) if built else None,
    )
    if state.assignment is not None:
        state.assignment = {**state.assignment, **{m: starts[m] for m in move.fixed}}
    return Attempt(sel, move, state, c, starts)


def _improver(settler: Settler) -> Callable[[dict[str, int]], tuple[dict[str, int], Counts]]:
    """Each stage's answer improved by the construction's local search (kept as it is where
    the search's stricter span margin refuses it)."""

    def improve(placed: dict[str, int]) -> tuple[dict[str, int], Counts]:
        placed = {**placed, **settler.pinned}
        if settler.legal(placed):
            placed = settler.climb(placed)
        return placed, settler.counts(placed)

    return improve


def one_count(move: CloseMove11e) -> bool:
    """Whether "engaged with its closest selected unit" and "engaged" count the same models:
    toward the only enemy unit on the board (then the second stage is skipped, its value and
    bound the first's)."""
    return move.selection.mode != Mode.OBJECTIVE and len(move.scenario.enemies_of(move.unit)) == 1


def _shared_goal(move: CloseMove11e) -> frozenset[str]:
    """The closest selected units of the first model that may move (all share them unless
    `_own_goals`)."""
    movers = [i for i, m in enumerate(move.unit.models) if m.id not in move.fixed]
    return move.closest_units(movers[0]) if movers else frozenset()


def _own_goals(move: CloseMove11e) -> bool:
    """Whether the models that may move have different closest selected units: then every
    model gets its own variables (its engaged term is its own); otherwise models of one base
    share spots (symmetry classes), the movement is each spot's least reach (as the 10th's),
    and the models are matched to the spots by least movement afterwards."""
    if move.selection.mode.value == "objective":
        return False
    goals = {
        move.closest_units(i) for i, m in enumerate(move.unit.models) if m.id not in move.fixed
    }
    return len(goals) > 1


def add_span(pm, c: cand.Candidates, live: list[int], move: CloseMove11e) -> None:
    """The 11th edition's coherency span: no two models farther apart than
    `rules.coherency_unit_span_in` (9") horizontally (centres' distance minus both radii)."""
    span = move.rules.coherency_unit_span_in
    if span is None or len(move.unit.models) < 2:
        return
    idx = np.array(live, dtype=int)
    radius = np.array([c.base_keys[b].circumradius_in for b in c.base_of[idx]])
    far = span - 2 * 1e-3
    for a in range(len(idx)):
        d = np.hypot(c.x[idx[a + 1 :]] - c.x[idx[a]], c.y[idx[a + 1 :]] - c.y[idx[a]])
        d -= radius[a + 1 :] + radius[a]
        for b in np.flatnonzero(d > far):
            pm.model.AddBoolOr([pm.y[int(idx[a])].Not(), pm.y[int(idx[a + 1 + b])].Not()])


def _objectives(move: CloseMove11e, pm, c: cand.Candidates) -> list[Objective] | None:
    """The ordered objectives and the after-move rules of the selection's mode (None when no
    candidate can meet an after-move rule)."""
    sel = move.selection
    index = {m.id: i for i, m in enumerate(move.unit.models)}
    engaged_any = [v for p, v in pm.y.items() if c.engaged[p]]
    out = []
    if sel.mode == Mode.OBJECTIVE:
        inside = np.zeros(len(c), bool)
        for b, base in enumerate(c.base_keys):
            at = np.flatnonzero(c.base_of == b)
            inside[at] = move.in_range(base, c.x[at], c.y[at])
        spots = [v for p, v in pm.y.items() if inside[p]]
        if not spots:
            return None
        pm.model.AddBoolOr(spots)
        most = _ceiling(move, c, lambda i: inside)
        out.append(Objective("on_objective", cp_model.LinearExpr.Sum(spots), True, most))
    else:
        terms = []
        pinned = {move.start_spots(c)[mid] for mid in move.fixed}
        if _own_goals(move):
            for mid, xs in pm.x.items():
                near = move.closest_units(index[mid])
                terms += [v for p, v in xs.items() if near & c.engaged[p]]
        else:
            near = _shared_goal(move)
            terms += [v for p, v in pm.y.items() if p not in pinned and near & c.engaged[p]]
        for mid in move.fixed:
            start = move.start_spots(c)[mid]
            if move.closest_units(index[mid]) & c.engaged[start]:
                terms.append(pm.y[start])
        most = _ceiling(move, c, lambda i: _engaged_with(c, move.closest_units(i)))
        out.append(Objective("engaged_closest", cp_model.LinearExpr.Sum(terms), True, most))
        if sel.mode == Mode.PILE_IN:
            if not engaged_any:
                return None
            pm.model.AddBoolOr(engaged_any)
        if sel.mode == Mode.ENGAGING:
            for unit_id in sel.targets:
                spots = [v for p, v in pm.y.items() if unit_id in c.engaged[p]]
                if not spots:
                    return None
                pm.model.AddBoolOr(spots)
    if not one_count(move):
        anyone = np.array([bool(e) for e in c.engaged], dtype=bool)
        most = _ceiling(move, c, lambda i: anyone)
        out.append(Objective("engaged", cp_model.LinearExpr.Sum(engaged_any), True, most))
    if _own_goals(move):
        movement = [
            int(np.ceil(min(c.reach[mid][p], 1e3) * MOVE_SCALE)) * v
            for mid, xs in pm.x.items()
            for p, v in xs.items()
        ]
    else:
        nearest = np.min(np.vstack(list(c.reach.values())), axis=0)
        movement = [int(np.ceil(min(nearest[p], 1e3) * MOVE_SCALE)) * v for p, v in pm.y.items()]
    out.append(Objective("movement", cp_model.LinearExpr.Sum(movement), False, tie_break=True))
    return out


def _engaged_with(c: cand.Candidates, units: frozenset[str]) -> np.ndarray:
    """Per candidate: whether a model there is engaged with one of `units`."""
    return np.array([bool(units & e) for e in c.engaged], dtype=bool)


def _ceiling(move: CloseMove11e, c: cand.Candidates, good: Callable[[int], np.ndarray]) -> int:
    """A proven ceiling on a count: the models that reach at least one candidate where they
    would count (`good(model index)`; a fixed model only its start), tried first by CP-SAT as
    a feasibility question."""
    starts = move.start_spots(c)
    most = 0
    for i, m in enumerate(move.unit.models):
        mask = good(i)
        if m.id in move.fixed:
            most += bool(mask[starts[m.id]])
        else:
            most += bool(((c.reach[m.id] <= move.limit_in - ROLL_MARGIN_IN) & mask).any())
    return most


def _result(
    scenario: Scenario, battlefield: Battlefield, best: Attempt, tried: list[Attempt], t0: float
) -> Result:
    state, move = best.state, best.move
    proof = None
    proven = all(a.state.status in ("OPTIMAL", "INFEASIBLE", "DOMINATED") for a in tried)
    if state.assignment is not None:
        status = Status.OPTIMAL if proven and state.status == "OPTIMAL" else Status.FEASIBLE
        poses = poses_of(best.c, state.assignment)
        placements = placements_at(move.view, battlefield, poses)
        fights = fights_of(scenario, placements, battlefield)
        placements = tuple(p.model_copy(update={"fights": fights[p.model]}) for p in placements)
        objective: dict[str, float] = {
            s.name: int(s.value) for s in state.stages if s.name in PRIMARY
        }
        objective["engaged"] = sum(1 for p in placements if p.fights)
        objective["movement_in"] = round(sum(p.moved or 0.0 for p in placements), 3)
        bound = {
            s.name: int(np.floor(s.bound + 1e-9))
            for s in state.stages
            if s.name in PRIMARY and np.isfinite(s.bound)
        }
        if one_count(move) and "engaged_closest" in bound:
            bound["engaged"] = bound["engaged_closest"]
    else:
        status = Status.INFEASIBLE if proven else Status.UNKNOWN
        placements = tuple(
            Placement(model=m.id, x=m.x, y=m.y, z=m.z, moved=0.0) for m in move.unit.models
        )
        objective, bound = {}, {}
        if status == Status.INFEASIBLE:
            proof = impossibility(scenario, tried)
    return Result(
        scenario=scenario.name,
        ruleset=scenario.ruleset,
        action=ResultAction(
            kind=scenario.action.kind.value,
            unit=scenario.action.unit,
            targets=best.selection.targets,
            roll=None,
        ),
        status=status,
        objective=objective,
        bound=bound,
        placements=placements,
        proof=proof,
        stats={
            "seconds": round(time.perf_counter() - t0, 3),
            "candidates": len(best.c),
            "bound_scope": "candidates",
            "stages": [s.__dict__ for s in state.stages],
            "mode": best.selection.mode.value,
            "selected": list(best.selection.targets)
            or ([best.selection.marker.id] if best.selection.marker else []),
            "selections_tried": [a.selection.words for a in tried],
            "selections_dominated": [
                a.selection.words for a in tried if a.state.status == "DOMINATED"
            ],
        },
    )


def impossibility(scenario: Scenario, tried: list[Attempt]) -> str:
    """Why no selection has a legal placement, in words."""
    rules = scenario.rules
    unit = scenario.acting_unit
    k = rules.coherency_neighbours(len(unit.models))
    after = {
        Mode.PILE_IN: "the unit ends engaged",
        Mode.ONGOING: "every model that started engaged with an enemy unit stays engaged with it",
        Mode.ENGAGING: "the unit ends engaged with every selected unit",
        Mode.OBJECTIVE: "a model ends within range of the objective",
    }
    ways = "; ".join(f"{a.selection.words}: {after[a.selection.mode]}" for a in tried)
    return (
        f"No placement on the solver's candidate positions keeps unit {unit.id!r} in coherency "
        f'(each model within {rules.coherency_range_in:g}" of {k} other model'
        f"{'s' if k != 1 else ''}) while each model that moves goes at most "
        f'{tried[0].move.limit_in:g}", ends closer to its goal and keeps every enemy unit it '
        f"started engaged with, and ({ways}). So this move cannot be made and no model moves."
    )
