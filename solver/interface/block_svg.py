"""The picture of a rank-and-file ruling: board, impassable terrain, every block with its
models (a charger's start faded, its end solid), the target's four 45-degree arc lines, the
charger's move as an arrow between front centres (a failed charge's normal Move too), the
initial contact point, the caption; a redirected charge draws its new target's arcs."""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from shapely.geometry import Polygon

from chargeopt.geometry.rank_and_file.arcs import arc_line
from chargeopt.geometry.rank_and_file.frame import BlockPose, model_bases
from chargeopt.geometry.rank_and_file.moves import forward, wheel
from chargeopt.models import Block, RankAndFileScenario, Result

SCALE = 20.0
MARGIN = 20.0
LINE_PX = 16.0
ARC_LINE_IN = 8.0
STYLE = """
.board{fill:#e3e8d5;stroke:#333;stroke-width:1.5}
.impassable{fill:#55504a;stroke:#2e2a26}
.attacker{fill:#2f6fb0;stroke:#173a60;stroke-width:.8}
.defender{fill:#c0392b;stroke:#5e1a13;stroke-width:.8}
.start{fill-opacity:.2;stroke-dasharray:3 2}
.front{stroke:#ffcc00;stroke-width:3}
.arc{stroke:#5e1a13;stroke-width:1;stroke-dasharray:6 3}
.move{stroke:#173a60;stroke-width:1.3;stroke-dasharray:5 3;fill:none}
.point{fill:#ffcc00;stroke:#000}
.caption{font-size:12px}
"""


def _p(v: float) -> str:
    return f"{v * SCALE:.1f}"


def _poly(shape: Polygon, css: str, title: str = "") -> str:
    pts = " ".join(f"{_p(x)},{_p(y)}" for x, y in list(shape.exterior.coords)[:-1])
    tip = f"<title>{escape(title)}</title>" if title else ""
    return f'<polygon class="{css}" points="{pts}">{tip}</polygon>'


def _line(a: tuple[float, float], b: tuple[float, float], css: str, extra: str = "") -> str:
    return (
        f'<line class="{css}" x1="{_p(a[0])}" y1="{_p(a[1])}" x2="{_p(b[0])}" '
        f'y2="{_p(b[1])}"{extra}/>'
    )


def _block(block: Block, pose: BlockPose, css: str) -> list[str]:
    parts = [
        _poly(base, f"{block.owner} {css}", mid) for mid, _, _, base in model_bases(block, pose)
    ]
    front = pose.facing_segment("front")
    parts.append(_line(front.start, front.end, "front"))
    return parts


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


def _trail(start: BlockPose, path: list[dict], end: BlockPose) -> str:
    """The centre of the front along the Snaking Forward Move (wheels drawn as arcs), then the
    Align Move's jump to where the block is put down, as one arrowed polyline."""
    points, pose = [start.front_centre], start
    for step in path:
        if step["move"] == "forward":
            pose = forward(pose, step["distance_in"])
            points.append(pose.front_centre)
        elif step["move"] == "wheel":
            angle = step["angle_deg"]
            turns = max(1, math.ceil(abs(angle) / 5))
            for _ in range(turns):
                pose = wheel(pose, angle / turns)
                points.append(pose.front_centre)
    points.append(end.front_centre)
    coords = " ".join(f"{_p(x)},{_p(y)}" for x, y in points)
    return (
        f'<polyline class="move" points="{coords}" marker-end="url(#arrow)">'
        "<title>the Snaking Forward Move, then the Align Move</title></polyline>"
    )


def render_block_svg(scenario: RankAndFileScenario, result: Result | None) -> str:
    """The SVG document."""
    from chargeopt.solver.interface.ruling_text import summarise_blocks

    w, h = scenario.board.width * SCALE, scenario.board.height * SCALE
    ends = {b["unit"]: b for b in (result.blocks if result else ())}
    body = [f'<rect class="board" x="0" y="0" width="{w:.1f}" height="{h:.1f}"/>']
    body += [_poly(Polygon(t.path), "impassable", t.id) for t in scenario.terrain]
    charged = result.action.targets[0] if result and result.action else scenario.target.id
    target_pose = BlockPose.of(scenario.unit_by_id.get(charged, scenario.target))
    for corner in target_pose.corners:
        body.append(_line(*arc_line(target_pose, corner, ARC_LINE_IN), "arc"))
    for block in scenario.units:
        start = BlockPose.of(block)
        entry = ends.get(block.id)
        moved = entry is not None and (
            entry.get("outcome") in ("charges", "rotates")
            or (entry.get("outcome") == "fails" and bool(entry.get("path")))
        )
        body += _block(block, start, "start" if moved else "")
        if moved and entry is not None:
            end = start.moved(entry["x"], entry["y"], entry["facing"])
            body += _block(block, end, "")
            if entry.get("role") == "charger":
                body.append(_trail(start, entry.get("path") or [], end))
            if entry.get("initial_contact"):
                x, y = entry["initial_contact"]
                body.append(
                    f'<circle class="point" cx="{_p(x)}" cy="{_p(y)}" r="3">'
                    "<title>initial contact</title></circle>"
                )
    lines = summarise_blocks(result).splitlines() if result else [scenario.name]
    caption = [
        f'<text class="caption" x="0" y="{(i + 1) * LINE_PX:.0f}">{escape(line)}</text>'
        for i, line in enumerate(lines)
    ]
    width, height = w + 2 * MARGIN, h + 3 * MARGIN + LINE_PX * (len(lines) + 1)
    return (
        "\n".join(
            [
                f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
                f'height="{height:.0f}" '
                f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">',
                f"<title>{escape(scenario.name or 'chargeopt')}</title><style>{STYLE}</style>",
                '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
                'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 Z" fill="#173a60"/>'
                "</marker></defs>",
                f'<rect width="{width:.0f}" height="{height:.0f}" fill="#fff"/>',
                f'<g transform="translate({MARGIN:.0f},{MARGIN:.0f})">',
                *body,
                "</g>",
                f'<g transform="translate({MARGIN:.0f},{h + 2 * MARGIN:.0f})">',
                *caption,
                "</g></svg>",
            ]
        )
        + "\n"
    )
