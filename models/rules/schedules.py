"""A venue's regular games and the exceptions to them (R2, R2a): which games a schedule gives
in a range of local dates, and which of them are missing their report. Pure: the dates are local
dates on the venue's wall clock, handed in by the caller; no clock is read here."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from enum import StrEnum
from zoneinfo import ZoneInfo

from models.errors import Problem

MOST_SESSIONS = 20
# R2: a venue plays at most this many regular games on one weekday, and a date holds at most
# this many games once its changes apply (a cancelled game does not count), so that what the
# public reads of a schedule (its games, its calendar feeds) stays small.
MOST_GAMES_A_WEEKDAY = 3
MOST_GAMES_A_DATE = 3
HOURS_PLAYED = 4  # a game's estimated length, for a calendar's end
_HH_MM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")


class ExceptionKind(StrEnum):
    CANCELLED = "cancelled"
    MOVED = "moved"
    ADDED = "added"


EXCEPTION_KINDS = tuple(kind.value for kind in ExceptionKind)


@dataclass(frozen=True)
class RegularGame:
    """One regular game of the week: ISO weekday (Monday 1), start "HH:MM", sessions."""

    weekday: int
    starts_at: str
    sessions: int = 1


@dataclass(frozen=True)
class ScheduleChange:
    """A change to the schedule on one date: cancelled, moved (to `to_date`) or added."""

    kind: str
    date: dt.date
    to_date: dt.date | None = None
    starts_at: str | None = None
    sessions: int | None = None
    note: str | None = None


@dataclass(frozen=True)
class ScheduledGame:
    """A game the schedule gives on a local date."""

    date: dt.date
    starts_at: str
    sessions: int
    cancelled: bool = False
    moved_from: dt.date | None = None
    make_up: bool = False
    note: str | None = None
    extra: dict[str, object] = field(default_factory=dict, compare=False)
    # A moved game's start before it was moved (what names it, with `moved_from`: `scheduled`).
    moved_from_start: str | None = field(default=None, compare=False)
    # R2: a game played (reported) on a date no schedule or exception gave: no start is known.
    unscheduled: bool = False

    @property
    def weekday(self) -> int:
        return self.date.isoweekday()

    @property
    def as_scheduled(self) -> tuple[dt.date, str]:
        """The date and start the schedule first gave it (a moved game's, before it moved): what
        names the game however it is moved (its calendar UID)."""
        return (self.moved_from or self.date, self.moved_from_start or self.starts_at)


def valid_time(text: object) -> bool:
    # fullmatch: "$" alone lets "19:00\n" through (it matches before a final newline).
    return isinstance(text, str) and bool(_HH_MM.fullmatch(text))


def schedule_problems(games: Sequence[RegularGame], path: str = "schedule") -> list[Problem]:
    """Bad games of a schedule: a weekday outside 1-7, a time not HH:MM in 00:00-23:59, a
    session count outside 1-20, the same weekday and time twice. Each names its field. And R2:
    more than 3 games on one weekday, named at the first game past the third."""
    problems: list[Problem] = []
    seen: dict[tuple[int, str], int] = {}
    on_weekday: dict[int, int] = {}
    for index, game in enumerate(games):
        on_weekday[game.weekday] = on_weekday.get(game.weekday, 0) + 1
        if on_weekday[game.weekday] == MOST_GAMES_A_WEEKDAY + 1 and 1 <= game.weekday <= 7:
            problems.append(_too_many_games(games, game.weekday, f"{path}.{index}.starts_at"))
        if not 1 <= game.weekday <= 7:
            problems.append(Problem(f"{path}.{index}.weekday", "A weekday is 1 (Monday) to 7 (Sunday)."))
        if not valid_time(game.starts_at):
            problems.append(Problem(f"{path}.{index}.starts_at", "A start time is HH:MM, 00:00 to 23:59."))
        if not 1 <= game.sessions <= MOST_SESSIONS:
            problems.append(Problem(f"{path}.{index}.sessions", f"Sessions are 1 to {MOST_SESSIONS}."))
        key = (game.weekday, game.starts_at)
        if key in seen:
            problems.append(
                Problem(f"{path}.{index}.weekday", f"The same weekday and time as {path}.{seen[key]}.")
            )
        seen.setdefault(key, index)
    return problems


def _too_many_games(games: Sequence[RegularGame], weekday: int, path: str) -> Problem:
    count = sum(game.weekday == weekday for game in games)
    return Problem(
        path,
        f"{WEEKDAYS[weekday - 1]} have {count} nights here: a venue plays at most "
        f"{MOST_GAMES_A_WEEKDAY} nights on one weekday.",
        "R2",
    )


def days(first: date, last: date) -> Iterable[date]:
    day = first
    while day <= last:
        yield day
        day += timedelta(days=1)


def regular_games(schedule: Sequence[RegularGame], first: date, last: date) -> list[ScheduledGame]:
    """The schedule's games from `first` to `last` (both included), before any exception."""
    by_day: dict[int, list[RegularGame]] = {}
    for game in schedule:
        by_day.setdefault(game.weekday, []).append(game)
    return [
        ScheduledGame(day, game.starts_at, game.sessions)
        for day in days(first, last)
        for game in sorted(by_day.get(day.isoweekday(), []), key=lambda n: n.starts_at)
    ]


def scheduled_games(
    schedule: Sequence[RegularGame], exceptions: Sequence[ScheduleChange], first: date, last: date
) -> list[ScheduledGame]:
    """The games from `first` to `last`, exceptions applied: a cancelled game is listed as
    cancelled, a moved one on its new date (with `moved_from`), an added one as a make-up. The
    work grows with the range and the exceptions, not with how far a game was moved."""
    changed = {(e.kind, e.date): e for e in exceptions}
    games: list[ScheduledGame] = []
    for game in regular_games(schedule, first, last):
        games.extend(_applied(game, changed))
    moved_in = [
        e
        for e in changed.values()
        if e.kind == ExceptionKind.MOVED
        and e.to_date is not None
        and first <= e.to_date <= last
        and not first <= e.date <= last
    ]
    for e in moved_in:  # games moved into the range from a date outside it
        for game in regular_games(schedule, e.date, e.date):
            games.extend(_applied(game, changed))
    games.extend(
        ScheduledGame(e.date, e.starts_at or "19:00", e.sessions or 1, make_up=True, note=e.note)
        for e in changed.values()
        if e.kind == ExceptionKind.ADDED
    )
    kept = [game for game in games if first <= game.date <= last]
    return sorted(kept, key=lambda n: (n.date, n.starts_at))


def _applied(game: ScheduledGame, changed: dict[tuple[str, date], ScheduleChange]) -> list[ScheduledGame]:
    cancelled = changed.get((ExceptionKind.CANCELLED, game.date))
    if cancelled is not None:
        return [replace(game, cancelled=True, note=cancelled.note)]
    moved = changed.get((ExceptionKind.MOVED, game.date))
    if moved is not None and moved.to_date is not None:
        starts = moved.starts_at or game.starts_at
        return [
            replace(
                game,
                date=moved.to_date,
                starts_at=starts,
                moved_from=game.date,
                moved_from_start=game.starts_at,
                note=moved.note,
            )
        ]
    return [game]


def scheduled_on(schedule: Sequence[RegularGame], day: date) -> bool:
    return any(game.weekday == day.isoweekday() for game in schedule)


def exception_problems(exception: ScheduleChange, schedule: Sequence[RegularGame]) -> list[Problem]:
    """An exception's own checks: times, sessions, a moved game's new date."""
    problems: list[Problem] = []
    if exception.starts_at is not None and not valid_time(exception.starts_at):
        problems.append(Problem("starts_at", "A start time is HH:MM, 00:00 to 23:59."))
    if exception.sessions is not None and not 1 <= exception.sessions <= MOST_SESSIONS:
        problems.append(Problem("sessions", f"Sessions are 1 to {MOST_SESSIONS}."))
    if exception.kind == ExceptionKind.MOVED and exception.to_date is None:
        problems.append(Problem("to", "A moved night says its new date."))
    if exception.kind == ExceptionKind.MOVED and exception.to_date == exception.date:
        problems.append(Problem("to", "A moved night moves to another date."))
    if exception.kind == ExceptionKind.ADDED and exception.starts_at is None:
        problems.append(Problem("starts_at", "A make-up night says when it starts."))
    regular = exception.kind in (ExceptionKind.CANCELLED, ExceptionKind.MOVED)
    if regular and not scheduled_on(schedule, exception.date):
        problems.append(
            Problem(
                "date",
                f"{exception.date:%A %-d %B %Y} is not one of the venue's regular nights: only a "
                "regular night is cancelled or moved (a make-up night is kind added, and deleted "
                "when it is off).",
            )
        )
    return problems


def day_problems(
    schedule: Sequence[RegularGame], exceptions: Sequence[ScheduleChange], change: ScheduleChange
) -> list[Problem]:
    """R2: a make-up game, or a game moved in, on a date that would then hold more than 3
    games (its changes applied; a cancelled game does not count), named at `date` or `to`."""
    if change.kind == ExceptionKind.ADDED:
        path, day = "date", change.date
    elif change.kind == ExceptionKind.MOVED and change.to_date is not None:
        path, day = "to", change.to_date
    else:
        return []
    games = scheduled_games(schedule, [*exceptions, change], day, day)
    held = [game for game in games if not game.cancelled]
    if len(held) <= MOST_GAMES_A_DATE:
        return []
    return [
        Problem(
            path,
            f"{day:%A %-d %B %Y} would hold {len(held)} nights: a date holds at most "
            f"{MOST_GAMES_A_DATE} nights, its changes applied (a cancelled night does not count).",
            "R2",
        )
    ]


def _local(day: date, start: str, zone: str) -> datetime:
    hours, minutes = (int(part) for part in start.split(":"))
    return datetime(day.year, day.month, day.day, hours, minutes, tzinfo=ZoneInfo(zone))


def on_the_clock(day: date, start: str, zone: str) -> datetime:
    """R2a: the instant a wall clock in `zone` shows `start` on `day`, named by a time that clock
    shows. A start the clocks skip (the hour they go forward) is as much later as they jump: 02:30
    is 03:30 where 02:00 becomes 03:00 (as RFC 5545 reads it, with the offset before the jump). A
    start they show twice (the hour they go back) is the first of the two."""
    local = _local(day, start, zone)  # fold 0: the first of two, or the offset before a jump
    return local.astimezone(UTC).astimezone(local.tzinfo)


def skipped(day: date, start: str, zone: str) -> bool:
    """Whether a wall clock in `zone` never shows `start` on `day` (it goes forward past it)."""
    asked = _local(day, start, zone)
    return on_the_clock(day, start, zone).replace(tzinfo=None) != asked.replace(tzinfo=None)


def wall_clock_problems(change: ScheduleChange, schedule: Sequence[RegularGame], zone: str) -> list[Problem]:
    """R2a: a make-up game, or a moved one, at a start its date's wall clock never shows (the
    hour the clocks go forward), named at `starts_at` (or `to`, when a moved game keeps its
    regular start). A regular game is not refused so: on that one date it starts later."""
    given: list[tuple[str, str]] = []
    if change.starts_at is not None:
        given = [("starts_at", change.starts_at)]
    if change.kind == ExceptionKind.ADDED:
        day = change.date
    elif change.kind == ExceptionKind.MOVED and change.to_date is not None:
        day = change.to_date
        kept = [("to", game.starts_at) for game in schedule if game.weekday == change.date.isoweekday()]
        given = given or kept
    else:
        return []
    problems = []
    for path, start in given:
        if valid_time(start) and skipped(day, start, zone):
            later = on_the_clock(day, start, zone)
            problems.append(
                Problem(
                    path,
                    f"{start} does not exist on {day:%A %-d %B %Y} in {zone}: the clocks go forward "
                    f"past it. Give a start the clock shows that day, such as {later:%H:%M}.",
                    "R2a",
                )
            )
    return problems


def starts(game: ScheduledGame, zone: str) -> datetime:
    """The game's start as an instant: its local date and time on the venue's wall clock (R2a,
    `on_the_clock`: a start the clocks skip is moved forward, one they show twice is the first)."""
    return on_the_clock(game.date, game.starts_at, zone)


def is_missing(game: ScheduledGame, today: date, reported: bool, first_day: date | None = None) -> bool:
    """A game whose local date is before the venue's today, not cancelled, with no report. R2,
    R17: never one before the venue's `first_day` (the date it was added to the league, on its
    clock): a schedule gives no game to a venue that did not exist yet, so nobody is sent after
    its report."""
    if first_day is not None and game.date < first_day:
        return False
    return not game.cancelled and not reported and game.date < today


def week_missing(
    games: Sequence[ScheduledGame], today: date, reported_days: set[date], first_day: date | None = None
) -> bool:
    """A scheduled venue is missing a week's report when one of its games that week has passed
    (its date before the venue's today, on or after its first day) with no report that day."""
    return any(is_missing(game, today, game.date in reported_days, first_day) for game in games)


def played_games(games: Sequence[ScheduledGame], reported: Mapping[date, int]) -> list[ScheduledGame]:
    """R2: the games a venue played that its schedule did not give: a date with live reports
    (`reported`: how many sessions, by date) and no game held there (none given, or only a
    cancelled one), as an unscheduled game of that many sessions and no start."""
    held = {game.date for game in games if not game.cancelled}
    return [
        ScheduledGame(day, "", sessions, unscheduled=True)
        for day, sessions in sorted(reported.items())
        if day not in held
    ]


WEEKDAYS = ("Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays")


def said_schedule(schedule: Sequence[RegularGame]) -> str:
    """A venue's regular games in a host's words: "Tuesdays at 19:00, Thursdays at 20:00"."""
    ordered = sorted(schedule, key=lambda game: (game.weekday, game.starts_at))
    return ", ".join(f"{WEEKDAYS[game.weekday - 1]} at {game.starts_at}" for game in ordered)


def off_schedule(
    schedule: Sequence[RegularGame], exceptions: Sequence[ScheduleChange], day: date
) -> str | None:
    """R2: why a report's date is not one of the venue's games (cancelled by the schedule, or a
    day with no game and no make-up), or None when it is one, or when the venue keeps no
    schedule. A report on such a date is stored, warned of: hosts play make-ups before anyone
    records them."""
    if not schedule and not exceptions:
        return None
    games = scheduled_games(schedule, exceptions, day, day)
    if any(not game.cancelled for game in games):
        return None
    on = f"{day:%a} {day.day} {day:%b %Y}"
    cancelled = next((game for game in games if game.cancelled), None)
    if cancelled is not None:
        note = f" ({cancelled.note})" if cancelled.note else ""
        return f"the venue's schedule cancelled the night of {on}{note}"
    regular = said_schedule(schedule) or "no regular nights"
    return f"{on} is not a night of the venue's schedule ({regular}) and no make-up night is recorded for it"
