"""A short human summary of a result: status, roll and chances, contacts, who touches whom, time.

The same phrases head the SVG caption, so the picture and the text say the same thing.
"""

from __future__ import annotations

import re

from chargeopt.models import ChargeoptError, Placement, Result, Status, resolve_ruleset
from chargeopt.solver.bounds.bound_words import bound_reason
from chargeopt.solver.core.dice import chance_at_least
from chargeopt.solver.core.exact_limits import note_lines
from chargeopt.solver.core.written import FACING_DECIMALS, printed_value
from chargeopt.solver.interface.close_11e_text import (
    close_11e_lines,
    heroic_11e_line,
    is_close_11e,
)

STATUS_NOTE = {
    (Status.OPTIMAL, "continuous"): "proven best anywhere on the table",
    (Status.OPTIMAL, "candidates"): "proven best over the solver's candidate positions",
    (Status.FEASIBLE, "continuous"): "legal; not proven best",
    (Status.FEASIBLE, "candidates"): "legal; not proven best anywhere on the table",
    (Status.OPTIMAL, "straight moves"): "proven best among straight moves of the whole unit",
    (Status.FEASIBLE, "straight moves"): "legal; not proven best",
    (Status.OPTIMAL, "dice"): "every roll's verdict proven",
    (Status.OPTIMAL, "bent routes"): "proven best over every route, bent or straight",
    (Status.FEASIBLE, "bent routes"): "legal; not proven best",
}
"""What a status promises, by the scope of its bound (`stats.bound_scope`)."""
DEFAULT_CHARGE_DICE = 2
CLOSE_MOVE_VERBS = {
    "pile-in": "piles in",
    "consolidate": "consolidates",
    "heroic-intervention": "makes a heroic intervention",
}
"""The 3" close-combat moves, as the headline says them."""


def count(value: float | int | None) -> str:
    """A count as a whole number ("3", never "3.0"); "?" when it is missing."""
    if value is None:
        return "?"
    return f"{value:.0f}" if float(value).is_integer() else f"{value:g}"


def charge_dice(result: Result) -> int:
    """How many D6 the result's ruleset rolls for a charge (2 when it cannot be told)."""
    try:
        if result.ruleset:
            return resolve_ruleset(result.ruleset).charge_dice
    except ChargeoptError:
        pass
    return DEFAULT_CHARGE_DICE


def headline(result: Result) -> str:
    """`OPTIMAL: A charges B with a roll of 7 (...)`: the status and what was solved."""
    status = result.status
    action = result.action
    if action is None:
        return status.value.upper()
    into = f" {', '.join(action.targets)}" if action.targets else ""
    roll = f" with a roll of {action.roll}" if action.roll is not None else ""
    if action.kind in CLOSE_MOVE_VERBS:
        what = f"{action.unit} {CLOSE_MOVE_VERBS[action.kind]}"
    elif action.kind == "fall-back":
        from chargeopt.solver.interface.fall_back_text import fall_back_what

        what = fall_back_what(result)
    elif action.kind != "charge":
        what = f"{action.kind} by {action.unit}{roll}"
    elif status == Status.INFEASIBLE:
        what = f"{action.unit} cannot charge{into}{roll}"
    else:
        what = f"{action.unit} charges{into}{roll}"
    if status == Status.UNKNOWN and result.violations:
        return f"UNKNOWN: {what}? The independent checker rejected the solver's placement"
    if status == Status.UNKNOWN:
        return f"UNKNOWN: {what}? No answer within the time limit"
    note = STATUS_NOTE.get((status, str(result.stats.get("bound_scope", "candidates"))))
    return f"{status.value.upper()}: {what}" + (f" ({note})" if note else "")


