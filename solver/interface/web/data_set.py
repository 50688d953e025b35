"""The 40kdc data set on the page: whether it is installed, its layout and datasheet names,
one datasheet's facts, and a unit added by datasheet name in a compact formation.

Every name is looked up by the models' own matcher (`find_datasheet`, `find_layout`); this
module only arranges what they give for the page."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from chargeopt.models import ChargeoptError, KeyPathError, ScenarioError, parse_base
from chargeopt.models.data_set import ATTRIBUTION, INSTALL_FIX, data_set

INSTALL_LINE = "pip install 'chargeopt[data]'"
FORMATION_GAP_IN = 0.5
"""Edge to edge between neighbouring bases of an added unit: well within any coherency."""
MAX_ROW = 5
"""An added unit stands in rows of up to 5 (more for big units: about a square)."""
MAX_ADDED_MODELS = 100
DEFAULT_SPOT_STEP_IN = 2.0
DEFAULT_SPOT_RINGS = 8
MAX_TRIES = 60
"""Spots tried for a unit added without a point (each is a check of the whole board)."""


def facts() -> dict[str, Any]:
    """What the page needs to offer the data set: installed or the one line to install it, the
    attribution, the layouts (name, id, board) and the datasheet names (for suggestions while
    typing)."""
    try:
        ds = data_set()
    except KeyPathError:
        return {
            "installed": False,
            "line": f"The 40kdc data set is not installed: {INSTALL_LINE}",
            "attribution": ATTRIBUTION,
        }
    from chargeopt.models.data_set import data_set_version
    from chargeopt.models.layouts import board_of

    return {
        "installed": True,
        "version": data_set_version(),
        "attribution": ATTRIBUTION,
        "layouts": [
            {"id": lay["id"], "name": lay["name"], "board": board_of(lay)}
            for lay in ds.terrain_layouts
        ],
        "datasheets": sorted({u.name for u in ds.units}),
    }


@contextmanager
def looked_up() -> Iterator[None]:
    """A data-set refusal (a name it does not hold) as the page's one line: what, then the fix
    (the nearest names on a miss)."""
    try:
        yield
    except KeyPathError as exc:
        raise ChargeoptError(f"{exc.problem}; {exc.fix}" if exc.fix else exc.problem) from None


def installed() -> None:
    """Refuse in one line, saying how to install it, when the data set is not installed."""
    try:
        data_set()
    except KeyPathError:
        raise ChargeoptError(f"the 40kdc data set is not installed; {INSTALL_FIX}") from None


def datasheet_facts(name: object) -> dict[str, Any]:
    """One datasheet as the page shows it: name, base, Move, keywords and its model counts."""
    from chargeopt.models.datasheets import find_datasheet

    installed()
    with looked_up():
        sheet = find_datasheet(_name(name), "datasheet")
    raw = data_set().units.get(sheet.id)
    counts = (raw.raw.get("model_count") if raw is not None else None) or {}
    out = sheet.facts()
    out["base_problem"] = sheet.base_problem
    out["models_min"] = int(counts.get("min") or 1)
    out["models_max"] = int(counts.get("max") or out["models_min"])
    out["attribution"] = ATTRIBUTION
    return out


def _name(name: object) -> str:
    text = str(name or "").strip()
    if not text:
        raise ChargeoptError('no datasheet name given; type one, e.g. "Boyz"')
    return text


def new_unit(
    data: dict[str, Any], name: object, count: object, owner: object
) -> tuple[dict[str, Any], float]:
    """The unit table for `count` models of datasheet `name` (ids free in `data`, no positions
    yet), and the spacing of its formation in inches."""
    from chargeopt.models.datasheets import find_datasheet

    query = _name(name)
    installed()
    with looked_up():
        sheet = find_datasheet(query, "datasheet")
    if sheet.base is None:
        raise ChargeoptError(
            f"{sheet.base_problem}; write the unit in a scenario file with its base"
        )
    if owner not in ("attacker", "defender"):
        raise ChargeoptError(f"no side {owner!r}; choose attacker or defender")
    n = _count(count)
    units = data.get("units") if isinstance(data.get("units"), list) else []
    taken_units = {u.get("id") for u in units if isinstance(u, dict)}
    unit_id = sheet.name
    k = 1
    while unit_id in taken_units:
        k += 1
        unit_id = f"{sheet.name} {k}"
    used = {
        m.get("id")
        for u in units
        if isinstance(u, dict) and isinstance(u.get("models"), list)
        for m in u["models"]
        if isinstance(m, dict)
    }
    prefix = "".join(w[0] for w in re.findall(r"[A-Za-z0-9]+", sheet.name)[:3]).upper() or "M"
    ids = []
    k = 0
    while len(ids) < n:
        k += 1
        if f"{prefix}{k}" not in used:
            ids.append(f"{prefix}{k}")
    unit = {
        "id": unit_id,
        "owner": owner,
        "datasheet": _written(sheet, query),
        "models": [{"id": i, "x": 0.0, "y": 0.0} for i in ids],
    }
    pitch_in = 2 * float(parse_base(sheet.base).circumradius_in) + FORMATION_GAP_IN
    return unit, pitch_in


def _written(sheet: Any, query: str) -> str:
    """The name to write: the datasheet's own when it finds the same sheet, else as typed
    (a name some factions share is written with its faction, as typed)."""
    from chargeopt.models.datasheets import find_datasheet

    try:
        same = find_datasheet(sheet.name).id == sheet.id
    except KeyPathError:
        same = False
    return str(sheet.name) if same else query


def _count(count: object) -> int:
    try:
        n = int(str(count).strip())
    except ValueError:
        n = 0
    if not 1 <= n <= MAX_ADDED_MODELS:
        raise ChargeoptError(f"{count!r} is not a model count; give 1 to {MAX_ADDED_MODELS}")
    return n


def formation(n: int, pitch_in: float, x: float, y: float) -> list[tuple[float, float]]:
    """`n` places in rows of up to MAX_ROW (about a square for big units), the rows as even as
    can be (one model apart at most) and each centred on (x, y), `pitch_in` apart: the end of a
    longer row is then half a pitch from the end of the next, within coherency of two models."""
    rows = math.ceil(n / min(n, max(MAX_ROW, math.ceil(math.sqrt(n)))))
    sizes = [n // rows + (1 if r < n % rows else 0) for r in range(rows)]
    spots = []
    for r, size in enumerate(sizes):
        for c in range(size):
            spots.append(
                (
                    round(x + (c - (size - 1) / 2) * pitch_in, 3),
                    round(y + (r - (rows - 1) / 2) * pitch_in, 3),
                )
            )
    return spots


def centres(board: dict[str, float], owner: str, at: object) -> Iterator[tuple[float, float]]:
    """Where to try the formation: the point clicked alone, else the middle of the owner's half
    (attacker below, defender above), then rings around it."""
    if isinstance(at, dict):
        try:
            yield float(at["x"]), float(at["y"])
        except (KeyError, TypeError, ValueError):
            raise ChargeoptError("the point clicked is not a point; click on the board") from None
        return
    w, h = board["width"], board["height"]
    x0, y0 = w / 2, h * (0.75 if owner == "attacker" else 0.25)
    rings = range(-DEFAULT_SPOT_RINGS, DEFAULT_SPOT_RINGS + 1)
    for i, j in sorted(
        ((i, j) for i in rings for j in rings), key=lambda d: (d[0] ** 2 + d[1] ** 2, d)
    ):
        x, y = x0 + i * DEFAULT_SPOT_STEP_IN, y0 + j * DEFAULT_SPOT_STEP_IN
        if 0 < x < w and 0 < y < h:
            yield x, y


def place_unit(
    data: dict[str, Any],
    unit: dict[str, Any],
    pitch_in: float,
    spots: Iterator[tuple[float, float]],
    try_board: Callable[[dict[str, Any]], list[dict[str, str]]],
) -> dict[str, Any]:
    """`data` with `unit` added at the first spot where none of its models has a problem
    (`try_board` gives the board's problems); the last refusal when no spot holds it."""
    index = len(data.get("units") or [])
    key = f"units[{index}]"
    last: list[str] = []
    for x, y in itertools.islice(spots, MAX_TRIES):
        placed = [
            {**m, "x": px, "y": py}
            for m, (px, py) in zip(
                unit["models"], formation(len(unit["models"]), pitch_in, x, y), strict=True
            )
        ]
        doc = {**data, "units": [*(data.get("units") or []), {**unit, "models": placed}]}
        problems = try_board(doc)
        mine = [p for p in problems if p["key"] == key or p["key"].startswith(key + ".")]
        if not mine:
            return doc
        last = [p["line"] for p in mine]
    raise ChargeoptError(
        "\n".join([f"{unit['id']} does not fit there: {last[0]}" if last else "no room", *last[1:]])
        + "\nclick a clear part of the board (Add unit, then click where it goes)"
    )


def refusal_lines(exc: ScenarioError) -> list[dict[str, str]]:
    """A board's refusal as {key, line} problems."""
    return [{"key": k, "line": t} for (k, _, _), t in zip(exc.problems, exc.lines(), strict=True)]
