"""The summary lines of an 11th-edition pile in or consolidation: the mode and what it
selected, models engaged with their closest selected unit (or within range of the objective),
and who can fight (engaged, 2")."""

from __future__ import annotations

from chargeopt.models import Result

MODE_WORDS = {
    "pile-in": "Pile in toward",
    "ongoing": "Ongoing consolidation (engaged) with",
    "engaging": "Engaging consolidation with",
    "objective": "Objective consolidation toward objective",
}


def is_close_11e(result: Result) -> bool:
    return "mode" in result.stats and (
        "engaged_closest" in result.objective or "on_objective" in result.objective
    )


def close_11e_lines(result: Result, term, moved: str) -> list[str]:
    """`term(key, words)` writes one count against its proven most; `moved` the movement."""
    mode = str(result.stats["mode"])
    selected = ", ".join(str(s) for s in result.stats.get("selected", []))
    lines = [f"{MODE_WORDS.get(mode, mode)} {selected}".rstrip()]
    if "on_objective" in result.objective:
        lines.append(term("on_objective", "Within range of the objective"))
    else:
        lines.append(term("engaged_closest", "Engaged with their closest selected unit"))
    lines.append(term("engaged", 'Can fight (engaged, 2")') + moved)
    return lines


def heroic_11e_line(result: Result) -> str | None:
    """`Into the Fray: the roll of 9 counts as 6` or `Leap to Defend`, for an 11th-edition
    heroic intervention (None for anything else)."""
    mode = result.stats.get("heroic_mode")
    if mode is None:
        return None
    words = "Into the Fray" if mode == "into-the-fray" else "Leap to Defend"
    rolled = result.stats.get("roll_rolled")
    if rolled is not None and result.action is not None:
        words += f": the roll of {rolled} counts as {result.action.roll}"
    targets = ", ".join(result.action.targets) if result.action else ""
    return f"{words}; target{'s' if ',' in targets else ''} {targets}" if targets else words