def minimum_roll_line(result: Result) -> str | None:
    """`Minimum roll 5: 83.3% on 2D6, 97.2% with a re-roll`, or why there is none."""
    dice = f"{charge_dice(result)}D6"
    if result.min_roll is None:
        if result.action is None or result.action.kind != "charge":
            return None
        if "provisional" in result.stats:
            return "Minimum roll: not worked out before the solve stopped"
        top = 6 * charge_dice(result)
        covered = result.stats.get("proof_roll", top)
        if result.status == Status.INFEASIBLE and result.proof and covered >= top:
            return f"Minimum roll: none; no roll up to {top} makes this charge"
        if result.status == Status.INFEASIBLE and result.proof:
            return f"Minimum roll: none found up to {top}; the proof covers rolls up to {covered}"
        return f"Minimum roll: none found up to {top}"
    chance = result.success_probability or 0.0
    reroll = result.success_probability_reroll or 0.0
    line = f"Minimum roll {result.min_roll}: {chance:.1%} on {dice}, {reroll:.1%} with a re-roll"
    low = min_roll_low(result)
    if low < result.min_roll:
        line += f" (not proven: the minimum is {low} to {result.min_roll})"
    return line


def min_roll_low(result: Result) -> int:
    """The smallest roll the minimum may be: the minimum itself where it is proven, else the
    smallest roll not ruled out (`min_roll_at_least`, or the solver's `stats.min_roll_lower`
    where a solve cut short left it unset), else the least the dice roll."""
    assert result.min_roll is not None
    if result.min_roll_proven is True:
        return result.min_roll
    lower = result.min_roll_at_least
    if lower is None:
        lower = result.stats.get("min_roll_lower")
    if not isinstance(lower, int):
        lower = charge_dice(result)
    return min(lower, result.min_roll)


def outcome_lines(result: Result) -> list[str]:
    """Base contact and engagement achieved, each against the most the solver proved possible
    (with the reason, where a ceiling proven on the whole table holds a bound below the
    unit's size: `bound_words`)."""
    if not result.objective:
        return []
    n = len(result.placements)
    obj, bound = result.objective, result.bound

    def term(key: str, what: str) -> str:
        limit = f" (most possible: {count(bound[key])})" if key in bound else ""
        return f"{what}: {count(obj.get(key, 0))} of {n} models{limit}"

    moved = f', {obj["movement_in"]:.2f}" moved in all' if "movement_in" in obj else ""
    if is_close_11e(result):
        return close_11e_lines(result, term, moved)
    if "within_1" in obj:
        heroic = heroic_11e_line(result)
        return ([heroic] if heroic else []) + [
            term("within_1", 'Within 1" of a target'),
            term("engaged", 'Engaged (2")') + moved,
        ]
    if "can_fight" in obj and "engaged" not in obj:
        close = [term("base_contact", "Base contact"), term("can_fight", "Can fight")]
        if "on_objective" in obj:
            close.append(term("on_objective", "Within range of the objective marker"))
        close[-1] += moved
        return close
    engaged = "Normal engagement range" if "tokens" in obj else "Engagement range"
    lines = []
    for key, line in (
        ("base_contact", term("base_contact", "Base contact")),
        ("engaged", term("engaged", engaged) + moved),
    ):
        reason = bound_reason(result, key, n)
        lines += [line, f"  {reason}"] if reason else [line]
    if "tokens" in obj:
        lines += [term("tokens", "Tokens (wtc-walls)"), term("can_fight", "Can fight")]
    return lines


def target_set_lines(result: Result) -> list[str]:
    """40k-11e: every set of targets the roll allows, best first, with its verdict, counts and
    minimum roll (shown when there is more than one set, or the answer's set is not the only
    one tried)."""
    rows = result.target_sets
    if len(rows) < 2:
        return []
    lines = ["Target sets (targets are chosen after the roll), best first:"]
    for row in rows:
        names = ", ".join(row["targets"])
        o = row.get("objective") or {}
        what = str(row["status"])
        if o:
            what += f'; {o["within_1"]} within 1", {o["engaged"]} engaged'
        if row.get("min_roll") is not None:
            what += f"; minimum roll {row['min_roll']} ({row['success_probability']:.1%})"
        elif row.get("proof"):
            what += f"; {first_sentence(str(row['proof']))}"
        lines.append(f"  {names}: {what}")
    return lines


