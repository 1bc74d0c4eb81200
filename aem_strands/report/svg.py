"""Small inline SVG plots drawn from numbers the report already computed (no plotting library, no network)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

MAX_POINTS = 2000
"""A scatter plot draws at most this many points (an even subsample; the statistics use all)."""


def _fmt(value: float) -> str:
    return f"{value:.1f}"


def rate_bars(items: Sequence[tuple[str, Mapping[str, Any] | None]], *, title: str, width: int = 520) -> str:
    """Horizontal bars of rates in [0, 1] with their 95% interval as a whisker."""
    row, left, right = 22, 150, 50
    height = 30 + row * len(items)
    span = width - left - right
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}"><title>{escape(title)}</title>'
    ]
    for tick in (0.0, 0.5, 1.0):
        x = left + tick * span
        parts.append(f'<line x1="{_fmt(x)}" y1="18" x2="{_fmt(x)}" y2="{height - 4}" class="grid"/>')
        parts.append(f'<text x="{_fmt(x)}" y="12" class="tick" text-anchor="middle">{tick:g}</text>')
    for i, (label, interval) in enumerate(items):
        y = 22 + i * row
        parts.append(f'<text x="{left - 6}" y="{y + 13}" text-anchor="end" class="label">{escape(label[:22])}</text>')
        if not interval or interval.get("estimate") is None:
            parts.append(f'<text x="{left + 4}" y="{y + 13}" class="tick">n/a</text>')
            continue
        est = float(interval["estimate"])
        parts.append(f'<rect x="{left}" y="{y + 3}" width="{_fmt(est * span)}" height="14" class="bar"/>')
        low, high = interval.get("low"), interval.get("high")
        if low is not None and high is not None:
            x1, x2 = left + float(low) * span, left + float(high) * span
            parts.append(f'<line x1="{_fmt(x1)}" y1="{y + 10}" x2="{_fmt(x2)}" y2="{y + 10}" class="ci"/>')
            for x in (x1, x2):
                parts.append(f'<line x1="{_fmt(x)}" y1="{y + 5}" x2="{_fmt(x)}" y2="{y + 15}" class="ci"/>')
        parts.append(f'<text x="{_fmt(left + span + 4)}" y="{y + 13}" class="tick">{est:.2f}</text>')
    parts.append("</svg>")
    return "".join(parts)


def count_bars(items: Sequence[tuple[str, int, int]], *, title: str, width: int = 520) -> str:
    """Horizontal stacked bars of (label, root causes, cascades) counts."""
    row, left, right = 22, 210, 60
    height = 10 + row * len(items)
    top = max((a + b for _, a, b in items), default=0) or 1
    span = width - left - right
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}"><title>{escape(title)}</title>'
    ]
    for i, (label, roots, cascades) in enumerate(items):
        y = 4 + i * row
        w1, w2 = roots / top * span, cascades / top * span
        parts.append(f'<text x="{left - 6}" y="{y + 13}" text-anchor="end" class="label">{escape(label[:30])}</text>')
        parts.append(f'<rect x="{left}" y="{y + 3}" width="{_fmt(w1)}" height="14" class="root"/>')
        parts.append(f'<rect x="{_fmt(left + w1)}" y="{y + 3}" width="{_fmt(w2)}" height="14" class="cascade"/>')
        parts.append(f'<text x="{_fmt(left + w1 + w2 + 4)}" y="{y + 13}" class="tick">{roots} + {cascades}</text>')
    parts.append("</svg>")
    return "".join(parts)


def scatter(points: Sequence[tuple[float, float, str]], *, title: str, x_label: str, y_label: str) -> str:
    """A scatter plot of (x, y, name) points, y in [0, 1]; at most ``MAX_POINTS`` drawn."""
    width, height, left, bottom, top, right = 520, 260, 50, 36, 12, 14
    step = max(1, -(-len(points) // MAX_POINTS))
    shown = points[::step]
    xs = [p[0] for p in points]
    x_min, x_max = (min(xs), max(xs)) if xs else (0.0, 1.0)
    x_span = (x_max - x_min) or 1.0
    plot_w, plot_h = width - left - right, height - top - bottom
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}"><title>{escape(title)}</title>',
        f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" class="frame"/>',
    ]
    for tick in (0.0, 0.5, 1.0):
        y = top + (1 - tick) * plot_h
        parts.append(f'<text x="{left - 6}" y="{_fmt(y + 4)}" text-anchor="end" class="tick">{tick:g}</text>')
    for value, anchor in ((x_min, "start"), (x_max, "end")):
        x = left + (value - x_min) / x_span * plot_w
        parts.append(f'<text x="{_fmt(x)}" y="{height - 20}" text-anchor="{anchor}" class="tick">{value:,.0f}</text>')
    parts.append(
        f'<text x="{left + plot_w / 2}" y="{height - 4}" text-anchor="middle" class="label">{escape(x_label)}</text>'
    )
    parts.append(
        f'<text x="12" y="{top + plot_h / 2}" text-anchor="middle" class="label" '
        f'transform="rotate(-90 12 {top + plot_h / 2})">{escape(y_label)}</text>'
    )
    for x, y, name in shown:
        cx = left + (x - x_min) / x_span * plot_w
        cy = top + (1 - min(max(y, 0.0), 1.0)) * plot_h
        parts.append(
            f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="3" class="dot"><title>{escape(name)}</title></circle>'
        )
    if step > 1:
        parts.append(f'<text x="{left + 4}" y="{top + 12}" class="tick">every {step}th of {len(points)} dialogs</text>')
    parts.append("</svg>")
    return "".join(parts)
