"""What the picture adds for a 40k-assault-4e fall back: the unit's own table edge, the
corridor its bases sweep, and, for a Trapped! verdict, the pieces and models that block it."""

from __future__ import annotations

from xml.sax.saxutils import escape

import shapely
from shapely.geometry import LineString, Point

from chargeopt.geometry import Battlefield, Footprint
from chargeopt.models import ActionKind, Result, Scenario, Status, TableEdge

SCALE = 20.0
ZONE_IN = 1.0
STYLE = (
    "<style>.own-edge{stroke:#2f6fb0;stroke-width:5;stroke-opacity:.7}"
    ".corridor{fill:#2f6fb0;fill-opacity:.10;stroke:#2f6fb0;stroke-width:1;"
    "stroke-dasharray:6 3}.blocking{fill:none;stroke:#ff7f00;stroke-width:3}"
    ".zone{fill:none;stroke:#ff7f00;stroke-width:1.2;stroke-dasharray:4 3}</style>"
)


def fall_back_overlay(scenario: Scenario, result: Result | None) -> list[str]:
    """SVG elements drawn under the models (empty for any other move)."""
    if result is None or scenario.action.kind != ActionKind.FALL_BACK:
        return []
    parts = [STYLE, _own_edge(scenario)]
    if result.placements and result.status in (Status.OPTIMAL, Status.FEASIBLE):
        parts.append(_corridor(scenario, result))
    if result.status == Status.INFEASIBLE:
        parts += _blocking(scenario, [str(i) for i in result.stats.get("blocking", [])])
    return parts


def _px(inches: float) -> str:
    return f"{inches * SCALE:.1f}"


def _path(geom: shapely.Geometry) -> str:
    rings = []
    for poly in getattr(geom, "geoms", [geom]):
        coords = list(getattr(poly, "exterior", poly).coords)
        rings.append("M" + " L".join(f"{_px(x)},{_px(y)}" for x, y in coords) + " Z")
    return " ".join(rings)


def _own_edge(scenario: Scenario) -> str:
    w, h = scenario.board.width, scenario.board.height
    ends = {
        TableEdge.TOP: (0, 0, w, 0),
        TableEdge.BOTTOM: (0, h, w, h),
        TableEdge.LEFT: (0, 0, 0, h),
        TableEdge.RIGHT: (w, 0, w, h),
    }[scenario.action.table_edge or TableEdge.BOTTOM]
    x1, y1, x2, y2 = ends
    return (
        f'<line class="own-edge" x1="{_px(x1)}" y1="{_px(y1)}" x2="{_px(x2)}" y2="{_px(y2)}">'
        f"<title>{escape(f'the table edge unit {scenario.action.unit} falls back to')}</title>"
        "</line>"
    )


def _corridor(scenario: Scenario, result: Result) -> str:
    """The ground the bases sweep from start to end, along each model's path (bent or not)."""
    unit = scenario.acting_unit
    ends = {p.model: p for p in result.placements}
    swept = []
    for m in unit.models:
        p = ends.get(m.id)
        path = list(p.path) if p and p.path else [(m.x, m.y)] + ([(p.x, p.y)] if p else [])
        radius = Footprint(unit.base_of(m), m.x, m.y).radius_in
        line = LineString(path) if len(path) > 1 else Point(path[0])
        swept.append(line.buffer(radius))
    ground = shapely.union_all(swept)
    return (
        f'<path class="corridor" d="{_path(ground)}"><title>the ground the bases sweep as '
        "the unit falls back</title></path>"
    )


def _blocking(scenario: Scenario, ids: list[str]) -> list[str]:
    """Each terrain piece and model named by the Trapped! proof, ringed."""
    field = Battlefield.from_scenario(scenario)
    shapes = {p.id: p.shape for p in field.pieces}
    zones = {}
    actor = scenario.acting_unit
    for unit in scenario.units:
        for m in unit.models:
            shapes[m.id] = Footprint(unit.base_of(m), m.x, m.y, m.z, m.facing).polygon
            if unit.owner != actor.owner and unit.id not in scenario.action.fought_by:
                zones[m.id] = shapes[m.id].buffer(ZONE_IN)
    rings = [
        f'<path class="blocking" d="{_path(shapes[i])}"><title>{escape(i)} blocks the fall '
        "back</title></path>"
        for i in ids
        if i in shapes
    ]
    return rings + [
        f'<path class="zone" d="{_path(zones[i])}"><title>1" of {escape(i)}, which did not '
        "fight the unit</title></path>"
        for i in ids
        if i in zones
    ]


def fall_back_legend(scenario: Scenario, result: Result | None) -> list[tuple[str, float, str]]:
    """Legend entries (swatch, width in pixels, words) for what the overlay draws."""
    if result is None or scenario.action.kind != ActionKind.FALL_BACK:
        return []
    items = [('<line class="own-edge" x1="0" y1="8" x2="16" y2="8"/>', 16, "own table edge")]
    if result.placements and result.status in (Status.OPTIMAL, Status.FEASIBLE):
        swatch = '<rect class="corridor" x="1" y="3" width="14" height="10"/>'
        items.append((swatch, 16, "corridor"))
    if result.status == Status.INFEASIBLE:
        items.append(('<circle class="blocking" cx="8" cy="8" r="6"/>', 16, "blocks the fall back"))
        items.append(('<circle class="zone" cx="8" cy="8" r="6"/>', 16, '1" of an enemy'))
    return items
