"""The official terrain layouts by name: `[board] layout = "Take vs Take 01"` puts a layout of
the 40kdc data set on the board, placed by the data set's own resolver (board inches, origin
at a corner, y down: chargeopt's frame).

Under 40k-11e each terrain feature becomes a dense, light or exposed area with its height and
walls, an upper floor a floor; under the older editions its walls become ruin walls, its
upper floors floors and a solid block an impassable area. Objective pieces give objectives."""

from __future__ import annotations

import difflib
from functools import lru_cache
from typing import Any

from .data_set import data_set
from .errors import KeyPathError

STOREY_IN = 3.0
"""The height of a first floor when the data set gives none: 3", the height the 11th
edition's rules name as that of the first floor of many terrain features."""
UNSTATED_HEIGHT_IN = {"dense": 5.0, "light": 2.0, "exposed": 0.0}
"""A feature's height when neither the layout nor its template gives one (recorded in
`stats.data_set.layout.assumed_heights`)."""
THIN_WALL_IN = 0.1
"""The thickness of a wall the data set draws as thin (no thickness given)."""


@lru_cache(maxsize=64)
def find_layout(query: str, key_path: str = "board.layout") -> dict[str, Any]:
    """The layout named `query` (its name or id, matched as the data set matches names); a
    KeyPathError naming the nearest layouts on a miss."""
    ds = data_set(key_path)
    from wh40kdc import normalize_name

    found = ds.terrain_layouts.get(query)
    if found is None:
        key = normalize_name(query)
        found = next(
            (lay for lay in ds.terrain_layouts if normalize_name(lay["name"]) == key), None
        )
    if found is None:
        names = {normalize_name(lay["name"]): lay["name"] for lay in ds.terrain_layouts}
        close = difflib.get_close_matches(normalize_name(query), list(names), n=4, cutoff=0.5)
        fix = (
            "did you mean " + ", ".join(f'"{names[c]}"' for c in close) + "?"
            if close
            else 'name one of the data set\'s layouts, e.g. "Take vs Take 01"'
        )
        raise KeyPathError(key_path, f"no terrain layout {query!r} in the 40kdc data set", fix)
    return found  # type: ignore[no-any-return]


def board_of(layout: dict[str, Any]) -> dict[str, float]:
    """The layout's board in inches (the data set's standard 60x44 unless it gives one)."""
    from wh40kdc import BOARD_INCHES

    board = layout.get("board") or BOARD_INCHES
    return {"width": float(board["width"]), "height": float(board["height"])}


def _xy(points: list[dict[str, float]]) -> list[list[float]]:
    return [[float(p["x"]), float(p["y"])] for p in points]


