"""The site's charts (R24), drawn on the server as inline SVG (no script, no request): a player's
rating after each rated tournament (R20). The venue's points race is the embed's chart
(api/embed/chart.py), drawn from the API's race answer: `RaceRow` is the little a chart needs of
a standings row."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 400, 180, 40, 10, 10, 20


@dataclass(frozen=True)
class RaceRow:
    """A charted player as the race answer gives them (`race_chart` reads these fields)."""

    player_id: int
    display_name: str
    rank: int
    tied: bool


@dataclass(frozen=True)
class Tick:
    at: float
    label: str


@dataclass(frozen=True)
class RatingChart:
    width: int
    height: int
    left: int
    right: int
    bottom: int
    path: str
    dots: list[tuple[float, float]]
    y_ticks: list[Tick]
    summary: str


def _steps(low: float, high: float) -> list[float]:
    """About five round values from below `low` to above `high`."""
    span = max(high - low, 1.0)
    raw = span / 4
    step = next(s for s in (0.5, 1, 2, 5, 10, 20, 50, 100) if s >= raw)
    first = step * (low // step)
    values = []
    value = first
    while value <= high + step:
        values.append(round(value, 2))
        value += step
    return values


def rating_chart(points: Sequence[Mapping[str, Any]]) -> RatingChart | None:
    """The shown rating after each rated tournament (the history answer's `rating`), as a line;
    None with no rated tournament."""
    ratings = [float(p["rating"]) for p in points]
    if not ratings:
        return None
    ticks = _steps(min(ratings), max(ratings))
    low, high = ticks[0], ticks[-1]
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM
    steps = max(len(ratings) - 1, 1)

    def x(i: int) -> float:
        return round(LEFT + (right - LEFT) * (i / steps if len(ratings) > 1 else 1.0), 1)

    def y(value: float) -> float:
        return round(bottom - (bottom - TOP) * (value - low) / ((high - low) or 1), 1)

    dots = [(x(i), y(r)) for i, r in enumerate(ratings)]
    path = "M" + " L".join(
        f"{px},{py}" for px, py in ([(float(LEFT), dots[0][1]), *dots] if len(dots) == 1 else dots)
    )
    summary = (
        f"Rating after each of {len(ratings)} rated tournament{'s' if len(ratings) != 1 else ''}: from "
        f"{ratings[0]:.2f} to {ratings[-1]:.2f}, lowest {min(ratings):.2f}, highest {max(ratings):.2f}."
    )
    return RatingChart(
        WIDTH, HEIGHT, LEFT, right, bottom, path, dots, [Tick(y(t), f"{t:g}") for t in ticks], summary
    )
