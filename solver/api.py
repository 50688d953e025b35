"""The one public entry point: solve(scenario) looks up the solver of the action's kind under
the scenario's rule family in one table, runs it, and has the checker judge the answer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from importlib import import_module

from chargeopt.geometry.start_layout import check_start_layout
from chargeopt.models import (
    ActionKind,
    RankAndFileRules,
    RankAndFileScenario,
    Result,
    RuleSet,
    Scenario,
    UnsupportedRuleError,
)
from chargeopt.solver.core import clock
from chargeopt.solver.options import SolveOptions
from chargeopt.solver.verify import verified

Solver = (
    Callable[[Scenario, SolveOptions], Result]
    | Callable[[RankAndFileScenario, SolveOptions], Result]
)


@dataclass(frozen=True)
class Deferred:
    """A solver imported on its first call, so that a solve loads its own rule family only
    (the others cost a 40k charge's start 0.04 s, and the 40k charge a 4e one's 0.09 s)."""

    module: str
    name: str

    def __call__(self, scenario, options: SolveOptions) -> Result:
        return getattr(import_module(self.module), self.name)(scenario, options)


_FORTY_K = "chargeopt.solver.forty_k"
_ASSAULT_4E = "chargeopt.solver.assault_4e"
_FORTY_K_11E = "chargeopt.solver.forty_k_11e"
SOLVERS: dict[tuple[ActionKind, str], Solver] = {
    (ActionKind.CHARGE, "40k-9e"): Deferred(
        f"{_FORTY_K}.charge_exact", "solve_charge_exactly_if_needed"
    ),
    (ActionKind.CHARGE, "40k-10e"): Deferred(
        f"{_FORTY_K}.charge_exact", "solve_charge_exactly_if_needed"
    ),
    (ActionKind.PILE_IN, "40k-9e"): Deferred(f"{_FORTY_K}.pile_in", "solve_pile_in"),
    (ActionKind.PILE_IN, "40k-10e"): Deferred(f"{_FORTY_K}.pile_in", "solve_pile_in"),
    (ActionKind.CONSOLIDATE, "40k-9e"): Deferred(f"{_FORTY_K}.consolidate", "solve_consolidate"),
    (ActionKind.CONSOLIDATE, "40k-10e"): Deferred(f"{_FORTY_K}.consolidate", "solve_consolidate"),
    (ActionKind.HEROIC_INTERVENTION, "40k-9e"): Deferred(
        f"{_FORTY_K}.heroic_intervention", "solve_heroic_intervention"
    ),
    (ActionKind.CHARGE, "40k-11e"): Deferred(f"{_FORTY_K_11E}.charge", "solve_charge_11e"),
    (ActionKind.PILE_IN, "40k-11e"): Deferred(f"{_FORTY_K_11E}.pile_in", "solve_pile_in_11e"),
    (ActionKind.CONSOLIDATE, "40k-11e"): Deferred(
        f"{_FORTY_K_11E}.consolidate", "solve_consolidate_11e"
    ),
    (ActionKind.HEROIC_INTERVENTION, "40k-11e"): Deferred(
        f"{_FORTY_K_11E}.heroic_intervention", "solve_heroic_intervention_11e"
    ),
    (ActionKind.CHARGE, "wtc-walls"): Deferred("chargeopt.solver.wtc.charge", "solve_wtc_charge"),
    (ActionKind.PILE_IN, "wtc-walls"): Deferred("chargeopt.solver.wtc.close", "solve_wtc_pile_in"),
    (ActionKind.CONSOLIDATE, "wtc-walls"): Deferred(
        "chargeopt.solver.wtc.close", "solve_wtc_consolidate"
    ),
    (ActionKind.CHARGE, "t9a-2022"): Deferred(
        "chargeopt.solver.rank_and_file.charge", "solve_t9a_charge"
    ),
    (ActionKind.CHARGE, "whfb-6e"): Deferred(
        "chargeopt.solver.rank_and_file.wheel_charge", "solve_wheel_charge"
    ),
    (ActionKind.CHARGE, "tow"): Deferred(
        "chargeopt.solver.rank_and_file.wheel_charge", "solve_wheel_charge"
    ),
    (ActionKind.CHARGE, "40k-assault-4e"): Deferred(
        f"{_ASSAULT_4E}.charge", "solve_assault_charge"
    ),
    (ActionKind.PILE_IN, "40k-assault-4e"): Deferred(
        f"{_ASSAULT_4E}.reinforce", "solve_reinforcement"
    ),
    (ActionKind.CONSOLIDATE, "40k-assault-4e"): Deferred(
        f"{_ASSAULT_4E}.consolidate", "solve_assault_consolidate"
    ),
    (ActionKind.FALL_BACK, "40k-assault-4e"): Deferred(
        f"{_ASSAULT_4E}.fall_back", "solve_fall_back"
    ),
}
"""(move kind, rule family) -> its solver: the one table a new rule family adds its rows to.
The rule family is the ruleset's edition, or the modifier whose moves replace the edition's
(`rule_family`)."""
WHY_NOT: dict[tuple[ActionKind, str], str] = {
    (ActionKind.HEROIC_INTERVENTION, "40k-10e"): (
        "'heroic-intervention' is not a move of its own in 40k-10e: there it is a stratagem "
        'that lets the unit make a charge move; solve it as a charge (kind = "charge" with '
        "its targets and roll)"
    ),
    **{
        (kind, "40k-11e"): (
            f"chargeopt does not solve a {kind} under 40k-11e yet (its 11th-edition rules are "
            "not built, and the 10th edition's would be wrong there); solve it under 40k-10e, or "
            'choose kind = "charge"'
        )
        for kind in (ActionKind.FALL_BACK,)
    },
}
"""Why a move kind is not solved under an edition, where there is more to say."""


def rule_family(rules: RuleSet | RankAndFileRules) -> str:
    """The key a ruleset solves under: a modifier that brings its own moves (the WTC walls
    rule), else the edition."""
    return "wtc-walls" if rules.wtc_walls else rules.edition


def moves_solved_in(family: str) -> tuple[ActionKind, ...]:
    """The move kinds chargeopt solves under a rule family (`rule_family`), in the table's
    order: what a menu of moves may offer."""
    return tuple(dict.fromkeys(k for k, f in SOLVERS if f == family))


class UnsupportedMove(UnsupportedRuleError):
    """A move kind chargeopt does not solve under the scenario's rules: what and the fix."""

    def __init__(self, problem: str, fix: str) -> None:
        super().__init__(f"{problem}; {fix}", "action.kind")
        self.problem = problem
        self.fix = fix

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.problem, self.fix))


