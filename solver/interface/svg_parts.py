"""The parts every chargeopt picture shares (40k and rank-and-file): the scale, the 1" grid
and its inch ruler, the caption wrapped to the picture's width, the legend flowed into rows
with its scale bar, and the close-up panel that draws the board again, magnified."""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

SCALE = 20.0
"""Pixels per inch."""
MARGIN = 26.0
"""Room around the board for the inch labels, in pixels."""
CHAR_PX = 6.3
"""Rough width of one caption character, for wrapping lines."""
WIDE_CHAR_PX = 7.2
"""One caption character in the widest common default sans-serif (DejaVu Sans, 12 px)."""
LINE_PX = 17.0
MIN_WIDTH_PX = 640.0
GRID_LABEL_EVERY_IN = 6
SCALE_BAR_IN = 6


def _px(inches: float) -> str:
    return f"{inches * SCALE:.1f}"


def grid_lines(width_in: float, height_in: float) -> list[str]:
    """A line every inch, a stronger one every 6 inches."""
    out = []
    for i in range(1, math.ceil(width_in)):
        css = "grid6" if i % GRID_LABEL_EVERY_IN == 0 else "grid"
        out.append(
            f'<line class="{css}" x1="{_px(i)}" y1="0" x2="{_px(i)}" y2="{_px(height_in)}"/>'
        )
    for j in range(1, math.ceil(height_in)):
        css = "grid6" if j % GRID_LABEL_EVERY_IN == 0 else "grid"
        out.append(f'<line class="{css}" x1="0" y1="{_px(j)}" x2="{_px(width_in)}" y2="{_px(j)}"/>')
    return out


def inch_ticks(width_in: float, height_in: float) -> list[str]:
    """Inch labels every 6 inches along the top and left of the board."""
    out = []
    for i in range(0, math.floor(width_in) + 1, GRID_LABEL_EVERY_IN):
        out.append(f'<text class="tick" x="{_px(i)}" y="-6" text-anchor="middle">{i}"</text>')
    for j in range(0, math.floor(height_in) + 1, GRID_LABEL_EVERY_IN):
        out.append(
            f'<text class="tick" x="-5" y="{_px(j)}" dy="0.35em" text-anchor="end">{j}"</text>'
        )
    return out


def wrap_line(text: str, width_px: float, char_px: float = CHAR_PX) -> list[str]:
    """One caption line cut into lines that fit `width_px` at `char_px` a character (each
    drawn as its own text, so no renderer has to wrap it)."""
    limit = max(20, int(width_px / char_px))
    lines: list[str] = []
    current = ""
    for word in text.split():
        if current and len(current) + 1 + len(word) > limit:
            lines.append(current)
            current = "  " + word
        else:
            current = f"{current} {word}" if current else word
    return [*lines, current] if current else lines


LegendItem = tuple[str, float, str]
"""(swatch SVG drawn from the origin in a box 16 pixels high, its width, label)."""


def legend_rows(items: list[LegendItem], top: float, width_px: float) -> tuple[list[str], float]:
    """Legend items flowed into rows; returns the SVG and the height used."""
    out, x, y = [], 0.0, top
    for swatch, swatch_w, text in items:
        item_w = swatch_w + 6 + len(text) * CHAR_PX * 0.92 + 16
        if x and x + item_w > width_px:
            x, y = 0.0, y + LINE_PX + 4
        out.append(f'<g transform="translate({x:.1f},{y:.1f})">{swatch}')
        out.append(f'<text class="legend" x="{swatch_w + 6:.0f}" y="12">{escape(text)}</text></g>')
        x += item_w
    return out, y - top + LINE_PX + 4


def scale_bar(inches: int) -> str:
    """A bar `inches` long at the board's scale, with a tick every inch."""
    ticks = "".join(
        f'<line class="scale" x1="{i * SCALE:.1f}" y1="4" x2="{i * SCALE:.1f}" '
        f'y2="{12 if i in (0, inches) else 9}"/>'
        for i in range(inches + 1)
    )
    return f'<line class="scale" x1="0" y1="4" x2="{inches * SCALE:.1f}" y2="4"/>{ticks}'


def close_up_frame(
    focus: tuple[float, ...], close_up: tuple[float, ...] | None, left_px: float
) -> list[str]:
    """The end of the board's group: the close-up's outline on the board, the group closed,
    then the close-up panel at `left_px` (only the closing tag where there is no close-up)."""
    if not close_up:
        return ["</g>"]
    x0, y0, x1, y1 = focus
    return [
        f'<rect class="focus" x="{x0 * SCALE:.1f}" y="{y0 * SCALE:.1f}" '
        f'width="{(x1 - x0) * SCALE:.1f}" height="{(y1 - y0) * SCALE:.1f}">'
        "<title>the close-up</title></rect>",
        "</g>",
        *close_up_panel(focus, close_up[0], left_px),
    ]


def close_up_panel(focus: tuple[float, ...], zoom: float, left_px: float) -> list[str]:
    """The board drawn again, magnified around `focus`, framed and with an inch ruler."""
    x0, y0, x1, y1 = focus
    w, h = (x1 - x0) * SCALE * zoom, (y1 - y0) * SCALE * zoom
    ticks = []
    for i in range(math.ceil(x0), math.floor(x1) + 1):
        ticks.append(
            f'<text class="tick" x="{(i - x0) * SCALE * zoom:.1f}" y="-6" '
            f'text-anchor="middle">{i}"</text>'
        )
    for j in range(math.ceil(y0), math.floor(y1) + 1):
        ticks.append(
            f'<text class="tick" x="-5" y="{(j - y0) * SCALE * zoom:.1f}" dy="0.35em" '
            f'text-anchor="end">{j}"</text>'
        )
    return [
        f'<g transform="translate({left_px:.1f},{MARGIN:.0f})">',
        f'<clipPath id="close-up-clip"><rect x="0" y="0" width="{w:.1f}" height="{h:.1f}"/>'
        "</clipPath>",
        f'<g clip-path="url(#close-up-clip)"><use xlink:href="#table" '
        f'transform="scale({zoom:.4f}) translate({-x0 * SCALE:.1f},{-y0 * SCALE:.1f})"/></g>',
        f'<rect class="frame" x="0" y="0" width="{w:.1f}" height="{h:.1f}"/>',
        *ticks,
        f'<text class="legend" x="0" y="{h + 16:.1f}">close-up ({zoom:.1f}x)</text>',
        "</g>",
    ]


__all__ = [
    "CHAR_PX",
    "LINE_PX",
    "MARGIN",
    "MIN_WIDTH_PX",
    "SCALE",
    "SCALE_BAR_IN",
    "WIDE_CHAR_PX",
    "LegendItem",
    "close_up_panel",
    "grid_lines",
    "inch_ticks",
    "legend_rows",
    "scale_bar",
    "wrap_line",
]
