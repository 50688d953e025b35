"""The one public entry point: solve(scenario) dispatches on the action's kind."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from chargeopt.geometry.start_layout import check_start_layout
from chargeopt.models import ActionKind, Result, Scenario, Status, UnsupportedRuleError
from chargeopt.solver.forty_k.charge import solve_charge
from chargeopt.solver.forty_k.consolidate import solve_consolidate
from chargeopt.solver.forty_k.heroic_intervention import TENTH_EDITION, solve_heroic_intervention
from chargeopt.solver.forty_k.pile_in import solve_pile_in
from chargeopt.solver.options import SolveOptions

Solver = Callable[[Scenario, SolveOptions], Result]

SOLVERS: dict[ActionKind, tuple[Solver, frozenset[str]]] = {
    ActionKind.CHARGE: (solve_charge, frozenset({"40k-9e", "40k-10e"})),
    ActionKind.PILE_IN: (solve_pile_in, frozenset({"40k-9e", "40k-10e"})),
    ActionKind.CONSOLIDATE: (solve_consolidate, frozenset({"40k-9e", "40k-10e"})),
    ActionKind.HEROIC_INTERVENTION: (solve_heroic_intervention, frozenset({"40k-9e"})),
}
"""Move kind -> (solver, editions it supports)."""
WHY_NOT: dict[tuple[ActionKind, str], str] = {
    (ActionKind.HEROIC_INTERVENTION, "40k-10e"): TENTH_EDITION,
}
"""Why a move kind is not solved under an edition, where there is more to say."""


def solve(
    scenario: Scenario,
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
    kind = scenario.action.kind
    if kind not in SOLVERS:
        supported = ", ".join(k.value for k in SOLVERS)
        raise UnsupportedRuleError(f"solving '{kind}' is not implemented; supported: {supported}")
    solver, editions = SOLVERS[kind]
    if scenario.rules.edition not in editions:
        raise UnsupportedRuleError(
            WHY_NOT.get(
                (kind, scenario.rules.edition),
                f"'{kind}' under {scenario.rules.edition} is not supported",
            )
        )
    check_start_layout(scenario)
    if scenario.rules.wtc_walls and kind == ActionKind.CHARGE:
        from chargeopt.solver.wtc.charge import solve_wtc_charge

        solver = solve_wtc_charge
    if kind in (ActionKind.PILE_IN, ActionKind.CONSOLIDATE):
        from chargeopt.solver.wtc.close import has_tokens, solve_wtc_close

        if has_tokens(scenario):
            plain = solver
            solver = lambda s, o: solve_wtc_close(s, o, plain)  # noqa: E731
    result = solver(scenario, opts)
    return verified(scenario, result) if opts.check else result


def verified(scenario: Scenario, result: Result) -> Result:
    """Attach the independent checker's verdict; a checked answer with violations is a bug and
    is downgraded to `unknown` so it is never presented as legal."""
    from chargeopt.geometry.checker import check_placement

    if result.action is None or result.status.value not in ("optimal", "feasible"):
        return result
    violations = check_placement(scenario, result.placements, roll=result.action.roll)
    if not violations:
        return result
    stats = {**result.stats, "checker_rejected": True}
    return result.model_copy(
        update={"violations": tuple(violations), "status": Status.UNKNOWN, "stats": stats}
    )
