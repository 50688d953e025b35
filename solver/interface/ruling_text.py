"""A rank-and-file result read out as a ruling: the arc and by how much, the Snaking Forward
Move, the Align Move with the models in contact and the most possible, or why not."""

from __future__ import annotations

from typing import Any

from chargeopt.models import Result, Status

SIDE = {"front-right": "right", "front-left": "left"}
FAILED_MOVES = {
    "t9a-snaking": 'its Failed Charge Move of 4"',
    "high-die": "its higher charge die",
    "normal-move": "its normal Move",
}
"""How the summary names each ruleset's failed charge move (the block's `failed_move`)."""


def _path_words(path: list[dict[str, Any]]) -> str:
    words = []
    for step in path:
        if step["move"] == "forward" and step["distance_in"] > 0:
            words.append(f'moves {step["distance_in"]:.1f}" forward')
        elif step["move"] == "wheel" and abs(step["angle_deg"]) >= 0.5:
            words.append(
                f"wheels {abs(step['angle_deg']):.0f} degrees to the {SIDE[step['pivot']]} "
                f'about its {step["pivot"]} corner ({step["travel_in"]:.1f}" {step["metric"]})'
            )
    return ", ".join(words) or "is already in contact"


def _reach_words(block: dict[str, Any]) -> str:
    """How far a whfb-6e or tow charge may go, in the ruleset's own words: 6e's charge move
    (twice the Move), The Old World's Charge Range (Movement + the higher of 2D6)."""
    if "charge_range" in block:
        return f'Charge Range {block["charge_range"]:g}" (Movement + the higher of 2D6)'
    return f'charge move {block["charge_move_in"]:g}" (twice the Move)'