def _floor_catalogue(templates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The templates with each upper floor's outline as their only "wall", so that the data
    set's resolver, which places walls in the footprint's own frame, places the floors too."""
    from wh40kdc.terrain import footprint_vertices

    out = []
    for template in templates:
        copy = {k: v for k, v in template.items() if k != "walls"}
        floor = template.get("upper_floor")
        if floor:
            ring = footprint_vertices(floor["footprint"])
            copy["walls"] = [{"points": [*ring, ring[0]]}]
        out.append(copy)
    return out


@lru_cache(maxsize=64)
def resolved_layout(layout_id: str) -> tuple[tuple[dict[str, Any], dict[str, Any] | None], ...]:
    """Every resolved piece of the layout with its resolved upper floor (or None)."""
    ds = data_set()
    layout = ds.terrain_layouts.get(layout_id)
    templates = ds.terrain_templates.all
    pieces = ds.resolve_terrain(layout)
    floors = _resolve_with(layout, _floor_catalogue(templates))
    return tuple(
        (piece, floor if floor.get("walls") else None)
        for piece, floor in zip(pieces, floors, strict=True)
    )


def _resolve_with(layout: dict[str, Any], templates: list[dict[str, Any]]) -> list[dict]:
    from wh40kdc.terrain import resolve_layout

    return resolve_layout(layout, templates)


def _facts(layout: dict[str, Any]) -> list[dict[str, Any]]:
    """Per resolved piece: its category, height, floor level and whether it is solid."""
    ds = data_set()
    by_id = {t["id"]: t for t in ds.terrain_templates}
    authored = {p.get("id"): p for p in layout.get("pieces") or []}
    areas = {p["id"]: p for p in layout.get("pieces") or [] if p.get("id")}
    out = []
    for piece, floor in resolved_layout(layout["id"]):
        source = authored.get(piece.get("id")) or {}
        template = by_id.get(source.get("template") or "") or by_id.get(
            _feature_template(layout, piece, by_id) or ""
        )
        category = piece.get("terrain_category")
        parent = areas.get(source.get("parent_area_id") or "")
        if category is None and parent is not None:
            category = (by_id.get(parent.get("template") or "") or {}).get("terrain_category")
        height = source.get("height_inches")
        if height is None and template is not None:
            height = template.get("default_height_inches")
        if height is None and parent is not None and category is not None:
            height = parent.get("height_inches") or (
                by_id.get(parent.get("template") or "") or {}
            ).get("default_height_inches")
        floor_level = (template or {}).get("upper_floor", {}).get("floor", 1)
        out.append(
            {
                "piece": piece,
                "floor": floor,
                "floor_level": floor_level,
                "category": category,
                "height": None if height is None else float(height),
                "solid": (template or {}).get("ground_accessible") is False,
                "terrain": source.get("terrain", True),
            }
        )
    return out


def _feature_template(layout: dict[str, Any], piece: dict[str, Any], by_id: dict) -> str | None:
    """The template of a feature an area template composes (its resolved id is
    "<area id>--<feature id>")."""
    area_id, _, feature_id = str(piece.get("id") or "").partition("--")
    if not feature_id:
        return None
    area = next((p for p in layout.get("pieces") or [] if p.get("id") == area_id), None)
    features = (by_id.get((area or {}).get("template") or "") or {}).get("features") or []
    for index, feature in enumerate(features):
        if (feature.get("id") or f"feature-{index + 1}") == feature_id:
            return feature.get("template")  # type: ignore[no-any-return]
    return None


def layout_terrain(layout: dict[str, Any], edition: str) -> tuple[list[dict], list[str]]:
    """The layout's terrain as scenario tables for `edition`, and the categories whose height
    was assumed (UNSTATED_HEIGHT_IN)."""
    terrain: list[dict[str, Any]] = []
    assumed: set[str] = set()
    for index, fact in enumerate(_facts(layout)):
        piece, category = fact["piece"], fact["category"]
        if category is None or not fact["terrain"]:
            continue
        name = str(piece.get("id") or f"piece-{index + 1}")
        height = fact["height"]
        if height is None:
            height = UNSTATED_HEIGHT_IN[category]
            assumed.add(category)
        ring = _xy(piece["vertices"])
        walls = piece.get("walls") or []
        thickness = max((float(w.get("thickness") or THIN_WALL_IN) for w in walls), default=None)
        if edition == "40k-11e":
            area: dict[str, Any] = {"id": name, "kind": category, "path": ring}
            area["height_in"] = height
            if walls:
                area["walls"] = [_xy(w["points"]) for w in walls]
                area["wall_thickness_in"] = thickness
            if fact["solid"] and category == "dense":
                area["enclosed"] = True
            terrain.append(area)
        else:
            terrain += _older_edition(name, ring, walls, height, fact["solid"])
        if fact["floor"] is not None:
            floor_ring = _xy(fact["floor"]["walls"][0]["points"])[:-1]
            terrain.append(
                {
                    "id": f"{name}--floor-{fact['floor_level']}",
                    "kind": "floor",
                    "path": floor_ring,
                    "height": STOREY_IN * fact["floor_level"],
                }
            )
    return terrain, sorted(assumed)


def _older_edition(
    name: str, ring: list[list[float]], walls: list[dict], height: float, solid: bool
) -> list[dict[str, Any]]:
    """9th/10th: the feature's walls as ruin walls, a solid block as an impassable area."""
    if solid:
        return [{"id": name, "kind": "impassable", "path": ring}]
    return [
        {
            "id": f"{name}--wall-{k + 1}",
            "kind": "wall",
            "path": _xy(wall["points"]),
            "thickness": float(wall.get("thickness") or THIN_WALL_IN),
            "height": height,
        }
        for k, wall in enumerate(walls)
    ]


def layout_objectives(layout: dict[str, Any]) -> list[dict[str, Any]]:
    """One objective marker per objective piece, and one for linked pieces (a `link_group`:
    one objective for the set) at the middle of their markers."""
    groups: dict[str, list[tuple[float, float]]] = {}
    for index, piece in enumerate(layout.get("pieces") or []):
        if not (piece.get("is_objective") or piece.get("objective_role")):
            continue
        at = (piece.get("objective") or {}).get("position") or piece["position"]
        name = str(piece.get("link_group") or piece.get("id") or f"piece-{index + 1}")
        groups.setdefault(name, []).append((float(at["x"]), float(at["y"])))
    return [
        {
            "id": f"obj-{name}",
            "x": round(sum(x for x, _ in spots) / len(spots), 4),
            "y": round(sum(y for _, y in spots) / len(spots), 4),
        }
        for name, spots in groups.items()
    ]


def layout_fill(data: dict[str, Any]) -> dict[str, Any]:
    """A scenario table whose board names a layout: the layout's terrain and objectives added
    after the scenario's own (the board still gives its size)."""
    board = data["board"]
    layout = find_layout(str(board["layout"]))
    ruleset = data.get("ruleset")
    edition = ruleset if isinstance(ruleset, str) else (ruleset or [""])[0]
    size = board_of(layout)
    for side in ("width", "height"):
        if side not in board:
            raise KeyPathError(
                f"board.{side}",
                f"the board needs its {side} (a layout does not set it)",
                f"add width = {size['width']:g}, height = {size['height']:g} (the layout's board)",
            )
    out = dict(data)
    terrain, _ = layout_terrain(layout, str(edition))
    out["terrain"] = [*(data.get("terrain") or []), *terrain]
    out["objectives"] = [*(data.get("objectives") or []), *layout_objectives(layout)]
    return out


def layout_stats(name: str, edition: str) -> dict[str, Any]:
    """`stats.data_set.layout`: the layout's name and id, and the heights assumed."""
    layout = find_layout(name)
    _, assumed = layout_terrain(layout, edition)
    out: dict[str, Any] = {"name": layout["name"], "id": layout["id"]}
    if assumed:
        out["assumed_heights"] = {c: UNSTATED_HEIGHT_IN[c] for c in assumed}
    return out
