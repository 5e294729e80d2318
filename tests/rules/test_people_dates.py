"""R24: how the league says dates and times to people (`DateWords`): its pattern and locale, its
instants on its clock (R2a); a date written as the API writes it (ISO 8601) said the same way,
inside a sentence too; what is no date left as it is."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

import pytest

from models.rules.people_dates import DateWords

pytestmark = pytest.mark.rules

TUESDAY = date(2026, 12, 1)
NNBSP = "\u202f"  # CLDR's narrow no-break space before AM and PM


def test_r24_a_date_reads_in_the_leagues_pattern_and_locale() -> None:
    assert DateWords().day(TUESDAY) == "Tue 1 Dec 2026"
    assert DateWords("d/M/y").day(TUESDAY) == "1/12/2026"
    assert DateWords("full", "en_US").day(TUESDAY) == "Tuesday, December 1, 2026"
    assert DateWords("EEE d MMM y", "de_DE").day(TUESDAY) == "Di. 1 Dez. 2026"
    assert DateWords().day(None) == ""


def test_r24_a_date_without_its_year_is_the_leagues_pattern_less_the_year() -> None:
    """Where the year goes without saying (a list's line on a phone), the same pattern with the
    year and what joins it left out, in any locale's order."""
    assert DateWords().day(TUESDAY, year=False) == "Tue 1 Dec"
    assert DateWords("d/M/y").day(TUESDAY, year=False) == "1/12"
    assert DateWords("medium", "en_US").day(TUESDAY, year=False) == "Dec 1"
    assert DateWords("long", "ja_JP").day(TUESDAY, year=False) == "12月1日"
    assert DateWords("d 'de' MMMM 'de' y", "es_ES").day(TUESDAY, year=False) == "1 de diciembre"


def test_r24_an_iso_date_of_the_api_reads_as_a_date_and_anything_else_as_it_is() -> None:
    words = DateWords("d/M/y")
    assert words.day_of("2026-12-01") == "1/12/2026"
    assert words.day_of("2026-13-01") == "2026-13-01"  # no such day
    assert words.day_of("permanent") == "permanent" and words.day_of("2026-W49-2") == "2026-W49-2"
    assert words.day_of(None) == "" and words.day_of("") == ""
    said = words.dates_in("Suspended from 2026-12-01 until 2026-12-14; report 2026-13-40.")
    assert said == "Suspended from 1/12/2026 until 14/12/2026; report 2026-13-40."


def test_r24_times_read_in_the_locales_short_form() -> None:
    assert DateWords().time(time(19, 5)) == "19:05"
    assert DateWords(locale="en_US").time(time(19, 5)) == f"7:05{NNBSP}PM"
    assert DateWords(locale="en_US").hour("19:30") == f"7:30{NNBSP}PM"
    assert DateWords().hour("later") == "later" and DateWords().hour(None) == ""


def test_r24_r2a_an_instant_reads_on_the_leagues_clock() -> None:
    """01:30 UTC on Wednesday 2 December is 19:30 on Tuesday 1 December in Chicago (CST)."""
    chicago = DateWords(zone="America/Chicago")
    stored = datetime(2026, 12, 2, 1, 30)  # naive: UTC, as the columns store it
    assert chicago.instant(stored) == "Tue 1 Dec 2026, 19:30"
    assert chicago.instant(stored, zone_name=True) == "Tue 1 Dec 2026, 19:30 CST"
    assert chicago.instant(stored.replace(tzinfo=UTC)) == "Tue 1 Dec 2026, 19:30"
    assert chicago.clock(stored, zone_name=True) == "19:30 CST"
    assert chicago.instant(stored, "Europe/London") == "Wed 2 Dec 2026, 01:30"
    assert DateWords().instant(stored, zone_name=True) == "Wed 2 Dec 2026, 01:30 UTC"
    assert chicago.instant(None) == "" and chicago.clock(None) == ""


def test_r24_a_short_date_keeps_the_locales_order() -> None:
    assert DateWords().short_day(TUESDAY) == "1 Dec"
    assert DateWords(locale="en_US").short_day(TUESDAY) == "Dec 1"
    assert DateWords().short_day(TUESDAY, year=True) == "1 Dec 2026"
    assert DateWords().short_day(None) == ""
