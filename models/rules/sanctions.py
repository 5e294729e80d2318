"""R15-R16: sanctions (reminders, warnings, suspensions, venue bans), their minimum lengths, the
days they run, and who they bar from playing where."""

from __future__ import annotations

import calendar
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from enum import StrEnum

from models.errors import Problem


class SanctionKind(StrEnum):
    """R15: what a sanction is."""

    REMINDER = "reminder"
    WARNING = "warning"
    SUSPENSION = "suspension"
    VENUE_BAN = "venue_ban"


class SanctionCategory(StrEnum):
    """R15: what a sanction is for (outside alcohol has a longer minimum suspension)."""

    CHEATING = "cheating"
    COLLUSION = "collusion"
    BERATING = "berating"
    FIGHTING = "fighting"
    OUTSIDE_ALCOHOL = "outside_alcohol"
    GAMBLING = "gambling"
    BAD_ETIQUETTE = "bad_etiquette"
    LATE_ARRIVAL = "late_arrival"
    OTHER = "other"


KINDS = tuple(kind.value for kind in SanctionKind)
# Issued by the office only, and good at every venue; a venue ban names its venue.
LEAGUE_WIDE_KINDS = (SanctionKind.REMINDER, SanctionKind.WARNING, SanctionKind.SUSPENSION)
# The kinds that keep a player from playing (R16): a suspension anywhere, a ban at its venue.
BARRING_KINDS = (SanctionKind.SUSPENSION, SanctionKind.VENUE_BAN)
CATEGORIES = tuple(category.value for category in SanctionCategory)


class DoorGroup(StrEnum):
    """R16: where a barred player stands on a venue's door list, the ones the door is likeliest
    to see first: they played at the venue, else elsewhere in its region, else anywhere."""

    VENUE = "venue"  # a result in a live report at the venue
    REGION = "region"  # none there; one at another venue of the venue's region
    LEAGUE = "league"  # everyone else


DOOR_GROUPS = tuple(group.value for group in DoorGroup)


def door_group(played_here: bool, played_in_region: bool) -> DoorGroup:
    """R16: a barred player's group on a venue's door list."""
    if played_here:
        return DoorGroup.VENUE
    return DoorGroup.REGION if played_in_region else DoorGroup.LEAGUE


def door_order(group: DoorGroup, display_name: str, player_id: int) -> tuple[int, str, int]:
    """R16: a door list's order: by group (venue, region, league), then by display name
    (ignoring case), then by player number."""
    return (DOOR_GROUPS.index(group), display_name.casefold(), player_id)


@dataclass(frozen=True)
class Minimums:
    """R15: the league's minimum suspension lengths (league settings)."""

    suspension_days: int = 14
    outside_alcohol_months: int = 6


@dataclass(frozen=True)
class Terms:
    """What a sanction says: its kind and category, where (a venue ban's venue), and its days.
    `last_day` None is permanent; `lifted_on` is the day it was lifted early, if it was."""

    kind: str
    category: str
    first_day: date
    last_day: date | None = None
    venue_id: int | None = None
    lifted_on: date | None = None

    def runs_on(self, day: date) -> bool:
        """R15: the first and the last day are both days of the sanction; a lifted one stops
        on the day it was lifted."""
        if day < self.first_day or (self.last_day is not None and day > self.last_day):
            return False
        return self.lifted_on is None or day < self.lifted_on

    def bars(self, venue_id: int, day: date) -> bool:
        """R16: does this keep the player from playing at the venue on the day? A lifted sanction
        bars no one any more, not even on the days it ran: the office lifts it to let the
        player's results stand."""
        if self.lifted_on is not None or not self.runs_on(day):
            return False
        return self.kind == SanctionKind.SUSPENSION or (
            self.kind == SanctionKind.VENUE_BAN and self.venue_id == venue_id
        )


def add_months(day: date, months: int) -> date:
    """The same day `months` later, or the month's last day when it has no such day
    (31 August + 6 months is 28 or 29 February)."""
    month_index = day.month - 1 + months
    year, month = day.year + month_index // 12, month_index % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def last_of_days(first_day: date, days: int) -> date:
    """R15: the last day of a period of `days` days from `first_day`, both counted (14 days from
    1 December end on 14 December); no shorter than the first day itself (0 days as 1)."""
    return first_day + timedelta(days=max(days, 1) - 1)


def last_of_months(first_day: date, months: int) -> date:
    """R15: the last day of a period of `months` months from `first_day`, both counted: the day
    before the same day of the month `months` later (1 December + 6 months: 31 May), or, when that
    month has no such day, its last day (31 August + 6 months: 28 or 29 February); no shorter than
    the first day itself (0 months as the one day)."""
    if months <= 0:
        return first_day
    month_index = first_day.month - 1 + months
    year, month = first_day.year + month_index // 12, month_index % 12 + 1
    month_days = calendar.monthrange(year, month)[1]
    if first_day.day > month_days:
        return date(year, month, month_days)
    return date(year, month, first_day.day) - timedelta(days=1)


@dataclass(frozen=True)
class Minimum:
    """R15: the shortest a suspension may be (`length` days or months, by the league settings)
    and the earliest last day it gives from the suspension's first day."""

    length: int
    unit: str  # "day" or "month"
    earliest: date