def solver_for(scenario: Scenario | RankAndFileScenario) -> Solver:
    """The solver of the scenario's move under its rules, else UnsupportedMove naming the
    moves those rules do solve."""
    kind, family = scenario.action.kind, rule_family(scenario.rules)
    solver = SOLVERS.get((kind, family))
    if solver is not None:
        return solver
    edition = scenario.rules.edition
    here = [k.value for k in moves_solved_in(family)]
    quoted = [f'"{k}"' for k in here]
    fix = "choose kind = " + (", ".join(quoted[:-1]) + " or " if len(quoted) > 1 else "")
    fix += quoted[-1] if quoted else '"charge"'
    problem = f"chargeopt does not solve a {kind} under {edition}"
    if (kind, edition) in WHY_NOT:
        problem, _, fix = WHY_NOT[(kind, edition)].partition("; ")
    raise UnsupportedMove(problem, fix)


def solve(
    scenario: Scenario | RankAndFileScenario,
    *,
    roll: int | None = None,
    time_limit: float | None = None,
    seed: int | None = None,
    options: SolveOptions | None = None,
) -> Result:
    """Solve the scenario's action; the result is re-checked by the independent checker.
    `roll`, `time_limit` (seconds) and `seed`, when given, override `options`. A start layout
    that `load_scenario` would refuse (a model off the board, overlapping another or inside
    terrain) raises ScenarioError here too, however the scenario was built."""
    given = {"roll": roll, "time_limit_s": time_limit, "seed": seed}
    opts = replace(options or SolveOptions(), **{k: v for k, v in given.items() if v is not None})
    solver = solver_for(scenario)
    if isinstance(scenario, RankAndFileScenario):
        from chargeopt.geometry.rank_and_file.start import check_block_layout

        check_block_layout(scenario)
    else:
        check_start_layout(scenario)
    budget = replace(opts, time_limit_s=opts.time_limit_s * clock.WORK_SHARE)
    with clock.opened(opts.time_limit_s) as work:
        result = min_roll_verdict(solver(scenario, budget))  # type: ignore[arg-type]
    if work.safety is not None:
        stats = {**result.stats, "wall_clock_safety": work.safety}
        result = result.model_copy(update={"stats": stats})
    result = verified(scenario, result) if opts.check else result
    return with_data_set(scenario, result)


def with_data_set(scenario: Scenario | RankAndFileScenario, result: Result) -> Result:
    """The result with `stats.data_set` (the 40kdc release and attribution) when the scenario
    names datasheets or a layout."""
    if isinstance(scenario, RankAndFileScenario):
        return result
    from chargeopt.models.datasheets import data_set_used

    used = data_set_used(scenario)
    if used is None:
        return result
    return result.model_copy(update={"stats": {**result.stats, "data_set": used}})


def min_roll_verdict(result: Result) -> Result:
    """The result with `min_roll_proven` and `min_roll_at_least` from how its solver settled
    the minimum roll (`stats.min_roll_proven`, and `stats.min_roll_lower`, the smallest roll
    the straight line leaves open): a minimum roll is proven only where every smaller roll
    is proven to fail on the whole table."""
    if result.min_roll is None:
        return result
    proven = bool(result.stats.get("min_roll_proven", False))
    lower = result.stats.get("min_roll_lower")
    at_least = result.min_roll if proven else lower if isinstance(lower, int) else None
    if at_least is not None:
        at_least = min(at_least, result.min_roll)
    return result.model_copy(update={"min_roll_proven": proven, "min_roll_at_least": at_least})
