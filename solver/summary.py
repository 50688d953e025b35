"""A short human summary of a result: status, roll, contacts, who touches whom, time."""

from __future__ import annotations

from chargeopt.models import Result


def summarise_result(result: Result) -> str:
    """A few lines a player can read at the table."""
    action = result.action
    lines = []
    head = f"{result.status.value.upper()}"
    if action is not None:
        head += f": {action.kind} by {action.unit}"
        if action.targets:
            head += f" into {', '.join(action.targets)}"
        if action.roll is not None:
            head += f" with a roll of {action.roll}"
    lines.append(head)
    if result.min_roll is not None:
        pr = result.success_probability or 0.0
        rr = result.success_probability_reroll or 0.0
        lines.append(f"minimum roll {result.min_roll}: {pr:.1%} on 2D6, {rr:.1%} with a re-roll")
    if result.rolls:
        table = ", ".join(f"{r['roll']}:{r['base_contact']}" for r in result.rolls)
        lines.append(f"base contacts by roll: {table}")
    if result.objective:
        n = len(result.placements)
        obj, bound = result.objective, result.bound
        lines.append(
            f"{obj.get('base_contact', 0):g} of {n} models in base contact (bound "
            f"{bound.get('base_contact', '?')}), {obj.get('engaged', 0):g} in engagement range, "
            f'{obj.get("movement_in", 0):.2f}" moved in all'
        )
    for p in result.placements:
        touch = f" touching {', '.join(p.contact)}" if p.contact else ""
        eng = f" engaging {', '.join(p.engaged)}" if p.engaged and not p.contact else ""
        lines.append(f'  {p.model}: ({p.x:.2f}, {p.y:.2f}) moved {p.moved or 0:.2f}"{touch}{eng}')
    if result.proof:
        lines.append(f"proof: {result.proof}")
    for v in result.violations:
        lines.append(f"VIOLATION {v.kind}: {v.message}")
    if result.stats.get("reason"):
        lines.append(str(result.stats["reason"]))
    if "seconds" in result.stats:
        seconds, count = result.stats["seconds"], result.stats.get("candidates", 0)
        lines.append(f"solved in {seconds:.2f} s over {count} candidates")
    return "\n".join(lines)