def first_sentence(text: str) -> str:
    """The proof's first sentence (up to a full stop followed by a space, or all of it)."""
    return re.split(r"(?<=\.)\s+", text.strip(), maxsplit=1)[0]


def roll_table(result: Result) -> list[str]:
    """Three aligned rows: roll, the chance of rolling at least it, and base contact it buys."""
    if not result.rolls:
        return []
    dice = charge_dice(result)
    cells = [
        (
            str(r["roll"]),
            f"{float(chance_at_least(int(r['roll']), dice)):.0%}",
            count(r["base_contact"]) + ("" if r.get("proven", True) else "?"),
        )
        for r in result.rolls
    ]
    width = max(len(c) for row in cells for c in row) + 1
    heads = ("roll", f"{dice}D6 chance", "base contact")
    pad = max(len(h) for h in heads)
    lines = [
        f"  {head:<{pad}}" + "".join(f"{row[i]:>{width}}" for row in cells)
        for i, head in enumerate(heads)
    ]
    if any(not r.get("proven", True) for r in result.rolls):
        lines.append("  (?: best found, not proven best anywhere on the table)")
    return lines


def position(p: Placement) -> str:
    """`(15.88, 14.44)`, or `(3.50, 2.10, z 3) facing 22.5°`: x and y to the summary's
    precision (`written.printed_value`), the height and the facing as written."""
    where = f"({printed_value(p.x)}, {printed_value(p.y)}" + (f", z {p.z:g}" if p.z else "") + ")"
    facing = f" facing {round(p.facing, FACING_DECIMALS):g}°" if p.facing is not None else ""
    return where + facing


def move_words(p: Placement) -> str:
    """`moves 5.90" to` for a model that moves, `stays at` for one that does not (`ends at`
    where the placement does not say)."""
    if p.moved is None:
        return "ends at"
    return f'moves {p.moved:.2f}" to' if p.moved else "stays at"


def model_line(p: Placement) -> str:
    """`A1 moves 5.90" to (15.88, 14.44): base contact with B1` (`stays at` for a model that
    does not move)."""
    if p.token:
        role = f'token: 2" engagement range of {", ".join(p.engaged)} across wall {p.wall}'
    elif p.contact:
        role = f"base contact with {', '.join(p.contact)}"
    elif p.engaged:
        role = f"engagement range of {', '.join(p.engaged)}"
    else:
        role = "not engaged (keeps the unit in coherency)"
    return f"  {p.model} {move_words(p)} {position(p)}: {role}"


def close_model_line(p: Placement) -> str:
    """`A1 moves 1.00" to (10.94, 10.00): base contact with B1; fights B`, or `A2 stays at
    (10.00, 11.50): ...`, for a 3" close-combat move."""
    if p.token:
        role = f"keeps its token across wall {p.wall}"
    elif p.contact:
        role = f"base contact with {', '.join(p.contact)}"
    elif p.engaged:
        role = f"engagement range of {', '.join(p.engaged)}"
    elif p.fights:
        role = "beside a friend"
    else:
        role = "not engaged"
    fights = f"; fights {', '.join(p.fights)}" if p.fights else "; cannot fight"
    return f"  {p.model} {move_words(p)} {position(p)}: {role}{fights}"


def cut_short_line(by: str | None, stage: str | None, seconds: float, limit_s: float) -> str:
    """Why a solve stopped before its end, in a line: the time limit, Ctrl-C or a cancel on
    the web page, and where."""
    where = f" during {stage}" if stage else ""
    if by == "interrupted":
        return f"Interrupted after {seconds:.1f} s{where}"
    if by == "cancelled":
        return f"Cancelled after {seconds:.1f} s{where}"
    return (
        f"Time limit of {limit_s:g} s overrun on the wall clock: stopped by its safety net "
        f"after {seconds:.1f} s{where}"
    )


