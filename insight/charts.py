"""Bar and line charts as self-contained SVG strings, drawn on the server (no JavaScript, no CDN).

Colours and fonts are SVG presentation attributes, not `style`: the Content-Security-Policy blocks
inline styles but not attributes. Every text is escaped here, so callers may mark the result safe.
"""

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 720, 300
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 44, 72
X_LABEL_SPACING = 64  # px per date label on the x axis, so "30 nov" never runs into the next one
TITLE_CHAR_WIDTH = 8.5  # average width of a character of the 15px bold title, generous for capitals
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif"
TEXT_COLOUR, MUTED_COLOUR, GRID_COLOUR = "#1c2430", "#535d6b", "#d5dbe2"
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


@dataclass(frozen=True)
class Series:
    """One named row of values, one per label; None where there is nothing to show (a gap in a line)."""

    name: str
    values: Sequence[float | None]
    colour: str

    def __post_init__(self):
        # The colour lands in an attribute unescaped by design: only a plain hex colour may get there.
        if not _COLOUR.fullmatch(self.colour):
            raise ValueError(f"colour must look like #1a2b3c, not {self.colour!r}")


def bar_chart(*, title: str, labels: Sequence[str], series: Sequence[Series], y_title: str, x_title: str = "Dag",
              long_labels: Sequence[str] | None = None, empty_text: str = "Geen gegevens in deze periode",
              width: int = WIDTH) -> str:
    """Stacked bars, one per label, the series stacked bottom-up in the given order."""
    _check_lengths(labels, series, long_labels)
    totals = [sum(s.values[i] or 0 for s in series) for i in range(len(labels))]
    if not any(totals):
        return _empty(title, empty_text, width)
    ticks = nice_ticks(max(totals), whole=True)
    plot = _Plot(len(labels), ticks[-1], width)
    parts = []
    for i, label in enumerate(long_labels or labels):
        base = 0.0
        for s in series:
            value = s.values[i] or 0
            if not value:
                continue
            y_top, y_bottom = plot.y(base + value), plot.y(base)
            tooltip = f"{label}: {s.name} {format_number(value)}"
            parts.append(
                f'<rect class="bar" x="{plot.band_start(i) + plot.band * 0.15:.1f}" y="{y_top:.1f}" '
                f'width="{max(plot.band * 0.7, 1):.1f}" height="{max(y_bottom - y_top, 0.5):.1f}" fill="{s.colour}">'
                f"<title>{escape(tooltip)}</title></rect>"
            )
            base += value
    summary = "; ".join(f"{s.name}: {format_number(sum(v or 0 for v in s.values))} in totaal" for s in series)
    return _frame(title, summary, plot, ticks, labels, series, x_title, y_title, "".join(parts))


def line_chart(*, title: str, labels: Sequence[str], series: Sequence[Series], y_title: str, x_title: str = "Dag",
               unit: str = "", long_labels: Sequence[str] | None = None,
               empty_text: str = "Geen gegevens in deze periode", width: int = WIDTH) -> str:
    """Lines with a point per known value; a None breaks the line rather than drawing it through zero."""
    _check_lengths(labels, series, long_labels)
    known = [v for s in series for v in s.values if v is not None]
    if not known:
        return _empty(title, empty_text, width)
    ticks = nice_ticks(max(known))
    plot = _Plot(len(labels), ticks[-1], width)
    suffix = f" {unit}" if unit else ""
    parts = []
    for s in series:
        for run in _runs(s.values):
            if len(run) > 1:
                points = " ".join(f"{plot.x(i):.1f},{plot.y(v):.1f}" for i, v in run)
                parts.append(f'<polyline class="line" points="{points}" fill="none" stroke="{s.colour}" stroke-width="2"/>')
        for i, value in enumerate(s.values):
            if value is not None:
                tooltip = f"{(long_labels or labels)[i]}: {s.name} {format_number(value)}{suffix}"
                parts.append(
                    f'<circle class="point" cx="{plot.x(i):.1f}" cy="{plot.y(value):.1f}" r="3.5" fill="{s.colour}">'
                    f"<title>{escape(tooltip)}</title></circle>"
                )
    summary = "; ".join(_range_summary(s, suffix) for s in series if any(v is not None for v in s.values))
    return _frame(title, summary, plot, ticks, labels, series, x_title, y_title, "".join(parts))


def nice_ticks(maximum: float, *, most: int = 5, whole: bool = False) -> list[float]:
    """Round axis values from 0 to at least `maximum` (steps of 1, 2 or 5 × 10ⁿ, at most `most` steps;
    `whole` for counts, which have no half steps)."""
    if maximum <= 0:
        return [0.0, 1.0]
    rough = maximum / most
    magnitude = 10 ** math.floor(math.log10(rough))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= rough)
    if whole:
        step = max(step, 1)
    count = math.ceil(maximum / step - 1e-9)
    return [round(step * k, 10) for k in range(count + 1)]


