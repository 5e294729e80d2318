"""The points-race chart, drawn on the server: each charted player's standings points after every
tournament day of the venue, as lines in an SVG the page holds inline (no script, no fonts, no
requests). This module computes the geometry; the template writes it."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

from api.embed.theme import DASHES
from models.rules.people_dates import DateWords
from models.rules.race import Race
from models.rules.standings import Row

# Dates as a league says them until it says otherwise (R24).
AS_SAID = DateWords()

LEFT, TOP, BOTTOM = 44, 14, 34  # room for the points axis and the dates
LABEL_GAP = 16  # the least vertical distance between two names


@dataclass(frozen=True)
class Frame:
    """A chart's size in SVG units: a page draws it wide, and narrow for phones (shown 1:1 there,
    so its 12-unit type stays 12 pixels)."""

    width: int
    height: int
    labels: int  # room right of the plot for the players' names
    name_chars: int  # longer names are cut, with an ellipsis (the table has them whole)
    dates_shown: int  # dates written under the axis (every tournament still has its dot)


WIDE = Frame(640, 330, 140, 16, 6)
NARROW = Frame(360, 300, 96, 10, 3)


@dataclass(frozen=True)
class Tick:
    at: float
    label: str


@dataclass
class Series:
    index: int
    player_id: int
    name: str
    rank: str
    points: list[int]
    dash: str
    path: str = ""
    dots: list[tuple[float, float]] = field(default_factory=list)
    label_y: float = 0.0
    short_name: str = ""


@dataclass
class Chart:
    width: int
    height: int
    left: float
    top: float
    right: float
    bottom: float
    dates: list[date]
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    series: list[Series]
    summary: str


def rank_label(row: Row) -> str:
    """R11's rank as a table shows it: players level on every step share it, marked T (T2)."""
    return f"T{row.rank}" if row.tied else str(row.rank)


def nice_ceiling(value: int) -> tuple[int, int]:
    """An axis top at or above `value` and its step: a whole 1, 2 or 5 times a power of ten, in
    2 to 5 steps."""
    if value <= 0:
        return 10, 2
    raw = value / 5
    power = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    step = next(power * m for m in (1, 2, 5, 10) if power * m >= raw)
    return max(math.ceil(value / step), 2) * step, step


def _short(name: str, chars: int) -> str:
    return name if len(name) <= chars else name[: chars - 1].rstrip() + "…"


def _short_label(display_name: str, label: str, chars: int) -> str:
    """A label cut to `chars`, its player number kept whole (R19): "Cryst… #48"."""
    number = label[len(display_name) :] if label.startswith(display_name) else ""
    if len(label) <= chars or chars - len(number) < 2:
        return _short(label, chars)
    return _short(display_name, chars - len(number)) + number


def _spread(wanted: list[float], low: float, high: float) -> list[float]:
    """Label positions as near as possible to `wanted` (sorted ascending), at least LABEL_GAP
    apart, within [low, high]."""
    placed: list[float] = []
    for y in wanted:
        placed.append(max(y, placed[-1] + LABEL_GAP) if placed else max(y, low))
    overflow = placed[-1] - high if placed else 0
    if overflow > 0:
        placed = [y - overflow for y in placed]
        for i in range(len(placed) - 2, -1, -1):
            placed[i] = min(placed[i], placed[i + 1] - LABEL_GAP)
    return placed


def _date_label(day: date, dates: list[date], words: DateWords) -> str:
    """An axis's date, short, in the league's locale (R24): with its year when the race spans two."""
    return words.short_day(day, year=len({d.year for d in dates}) > 1)


def race_chart(
    race: Race,
    rows: list[Row],
    venue: str,
    season: str,
    frame: Frame = WIDE,
    labels: Mapping[int, str] | None = None,
    words: DateWords = AS_SAID,
) -> Chart:
    """The chart of the ranked `rows`' race, in their order (the leader first), in a frame. Each
    player is named by their label in the standings (`labels`, R19: with the player number where
    two players share a display name), else by display name. Dates read as the league says them
    (`words`, R24)."""
    right = frame.width - frame.labels
    bottom = frame.height - BOTTOM
    names = labels or {}
    series = [
        Series(
            i,
            row.player_id,
            names.get(row.player_id, row.display_name),
            rank_label(row),
            race.points[row.player_id],
            DASHES[i],
        )
        for i, row in enumerate(rows)
    ]
    display_names = {row.player_id: row.display_name for row in rows}
    dates = race.dates
    top_points = max((max(s.points, default=0) for s in series), default=0)
    y_max, y_step = nice_ceiling(top_points)

    def x_of(i: int) -> float:
        if len(dates) <= 1:
            return (LEFT + right) / 2
        span = (dates[-1] - dates[0]).days or 1
        return LEFT + (right - LEFT) * (dates[i] - dates[0]).days / span

    def y_of(points: int) -> float:
        return bottom - (bottom - TOP) * points / y_max

    for s in series:
        s.dots = [(round(x_of(i), 1), round(y_of(p), 1)) for i, p in enumerate(s.points)]
        s.path = " ".join(f"{'M' if i == 0 else 'L'}{x},{y}" for i, (x, y) in enumerate(s.dots))
        s.short_name = _short_label(display_names[s.player_id], s.name, frame.name_chars)
    ends = sorted(series, key=lambda s: s.dots[-1][1] if s.dots else bottom)
    for s, y in zip(
        ends, _spread([s.dots[-1][1] + 4 if s.dots else bottom for s in ends], TOP + 4, bottom), strict=True
    ):
        s.label_y = round(y, 1)
    y_ticks = [Tick(round(y_of(p), 1), str(p)) for p in range(0, y_max + 1, y_step)]
    # The first date, the last and some between; every tournament still has its dot.
    most = frame.dates_shown
    shown = (
        sorted({round(i * (len(dates) - 1) / (most - 1)) for i in range(most)})
        if len(dates) > most
        else range(len(dates))
    )
    x_ticks = [Tick(round(x_of(i), 1), _date_label(dates[i], dates, words)) for i in shown]
    return Chart(
        frame.width,
        frame.height,
        LEFT,
        TOP,
        right,
        bottom,
        dates,
        x_ticks,
        y_ticks,
        series,
        _summary(series, dates, venue, season, words),
    )


def _summary(series: list[Series], dates: list[date], venue: str, season: str, words: DateWords) -> str:
    """The chart in words, for anyone who cannot see it."""
    if not dates or not series:
        return f"No tournaments at {venue} in {season} yet."
    days = "tournament" if len(dates) == 1 else "tournaments"
    standing = "; ".join(f"{s.rank}. {s.name}, {s.points[-1]} points" for s in series)
    text = (
        f"Points race at {venue}, {season}: standings points of the top {len(series)} after each of "
        f"{len(dates)} {days}, {words.day(dates[0])} to {words.day(dates[-1])}. Now: {standing}."
    )
    lead = series[0]
    # The day from which the leader has been ahead of (or level with) every other player.
    since = len(dates)
    while since > 0 and all(lead.points[since - 1] >= other.points[since - 1] for other in series):
        since -= 1
    if len(dates) > 1 and since < len(dates):
        text += f" {lead.name} has led or shared the lead since {words.day(dates[since])}."
    return text
