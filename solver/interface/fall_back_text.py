"""The summary of a 40k-assault-4e fall back: where the unit goes, or Trapped!, or the
chance of Trapped! over the dice."""

from __future__ import annotations

from fractions import Fraction

from chargeopt.models import Result, Status


def fall_back_what(result: Result) -> str:
    """What the headline says was solved: `A falls back with a roll of 7`, `Trapped! ...`."""
    action = result.action
    assert action is not None
    if action.roll is None:
        dice = result.stats.get("dice", 2)
        return f"{action.unit} falls back on {dice}D6"
    if result.status == Status.INFEASIBLE:
        return f'Trapped! {action.unit} cannot fall back {action.roll}" and is destroyed'
    return f"{action.unit} falls back with a roll of {action.roll}"


def summarise_fall_back(result: Result, head: str) -> str:
    """A few lines a player can read at the table, under the headline `head`."""
    lines = [head]
    if result.stats.get("blocked_headings"):
        lines += trapped_lines(result)
    elif result.proof:
        lines.append(f"Proof: {result.proof}")
    if result.trapped_chance is not None:
        lines += chance_lines(result)
    elif result.placements:
        lines += move_lines(result)
    elif result.status == Status.UNKNOWN and not result.violations:
        lines.append(
            f"Neither a legal fall back nor a proof of Trapped!: "
            f"{result.stats.get('sectors_open', 0)} ranges of directions left open"
        )
    if result.violations:
        lines.append(f"The independent checker found {len(result.violations)} violation(s):")
        lines += [f"  - [{v.kind}] {v.message}" for v in result.violations]
    return "\n".join(lines)


def trapped_lines(result: Result) -> list[str]:
    """The proof of Trapped! as ranges of headings, each with what blocks it."""
    action = result.action
    assert action is not None
    half = result.stats.get("halved_to_in")
    halved = f' (or {half:g}" where difficult terrain halves it)' if half else ""
    lines = [
        f'No full fall back of {action.roll}"{halved} for any direction within 90 degrees of '
        f"straight toward the {result.stats.get('edge', 'own')} edge:"
    ]
    lines += [
        f"  directions {r['from_deg']}-{r['to_deg']} deg: {r['model']} "
        + (
            f'has no route longer than {r["longest_in"]:.2f}", stopped by {r["runs_into"]}'
            if "longest_in" in r
            else f"runs into {r['runs_into']}"
        )
        for r in result.stats["blocked_headings"]
    ]
    sectors = result.stats.get("sectors_ruled_out", 0)
    lines.append(f"Proven for every route of every model, bent or straight ({sectors} ranges of d)")
    return lines


def move_lines(result: Result) -> list[str]:
    """The heading, distance and progress toward the edge, then each model."""
    stats, obj, bound = result.stats, result.objective, result.bound
    edge = "its table edge"
    halved = ", halved by difficult terrain" if stats.get("halved") else ""
    reached = "; reaches its table edge" if stats.get("reached_edge") else ""
    best = f' (most possible: {bound["progress_in"]:.2f}")' if "progress_in" in bound else ""
    lines = [
        f"Heading {stats.get('heading_deg', 0):.2f} deg ({stats.get('off_straight_deg', 0):+.2f} "
        f'off straight back), {obj.get("distance_in", 0):g}" moved{halved}{reached}',
        f'{obj.get("progress_in", 0):.2f}" closer to {edge}{best}',
    ]
    if stats.get("note"):
        lines.append(str(stats["note"]))
    lines += [
        f'  {p.model} falls back {p.moved or 0:.2f}" to ({p.x:.2f}, {p.y:.2f}){_via(p.path)}'
        for p in result.placements
    ]
    return lines


def _via(path: tuple | None) -> str:
    """The corners of a bent path, as a player would step them out."""
    if not path or len(path) <= 2:
        return ""
    return " via " + ", ".join(f"({x:.2f}, {y:.2f})" for x, y in path[1:-1])


def chance_lines(result: Result) -> list[str]:
    """The chance of Trapped! and the rolls that trap the unit."""
    chance = Fraction(result.trapped_chance or "0")
    trapped = [r["roll"] for r in result.rolls if r.get("trapped")]
    free = [r["roll"] for r in result.rolls if r.get("trapped") is False]
    open_ = [r["roll"] for r in result.rolls if r.get("trapped") is None]
    lines = [f"Trapped! chance: {chance} ({float(chance):.1%})"]
    if "trapped_chance_at_most" in result.stats:
        lines[0] += f", at most {result.stats['trapped_chance_at_most']} (rolls left open)"
    lines.append(f"  Trapped on rolls: {_rolls(trapped)}; escapes on: {_rolls(free)}")
    if open_:
        lines.append(f"  Not decided: {_rolls(open_)}")
    return lines


def _rolls(rolls: list[int]) -> str:
    return ", ".join(str(r) for r in rolls) if rolls else "none"


def caption_words(result: Result) -> list[str]:
    """The picture's caption under the headline: the move or the chance, and the proof."""
    lines = []
    if result.trapped_chance is not None:
        lines += chance_lines(result)
    elif result.placements:
        lines += move_lines(result)[:2]
    if result.proof:
        lines.append(f"Proof: {result.proof.split(' (headings in degrees')[0]}")
    lines += [f"Violation [{v.kind}]: {v.message}" for v in result.violations[:3]]
    return lines
