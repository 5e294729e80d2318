"""R24: dates and times on the pages people read (the console, the embeddable pages, the league's
site), in the league's format and locale and on its clock (R2a). One mechanism: the Jinja filters
below, registered once on the app, say every date through the league's `DateWords`
(models/rules/people_dates.py), read once a request (`wall_clock.people_dates`, cached by the
`league` scope's version as the league's other settings are). The emails and the chat messages
say theirs through the same `DateWords`, read by the delivery worker's session. The API's answers
(JSON, CSV, iCalendar) and the values of form inputs keep ISO 8601.

    {{ report.date | people_date }}          Tue 1 Dec 2026       (a date, or an ISO date's text)
    {{ report.date | people_date(year=False) }}  Tue 1 Dec        (the year going without saying)
    {{ entry.at | people_time }}             Tue 1 Dec 2026, 19:05 CST  (a stored UTC instant)
    {{ clock.level_ends_at | people_clock }} 19:05 CST            (its time of day)
    {{ game.local_start | people_hour }}     19:30, 7:30 PM       (a wall-clock "HH:MM")
    {{ day | people_short_date }}            1 Dec, Dec 1         (where room is short)
    {{ message | people_dates_in }}          a sentence of the API's, its ISO dates said as above
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime

from flask import Flask

from api import db
from models.rules.people_dates import DateWords
from models.services import wall_clock


def words() -> DateWords:
    """How the league says dates and times, for this request."""
    return wall_clock.people_dates(db.session())


def people_date(value: date | datetime | str | None, year: bool = True) -> str:
    """A local date (R2a) in the league's format: "Tue 1 Dec 2026"; `year=False` where the year
    goes without saying and room is short (a list's line on a phone): "Tue 1 Dec". A stored
    instant (a datetime, UTC) is said by its date on the league's clock; a text that is no ISO
    date is said as it is."""
    said = words()
    if isinstance(value, str):
        return said.day_of(value)
    if isinstance(value, datetime):
        return said.day(said.local(value).date(), year=year)
    return said.day(value, year=year)


def people_time(instant: datetime | None) -> str:
    """A stored instant (UTC) on the league's clock, with its zone: "Tue 1 Dec 2026, 19:05 CST"."""
    return words().instant(instant, zone_name=True)


def people_clock(instant: datetime | None) -> str:
    """A stored instant's time of day on the league's clock, with its zone: "19:05 CST"."""
    return words().clock(instant, zone_name=True)


def people_hour(text: str | None) -> str:
    """A wall-clock time "HH:MM" (a night's start on its venue's clock) in the league's locale."""
    return words().hour(text)


def people_dates_in(text: str | None) -> str:
    """A sentence of the API's (a refusal, a notice, a flashed message) with its ISO dates said in
    the league's format: "until 2026-12-14" reads "until Mon 14 Dec 2026"."""
    return words().dates_in(str(text)) if text else ""


def people_short_date(value: date | None) -> str:
    """A date where room is short: "1 Dec" (en_GB), "Dec 1" (en_US)."""
    return words().short_day(value)


FILTERS: dict[str, Callable[..., str]] = {
    "people_date": people_date,
    "people_time": people_time,
    "people_clock": people_clock,
    "people_hour": people_hour,
    "people_short_date": people_short_date,
    "people_dates_in": people_dates_in,
}


def init_app(app: Flask) -> None:
    """The filters, once, for every template of the app."""
    for name, said in FILTERS.items():
        app.add_template_filter(said, name)
