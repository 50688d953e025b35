"""Why a charge's bound on base contact or engagement stands where it does, in words a judge can
check: which ceiling holds it (straight line, legal paths, ring packing, split unit) and, for
engagement, which models cannot get there at all and which pairs cannot both be there."""

from __future__ import annotations

import re
from collections.abc import Callable

from chargeopt.models import Result

MAX_NAMED = 8
"""Named pieces (single models or runs such as "A20 to A30") before the rest are counted."""


def bound_reason(result: Result, term: str, n: int) -> str | None:
    """The line under a term's count: `Why no more: ...` where the bound meets the answer,
    `Why at most K: ...` where it does not; None when the bound is the unit's size or no
    ceiling on the whole table explains it."""
    top = result.bound.get(term)
    if top is None or top >= n:
        return None
    why = _contact(result, top) if term == "base_contact" else _engaged(result, top, n)
    if why is None:
        return None
    met = top == result.objective.get(term)
    head = "Why no more" if met else f"Why at most {top}"
    tail = "" if met else f"; a placement with {top} is neither found nor ruled out"
    return f"{head}: {why}{tail}"


def _contact(result: Result, top: int) -> str | None:
    """The split-unit ceiling's own reason, the straight line or the ring packing."""
    stats = result.stats
    split = stats.get("split_unit_bound")
    if isinstance(split, dict) and split.get("base_contact") == top:
        return str(split["reason"])
    if _term(stats, "straight_line_bound", "base_contact") == top:
        return (
            f"{_no_more(top, 'model', 'models')} can touch a target model: "
            "counted from who reaches which target model in a straight line with the roll, "
            "and how many bases fit around each"
        )
    if _term(stats, "ring_packing_bound", "base_contact") == top:
        return (
            f"{_no_more(top, 'base fits', 'bases fit')}, no two overlapping, on the parts of "
            "the target models' edges that the models reach along legal paths with the roll "
            "(ring packing)"
        )
    return None


def _engaged(result: Result, top: int, n: int) -> str | None:
    """Who cannot reach engagement range (in a straight line or along legal paths), who can
    reach it only where they may not end, the pairs that cannot both be there, or the ring
    packing of the engagement bands."""
    stats = result.stats
    beyond = stats.get("beyond_engagement_reach")
    beyond = beyond if isinstance(beyond, dict) else {}
    order = _result_order(result)
    moved = sorted(
        {m for key in ("straight_line", "legal_paths") for m in beyond.get(key, [])}, key=order
    )
    many = "model" if top == 1 else "models"
    if moved and n - len(moved) == top:
        return (
            f"only {top} {many} can reach engagement range of a target model with the roll "
            f"(in a straight line, or along a legal path); {names(moved)} cannot"
        )
    stuck = sorted({*moved, *beyond.get("regions", [])}, key=order)
    if stuck and n - len(stuck) == top:
        return (
            f"only {top} {many} can end within engagement range of a target model with the "
            "roll, off every other base and out of engagement range of non-target units; "
            f"{names(stuck)} cannot"
        )
    pairs = stats.get("pair_bound")
    if isinstance(pairs, dict) and pairs.get("engaged") == top and pairs.get("clashes"):
        first, second, farthest, needed = pairs["clashes"][0]
        more = len(pairs["clashes"]) - 1
        return (
            f"{_no_more(top, 'model', 'models')} can be within engagement range at once: "
            f"{n - len(stuck)} can end there, but {first} and {second} only within "
            f'{farthest:.2f}" of each other, centre to centre, where their bases need '
            f'{needed:.2f}"'
            + (f" ({more} more such {'pair' if more == 1 else 'pairs'})" if more else "")
        )
    if _term(stats, "ring_packing_bound", "engaged") == top:
        return (
            f"{_no_more(top, 'base fits', 'bases fit')}, no two overlapping, within engagement "
            "range of the target models where the models reach it along legal paths with the "
            "roll, with the base contacts above (ring packing)"
        )
    return None


def _result_order(result: Result) -> Callable[[str], int]:
    """Sort key: a model's place in the result's placements (the unit's own order)."""
    order = {p.model: k for k, p in enumerate(result.placements)}
    return lambda mid: order.get(mid, len(order))


def _no_more(top: int, one: str, many: str) -> str:
    """`no more than 3 bases fit`, `no more than 1 base fits`, `no base fits`."""
    return f"no {one}" if top == 0 else f"no more than {top} {one if top == 1 else many}"


def _term(stats: dict[str, object], key: str, term: str) -> object:
    found = stats.get(key)
    return found.get(term) if isinstance(found, dict) else None


def names(ids: list[str]) -> str:
    """Model ids in words, consecutive numbers run together: `A11, A12 and A20 to A30`; past
    `MAX_NAMED` pieces the rest are counted (`... and 4 more`)."""
    pieces: list[tuple[str, int]] = []
    run: list[tuple[str, int, str]] = []
    for mid in [*ids, None]:
        parsed = re.fullmatch(r"(.*?)(\d+)", mid) if mid is not None else None
        if parsed and run and parsed[1] == run[-1][0] and int(parsed[2]) == run[-1][1] + 1:
            run.append((parsed[1], int(parsed[2]), mid))
            continue
        if len(run) >= 3:
            pieces.append((f"{run[0][2]} to {run[-1][2]}", len(run)))
        else:
            pieces += [(r[2], 1) for r in run]
        run = [(parsed[1], int(parsed[2]), mid)] if parsed else []
        if mid is not None and not parsed:
            pieces.append((mid, 1))
    words = [text for text, _ in pieces]
    if len(pieces) > MAX_NAMED:
        rest = sum(k for _, k in pieces[MAX_NAMED - 1 :])
        words = [*words[: MAX_NAMED - 1], f"{rest} more"]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"