def _ordinal(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th') }"


def charger_lines(block: dict[str, Any], target: str) -> list[str]:
    """The ruling for one charging block."""
    unit = block["unit"]
    lines = []
    if block.get("redirected_from"):
        lines.append(
            f"The charge on {block['redirected_from']} fails; {unit} redirects it (once) to "
            f"{target}, an enemy unit in reach."
        )
    if "arc" in block:
        needed = f"Charge Range needed {block['range_needed']}"
        if "charge_move_in" in block:
            needed = f"{_reach_words(block)}, wheels counted by the {block['wheel_metric']}"
        lines.append(
            f"{unit} is in {target}'s {block['arc']} arc by {block['arc_margin_deg']:.1f} degrees "
            f'({block["arc_margin_in"]:.2f}" from the nearest arc line); '
            f'{block["distance_in"]:.2f}" away, {needed}.'
        )
    if block.get("blocked_path"):
        lines.append(
            f"Blocked Path: {target} is the first obstacle straight ahead and its "
            f"{block['arc']} facing cannot be reached; {unit} charges its "
            f"{block['target_facing']} facing."
        )
    if block.get("outcome") != "charges":
        if block.get("reason"):
            lines.append(f"{unit} does not charge: {block['reason']}.")
        if block.get("outcome") in ("fails", "impossible") and block.get("path"):
            kind = FAILED_MOVES.get(block.get("failed_move", ""), "its normal Move")
            moved = block.get("moved_in") or 0.0
            words = _path_words(block["path"]) if moved > 0 else "has no room to move"
            lines.append(f'Failed charge: {unit} {words} ({moved:.2f}" of {kind}).')
        return lines
    facing = block["target_facing"]
    t, c = block["target_models_in_contact"], block["models_in_contact"]
    move = _path_words(block.get("path", []))
    if block.get("order"):
        move = f"moves {_ordinal(block['order'])} in the combined charge: {move}"
    if not block.get("unaligned"):
        most = block.get("most_possible")
        best = f" (most possible: {most[0]} and {most[1]})" if most else ""
        aligns = "closes the door on" if "charge_move_in" in block else "aligns to"
        lines.append(
            f"{unit} {move}; {aligns} {target}'s {facing}: {t} of {target}'s models and {c} of "
            f"{unit}'s in contact{best}."
        )
        if most and "charge_move_in" in block and most[0] + most[1] > t + c:
            reach = "Charge Range" if "charge_range" in block else "charge move"
            lines.append(
                f"No path found within the {reach} reaches the most possible (the proof says "
                "whether one could)."
            )
        elif most and (most[0], most[1]) > (t, c):
            lines.append(
                "Keeping the initial contact point (the first priority) costs models in contact."
            )
    else:
        turn = block.get("target_rotation_deg") or 0.0
        left = (
            "fully aligned" if block.get("aligned") else f"{block['angle_deg']:.2f} degrees apart"
        )
        lines.append(
            f"{unit} {move}; no fully aligned placement keeps the contact point: unaligned "
            f"charge, its front turned {block['angle_deg'] + abs(turn):.2f} degrees off "
            f"{target}'s {facing}; {target} turns {abs(turn):.2f} degrees about the contact "
            f"point, leaving them {left}; {t} of {target}'s models and {c} of {unit}'s in "
            "contact."
        )
    return lines


def _names(ids: list[str]) -> str:
    if not ids:
        return "no unit"
    return ids[0] if len(ids) == 1 else f"{', '.join(ids[:-1])} and {ids[-1]}"


def _least_move(result: Result, block: dict[str, Any]) -> str:
    """WHFB 6e's least Move, or TOW's least Charge Range and its exact chance."""
    if result.min_roll is None:
        lower = result.stats.get("min_roll_lower")
        if lower is not None:
            return (
                f"No charge move found; by path length alone the least Move or roll would be "
                f"{lower} (not proven impossible)."
            )
        return "No charge move reaches (the least Move or roll that succeeds does not exist)."
    if "whfb-6e" in result.ruleset:
        move = result.min_roll
        return f'Smallest Move that succeeds: {move} (charge move {2 * move}").'
    chance = block.get("chance_fraction", "0")
    return (
        f"Smallest Charge Range that succeeds: {result.min_roll} (Movement + the higher of 2D6: "
        f"chance {chance})."
    )


def summarise_blocks(result: Result) -> str:
    """The whole ruling, a few lines."""
    action = result.action
    target = action.targets[0] if action and action.targets else "?"
    chargers = [b for b in result.blocks if b.get("role") == "charger"]
    going = [b["unit"] for b in chargers if b.get("outcome") == "charges"]
    staying = [b["unit"] for b in chargers if b.get("outcome") != "charges"]
    roll = f" with a Charge Range of {action.roll}" if action and action.roll is not None else ""
    verb = "charges" if len(going) == 1 else "charge"
    head = f"{result.status.value.upper()}: {_names(going)} {verb} {target}{roll}"
    if going and staying:
        head += f" ({_names(staying)} cannot)"
    if result.status == Status.INFEASIBLE:
        head = f"INFEASIBLE: {_names(staying)} cannot charge {target}{roll}"
    lines = [head]
    first = chargers[0] if chargers else {}
    if "charge_move_in" in first:
        lines.append(_least_move(result, first))
    elif result.min_roll is not None and result.success_probability is not None:
        chance = (
            f"{result.success_probability:.0%} to roll it"
            if result.success_probability > 0
            else "more than the dice can roll"
        )
        lines.append(f"Smallest Charge Range that succeeds: {result.min_roll} ({chance}).")
    elif first.get("outcome") == "impossible" and len(chargers) == 1:
        lines.append(
            "No Charge Move reaches (the smallest Charge Range that succeeds does not exist)."
        )
    for block in chargers:
        lines += charger_lines(block, target)
    if result.proof:
        lines.append(f"Proof: {result.proof}")
    for v in result.violations:
        lines.append(f"Checker: {v.message}")
    if result.status in (Status.OPTIMAL, Status.FEASIBLE) and not result.violations:
        lines.append(
            "Checked: the independent checker finds no violation "
            f"({result.stats.get('seconds', 0):.2f} s)."
        )
    return "\n".join(lines)