def minimum_of(terms: Terms, minimums: Minimums) -> Minimum | None:
    """R15: the minimum that binds a suspension (None where no minimum applies): the league's
    minimum days, and for outside alcohol its minimum months too, the longer of the two."""
    if terms.kind != SanctionKind.SUSPENSION:
        return None
    by_days = Minimum(
        minimums.suspension_days, "day", last_of_days(terms.first_day, minimums.suspension_days)
    )
    if terms.category != SanctionCategory.OUTSIDE_ALCOHOL:
        return by_days
    months = minimums.outside_alcohol_months
    by_months = Minimum(months, "month", last_of_months(terms.first_day, months))
    return by_days if by_days.earliest > by_months.earliest else by_months


def earliest_last_day(terms: Terms, minimums: Minimums) -> date | None:
    """R15: the earliest last day a suspension may have (None where no minimum applies). The first
    and the last day both count toward its length: with a minimum of N days, the first day plus
    N - 1 days; of M months, the day before the same day of the month M months later."""
    minimum = minimum_of(terms, minimums)
    return None if minimum is None else minimum.earliest


MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def day_month(day: date, with_year: bool = False) -> str:
    """A day as people write it: "1 December", or "1 December 2026" with the year (in English
    whatever the machine's locale)."""
    said = f"{day.day} {MONTH_NAMES[day.month - 1]}"
    return f"{said} {day.year}" if with_year else said


def minimum_message(terms: Terms, minimum: Minimum) -> str:
    """R15: why a last day is too early, in the league's words: "at least 14 days, counting the
    first and the last: from 1 December, 14 December or later" (the years are said when the
    earliest last day falls in another year than the first day)."""
    unit = minimum.unit if minimum.length == 1 else f"{minimum.unit}s"
    other_year = minimum.earliest.year != terms.first_day.year
    what = "A suspension for outside alcohol" if minimum.unit == "month" else "A suspension"
    return (
        f"{what} lasts at least {minimum.length} {unit}, counting the first and the last: from "
        f"{day_month(terms.first_day, other_year)}, {day_month(minimum.earliest, other_year)} or "
        "later; or it is permanent (no last_day)."
    )


def terms_problems(terms: Terms, minimums: Minimums) -> list[Problem]:
    """R15: what is wrong with a sanction's terms, at the request's field paths."""
    problems: list[Problem] = []
    if terms.kind == SanctionKind.VENUE_BAN and terms.venue_id is None:
        problems.append(Problem("venue_id", "A venue ban names the venue it bars the player from.", "R15"))
    if terms.kind in LEAGUE_WIDE_KINDS and terms.venue_id is not None:
        problems.append(
            Problem(
                "venue_id",
                f"A {terms.kind} is league-wide: it names no venue (only a venue_ban does).",
                "R15",
            )
        )
    if terms.last_day is not None and terms.last_day < terms.first_day:
        problems.append(Problem("last_day", "The last day cannot come before the first day.", "R15"))
        return problems
    minimum = minimum_of(terms, minimums)
    if minimum is not None and terms.last_day is not None and terms.last_day < minimum.earliest:
        problems.append(Problem("last_day", minimum_message(terms, minimum), "R15"))
    return problems


@dataclass(frozen=True)
class Barred:
    """R16: a row of a report whose player may not play there that day, and why."""

    row: int
    player_id: int
    sanction_id: int
    terms: Terms
    # How the refusal names the player to a host ("Pete M. (#45)").
    who: str = ""


def barred_rows(
    player_ids: Sequence[int | None],
    sanctions: Iterable[tuple[int, int, Terms]],
    venue_id: int,
    day: date,
) -> list[Barred]:
    """R16: the rows (by index) whose player a sanction bars from the venue on the day.
    `player_ids` holds each row's player (None for a player not registered yet); `sanctions`
    holds (sanction id, player id, terms) of those players."""
    by_player: dict[int, list[tuple[int, Terms]]] = {}
    for sanction_id, player_id, terms in sanctions:
        if terms.bars(venue_id, day):
            by_player.setdefault(player_id, []).append((sanction_id, terms))
    return [
        Barred(index, player_id, sanction_id, terms)
        for index, player_id in enumerate(player_ids)
        if player_id is not None
        for sanction_id, terms in sorted(by_player.get(player_id, []))
    ]


def split_kept(barred: list[Barred], stored: Iterable[int]) -> tuple[list[Barred], list[Barred]]:
    """R16, a correction: it is refused only for the players it adds to the report. A barred row
    whose player the stored report already held keeps its row (with a warning), whatever the
    correction changes (its date or venue too); the others are refused. Returns (refused, kept)."""
    held = set(stored)
    refused = [b for b in barred if b.player_id not in held]
    kept = [b for b in barred if b.player_id in held]
    return refused, kept


def sanction_override(
    office: bool, barred: list[Barred], override_reason: str | None
) -> tuple[list[Barred], list[Problem]]:
    """R16: barred players refuse the report, unless the office overrides with a written reason;
    a host cannot override. Returns (what is overridden, the problems)."""
    if override_reason is not None and not office:
        return [], [
            Problem("override_reason", "Only the office may override a sanction.", "R16"),
            *map(barred_problem, barred),
        ]
    if override_reason is not None:
        return barred, []
    return [], [barred_problem(b) for b in barred]


def barred_problem(barred: Barred) -> Problem:
    """R16: the problem at the row of a barred player, naming the sanction."""
    terms = barred.terms
    what = "suspended league-wide" if terms.kind == SanctionKind.SUSPENSION else "banned from this venue"
    until = "permanently" if terms.last_day is None else f"until {terms.last_day.isoformat()}"
    who = barred.who or f"Player {barred.player_id}"
    return Problem(
        f"results.{barred.row}.player_id",
        f"{who} is {what} {until} (sanction {barred.sanction_id}, "
        f"{terms.category}); the office may override with override_reason.",
        "R16",
    )
