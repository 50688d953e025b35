"""Draw a scenario and a result as one SVG picture a player can read at a glance.

The board with a 1" grid, terrain (walls dark), both sides' bases (attacker blue, defender red),
the acting unit's start positions faded with dashed arrows to where they end, base contacts
ringed yellow and models only in engagement range ringed green. When the move fills a small
part of the board, a magnified close-up of it stands beside the board. Under both, a caption
(status, roll, contacts, or the proof) and a legend with a scale bar. For a charge proven
impossible, the ground its bases could reach with the roll the proof uses is shaded. Plain SVG
text, no dependencies beyond the geometry the solver already uses.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

import shapely
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from chargeopt.geometry import Battlefield, Footprint
from chargeopt.geometry.terrain_11e import wall_shapes
from chargeopt.models import (
    ActionKind,
    HullBase,
    OvalBase,
    Placement,
    RankAndFileScenario,
    Result,
    RoundBase,
    Scenario,
    Status,
    TerrainKind,
)
from chargeopt.solver.interface.fall_back_svg import fall_back_legend, fall_back_overlay
from chargeopt.solver.interface.summary import (
    charge_dice,
    first_sentence,
    headline,
    minimum_roll_line,
    outcome_lines,
)
from chargeopt.solver.interface.svg_parts import (
    LINE_PX,
    MARGIN,
    MIN_WIDTH_PX,
    SCALE,
    SCALE_BAR_IN,
    LegendItem,
    close_up_frame,
    grid_lines,
    inch_ticks,
    legend_rows,
    scale_bar,
    wrap_line,
)

FOCUS_MARGIN_IN = 1.5
"""Room left around the acting unit and its targets in the close-up."""
MIN_ZOOM = 1.6
"""Below this magnification the board view is enough and no close-up is drawn."""
MAX_ZOOM = 4.0

STYLE = """
.board{fill:#e3e8d5;stroke:#333;stroke-width:1.5}
.grid{stroke:#c6cdb6;stroke-width:0.5}
.grid6{stroke:#a3ad90;stroke-width:1}
.tick{font-size:9px;fill:#666}
.wall{fill:#2e2a26}
.floor{fill:#c9b48e;fill-opacity:.6;stroke:#8a7352;stroke-width:1}
.impassable{fill:#55504a;stroke:#2e2a26;stroke-width:1}
.barricade{fill:#7a5a2b}
.difficult{fill:#8fbf7f;fill-opacity:.45;stroke:#5f8f4f;stroke-dasharray:4 2}
.dense{fill:#8a7352;fill-opacity:.45;stroke:#5a4a32;stroke-width:1.2}
.light{fill:#c9b48e;fill-opacity:.35;stroke:#8a7352;stroke-width:1;stroke-dasharray:4 2}
.exposed{fill:#d8d2b0;fill-opacity:.35;stroke:#a39a70;stroke-width:1;stroke-dasharray:2 3}
.terrain-label{font-size:9px;fill:#5a4a32;text-anchor:middle}
.attacker{fill:#2f6fb0;stroke:#173a60;stroke-width:1}
.defender{fill:#c0392b;stroke:#5e1a13;stroke-width:1}
.start{fill-opacity:.22;stroke-opacity:.8;stroke-dasharray:3 2}
.move{stroke:#173a60;stroke-width:1.3;stroke-dasharray:5 3;fill:none}
.contact{stroke:#ffcc00;stroke-width:3.5;stroke-dasharray:none}
.engaged{stroke:#12a04a;stroke-width:3;stroke-dasharray:none}
.label{font-size:8px;fill:#fff;text-anchor:middle;font-weight:bold}
.step{font-size:10px;fill:#8a1c1c;text-anchor:middle;font-weight:bold}
.start-label{font-size:7px;fill:#173a60;text-anchor:middle}
.title{font-size:14px;font-weight:bold}
.caption{font-size:12px}
.legend{font-size:11px}
.scale{stroke:#222;stroke-width:1.5;fill:none}
.reach{fill:#2f6fb0;fill-opacity:.08;stroke:#2f6fb0;stroke-width:1;stroke-dasharray:6 3}
.focus{fill:none;stroke:#555;stroke-width:1;stroke-dasharray:2 2}
.frame{fill:none;stroke:#333;stroke-width:1.5}
"""

TERRAIN_CLASS = {
    TerrainKind.WALL: ("wall", "ruin wall"),
    TerrainKind.FLOOR: ("floor", "ruin floor"),
    TerrainKind.IMPASSABLE: ("impassable", "impassable"),
    TerrainKind.BARRICADE: ("barricade", "barricade"),
    TerrainKind.DIFFICULT: ("difficult", "difficult ground"),
    TerrainKind.DENSE: ("dense", "dense terrain"),
    TerrainKind.LIGHT: ("light", "light terrain"),
    TerrainKind.EXPOSED: ("exposed", "exposed terrain"),
}
_DRAWN_FIRST = (TerrainKind.DENSE, TerrainKind.LIGHT, TerrainKind.EXPOSED, TerrainKind.FLOOR)


def _px(inches: float) -> str:
    return f"{inches * SCALE:.1f}"


def _path_data(geom: BaseGeometry) -> str:
    parts = []
    for poly in getattr(geom, "geoms", [geom]):
        for ring in [poly.exterior, *poly.interiors]:
            pts = " L ".join(f"{_px(x)},{_px(y)}" for x, y in ring.coords)
            parts.append(f"M {pts} Z")
    return " ".join(parts)


def _shape(fp: Footprint, classes: str, tooltip: str) -> str:
    """A base as a circle (round) or a path (oval, hull), with a hover tooltip."""
    title = f"<title>{escape(tooltip)}</title>"
    if fp.is_round:
        return (
            f'<circle class="{classes}" cx="{_px(fp.x)}" cy="{_px(fp.y)}" '
            f'r="{_px(fp.radius_in)}">{title}</circle>'
        )
    return f'<path class="{classes}" d="{_path_data(fp.polygon)}">{title}</path>'


def _label(x: float, y: float, text: str, css: str, size_in: float) -> str:
    font = max(6.0, min(10.0, size_in * SCALE * 0.42))
    return (
        f'<text class="{css}" x="{_px(x)}" y="{_px(y)}" dy="0.35em" '
        f'style="font-size:{font:.1f}px">{escape(text)}</text>'
    )


def _terrain(battlefield: Battlefield) -> list[str]:
    out = []
    order = {kind: i for i, kind in enumerate(_DRAWN_FIRST)}
    for piece in sorted(battlefield.pieces, key=lambda p: order.get(p.kind, len(order))):
        css, what = TERRAIN_CLASS[piece.kind]
        if piece.terrain.height_in is not None:
            what += f' {piece.terrain.height_in:g}" high'
        out.append(
            f'<path class="{css}" d="{_path_data(piece.shape)}">'
            f"<title>{escape(f'{piece.id}: {what}')}</title></path>"
        )
        if piece.kind == TerrainKind.FLOOR and piece.height:
            c = piece.shape.representative_point()
            out.append(_label(c.x, c.y, f'floor {piece.height:g}"', "terrain-label", 2.0))
        if piece.terrain.height_in is not None:
            out += _category_extras(piece)
    return out


def _category_extras(piece) -> list[str]:
    """An 11th-edition area's walls (drawn as ruin walls) and its height."""
    out = [
        f'<path class="wall" d="{_path_data(shape)}"><title>{escape(piece.id)}: wall</title></path>'
        for shape in wall_shapes(piece.terrain)
    ]
    c = piece.shape.representative_point()
    out.append(_label(c.x, c.y, f'{piece.kind} {piece.terrain.height_in:g}"', "terrain-label", 2.0))
    return out


def terrain_layer(scenario: Scenario) -> str:
    """The terrain as SVG elements (pixels, SCALE to the inch), as `--svg` draws it."""
    return "\n".join(_terrain(Battlefield.from_scenario(scenario)))


def base_outline(base: RoundBase | OvalBase | HullBase) -> str:
    """SVG path data of a base's outline around its centre, facing 0 (pixels)."""
    return _path_data(Footprint(base, 0.0, 0.0).polygon)


def _drawn_placements(result: Result | None) -> dict[str, Placement]:
    """The end positions worth drawing: a solved answer, or one the checker objected to."""
    if result is None:
        return {}
    if result.status in (Status.OPTIMAL, Status.FEASIBLE) or result.violations:
        return {p.model: p for p in result.placements}
    return {}


def _models(scenario: Scenario, placed: dict[str, Placement]) -> list[str]:
    """Start positions (faded where the model moves), dashed moves, then end positions."""
    from chargeopt.solver.interface.walked import walked_paths

    touched = {c for p in placed.values() for c in p.contact}
    walked = walked_paths(scenario, placed.values())
    starts, moves, start_labels, stands, ends = [], [], [], [], []
    for unit in scenario.units:
        side = unit.owner.value
        for m in unit.models:
            base = unit.base_of(m)
            start = Footprint(base, m.x, m.y, m.z, m.facing)
            height = f", z {m.z:g}" if m.z else ""
            p = placed.get(m.id)
            if p is None:
                ring = " contact" if m.id in touched else ""
                tip = f"{m.id} ({unit.id}, {side}){height}"
                stands.append(_shape(start, f"{side}{ring}", tip))
                stands.append(_label(m.x, m.y, m.id, "label", 2 * base.inradius_in))
                continue
            facing = m.facing if p.facing is None else p.facing
            end = Footprint(base, p.x, p.y, p.z, facing)
            starts.append(_shape(start, f"{side} start", f"{m.id} starts here"))
            start_labels.append(_label(m.x, m.y, m.id, "start-label", 2 * base.inradius_in))
            tip = f'{m.id} moves {p.moved or 0:.2f}"'
            moves.append(_move_line(start, end, tip, walked.get(m.id)))
            ring = " contact" if p.contact else (" engaged" if p.engaged or p.fights else "")
            role = (
                f"base contact with {', '.join(p.contact)}"
                if p.contact
                else (f"engagement range of {', '.join(p.engaged)}" if p.engaged else "not engaged")
            ) + (f"; fights {', '.join(p.fights)}" if p.fights else "")
            tip = f'{m.id} ends here after {p.moved or 0:.2f}": {role}'
            ends.append(_shape(end, f"{side} end{ring}", tip))
            ends.append(_label(p.x, p.y, m.id, "label", 2 * base.inradius_in))
    return starts + moves + start_labels + stands + ends


def _move_line(
    start: Footprint, end: Footprint, tooltip: str, path: list[tuple[float, float]] | None = None
) -> str:
    """A dashed arrow along the path walked (`path`, bent around terrain and bases; else the
    straight line) from the edge of the start base to the edge of the end base, so the labels
    stay clear (empty when the bases are too close for one)."""
    points = path or [(start.x, start.y), (end.x, end.y)]
    between = LineString(points) - start.polygon - end.polygon
    pieces = [g for g in getattr(between, "geoms", [between]) if not g.is_empty]
    if not pieces:
        return ""
    piece = max(pieces, key=lambda g: g.length)
    if piece.length < 0.05:
        return ""
    if path:
        coords = list(piece.coords)
        if math.dist(coords[0], path[0]) > math.dist(coords[-1], path[0]):
            coords.reverse()
        drawn = " ".join(f"{_px(x)},{_px(y)}" for x, y in coords)
        return (
            f'<polyline class="move walked" points="{drawn}" fill="none" '
            f'marker-end="url(#arrow)"><title>{escape(tooltip)}</title></polyline>'
        )
    (x1, y1), (x2, y2) = piece.coords[0], piece.coords[-1]
    if math.hypot(x1 - start.x, y1 - start.y) > math.hypot(x2 - start.x, y2 - start.y):
        (x1, y1), (x2, y2) = (x2, y2), (x1, y1)
    return (
        f'<line class="move" x1="{_px(x1)}" y1="{_px(y1)}" x2="{_px(x2)}" y2="{_px(y2)}" '
        f'marker-end="url(#arrow)"><title>{escape(tooltip)}</title></line>'
    )


def caption_lines(scenario: Scenario, result: Result | None) -> list[str]:
    """What the picture says in words: the status and roll, then contacts or the proof."""
    if result is None:
        return [f"{scenario.action.kind.value} by {scenario.action.unit} (not solved)"]
    lines = [headline(result)]
    if result.action is not None and result.action.kind == "fall-back":
        from chargeopt.solver.interface.fall_back_text import caption_words

        return lines + caption_words(result)
    if "40k-assault-4e" in result.ruleset:
        from chargeopt.solver.interface.assault_text import outcome_words

        lines += outcome_words(result)
    else:
        lines += outcome_lines(result)
    if result.proof:
        lines.append(f"Proof: {first_sentence(result.proof)}")
    minimum = minimum_roll_line(result)
    if minimum and "40k-assault-4e" not in result.ruleset:
        lines.append(minimum)
    if result.order:
        lines.append(f"Red numbers: the order of moves ({', '.join(result.order)})")
    lines += [f"Violation [{v.kind}]: {v.message}" for v in result.violations[:3]]
    return lines


def _legend_items(
    scenario: Scenario, placed: dict[str, Placement], reach_roll: int | None
) -> list[LegendItem]:
    """What the picture shows, in the order a reader meets it."""
    disk = '<circle class="{}" cx="8" cy="8" r="6"/>'
    items: list[LegendItem] = []
    if placed:
        items += [
            (disk.format("attacker start"), 16, "start position"),
            (
                '<line class="move" x1="0" y1="8" x2="14" y2="8" marker-end="url(#arrow)"/>',
                16,
                "move (path)",
            ),
            (disk.format("attacker"), 16, "attacker, end position"),
        ]
    else:
        items.append((disk.format("attacker"), 16, "attacker"))
    if reach_roll is not None:
        swatch = '<rect class="reach" x="1" y="3" width="14" height="10"/>'
        items.append((swatch, 16, f'reach of a {reach_roll}" move'))
    items.append((disk.format("defender"), 16, "defender"))
    if any(p.contact for p in placed.values()):
        items.append((disk.format("attacker contact"), 16, "base contact"))
    if any(p.engaged and not p.contact for p in placed.values()):
        items.append((disk.format("attacker engaged"), 16, "engagement range only"))
    if any(p.fights and not p.engaged for p in placed.values()):
        items.append((disk.format("attacker engaged"), 16, "fights beside a friend"))
    for kind in dict.fromkeys(t.kind for t in scenario.terrain):
        css, what = TERRAIN_CLASS[kind]
        items.append((f'<rect class="{css}" x="1" y="3" width="14" height="10"/>', 16, what))
    items.append(('<rect class="board" x="1" y="1" width="14" height="14"/>', 16, 'grid 1"'))
    items.append((scale_bar(SCALE_BAR_IN), SCALE_BAR_IN * SCALE, f'{SCALE_BAR_IN}" on the board'))
    return items


def _focus_box(scenario: Scenario, placed: dict[str, Placement]) -> tuple[float, ...]:
    """The part of the board where the move happens: the acting unit from start to end and
    its targets, with room around them (inches: left, top, right, bottom)."""
    acting = scenario.acting_unit
    toward = [scenario.unit_by_id[t] for t in scenario.action.targets]
    if scenario.action.kind != ActionKind.CHARGE:
        toward = list(scenario.enemies_of(acting))
    units = [acting, *toward]
    xs, ys = [], []
    for unit in units:
        for m in unit.models:
            r = unit.base_of(m).circumradius_in + FOCUS_MARGIN_IN
            spots = [(m.x, m.y)] + ([(placed[m.id].x, placed[m.id].y)] if m.id in placed else [])
            for x, y in spots:
                xs += [x - r, x + r]
                ys += [y - r, y + r]
    return (
        max(0.0, min(xs)),
        max(0.0, min(ys)),
        min(scenario.board.width, max(xs)),
        min(scenario.board.height, max(ys)),
    )


def _close_up(
    focus: tuple[float, ...], board_w: float, board_h: float
) -> tuple[float, float, float] | None:
    """Zoom and pixel size of a close-up panel of `focus`, or None when the board view suffices."""
    left, top, right, bottom = focus
    w, h = (right - left) * SCALE, (bottom - top) * SCALE
    zoom = min(board_h / h, max(board_w * 0.6, 360.0) / w, MAX_ZOOM)
    if zoom < MIN_ZOOM:
        return None
    return zoom, w * zoom, h * zoom


def reach_roll(result: Result | None) -> int | None:
    """The roll whose reach explains an impossible charge: the largest roll of the dice when
    no roll works (the proof then holds for it), else the roll that was solved."""
    if result is None or result.action is None or result.action.roll is None:
        return None
    if result.status != Status.INFEASIBLE or result.action.kind != "charge":
        return None
    if result.min_roll is None:
        return max(result.action.roll, 6 * charge_dice(result))
    return result.action.roll


def _reach(scenario: Scenario, roll: int) -> list[str]:
    """The ground the acting unit's bases could cover with straight moves of `roll`."""
    unit = scenario.acting_unit
    area = shapely.union_all(
        [
            Point(m.x, m.y).buffer(roll + unit.base_of(m).circumradius_in, quad_segs=32)
            for m in unit.models
        ]
    )
    area = area & shapely.box(0.0, 0.0, scenario.board.width, scenario.board.height)
    return [
        f'<path class="reach" d="{_path_data(area)}">'
        f"<title>{escape(f'where a {roll} inch move can take the bases')}</title></path>"
    ]


def _steps(result: Result | None, placed: dict[str, Placement]) -> list[str]:
    """The order of moves (40k-assault-4e): each moved model's step number above its end."""
    if result is None or not result.order:
        return []
    out = []
    for step, mid in enumerate(result.order, start=1):
        p = placed.get(mid)
        if p is not None:
            tip = f"<title>{escape(mid)} moves {ordinal(step)}</title>"
            out.append(
                f'<text class="step" x="{_px(p.x + 0.55)}" y="{_px(p.y - 0.55)}">{step}{tip}</text>'
            )
    return out


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th..."""
    tail = {1: "st", 2: "nd", 3: "rd"}.get(n % 10 if n % 100 not in (11, 12, 13) else 0, "th")
    return f"{n}{tail}"


def render_svg(scenario: Scenario | RankAndFileScenario, result: Result | None = None) -> str:
    """The whole picture as an SVG document (a string)."""
    if isinstance(scenario, RankAndFileScenario):
        from chargeopt.solver.interface.block_svg import render_block_svg

        return render_block_svg(scenario, result)
    battlefield = Battlefield.from_scenario(scenario)
    board_w, board_h = scenario.board.width * SCALE, scenario.board.height * SCALE
    placed = _drawn_placements(result)
    focus = _focus_box(scenario, placed)
    close_up = _close_up(focus, board_w, board_h)
    panel_w = close_up[1] + 2 * MARGIN if close_up else 0.0
    width = max(board_w + 2 * MARGIN + panel_w, MIN_WIDTH_PX)
    text_w = width - 2 * MARGIN
    shown_roll = reach_roll(result)
    reach = _reach(scenario, shown_roll) if shown_roll is not None else []

    caption = [f'<text class="title" x="0" y="0">{escape(scenario.name or "chargeopt")}</text>']
    y = LINE_PX + 2
    for line in caption_lines(scenario, result):
        for piece in wrap_line(line, text_w):
            caption.append(f'<text class="caption" x="0" y="{y:.1f}">{escape(piece)}</text>')
            y += LINE_PX
    items = [*_legend_items(scenario, placed, shown_roll), *fall_back_legend(scenario, result)]
    legend, legend_h = legend_rows(items, y, text_w)
    height = board_h + 2 * MARGIN + 14 + y + legend_h

    table = [
        f'<rect class="board" x="0" y="0" width="{board_w:.1f}" height="{board_h:.1f}"/>',
        *grid_lines(scenario.board.width, scenario.board.height),
        *reach,
        *_terrain(battlefield),
        *fall_back_overlay(scenario, result),
        *(part for part in _models(scenario, placed) if part),
        *_steps(result, placed),
    ]
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
        'font-family="sans-serif">',
        f"<title>{escape(scenario.name or 'chargeopt')}</title>",
        f"<style>{STYLE}</style>",
        "<defs>"
        '<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 Z" '
        'fill="#173a60"/></marker></defs>',
        f'<rect x="0" y="0" width="{width:.0f}" height="{height:.0f}" fill="#fff"/>',
        f'<g transform="translate({MARGIN:.0f},{MARGIN:.0f})">',
        '<g id="table">',
        *table,
        "</g>",
        *inch_ticks(scenario.board.width, scenario.board.height),
    ]
    out += close_up_frame(focus, close_up, board_w + 3 * MARGIN)
    out += [
        f'<g transform="translate({MARGIN:.0f},{board_h + MARGIN + 28:.0f})">',
        *caption,
        *legend,
        "</g>",
        "</svg>",
    ]
    return "\n".join(out) + "\n"


__all__ = ["SCALE", "STYLE", "base_outline", "caption_lines", "render_svg", "terrain_layer"]
