"""The report's two plots as hand-written SVG (no plotting library): median solve time
against the number of charging models (log scale), and each method's base contact against
the greedy baseline's on the same layout."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from chargeopt.solver.bench.report import cells

WIDTH, HEIGHT, MARGIN, LEGEND = 660, 380, 56, 120
PAD = 0.06
"""Each axis extends this fraction of its span beyond the data, so no point sits on an axis."""
SPREAD_PX = 3.0
"""Series are shifted sideways by this many pixels each, so equal points stay visible."""
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf")

Series = dict[str, list[tuple[float, float]]]


def _axes(title: str, x_label: str, y_label: str) -> list[str]:
    right, bottom = WIDTH - LEGEND, HEIGHT - MARGIN
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'font-family="sans-serif" font-size="11">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<text x="{WIDTH / 2}" y="18" text-anchor="middle" font-size="13">{title}</text>',
        f'<line x1="{MARGIN}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="black"/>',
        f'<line x1="{MARGIN}" y1="{MARGIN / 2}" x2="{MARGIN}" y2="{bottom}" stroke="black"/>',
        f'<text x="{(MARGIN + right) / 2}" y="{HEIGHT - 14}" text-anchor="middle">{x_label}</text>',
        f'<text x="14" y="{HEIGHT / 2}" text-anchor="middle" '
        f'transform="rotate(-90 14 {HEIGHT / 2})">{y_label}</text>',
    ]


def scatter(
    title: str,
    x_label: str,
    y_label: str,
    series: Series,
    *,
    log_y: bool = False,
    diagonal: bool = False,
) -> str:
    """A scatter plot with a legend; `diagonal` draws y = x (equal to the baseline)."""
    points = [p for pts in series.values() for p in pts]
    out = _axes(title, x_label, y_label)
    if not points:
        out.append(f'<text x="{WIDTH / 2}" y="{HEIGHT / 2}" text-anchor="middle">no data</text>')
        return "\n".join([*out, "</svg>"]) + "\n"

    def ty(v: float) -> float:
        return math.log10(max(v, 1e-3)) if log_y else v

    xs, ys = [p[0] for p in points], [ty(p[1]) for p in points]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    if diagonal:
        x0 = y0 = min(x0, y0)
        x1 = y1 = max(x1, y1)
    x1, y1 = (x1 if x1 > x0 else x0 + 1), (y1 if y1 > y0 else y0 + 1)
    x0, x1 = x0 - PAD * (x1 - x0), x1 + PAD * (x1 - x0)
    y0, y1 = y0 - PAD * (y1 - y0), y1 + PAD * (y1 - y0)
    span_x, span_y = WIDTH - LEGEND - MARGIN, HEIGHT - 1.5 * MARGIN

    def px(x: float) -> float:
        return MARGIN + (x - x0) / (x1 - x0) * span_x

    def py(y: float) -> float:
        return HEIGHT - MARGIN - (y - y0) / (y1 - y0) * span_y

    for k in range(5):
        xv, yv = x0 + (x1 - x0) * k / 4, y0 + (y1 - y0) * k / 4
        label = f"{10**yv:.3g}" if log_y else f"{yv:.3g}"
        out.append(
            f'<text x="{px(xv):.1f}" y="{HEIGHT - MARGIN + 14}" text-anchor="middle">'
            f"{xv:.3g}</text>"
        )
        out.append(f'<text x="{MARGIN - 4}" y="{py(yv) + 4:.1f}" text-anchor="end">{label}</text>')
    if diagonal:
        out.append(
            f'<line x1="{px(x0):.1f}" y1="{py(y0):.1f}" x2="{px(x1):.1f}" y2="{py(y1):.1f}" '
            'stroke="#999" stroke-dasharray="4 3"/>'
        )
    for i, (name, pts) in enumerate(series.items()):
        colour = COLOURS[i % len(COLOURS)]
        shift = (i - (len(series) - 1) / 2) * SPREAD_PX
        for x, y in pts:
            out.append(
                f'<circle cx="{px(x) + shift:.1f}" cy="{py(ty(y)):.1f}" r="3.5" '
                f'fill="{colour}" fill-opacity="0.75"/>'
            )
        ly = MARGIN / 2 + 16 * i
        out.append(f'<circle cx="{WIDTH - LEGEND + 16}" cy="{ly}" r="4" fill="{colour}"/>')
        out.append(f'<text x="{WIDTH - LEGEND + 26}" y="{ly + 4}">{name}</text>')
    return "\n".join([*out, "</svg>"]) + "\n"


def time_series(record: dict[str, Any]) -> Series:
    table = cells(record)
    series: Series = {}
    for m in record["settings"]["methods"]:
        pts = []
        for lay in record["layouts"]:
            cell = table.get((lay["file"], m))
            if cell is not None and cell.median_s is not None:
                pts.append((float(lay["models"]), cell.median_s))
        series[m] = pts
    return series


def contact_series(record: dict[str, Any]) -> Series:
    """(greedy's base contact, the method's) per layout where both gave a legal answer in
    their worst run."""
    table = cells(record)
    series: Series = {}
    for m in record["settings"]["methods"]:
        if m == "greedy":
            continue
        pts = []
        for lay in record["layouts"]:
            a, b = table.get((lay["file"], "greedy")), table.get((lay["file"], m))
            if a is None or b is None:
                continue
            (ka, va), (kb, vb) = a.score(), b.score()
            if ka == 2 and kb == 2:
                pts.append((float(va), float(vb)))
        series[m] = pts
    return series


def write_plots(record: dict[str, Any], report_path: Path) -> dict[str, str]:
    """Write the SVG plots beside the report; returns title -> file name for the report."""
    stem = report_path.stem
    written = {}
    time_file = report_path.with_name(f"{stem}-time.svg")
    time_file.write_text(
        scatter(
            "Median solve time against charging models",
            "charging models",
            "median solve seconds (log scale)",
            time_series(record),
            log_y=True,
        ),
        encoding="utf-8",
    )
    written["solve time against models"] = time_file.name
    if "greedy" in record["settings"]["methods"]:
        contact_file = report_path.with_name(f"{stem}-contacts.svg")
        contact_file.write_text(
            scatter(
                "Base contact against the greedy baseline",
                "greedy base contact",
                "method base contact",
                contact_series(record),
                diagonal=True,
            ),
            encoding="utf-8",
        )
        written["base contact against the greedy baseline"] = contact_file.name
    return written
