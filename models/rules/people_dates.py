"""R24: dates and times as people read them. The league chooses how a date reads (a CLDR pattern,
"EEE d MMM y" → "Tue 1 Dec 2026", or "d/M/y" → "1/12/2026", or a named style: short, medium,
long, full) and in which language and region (a locale: en_GB, en_US, de_DE, …); times read in
the locale's short form ("19:00", "7:00 PM"). Every page, the console, the emails and the chat
messages say dates this way; the API keeps ISO 8601. Formatting is Babel's (CLDR), never a
hand-written strftime. An instant (a timestamp, stored in UTC) is read on the league's clock
(R2a) before it is said."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

from babel import Locale, UnknownLocaleError
from babel.dates import format_date, format_time, tokenize_pattern

DEFAULT_DATE_FORMAT = "EEE d MMM y"
DEFAULT_LOCALE = "en_GB"
NAMED_STYLES = ("short", "medium", "long", "full")
# A sample the league's pattern is tried on when saved: a Tuesday, the first of a month, so that
# a pattern missing the day or the month shows it.
SAMPLE = date(2026, 12, 1)
# Pattern letters that say the day of the month, and the month.
_DAY_FIELDS = {"d"}
_MONTH_FIELDS = {"M", "L"}
_ALLOWED_FIELDS = {"G", "y", "Y", "u", "M", "L", "d", "E", "e", "c", "Q", "q", "w", "W", "D"}


@dataclass(frozen=True)
class DateWords:
    """How the league says dates: its pattern (or named style) and its locale."""

    pattern: str = DEFAULT_DATE_FORMAT
    locale: str = DEFAULT_LOCALE

    def day(self, day: date | None) -> str:
        """A date as people read it ("Tue 1 Dec 2026"); "" for none."""
        return "" if day is None else say_date(day, self.pattern, self.locale)

    def time(self, moment: time | None) -> str:
        """A time of day as people read it ("19:00", "7:00 PM"); "" for none."""
        return "" if moment is None else format_time(moment, "short", locale=self.locale)

    def instant(self, at: datetime | None, zone: str) -> str:
        """A timestamp (UTC, naive or aware) on the league's clock: "Tue 1 Dec 2026, 19:05"."""
        if at is None:
            return ""
        local = (at if at.tzinfo else at.replace(tzinfo=UTC)).astimezone(ZoneInfo(zone))
        return f"{self.day(local.date())}, {self.time(local.time().replace(tzinfo=None))}"


def say_date(day: date, pattern: str = DEFAULT_DATE_FORMAT, locale: str = DEFAULT_LOCALE) -> str:
    """The date in the league's pattern and locale."""
    return format_date(day, pattern, locale=locale)


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
