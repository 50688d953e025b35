"""Draw a scenario and a result as SVG: board, terrain, both sides' bases, start and end
positions with move lines, base contacts and engagement highlighted."""

from __future__ import annotations

from xml.sax.saxutils import escape

from shapely.geometry.base import BaseGeometry

from chargeopt.geometry import Battlefield, Footprint
from chargeopt.models import Result, Scenario, TerrainKind

SCALE = 20.0  # pixels per inch
TERRAIN_STYLE = {
    TerrainKind.WALL: "fill:#6b5b4b;stroke:none",
    TerrainKind.FLOOR: "fill:#d9cbb5;fill-opacity:0.6;stroke:#a08c6e",
    TerrainKind.IMPASSABLE: "fill:#444;stroke:none",
    TerrainKind.BARRICADE: "fill:#8a6d3b;stroke:none",
    TerrainKind.DIFFICULT: "fill:#9fbf8f;fill-opacity:0.5;stroke:#6f8f5f",
}


def _path(geom: BaseGeometry) -> str:
    parts = []
    polys = getattr(geom, "geoms", [geom])
    for poly in polys:
        for ring in [poly.exterior, *poly.interiors]:
            pts = " L ".join(f"{x * SCALE:.1f},{y * SCALE:.1f}" for x, y in ring.coords)
            parts.append(f"M {pts} Z")
    return " ".join(parts)


def render_svg(scenario: Scenario, result: Result | None = None) -> str:
    """The whole picture as an SVG document (a string)."""
    bf = Battlefield.from_scenario(scenario)
    w, h = scenario.board.width * SCALE, scenario.board.height * SCALE
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h + 30:.0f}" '
        f'viewBox="0 0 {w:.0f} {h + 30:.0f}" font-family="sans-serif" font-size="10">',
        f'<rect x="0" y="0" width="{w:.0f}" height="{h:.0f}" fill="#eef0e6" stroke="#333"/>',
    ]
    for piece in bf.pieces:
        out.append(
            f'<path d="{_path(piece.shape)}" style="{TERRAIN_STYLE[piece.kind]}">'
            f"<title>{escape(piece.id)}</title></path>"
        )
    placed = {p.model: p for p in (result.placements if result else ())}
    contacts = {c for p in placed.values() for c in p.contact}
    acting = scenario.action.unit
    targets = set(scenario.action.targets)
    for unit in scenario.units:
        colour = "#2f6fb0" if unit.owner.value == "attacker" else "#b03a2f"
        for m in unit.models:
            fp = Footprint(unit.base_of(m), m.x, m.y, m.z, m.facing)
            faded = unit.id == acting and m.id in placed
            edge = "#ffd400" if m.id in contacts else ("#000" if unit.id in targets else "#555")
            style = (
                f"fill:{colour};fill-opacity:{0.15 if faded else 0.8};"
                f"stroke:{edge};"
                f"stroke-width:{2.5 if m.id in contacts else 1}"
            )
            out.append(
                f'<path d="{_path(fp.polygon)}" style="{style}"><title>{escape(m.id)} '
                f"({escape(unit.id)}) start</title></path>"
            )
            if m.id in placed:
                p = placed[m.id]
                end = Footprint(
                    unit.base_of(m), p.x, p.y, p.z, m.facing if p.facing is None else p.facing
                )
                out.append(
                    f'<line x1="{m.x * SCALE:.1f}" y1="{m.y * SCALE:.1f}" x2="{p.x * SCALE:.1f}" '
                    f'y2="{p.y * SCALE:.1f}" stroke="#2f6fb0" stroke-dasharray="4 3"/>'
                )
                ring = "#ffd400" if p.contact else ("#2fb04a" if p.engaged else "#222")
                out.append(
                    f'<path d="{_path(end.polygon)}" style="fill:{colour};fill-opacity:0.9;'
                    f'stroke:{ring};stroke-width:2"><title>{escape(m.id)} end, moved '
                    f"{p.moved or 0:.2f} in</title></path>"
                )
    caption = scenario.name or "chargeopt"
    if result is not None:
        caption += f" - {result.status.value}"
        if result.action and result.action.roll is not None:
            caption += f", roll {result.action.roll}"
        caption += f", base contact {result.objective.get('base_contact', 0):g}"
    out.append(f'<text x="4" y="{h + 18:.0f}">{escape(caption)}</text>')
    out.append("</svg>")
    return "\n".join(out)
