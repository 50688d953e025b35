"""Every answer passes the independent checker before anyone sees it: `verified` attaches the
checker's verdict to a result. Light on purpose (no solver code), so that the command line can
judge an answer it cut short without loading the solvers."""

from __future__ import annotations

from chargeopt.models import RankAndFileScenario, Result, Scenario, Status


def verified(scenario: Scenario | RankAndFileScenario, result: Result) -> Result:
    """Attach the independent checker's verdict; a checked answer with violations is a bug and
    is downgraded to `unknown` so it is never presented as legal."""
    from chargeopt.geometry.checker import check_placement

    moved = any(
        b.get("outcome") in ("fails", "impossible") and b.get("path") for b in result.blocks
    )
    if result.action is None or (result.status.value not in ("optimal", "feasible") and not moved):
        return result
    if isinstance(scenario, RankAndFileScenario):
        from chargeopt.geometry.checker.rank_and_file import check_blocks

        violations = check_blocks(scenario, result, roll=result.action.roll)
    else:
        violations = check_placement(
            scenario, result.placements, roll=result.action.roll, order=result.order
        )
    if not violations:
        return result
    stats = {**result.stats, "checker_rejected": True}
    status = Status.UNKNOWN if result.status != Status.INFEASIBLE else result.status
    return result.model_copy(
        update={"violations": tuple(violations), "status": status, "stats": stats}
    )
