"""R24: dates and times as people read them. The league chooses how a date reads (a CLDR pattern,
"EEE d MMM y" → "Tue 1 Dec 2026", or "d/M/y" → "1/12/2026", or a named style: short, medium,
long, full) and in which language and region (a locale: en_GB, en_US, de_DE, …); times read in
the locale's short form ("19:00", "7:00 PM"). Every page, the console, the emails and the chat
messages say dates this way; the API keeps ISO 8601. Formatting is Babel's (CLDR), never a
hand-written strftime. An instant (a timestamp, stored in UTC) is read on the league's clock
(R2a) before it is said."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from functools import lru_cache
from typing import Literal, cast
from zoneinfo import ZoneInfo

from babel import Locale, UnknownLocaleError
from babel.dates import (
    format_date,
    format_skeleton,
    format_time,
    get_date_format,
    tokenize_pattern,
    untokenize_pattern,
)

DEFAULT_DATE_FORMAT = "EEE d MMM y"
DEFAULT_LOCALE = "en_GB"
NamedStyle = Literal["short", "medium", "long", "full"]
NAMED_STYLES: tuple[NamedStyle, ...] = ("short", "medium", "long", "full")
# A sample the league's pattern is tried on when saved: a Tuesday, the first of a month, so that
# a pattern missing the day or the month shows it.
SAMPLE = date(2026, 12, 1)
# Pattern letters that say the day of the month, and the month.
_DAY_FIELDS = {"d"}
_MONTH_FIELDS = {"M", "L"}
# A date as the API writes it, inside a sentence (a refusal's, a notice's: the API's words).
ISO_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
# Pattern letters that say the year (or the era it is counted in).
_YEAR_FIELDS = {"G", "y", "Y", "u", "U", "r"}
_ALLOWED_FIELDS = {"G", "y", "Y", "u", "M", "L", "d", "E", "e", "c", "Q", "q", "w", "W", "D"}


@dataclass(frozen=True)
class DateWords:
    """How the league says dates and times to people: its pattern (or named style), its locale,
    and the zone its instants are read in (R2a). The one way a date or a time becomes words for
    a person: the pages (console, embeds), the emails and the chat messages all go through it."""

    pattern: str = DEFAULT_DATE_FORMAT
    locale: str = DEFAULT_LOCALE
    zone: str = "UTC"

    def day(self, day: date | None, *, year: bool = True) -> str:
        """A date as people read it ("Tue 1 Dec 2026"); "" for none. Without its `year` where the
        year goes without saying (a line of a list whose full date is a tap away): the league's
        pattern with its year left out ("Tue 1 Dec", "1/12")."""
        if day is None:
            return ""
        pattern = self.pattern if year else without_year(self.pattern, self.locale)
        return say_date(day, pattern, self.locale)

    def day_of(self, text: str | None) -> str:
        """A date written as the API writes it (ISO 8601, "2026-12-01": an event's data, an audit
        entry's value) as people read it; a text that is no such date is said as it is."""
        if not text:
            return ""
        try:
            day = date.fromisoformat(text) if ISO_DAY.fullmatch(text) else None
        except ValueError:
            day = None  # 2026-13-01: no such day
        return text if day is None else self.day(day)

    def dates_in(self, text: str) -> str:
        """A sentence written for the API (a refusal, a notice) with its ISO dates said as the
        league says dates, for a person reading it on a page."""
        return ISO_DAY.sub(lambda found: self.day_of(found.group(0)), text)

    def short_day(self, day: date | None, *, year: bool = False) -> str:
        """A date where room is short (a chart's axis, a column's head): the day and the month, in
        the locale's order ("1 Dec", "Dec 1"), with the year when asked ("1 Dec 2026"); "" for
        none."""
        if day is None:
            return ""
        return format_skeleton("yMMMd" if year else "MMMd", day, locale=self.locale)

    def time(self, moment: time | None) -> str:
        """A time of day as people read it ("19:00", "7:00 PM"); "" for none."""
        return "" if moment is None else format_time(moment, "short", locale=self.locale)

    def hour(self, text: str | None) -> str:
        """A wall-clock time written "HH:MM" (a night's start on its venue's clock, R2a) as people
        read it; a text that is no such time is said as it is."""
        if not text:
            return ""
        try:
            return self.time(time.fromisoformat(text))
        except ValueError:
            return text

    def local(self, at: datetime, zone: str | None = None) -> datetime:
        """A timestamp (UTC, naive or aware) on the league's clock (or `zone`'s)."""
        aware = at if at.tzinfo else at.replace(tzinfo=UTC)
        return aware.astimezone(ZoneInfo(zone or self.zone))

    def instant(self, at: datetime | None, zone: str | None = None, *, zone_name: bool = False) -> str:
        """A timestamp (UTC, naive or aware) on the league's clock (or `zone`'s): "Tue 1 Dec 2026,
        19:05"; with `zone_name`, the zone's abbreviation after it ("19:05 CST")."""
        if at is None:
            return ""
        local = self.local(at, zone)
        said = f"{self.day(local.date())}, {self.time(local.time().replace(tzinfo=None))}"
        return f"{said} {local.tzname()}" if zone_name else said

    def clock(self, at: datetime | None, zone: str | None = None, *, zone_name: bool = False) -> str:
        """The time of day of a timestamp on the league's clock (or `zone`'s): "19:05"; with
        `zone_name`, "19:05 CST"."""
        if at is None:
            return ""
        local = self.local(at, zone)
        said = self.time(local.time().replace(tzinfo=None))
        return f"{said} {local.tzname()}" if zone_name else said


def say_date(day: date, pattern: str = DEFAULT_DATE_FORMAT, locale: str = DEFAULT_LOCALE) -> str:
    """The date in the league's pattern and locale."""
    return format_date(day, pattern, locale=locale)


@lru_cache(maxsize=64)
def without_year(pattern: str, locale: str) -> str:
    """The pattern (a named style: the locale's pattern for it) with its year fields left out,
    and the literal text that joins each to the rest: "EEE d MMM y" → "EEE d MMM", "d/M/y" →
    "d/M", "MMM d, y" → "MMM d", "y年M月d日" → "M月d日"."""
    if pattern in NAMED_STYLES:
        pattern = get_date_format(cast(NamedStyle, pattern), locale=locale).pattern
    tokens = list(tokenize_pattern(pattern))
    while True:
        at = next(
            (i for i, (kind, value) in enumerate(tokens) if kind == "field" and value[0] in _YEAR_FIELDS),
            None,
        )
        if at is None:
            return untokenize_pattern(tokens).strip()
        first, last = at, at + 1
        if at > 0:  # the text before it joins it to what it follows
            while first > 0 and tokens[first - 1][0] == "chars":
                first -= 1
        else:  # the year comes first: the text after it joins it to what follows
            while last < len(tokens) and tokens[last][0] == "chars":
                last += 1
        del tokens[first:last]


def locale_problem(locale: str) -> str | None:
    """Why a locale cannot be the league's (None: it can)."""
    try:
        Locale.parse(locale)
    except (UnknownLocaleError, ValueError, TypeError):
        return f"{locale!r} is not a locale Babel knows: write it as en_GB, en_US, de_DE, fr_FR, …"
    return None


def date_format_problem(pattern: str, locale: str = DEFAULT_LOCALE) -> str | None:
    """Why a date pattern cannot be the league's (None: it can): a named style, or a CLDR pattern
    of date fields that says at least the day and the month, tried on a sample date."""
    if pattern in NAMED_STYLES:
        return None
    try:
        fields = {value[0] for kind, value in tokenize_pattern(pattern) if kind == "field"}
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        return f"{pattern!r} is not a date pattern ({exc}); for example 'EEE d MMM y' or 'd/M/y'."
    unknown = sorted(fields - _ALLOWED_FIELDS)
    if unknown:
        return f"{pattern!r} uses {', '.join(unknown)}, which are not parts of a date."
    try:
        sample = format_date(SAMPLE, pattern, locale=locale)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        return f"{pattern!r} is not a date pattern ({exc}); for example 'EEE d MMM y' or 'd/M/y'."
    if not fields & _DAY_FIELDS or not fields & _MONTH_FIELDS:
        return f"{pattern!r} must say the day (d) and the month (M): it reads {sample!r}."
    return None
