"""Charts drawn on the server as SVG: no script, no chart library, readable without colour.

Gains are solid bars above the zero line and losses outlined, hatched bars below it, and
every bar carries its number, so nothing depends on telling colours apart.
"""

from __future__ import annotations

from dataclasses import dataclass

WIDTH, HEIGHT = 640, 300
MARGIN_TOP, MARGIN_BOTTOM, MARGIN_X = 36, 56, 12  # room for a loss's figure above the dates


@dataclass
class Bar:
    x: float
    y: float
    width: float
    height: float
    gain: bool
    value_text: str
    value_y: float
    label: str
    label_x: float
    show_value: bool
    show_label: bool


@dataclass
class BarChart:
    title: str
    description: str
    bars: list[Bar]
    zero_y: float
    width: int = WIDTH
    height: int = HEIGHT


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{abs(value)}" if value < 0 else "0"


def bar_chart(points: list[tuple], title: str) -> BarChart:
    """One bar per (date, value), in order. The description says the same in words."""
    values = [value for _, value in points]
    top = max([0, *values])
    bottom = min([0, *values])
    span = (top - bottom) or 1
    inner = HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    scale = inner / span
    zero_y = MARGIN_TOP + top * scale
    slot = (WIDTH - 2 * MARGIN_X) / max(len(points), 1)
    bars = []
    # Every figure is in the table under the chart; the chart labels as many as fit.
    show_values = len(points) <= 16
    label_every = max(1, -(-len(points) // 8))
    for index, (date, value) in enumerate(points):
        height = abs(value) * scale
        x = MARGIN_X + index * slot + slot * 0.15
        gain = value >= 0
        y = zero_y - height if gain else zero_y
        bars.append(
            Bar(
                x=round(x, 1),
                y=round(y, 1),
                width=round(slot * 0.7, 1),
                height=round(max(height, 1), 1),
                gain=gain,
                value_text=signed(value),
                value_y=round(y - 6 if gain else y + height + 18, 1),
                label=f"{date.day}/{date.month}",
                label_x=round(x + slot * 0.35, 1),
                show_value=show_values,
                show_label=index % label_every == 0,
            )
        )
    if points:
        best = max(points, key=lambda p: p[1])
        worst = min(points, key=lambda p: p[1])
        description = (
            f"{len(points)} sessions, total {signed(sum(values))}. "
            f"Best {signed(best[1])} on {best[0]:%d %B}, lowest {signed(worst[1])} on "
            f"{worst[0]:%d %B}. The table below gives every session's figure."
        )
    else:
        description = "No results yet this season."
    return BarChart(title, description, bars, round(zero_y, 1))