def format_number(value: float) -> str:
    """Dutch notation: 1.234 for thousands, 12,5 for decimals."""
    if float(value).is_integer():
        return f"{int(value):,}".replace(",", ".")
    return f"{value:,.1f}".replace(",", " ").replace(".", ",").replace(" ", ".")


class _Plot:
    """Maps label positions and values onto the plotting area."""

    def __init__(self, count: int, top_value: float, width: int):
        self.right = width - RIGHT
        self.width, self.height = self.right - LEFT, HEIGHT - TOP - BOTTOM
        self.band = self.width / count
        self.top_value = top_value

    def band_start(self, index: int) -> float:
        return LEFT + index * self.band

    def x(self, index: int) -> float:
        return LEFT + (index + 0.5) * self.band

    def y(self, value: float) -> float:
        return TOP + self.height * (1 - value / self.top_value)


def _frame(title, summary, plot, ticks, labels, series, x_title, y_title, body) -> str:
    bottom = TOP + plot.height
    grid = "".join(
        f'<line x1="{LEFT}" x2="{plot.right}" y1="{plot.y(t):.1f}" y2="{plot.y(t):.1f}" stroke="{GRID_COLOUR}"/>'
        f'<text x="{LEFT - 8}" y="{plot.y(t) + 4:.1f}" text-anchor="end" font-size="12" fill="{MUTED_COLOUR}">{format_number(t)}</text>'
        for t in ticks
    )
    every = math.ceil(len(labels) / max(2, plot.width // X_LABEL_SPACING))
    x_labels = "".join(
        f'<text x="{plot.x(i):.1f}" y="{bottom + 18}" text-anchor="middle" font-size="12" fill="{MUTED_COLOUR}">{escape(label)}</text>'
        for i, label in enumerate(labels)
        if i % every == 0
    )
    axes = (
        f'<line x1="{LEFT}" x2="{plot.right}" y1="{bottom}" y2="{bottom}" stroke="{MUTED_COLOUR}"/>'
        f'<text x="{LEFT + plot.width / 2:.1f}" y="{bottom + 38}" text-anchor="middle" font-size="12" fill="{MUTED_COLOUR}">{escape(x_title)}</text>'
        f'<text x="8" y="{TOP - 10}" font-size="12" fill="{MUTED_COLOUR}">{escape(y_title)}</text>'
    )
    return _svg(title, f"{title}. {summary}", grid + axes + x_labels + body + _legend(series), plot.right + RIGHT)


def _legend(series: Sequence[Series]) -> str:
    items, x = [], LEFT
    for s in series:
        items.append(
            f'<rect x="{x}" y="{HEIGHT - 20}" width="12" height="12" fill="{s.colour}"/>'
            f'<text x="{x + 17}" y="{HEIGHT - 10}" font-size="12" fill="{TEXT_COLOUR}">{escape(s.name)}</text>'
        )
        x += 30 + 7 * len(s.name)  # about the width of the name at 12px
    return f'<g class="legend">{"".join(items)}</g>'


def _empty(title: str, text: str, width: int) -> str:
    body = f'<text x="{width / 2:.0f}" y="{HEIGHT / 2:.0f}" text-anchor="middle" font-size="14" fill="{MUTED_COLOUR}">{escape(text)}</text>'
    return _svg(title, f"{title}. {text}", body, width)


def _svg(title: str, label: str, body: str, width: int) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} {HEIGHT}" role="img" '
        f'aria-label="{escape(label)}" font-family="{escape(FONT)}">'
        f"<title>{escape(title)}</title>"
        f'<text x="{LEFT}" y="22" font-size="15" font-weight="600" fill="{TEXT_COLOUR}">{escape(_fitted(title, width - LEFT))}</text>'
        f"{body}</svg>"
    )


def _fitted(text: str, room: float) -> str:
    """The text shortened with an ellipsis to about the room it has (the full text stays in <title> and aria-label)."""
    most = int(room / TITLE_CHAR_WIDTH)
    return text if len(text) <= most else text[: most - 1].rstrip() + "…"


def _runs(values: Sequence[float | None]) -> list[list[tuple[int, float]]]:
    """The stretches of consecutive known values, with their positions."""
    runs: list[list[tuple[int, float]]] = [[]]
    for i, value in enumerate(values):
        if value is None:
            if runs[-1]:
                runs.append([])
        else:
            runs[-1].append((i, value))
    return [run for run in runs if run]


def _range_summary(series: Series, suffix: str) -> str:
    known = [v for v in series.values if v is not None]
    return f"{series.name}: van {format_number(min(known))} tot {format_number(max(known))}{suffix}"


def _check_lengths(labels: Sequence[str], series: Sequence[Series], long_labels: Sequence[str] | None) -> None:
    if any(len(s.values) != len(labels) for s in series) or (long_labels is not None and len(long_labels) != len(labels)):
        raise ValueError("every series (and long_labels) needs exactly one value per label")
