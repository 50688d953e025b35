"""The picture of a rank-and-file ruling, as readable as the 40k one: the board with a 1" grid
and inch ruler, impassable terrain, every block with its models in ranks and files and its name,
a charger's start faded and its end solid, the models in contact ringed, the target's arcs
named, the path as moved (block_path_svg.py), a close-up of the charge when it fills a small
part of the board, the caption wrapped to the picture's width, a legend and a scale bar."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from shapely.geometry import Polygon

from chargeopt.geometry.rank_and_file.arcs import arc_line
from chargeopt.geometry.rank_and_file.contact import models_in_contact
from chargeopt.geometry.rank_and_file.frame import BlockPose, Vec, model_bases
from chargeopt.models import Block, RankAndFileScenario, Result
from chargeopt.solver.interface.block_path_svg import PathWords, replay, trail_svg
from chargeopt.solver.interface.svg_parts import (
    LINE_PX,
    MARGIN,
    MIN_WIDTH_PX,
    SCALE_BAR_IN,
    WIDE_CHAR_PX,
    LegendItem,
    close_up_frame,
    grid_lines,
    inch_ticks,
    legend_rows,
    scale_bar,
    wrap_line,
)

SCALE = 20.0
ARC_LINE_IN = 8.0
ARC_NAME_IN = 0.5
"""How far outside the target its arcs' names stand."""
ARC_NAME_CHAR_IN = 0.28
"""The width of one letter of an arc's name (10 pixels high), in inches."""
FOCUS_MARGIN_IN = 1.0
MIN_ZOOM = 1.25
MAX_ZOOM = 4.0
CONTACT_DRAWN_IN = 0.012
"""Bases this close to the other unit's boundary are ringed as in contact (the printed answer
is rounded to the micro-inch; the margins keep it a hair off)."""
ARC_NAMES = {
    "front": "front arc",
    "left": "flank arc (left)",
    "right": "flank arc (right)",
    "rear": "rear arc",
}
STYLE = """
.board{fill:#e3e8d5;stroke:#333;stroke-width:1.5}
.grid{stroke:#c6cdb6;stroke-width:0.5}
.grid6{stroke:#a3ad90;stroke-width:1}
.tick{font-size:9px;fill:#666}
.impassable{fill:#55504a;stroke:#2e2a26}
.attacker{fill:#2f6fb0;stroke:#173a60;stroke-width:.8}
.defender{fill:#c0392b;stroke:#5e1a13;stroke-width:.8}
.start{fill-opacity:.22;stroke-opacity:.8;stroke-dasharray:3 2}
.contact{stroke:#ffcc00;stroke-width:2.5;stroke-dasharray:none}
.front{stroke:#111;stroke-width:3;stroke-linecap:round}
.start-front{stroke:#111;stroke-width:2;stroke-opacity:.45;stroke-dasharray:4 2}
.arc{stroke:#5e1a13;stroke-width:1;stroke-dasharray:6 3}
.arc-name{font-size:10px;fill:#5e1a13;font-style:italic;stroke:#e3e8d5;stroke-width:3;
paint-order:stroke}
.move{stroke:#173a60;stroke-width:2;stroke-dasharray:6 3;fill:none}
.leg{stroke:transparent;stroke-width:8;fill:none}
.jump{stroke:#173a60;stroke-width:1.5;stroke-dasharray:1 3;stroke-linecap:round;fill:none}
.ghost{fill:none;stroke-width:1;stroke-dasharray:2 2}
.attacker-ghost{stroke:#173a60}
.defender-ghost{stroke:#5e1a13}
.pivot{fill:#fff;stroke:#173a60;stroke-width:1.5}
.swing{stroke:#173a60;stroke-width:1;fill:none}
.point{fill:#ffcc00;stroke:#000}
.unit-name{font-weight:bold;text-anchor:middle;fill:#fff;stroke:#000;stroke-width:2.5;
paint-order:stroke;stroke-linejoin:round}
.unit-size{text-anchor:middle;fill:#fff;stroke:#000;stroke-width:2;paint-order:stroke}
.order{fill:#ffcc00}
.start-name{text-anchor:middle;font-weight:bold}
.attacker-name{fill:#173a60}
.defender-name{fill:#5e1a13}
.step-label{font-size:10px;fill:#173a60;font-weight:bold;stroke:#fff;
stroke-width:3;paint-order:stroke;stroke-linejoin:round}
.title{font-size:14px;font-weight:bold}
.caption{font-size:12px}
.legend{font-size:11px}
.scale{stroke:#222;stroke-width:1.5;fill:none}
.focus{fill:none;stroke:#555;stroke-width:1;stroke-dasharray:2 2}
.frame{fill:none;stroke:#333;stroke-width:1.5}
"""


