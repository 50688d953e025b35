"""The summary of a 40k-assault-4e result: what was engaged, who fights (full attacks, one
attack) and the moves in their order, each with the seed's preference it took."""

from __future__ import annotations

from chargeopt.models import Placement, Result, Status
from chargeopt.solver.core.exact_limits import note_lines
from chargeopt.solver.interface.summary import headline, move_words, position

TAKEN = {
    1: "base contact with {} (not yet engaged)",
    2: "base contact with {} (already engaged)",
    3: 'within 2" of an engaged unit mate',
    4: 'within 2" of a unit mate already moved',
}


def summarise_assault_4e(result: Result) -> str:
    """Headline, proof, engagement, who fights, the numbered moves, violations, time."""
    lines = [headline(result)]
    if result.proof:
        lines.append(f"Proof: {result.proof}")
    lines += outcome_words(result)
    lines += note_lines(result) + tie_lines(result)
    solved = result.status in (Status.OPTIMAL, Status.FEASIBLE) or bool(result.violations)
    if solved and result.placements:
        lines += _moves(result)
    if result.violations:
        lines.append(f"The independent checker found {len(result.violations)} violation(s):")
        lines += [f"  - [{v.kind}] {v.message}" for v in result.violations]
    if "seconds" in result.stats:
        seconds, candidates = result.stats["seconds"], result.stats.get("candidates", 0)
        over = f" over {candidates} candidate positions" if candidates else ""
        lines.append(f"Solved in {seconds:.2f} s{over}")
    return "\n".join(lines)


def tie_lines(result: Result) -> list[str]:
    """Which first move the answer took where the seed's "nearest" ties (the player's
    choice), and any tied one the solver had no time to try."""
    tie = result.stats.get("first_tie")
    if not tie:
        return []
    chosen = f"{result.stats.get('first_model')} to {result.stats.get('first_target')}"
    options = ", ".join(f"{a} to {b}" for a, b in tie)
    line = f"First move: {chosen}, chosen among the tied nearest (the player's choice): {options}"
    untried = result.stats.get("first_tie_untried")
    if untried:
        line += f"; not tried in time: {', '.join(f'{a} to {b}' for a, b in untried)}"
    return [line]


def outcome_words(result: Result) -> list[str]:
    """Enemy models engaged and base contacts (each with its ceiling), then who fights; the
    summary's lines and the picture's caption."""
    obj, bound = result.objective, result.bound
    if not obj:
        return []
    n = len(result.placements)

    def most(key: str) -> str:
        return f" (most possible: {bound[key]})" if key in bound else ""

    full = ", ".join(result.fighters.get("full", ())) or "none"
    one = ", ".join(result.fighters.get("one_attack", ())) or "none"
    return [
        f"Enemy models engaged: {obj.get('enemy_engaged', 0)}{most('enemy_engaged')}; "
        f"base contact: {obj.get('base_contact', 0)} of {n} models{most('base_contact')}; "
        f'{obj.get("movement_in", 0.0):.2f}" moved in all',
        f"Who fights: full attacks {full}; one attack {one}",
    ]


def _moves(result: Result) -> list[str]:
    """One line a model; numbered in the order of moves when there is one."""
    by_id = {p.model: p for p in result.placements}
    if not result.order:
        return [f"  {p.model} {move_words(p)} {position(p)}{_role(p)}" for p in result.placements]
    charge = result.action is not None and result.action.kind == "charge"
    pile_in = result.action is not None and result.action.kind == "pile-in"
    head = "the first is the model nearest the charged unit" if charge else "nearest model first"
    lines = [f"Order of moves ({head}):"]
    engaged: set[str] = set()
    moved: list[Placement] = []
    support = set(result.fighters.get("one_attack", ()))
    for step, mid in enumerate(result.order, start=1):
        p = by_id[mid]
        if p.contact:
            kind = 1 if any(e not in engaged for e in p.contact) else 2
            words = TAKEN[kind].format(", ".join(p.contact))
        elif pile_in:
            words = "as close to the enemy as it can get, in coherency"
        else:
            words = TAKEN[3] if mid in support and any(m.contact for m in moved) else TAKEN[4]
        lines.append(f"  {step}. {mid} {move_words(p)} {position(p)}: {words}")
        engaged.update(p.contact)
        moved.append(p)
    return lines


def _role(p: Placement) -> str:
    return f": base contact with {', '.join(p.contact)}" if p.contact else ""