def summarise_result(result: Result) -> str:
    """A few lines a player can read at the table."""
    if result.blocks:
        from chargeopt.solver.interface.ruling_text import summarise_blocks

        return summarise_blocks(result)
    solved = result.status in (Status.OPTIMAL, Status.FEASIBLE) or bool(result.violations)
    lines = [headline(result)]
    cut = result.stats.get("cut_short")
    if isinstance(cut, dict):
        stopped = cut_short_line(
            cut.get("by"), cut.get("stage"), cut.get("seconds", 0.0), cut.get("limit_s", 0.0)
        )
        lines.append(f"{stopped}: the best placement so far, checked, not proven best")
    safety = result.stats.get("wall_clock_safety")
    if safety and not (isinstance(cut, dict) and cut.get("by") == "time limit"):
        lines.append(
            f"The machine was too slow for the time limit ({safety} stopped by the wall-clock "
            "safety net): a second run may answer differently; give it more time for a "
            "repeatable answer"
        )
    if result.proof:
        lines.append(f"Proof: {result.proof}")
    basis = str(result.stats.get("min_roll_basis", ""))
    minimum = minimum_roll_line(result)
    if minimum:
        lines.append(minimum)
        proven = result.status == Status.INFEASIBLE and result.proof
        if basis and not proven and (result.min_roll is None or result.min_roll_proven is not True):
            lines.append("  " + "; ".join(p for p in basis.split("; ") if p != "none between"))
    lines += roll_table(result)
    lines += outcome_lines(result)
    lines += target_set_lines(result)
    lines += note_lines(result)
    close = result.action is not None and result.action.kind in CLOSE_MOVE_VERBS
    if solved or (close and result.placements and result.objective):
        lines += [(close_model_line if close else model_line)(p) for p in result.placements]
    if result.violations:
        lines.append(f"The independent checker found {len(result.violations)} violation(s):")
        lines += [f"  - [{v.kind}] {v.message}" for v in result.violations]
    wtc = result.stats.get("wtc_walls")
    if isinstance(wtc, dict) and wtc.get("reason"):
        lines.insert(1, f"WTC walls: {wtc['reason']}")
    if result.stats.get("reason"):
        lines.append(str(result.stats["reason"]))
    if "seconds" in result.stats:
        seconds, candidates = result.stats["seconds"], result.stats.get("candidates", 0)
        lines.append(f"Solved in {seconds:.2f} s over {candidates} candidate positions")
        lines += refined_lines(result.stats.get("refined"))
        lines += repair_lines(result.stats.get("repair"))
    return "\n".join(lines)


def repair_lines(repair: object) -> list[str]:
    """Which models the continuous repair brought within engagement range, and which of the
    answer's engaged models a repacked front left out."""
    if not isinstance(repair, dict) or not repair.get("added"):
        return []
    counts = repair["engaged"]
    left = repair.get("left") or []
    out = f" and {', '.join(left)} out of it" if left else ""
    return [
        f"  Repaired: {', '.join(repair['added'])} brought within engagement range{out} by "
        f"shifting the unit off the candidates ({counts['repaired']} engaged; "
        f"{counts['candidates']} on the candidates)"
    ]


def refined_lines(refined: object) -> list[str]:
    """What the second solve on finer candidates found, beside the first."""
    if not isinstance(refined, dict):
        return []
    counts = {
        k: f"{o['base_contact']} in base contact, {o['engaged']} engaged" if o else "no placement"
        for k, o in refined["objective"].items()
    }
    n = refined["candidates"]
    kept = "kept" if refined["kept"] == "finer" else "not kept"
    same = "; the same counts, so the first answer's bounds stand" * (
        refined.get("certificate") == "first"
    )
    return [
        f"  Not proven best on the first {n['first']} positions ({counts['first']}); "
        f"solved again on {n['finer']} finer ones ({counts['finer']}, {kept}){same}"
    ]