def _p(v: float) -> str:
    return f"{v * SCALE:.1f}"


def _poly(shape: Polygon, css: str, title: str = "") -> str:
    pts = " ".join(f"{_p(x)},{_p(y)}" for x, y in list(shape.exterior.coords)[:-1])
    tip = f"<title>{escape(title)}</title>" if title else ""
    return f'<polygon class="{css}" points="{pts}">{tip}</polygon>'


def _line(a: Vec, b: Vec, css: str, extra: str = "") -> str:
    return (
        f'<line class="{css}" x1="{_p(a[0])}" y1="{_p(a[1])}" x2="{_p(b[0])}" '
        f'y2="{_p(b[1])}"{extra}/>'
    )


def block_terrain_layer(scenario: RankAndFileScenario) -> str:
    """The impassable terrain as SVG elements (pixels), as the picture draws it."""
    return "\n".join(_poly(Polygon(t.path), "impassable", t.id) for t in scenario.terrain)


def block_outline(block: Block) -> tuple[str, str]:
    """SVG path data of a block's model bases and of its front, with the front-left corner at
    the origin and facing 0 (pixels), for a page that places and turns it."""
    pose = BlockPose(block.width_in, block.depth_in, 0.0, 0.0, 0.0)
    bases = " ".join(
        "M " + " L ".join(f"{_p(x)},{_p(y)}" for x, y in list(base.exterior.coords)[:-1]) + " Z"
        for _, _, _, base in model_bases(block, pose)
    )
    front = pose.facing_segment("front")
    return (
        bases,
        f"M {_p(front.start[0])},{_p(front.start[1])} L {_p(front.end[0])},{_p(front.end[1])}",
    )


def block_size_words(block: Block) -> str:
    """ "5 x 4, 20 models": files by ranks, and the count when the last rank is short."""
    full = block.files * block.rank_count == block.model_count
    count = f"{block.model_count} models" + ("" if full else ", last rank short")
    return f"{block.files} x {block.rank_count}, {count}"


def _names(block: Block, pose: BlockPose, start: bool, order: int | None = None) -> list[str]:
    """The unit's name (its size, and its place in a combined charge's order of moves) at the
    centre of its block, upright."""
    cx, cy = pose.at(pose.width_in / 2, -pose.depth_in / 2)
    side = min(pose.width_in, pose.depth_in) * SCALE
    font = max(9.0, min(16.0, side * 0.45))
    if start:
        return [
            f'<text class="start-name {block.owner}-name" x="{_p(cx)}" y="{_p(cy)}" dy="0.35em" '
            f'style="font-size:{font * 0.8:.1f}px">{escape(block.id)}<title>{escape(block.id)} '
            "starts here</title></text>"
        ]
    place = f'<tspan class="order"> {_ordinal(order)}</tspan>' if order else ""
    about = block_size_words(block) + (f"; moves {_ordinal(order)}" if order else "")
    out = [
        f'<text class="unit-name" x="{_p(cx)}" y="{_p(cy)}" dy="0.35em" '
        f'style="font-size:{font:.1f}px">{escape(block.id)}{place}'
        f"<title>{escape(block.id)}: {escape(about)}</title></text>"
    ]
    if pose.depth_in * SCALE >= 2.6 * font and pose.width_in * SCALE >= 4.5 * font:
        out.append(
            f'<text class="unit-size" x="{_p(cx)}" y="{_p(cy)}" dy="{1.5 + 0.35:.2f}em" '
            f'style="font-size:{font * 0.6:.1f}px">{block.files} x {block.rank_count}</text>'
        )
    return out


