"""Which rows of the roll table are proven: a row's base contact is proven only where it meets a
ceiling that holds anywhere on the table (the straight line at that roll or any larger one, the
split unit, or the certificate's bound at the solved roll or above), never where it is best over the
candidates only; every other row is printed with `?`."""

from __future__ import annotations

from chargeopt.models import Result, Scenario
from chargeopt.solver.bounds.contact_bound import straight_line_ceilings
from chargeopt.solver.bounds.split_bound import split_contact_ceiling


def whole_table_ceilings(result: Result, scenario: Scenario) -> dict[int, float]:
    """Per roll of the table, the least base contact ceiling proven on the whole table at it or
    at a larger roll (a placement legal at one roll is legal at every larger one)."""
    rolls = sorted(int(r["roll"]) for r in result.rolls)
    certified = None
    solved = result.action.roll if result.action is not None else None
    if result.stats.get("bound_scope") == "continuous" and "base_contact" in result.bound:
        certified = float(result.bound["base_contact"])
    split = split_contact_ceiling(scenario)
    out: dict[int, float] = {}
    least = float("inf") if split is None else float(split.base_contact)
    for roll in reversed(rolls):
        least = min(least, float(straight_line_ceilings(scenario, roll)["base_contact"]))
        if certified is not None and solved is not None and roll <= solved:
            least = min(least, certified)
        out[roll] = least
    return out


def rows_proven_anywhere(result: Result, scenario: Scenario) -> Result:
    """The result with each roll-table row `proven` exactly when its base contact meets a
    ceiling proven on the whole table (`whole_table_ceilings`)."""
    if not result.rolls:
        return result
    ceilings = whole_table_ceilings(result, scenario)
    rows = tuple(
        {**r, "proven": float(r["base_contact"]) >= ceilings[int(r["roll"])]} for r in result.rolls
    )
    return result.model_copy(update={"rolls": rows})
