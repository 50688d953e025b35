"""The text summary of any result: the rule family's own words where it has them."""

from __future__ import annotations

from chargeopt.models import Result


def summary_text(result: Result) -> str:
    """Fall back and the 4e assault have their own summaries; every other move the shared one.
    Data from the 40kdc data set is credited on a last line."""
    from chargeopt.solver.interface.data_set_text import data_set_lines

    return "\n".join([_summary(result), *data_set_lines(result)])


def _summary(result: Result) -> str:
    from chargeopt.solver.interface.summary import headline, summarise_result

    if result.action is not None and result.action.kind == "fall-back":
        from chargeopt.solver.interface.fall_back_text import summarise_fall_back

        return summarise_fall_back(result, headline(result))
    if "40k-assault-4e" in result.ruleset:
        from chargeopt.solver.interface.assault_text import summarise_assault_4e

        return summarise_assault_4e(result)
    return summarise_result(result)
