"""The report's plots as SVG markup: intervals, a scatter with both intervals, a matrix, bars
and lines, drawn from numbers without a plotting library.

The same markup goes into the offline HTML file and the web page (inline SVG: no image to
fetch, nothing a Content-Security-Policy without inline styles refuses): colours are
presentation attributes, text takes its colour from the page's stylesheet (``.plot`` rules).
Every plot has a title and a description for screen readers, and every label is escaped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

PALETTE = ("#7aa7ff", "#f0a35e", "#6fd39b", "#ff6b6b", "#c792ea", "#ffcc66", "#5fd3d3",
           "#ff9ecb", "#b5e36b", "#a0a8c8")  # fmt: skip
WIDTH = 640
LEFT, RIGHT, TOP, BOTTOM = 150, 24, 36, 44
ROW = 26


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def _n(value: float) -> str:
    """A coordinate, short."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering ``low``..``high`` (about ``count`` of them)."""
    if not math.isfinite(low) or not math.isfinite(high):
        return [0.0]
    if high <= low:
        low, high = low - 1, high + 1
    raw = (high - low) / max(count - 1, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    if ticks[-1] < high:
        ticks.append(round(value, 10))
    return ticks


@dataclass(frozen=True)
class Scale:
    """A linear map from data ``low..high`` to pixels ``start..end``."""

    low: float
    high: float
    start: float
    end: float

    def __call__(self, value: float) -> float:
        span = self.high - self.low or 1.0
        return self.start + (value - self.low) * (self.end - self.start) / span


def _label(value: float, spec: str) -> str:
    return format(value, spec)


def _frame(width: float, height: float, title: str, description: str, body: str, name: str) -> str:
    ident = f"plot-{name}"
    return (
        f'<svg class="plot" width="{_n(width)}" height="{_n(height)}" '
        f'viewBox="0 0 {_n(width)} {_n(height)}" role="img" '
        f'aria-labelledby="{ident}-title {ident}-desc" data-plot="{escape(name)}">'
        f'<title id="{ident}-title">{escape(title)}</title>'
        f'<desc id="{ident}-desc">{escape(description)}</desc>'
        f'<text class="plot-title" x="{_n(width / 2)}" y="20" text-anchor="middle">'
        f"{escape(title)}</text>{body}</svg>"
    )


def _x_axis(scale: Scale, y: float, top: float, label: str, spec: str) -> str:
    parts = []
    for tick in nice_ticks(scale.low, scale.high):
        if not scale.low - 1e-9 <= tick <= scale.high + 1e-9:
            continue
        x = scale(tick)
        parts.append(
            f'<line class="grid" x1="{_n(x)}" x2="{_n(x)}" y1="{_n(top)}" y2="{_n(y)}"/>'
            f'<text class="tick" x="{_n(x)}" y="{_n(y + 14)}" text-anchor="middle">'
            f"{escape(_label(tick, spec))}</text>"
        )
    mid = (scale.start + scale.end) / 2
    parts.append(
        f'<text class="axis-label" x="{_n(mid)}" y="{_n(y + 32)}" text-anchor="middle">'
        f"{escape(label)}</text>"
    )
    return "".join(parts)


def _y_axis(scale: Scale, x: float, right: float, label: str, spec: str, height: float) -> str:
    parts = []
    for tick in nice_ticks(min(scale.low, scale.high), max(scale.low, scale.high)):
        if not min(scale.low, scale.high) - 1e-9 <= tick <= max(scale.low, scale.high) + 1e-9:
            continue
        y = scale(tick)
        parts.append(
            f'<line class="grid" x1="{_n(x)}" x2="{_n(right)}" y1="{_n(y)}" y2="{_n(y)}"/>'
            f'<text class="tick" x="{_n(x - 6)}" y="{_n(y + 4)}" text-anchor="end">'
            f"{escape(_label(tick, spec))}</text>"
        )
    parts.append(
        f'<text class="axis-label" x="14" y="{_n(height / 2)}" text-anchor="middle" '
        f'transform="rotate(-90 14 {_n(height / 2)})">{escape(label)}</text>'
    )
    return "".join(parts)


Interval = tuple[float, float, float]  # point, low, high (NaN bounds: no interval)


def _span(values: Sequence[float], pad: float = 0.08) -> tuple[float, float]:
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return (0.0, 1.0)
    low, high = min(finite), max(finite)
    margin = (high - low) * pad or 1.0
    return low - margin, high + margin


def interval_plot(
    rows: Sequence[tuple[str, Interval]], title: str, axis: str, name: str, spec: str = ".0f"
) -> str:
    """One row per label: its point and interval on a shared horizontal axis."""
    height = TOP + ROW * max(len(rows), 1) + BOTTOM
    low, high = _span([v for _, (p, lo, hi) in rows for v in (p, lo, hi)])
    x = Scale(low, high, LEFT, WIDTH - RIGHT)
    body = [_x_axis(x, height - BOTTOM, TOP, axis, spec)]
    for i, (label, (point, lo, hi)) in enumerate(rows):
        y = TOP + ROW * i + ROW / 2
        body.append(
            f'<text class="row-label" x="{LEFT - 8}" y="{_n(y + 4)}" text-anchor="end">'
            f"{escape(label)}</text>"
        )
        if math.isfinite(lo) and math.isfinite(hi):
            body.append(
                f'<line class="interval" x1="{_n(x(lo))}" x2="{_n(x(hi))}" y1="{_n(y)}" '
                f'y2="{_n(y)}" stroke="{colour(0)}" stroke-width="3"/>'
            )
        if math.isfinite(point):
            shown = _label(point, spec)
            if math.isfinite(lo):
                shown += f" [{_label(lo, spec)}, {_label(hi, spec)}]"
            body.append(
                f'<circle cx="{_n(x(point))}" cy="{_n(y)}" r="5" fill="{colour(1)}">'
                f"<title>{escape(label)}: {escape(shown)}</title></circle>"
            )
    described = "; ".join(f"{label} {_label(p, spec)}" for label, (p, _, _) in rows)
    return _frame(WIDTH, height, title, described, "".join(body), name)


def scatter_plot(
    points: Sequence[tuple[str, Interval, Interval]],
    title: str,
    x_axis: str,
    y_axis: str,
    name: str,
) -> str:
    """Labelled points with an interval on each axis, and the lines through zero."""
    size = 440
    left, bottom = 64, 52
    xs = _span([v for _, x, _ in points for v in x] + [0.0], 0.15)
    ys = _span([v for _, _, y in points for v in y] + [0.0], 0.15)
    x = Scale(*xs, left, size - RIGHT)
    y = Scale(*ys, size - bottom, TOP)
    body = [_x_axis(x, size - bottom, TOP, x_axis, ".1f"),
            _y_axis(y, left, size - RIGHT, y_axis, ".1f", size)]  # fmt: skip
    body.append(
        f'<line class="zero" x1="{_n(x(0))}" x2="{_n(x(0))}" y1="{TOP}" y2="{_n(size - bottom)}"/>'
        f'<line class="zero" x1="{left}" x2="{_n(size - RIGHT)}" y1="{_n(y(0))}" y2="{_n(y(0))}"/>'
    )
    for i, (label, (px, xl, xh), (py, yl, yh)) in enumerate(points):
        c = colour(i)
        if math.isfinite(xl):
            body.append(f'<line x1="{_n(x(xl))}" x2="{_n(x(xh))}" y1="{_n(y(py))}" '
                        f'y2="{_n(y(py))}" stroke="{c}" stroke-width="2"/>')  # fmt: skip
        if math.isfinite(yl):
            body.append(f'<line x1="{_n(x(px))}" x2="{_n(x(px))}" y1="{_n(y(yl))}" '
                        f'y2="{_n(y(yh))}" stroke="{c}" stroke-width="2"/>')  # fmt: skip
        body.append(
            f'<circle cx="{_n(x(px))}" cy="{_n(y(py))}" r="5" fill="{c}"><title>'
            f"{escape(label)}: {px:+.2f}, {py:+.2f}</title></circle>"
            f'<text class="point-label" x="{_n(x(px) + 8)}" y="{_n(y(py) - 8)}">'
            f"{escape(label)}</text>"
        )
    described = "; ".join(f"{label} ({x[0]:+.2f}, {y[0]:+.2f})" for label, x, y in points)
    return _frame(size, size, title, described, "".join(body), name)


def _heat(value: float) -> str:
    """Red (0) through grey (0.5) to blue (1)."""
    t = min(1.0, max(0.0, value))
    red, blue = (214, 96, 77), (67, 147, 195)
    grey = (60, 64, 84)
    a, b, s = (red, grey, t * 2) if t < 0.5 else (grey, blue, (t - 0.5) * 2)
    return "#" + "".join(f"{round(a[k] + (b[k] - a[k]) * s):02x}" for k in range(3))


def matrix_plot(
    names: Sequence[str], cells: Sequence[Sequence[Interval | None]], title: str, name: str
) -> str:
    """A square matrix of chances (0..1) with their intervals, row against column."""
    size = len(names)
    cell = 96
    left, top = 130, 60
    width = left + cell * size + RIGHT
    height = top + cell * size + 20
    body = []
    for j, other in enumerate(names):
        body.append(f'<text class="row-label" x="{_n(left + cell * j + cell / 2)}" y="{top - 8}" '
                    f'text-anchor="middle">{escape(other)}</text>')  # fmt: skip
    for i, me in enumerate(names):
        y0 = top + cell * i
        body.append(f'<text class="row-label" x="{left - 8}" y="{_n(y0 + cell / 2 + 4)}" '
                    f'text-anchor="end">{escape(me)}</text>')  # fmt: skip
        for j, value in enumerate(cells[i]):
            x0 = left + cell * j
            if value is None:
                body.append(f'<rect x="{x0}" y="{y0}" width="{cell}" height="{cell}" '
                            'class="cell-empty"/>')  # fmt: skip
                continue
            point, low, high = value
            shown = f"{point:.0%}" + (f" [{low:.0%}, {high:.0%}]" if math.isfinite(low) else "")
            body.append(
                f'<rect x="{x0}" y="{y0}" width="{cell}" height="{cell}" fill="{_heat(point)}" '
                f'stroke="#14161f"><title>{escape(me)} beats {escape(names[j])}: '
                f"{escape(shown)}</title></rect>"
                f'<text class="cell" x="{_n(x0 + cell / 2)}" y="{_n(y0 + cell / 2 - 2)}" '
                f'text-anchor="middle">{point:.0%}</text>'
            )
            if math.isfinite(low):
                body.append(
                    f'<text class="cell-small" x="{_n(x0 + cell / 2)}" y="{_n(y0 + cell / 2 + 14)}"'
                    f' text-anchor="middle">[{low:.0%}, {high:.0%}]</text>'
                )
    return _frame(width, height, title, f"{size} by {size} matrix", "".join(body), name)


def cost_plot(
    points: Sequence[tuple[str, float, Interval, bool]], title: str, y_axis: str, name: str
) -> str:
    """Rating against cost per game, with the frontier (the entrants nothing beats on both)
    joined by a dashed line."""
    size_w, size_h, left, bottom = WIDTH, 360, 70, 52
    xs = _span([c for _, c, _, _ in points] + [0.0], 0.1)
    ys = _span([v for _, _, r, _ in points for v in r], 0.1)
    x = Scale(max(0.0, xs[0]), xs[1], left, size_w - RIGHT)
    y = Scale(*ys, size_h - bottom, TOP)
    body = [_x_axis(x, size_h - bottom, TOP, "cost per game (USD)", ".4f"),
            _y_axis(y, left, size_w - RIGHT, y_axis, ".0f", size_h)]  # fmt: skip
    frontier = sorted((p for p in points if p[3]), key=lambda p: p[1])
    if len(frontier) > 1:
        path = " ".join(f"{_n(x(c))},{_n(y(r[0]))}" for _, c, r, _ in frontier)
        body.append(f'<polyline class="frontier" points="{path}" stroke="{colour(2)}"/>')
    for label, cost, (point, low, high), on in points:
        c = colour(2) if on else "#9aa0bd"
        if math.isfinite(low):
            body.append(f'<line x1="{_n(x(cost))}" x2="{_n(x(cost))}" y1="{_n(y(low))}" '
                        f'y2="{_n(y(high))}" stroke="{c}" stroke-width="2"/>')  # fmt: skip
        body.append(
            f'<circle cx="{_n(x(cost))}" cy="{_n(y(point))}" r="5" fill="{c}"><title>'
            f"{escape(label)}: ${cost:.4f} a game, rating {point:.0f}</title></circle>"
            f'<text class="point-label" x="{_n(x(cost) + 8)}" y="{_n(y(point) - 8)}">'
            f"{escape(label)}</text>"
        )
    described = "; ".join(f"{label} ${cost:.4f}, {r[0]:.0f}" for label, cost, r, _ in points)
    return _frame(size_w, size_h, title, described, "".join(body), name)


def bars_plot(
    keys: Sequence[str],
    series: Sequence[tuple[str, Sequence[Interval | None]]],
    title: str,
    axis: str,
    name: str,
) -> str:
    """Grouped bars (one group per key, one bar per series) of shares 0..1 with intervals."""
    group = max(60.0, 24.0 * len(series) + 16)
    left, bottom = 56, 70
    width = left + group * max(len(keys), 1) + RIGHT
    height = 300
    y = Scale(0.0, 1.0, height - bottom, TOP + 20)
    body = [_y_axis(y, left, width - RIGHT, axis, ".0%", height)]
    bar = (group - 16) / max(len(series), 1)
    for k, key in enumerate(keys):
        x0 = left + group * k + 8
        body.append(f'<text class="tick" x="{_n(x0 + (group - 16) / 2)}" y="{height - bottom + 16}"'
                    f' text-anchor="middle">{escape(key)}</text>')  # fmt: skip
        for s, (label, values) in enumerate(series):
            value = values[k]
            if value is None:
                continue
            point, low, high = value
            bx = x0 + bar * s
            body.append(
                f'<rect x="{_n(bx)}" y="{_n(y(point))}" width="{_n(bar - 2)}" '
                f'height="{_n(y(0) - y(point))}" fill="{colour(s)}"><title>{escape(label)}, '
                f"{escape(key)}: {point:.0%} [{low:.0%}, {high:.0%}]</title></rect>"
                f'<line x1="{_n(bx + bar / 2 - 1)}" x2="{_n(bx + bar / 2 - 1)}" '
                f'y1="{_n(y(low))}" y2="{_n(y(high))}" class="whisker"/>'
            )
    legend = "".join(
        f'<rect x="{_n(left + 120 * s)}" y="{height - 26}" width="10" height="10" '
        f'fill="{colour(s)}"/><text class="tick" x="{_n(left + 120 * s + 14)}" '
        f'y="{height - 17}">{escape(label)}</text>'
        for s, (label, _) in enumerate(series)
    )
    return _frame(width, height, title, f"{len(keys)} groups of {len(series)} bars",
                  "".join(body) + legend, name)  # fmt: skip


def lines_plot(
    series: Sequence[tuple[str, Sequence[tuple[float, float]]]],
    title: str,
    x_axis: str,
    y_axis: str,
    name: str,
    diagonal: bool = False,
) -> str:
    """Lines through points on 0..1 by 0..1 (a reliability diagram: ``diagonal`` draws the
    perfect calibration)."""
    size, left, bottom = 400, 60, 52
    x = Scale(0.0, 1.0, left, size - RIGHT)
    y = Scale(0.0, 1.0, size - bottom, TOP)
    body = [_x_axis(x, size - bottom, TOP, x_axis, ".1f"),
            _y_axis(y, left, size - RIGHT, y_axis, ".1f", size)]  # fmt: skip
    if diagonal:
        body.append(f'<line class="zero" x1="{_n(x(0))}" y1="{_n(y(0))}" x2="{_n(x(1))}" '
                    f'y2="{_n(y(1))}"/>')  # fmt: skip
    for i, (label, points) in enumerate(series):
        c = colour(i)
        path = " ".join(f"{_n(x(px))},{_n(y(py))}" for px, py in points)
        body.append(f'<polyline class="series" points="{path}" stroke="{c}"/>')
        body += [
            f'<circle cx="{_n(x(px))}" cy="{_n(y(py))}" r="4" fill="{c}"><title>'
            f"{escape(label)}: {px:.2f}, {py:.2f}</title></circle>"
            for px, py in points
        ]
        body.append(f'<text class="point-label" x="{left + 8}" y="{TOP + 14 + 14 * i}" '
                    f'fill="{c}">{escape(label)}</text>')  # fmt: skip
    return _frame(size, size, title, f"{len(series)} lines", "".join(body), name)
