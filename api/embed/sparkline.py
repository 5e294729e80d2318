"""A rating's sparkline, drawn on the server: the shown rating after each rated tournament (R20)
as one polyline in a small inline SVG (no script, no fonts, no requests). This module computes the
geometry; the template writes it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

WIDTH, HEIGHT, PAD = 120, 28, 3


@dataclass(frozen=True)
class Sparkline:
    width: int
    height: int
    points: str  # the polyline's "x,y x,y …"
    last: tuple[float, float]  # the dot on the latest rating
    summary: str  # the line in words, for a screen reader


def sparkline(ratings: Sequence[Decimal]) -> Sparkline | None:
    """The shown ratings in order, scaled into the box (higher is up); None with no rating. One
    rating is a flat line to its dot."""
    if not ratings:
        return None
    low, high = min(ratings), max(ratings)
    span = float(high - low) or 1.0
    steps = max(len(ratings) - 1, 1)
    inner_w, inner_h = WIDTH - 2 * PAD, HEIGHT - 2 * PAD
    xy = [
        (
            round(PAD + inner_w * (index / steps if len(ratings) > 1 else 1.0), 1),
            round(PAD + inner_h * (1 - float(value - low) / span) if high > low else HEIGHT / 2, 1),
        )
        for index, value in enumerate(ratings)
    ]
    if len(xy) == 1:
        xy.insert(0, (float(PAD), xy[0][1]))
    first, last = ratings[0], ratings[-1]
    summary = (
        f"Rating after each of {len(ratings)} rated tournament{'s' if len(ratings) != 1 else ''}: "
        f"from {first} to {last}, lowest {low}, highest {high}."
    )
    return Sparkline(WIDTH, HEIGHT, " ".join(f"{x},{y}" for x, y in xy), xy[-1], summary)