def _ordinal(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th') }"


def _block(block: Block, pose: BlockPose, css: str, contact: set[str], where: str) -> list[str]:
    """The block's models (rank and file in each tooltip), its front and its name."""
    parts = []
    for mid, rank, file, base in model_bases(block, pose):
        ring = "contact" if mid in contact else ""
        touch = ", in contact" if ring else ""
        tip = f"{block.id}: rank {rank + 1}, file {file + 1} ({mid}){where}{touch}"
        parts.append(_poly(base, " ".join(c for c in (block.owner, css, ring) if c), tip))
    front = pose.facing_segment("front")
    parts.append(_line(front.start, front.end, "start-front" if css == "start" else "front"))
    return parts


def _arc_name_spots(pose: BlockPose) -> dict[str, tuple[Vec, Vec]]:
    """Where each arc's name stands (just outside the middle of its facing) and the facing's
    outward direction."""
    w, d = pose.width_in, pose.depth_in
    f, r = pose.forward, pose.right
    middles = {
        "front": (pose.at(w / 2, 0.0), f),
        "rear": (pose.at(w / 2, -d), (-f[0], -f[1])),
        "left": (pose.at(0.0, -d / 2), (-r[0], -r[1])),
        "right": (pose.at(w, -d / 2), r),
    }
    return {
        arc: ((m[0] + ARC_NAME_IN * n[0], m[1] + ARC_NAME_IN * n[1]), n)
        for arc, (m, n) in middles.items()
    }


def _arcs(pose: BlockPose, name: str) -> list[str]:
    """The target's four 45-degree arc lines and the arcs' names, written away from it."""
    out = [_line(*arc_line(pose, corner, ARC_LINE_IN), "arc") for corner in pose.corners]
    for arc, ((x, y), (nx, _)) in _arc_name_spots(pose).items():
        anchor = "start" if nx > 0.5 else "end" if nx < -0.5 else "middle"
        out.append(
            f'<text class="arc-name" x="{_p(x)}" y="{_p(y)}" dy="0.35em" '
            f'text-anchor="{anchor}">{ARC_NAMES[arc]}'
            f"<title>{escape(f'{name}: its {ARC_NAMES[arc]} arc')}</title></text>"
        )
    return out


def _moved(entry: dict[str, Any] | None) -> bool:
    if entry is None:
        return False
    outcome = entry.get("outcome", "charges")
    return outcome in ("charges", "rotates") or (outcome == "fails" and bool(entry.get("path")))


class _Drawing:
    """The board's contents for one scenario and result, and where the action is."""

    def __init__(self, scenario: RankAndFileScenario, result: Result | None) -> None:
        self.scenario = scenario
        self.result = result
        self.ends = {b["unit"]: b for b in (result.blocks if result else ())}
        charged = result.action.targets[0] if result and result.action else scenario.target.id
        self.target = scenario.unit_by_id.get(charged, scenario.target)
        self.poses = {b.id: BlockPose.of(b) for b in scenario.units}
        self.end_poses = {
            uid: self.poses[uid].moved(e["x"], e["y"], e["facing"])
            for uid, e in self.ends.items()
            if _moved(e) and uid in self.poses
        }
        self.focus_points: list[Vec] = []
        self.items: set[str] = set()

    def final(self, uid: str) -> BlockPose:
        return self.end_poses.get(uid, self.poses[uid])

    def contacts(self) -> set[str]:
        """Model ids whose bases touch an enemy block where everything ends."""
        touching: set[str] = set()
        for block in self.scenario.units:
            for other in self.scenario.units:
                if other.owner == block.owner or not self.end_poses.keys() & {block.id, other.id}:
                    continue
                touching.update(
                    models_in_contact(
                        block, self.final(block.id), self.final(other.id).polygon, CONTACT_DRAWN_IN
                    )
                )
        return touching

    def body(self) -> list[str]:
        ruleset = tuple(self.result.ruleset) if self.result else ()
        contact = self.contacts()
        if contact:
            self.items.add("contact")
        starts, paths, ends, names = [], [], [], []
        arcs = _arcs(self.poses[self.target.id], self.target.id)
        for arc, (p, n) in _arc_name_spots(self.poses[self.target.id]).items():
            reach = len(ARC_NAMES[arc]) * ARC_NAME_CHAR_IN
            self.focus_points += [p, (p[0] + reach * n[0], p[1] + reach * n[1])]
        for block in self.scenario.units:
            start = self.poses[block.id]
            entry = self.ends.get(block.id)
            self.focus_points += (
                list(start.corners.values()) if entry or block is self.target else []
            )
            if block.id not in self.end_poses:
                ends += _block(block, start, "", contact, "")
                names += _names(block, start, False)
                continue
            end = self.end_poses[block.id]
            self.items.add("start")
            starts += _block(block, start, "start", set(), ", start")
            names += _names(block, start, True)
            ends += _block(block, end, "", contact, ", end")
            names += _names(block, end, False, (entry or {}).get("order"))
            if (entry or {}).get("order"):
                self.items.add("order")
            self.focus_points += list(end.corners.values())
            if entry is not None and entry.get("role", "charger") == "charger":
                paths += self._path(block, start, end, entry, ruleset)
        return [*arcs, *starts, *ends, *paths, *names, *self._points()]

    def _path(
        self,
        block: Block,
        start: BlockPose,
        end: BlockPose,
        entry: dict[str, Any],
        ruleset: tuple[str, ...],
    ) -> list[str]:
        words = PathWords.of(ruleset, failed=entry.get("outcome") == "fails")
        contact = tuple(entry["initial_contact"]) if entry.get("initial_contact") else None
        legs = replay(start, entry.get("path") or [], end, contact, words)  # type: ignore[arg-type]
        for leg in legs:
            self.focus_points += list(leg.end.corners.values())
            self.items.add(leg.kind)
        self.items.add("path")
        return trail_svg(legs, block.id, block.owner.value, words)

    def _points(self) -> list[str]:
        out = []
        for entry in self.ends.values():
            if entry.get("initial_contact") and entry.get("outcome", "charges") == "charges":
                x, y = entry["initial_contact"]
                self.items.add("point")
                out.append(
                    f'<circle class="point" cx="{_p(x)}" cy="{_p(y)}" r="3.5">'
                    f"<title>{escape(entry['unit'])}: the initial contact point</title></circle>"
                )
        return out

    def focus(self) -> tuple[float, float, float, float]:
        xs = [p[0] for p in self.focus_points] or [0.0]
        ys = [p[1] for p in self.focus_points] or [0.0]
        board = self.scenario.board
        return (
            max(0.0, min(xs) - FOCUS_MARGIN_IN),
            max(0.0, min(ys) - FOCUS_MARGIN_IN),
            min(board.width, max(xs) + FOCUS_MARGIN_IN),
            min(board.height, max(ys) + FOCUS_MARGIN_IN),
        )


def _legend_items(drawing: _Drawing, ruleset: tuple[str, ...]) -> list[LegendItem]:
    """What the picture shows, in the order a reader meets it."""
    square = '<rect class="{}" x="2" y="2" width="12" height="12"/>'
    shown = drawing.items
    words = PathWords.of(ruleset)
    items: list[LegendItem] = []
    if "start" in shown:
        items.append((square.format("attacker start"), 16, "start position"))
    if "path" in shown:
        path = '<path class="move" d="M 0,12 A 12 12 0 0 1 12 0 L 22 0" marker-end="url(#arrow)"/>'
        items.append((path, 26, "path of the front's centre (wheels as arcs)"))
    if "wheel" in shown or "door" in shown:
        items.append(('<circle class="pivot" cx="8" cy="8" r="3"/>', 16, "pivot of a turn"))
    if "ghost" in shown or len(shown & {"forward", "wheel", "door", "align", "slide"}) > 1:
        ghost = '<rect class="ghost attacker-ghost" x="1" y="3" width="14" height="10"/>'
        items.append((ghost, 16, "where a step ends"))
    if "align" in shown:
        jump = '<line class="jump" x1="0" y1="8" x2="18" y2="8" marker-end="url(#arrow)"/>'
        items.append((jump, 22, f"{words.align} (picked up and put down)"))
    if "order" in shown:
        items.append(
            (
                '<text class="unit-name order" x="10" y="13" style="font-size:12px">1st</text>',
                22,
                "order of moves (combined charge)",
            )
        )
    items.append((square.format("attacker"), 16, "attacker"))
    items.append((square.format("defender"), 16, "defender"))
    items.append(('<line class="front" x1="2" y1="8" x2="14" y2="8"/>', 16, "front"))
    if "contact" in shown:
        items.append((square.format("attacker contact"), 16, "model in contact"))
    if "point" in shown:
        items.append(('<circle class="point" cx="8" cy="8" r="4"/>', 16, "initial contact point"))
    items.append(('<line class="arc" x1="0" y1="14" x2="14" y2="2"/>', 16, "target's arcs (45°)"))
    if drawing.scenario.terrain:
        items.append(
            (
                '<rect class="impassable" x="1" y="3" width="14" height="10"/>',
                16,
                "impassable terrain",
            )
        )
    items.append(('<rect class="board" x="1" y="1" width="14" height="14"/>', 16, 'grid 1"'))
    items.append((scale_bar(SCALE_BAR_IN), SCALE_BAR_IN * SCALE, f'{SCALE_BAR_IN}" on the board'))
    return items


def _close_up(
    focus: tuple[float, float, float, float], board_w: float, board_h: float
) -> tuple[float, float, float] | None:
    """Zoom and pixel size of a close-up of `focus` as large as the board view, or None when
    the charge fills most of the board already."""
    left, top, right, bottom = focus
    w, h = (right - left) * SCALE, (bottom - top) * SCALE
    zoom = min(board_h / h, board_w / w, MAX_ZOOM)
    if zoom < MIN_ZOOM:
        return None
    return zoom, w * zoom, h * zoom


def render_block_svg(scenario: RankAndFileScenario, result: Result | None) -> str:
    """The SVG document."""
    from chargeopt.solver.interface.ruling_text import summarise_blocks

    board_w, board_h = scenario.board.width * SCALE, scenario.board.height * SCALE
    drawing = _Drawing(scenario, result)
    body = drawing.body()
    focus = drawing.focus()
    close_up = _close_up(focus, board_w, board_h)
    panel_w = close_up[1] + 2 * MARGIN if close_up else 0.0
    width = max(board_w + 2 * MARGIN + panel_w, MIN_WIDTH_PX)
    text_w = width - 2 * MARGIN

    caption = [f'<text class="title" x="0" y="0">{escape(scenario.name or "chargeopt")}</text>']
    y = LINE_PX + 2
    lines = summarise_blocks(result).splitlines() if result else ["(not solved)"]
    for line in lines:
        for piece in wrap_line(line, text_w, WIDE_CHAR_PX):
            caption.append(f'<text class="caption" x="0" y="{y:.1f}">{escape(piece)}</text>')
            y += LINE_PX
    ruleset = tuple(result.ruleset) if result else ()
    legend, legend_h = legend_rows(_legend_items(drawing, ruleset), y, text_w)
    height = max(board_h, close_up[2] if close_up else 0.0) + 2 * MARGIN + 14 + y + legend_h
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
        'font-family="sans-serif">',
        f"<title>{escape(scenario.name or 'chargeopt')}</title>",
        f"<style>{STYLE}</style>",
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
        'markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 Z" '
        'fill="#173a60"/></marker></defs>',
        f'<rect x="0" y="0" width="{width:.0f}" height="{height:.0f}" fill="#fff"/>',
        f'<g transform="translate({MARGIN:.0f},{MARGIN:.0f})">',
        f'<clipPath id="board-clip"><rect x="0" y="0" width="{board_w:.1f}" '
        f'height="{board_h:.1f}"/></clipPath>',
        '<g id="table">',
        f'<rect class="board" x="0" y="0" width="{board_w:.1f}" height="{board_h:.1f}"/>',
        *grid_lines(scenario.board.width, scenario.board.height),
        '<g clip-path="url(#board-clip)">',
        block_terrain_layer(scenario),
        *body,
        "</g></g>",
        *inch_ticks(scenario.board.width, scenario.board.height),
    ]
    out += close_up_frame(focus, close_up, board_w + 3 * MARGIN)
    top = max(board_h, close_up[2] if close_up else 0.0) + MARGIN + 28
    out += [f'<g transform="translate({MARGIN:.0f},{top:.0f})">', *caption, *legend, "</g>"]
    out.append("</svg>")
    return "\n".join(out) + "\n"


__all__ = ["block_outline", "block_size_words", "block_terrain_layer", "render_block_svg"]
