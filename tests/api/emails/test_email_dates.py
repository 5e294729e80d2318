"""R24: the weekly email, as the SMTP server receives it (aiosmtpd), says its dates in the league's
format and locale, on the league's clock (R2a): the week's Monday in the subject, the coming
nights with their local start, the day the player asked for it in the footer. The office's change
of format reaches the next week's email."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import time_machine

from tests.support.league import League
from tests.support.local_dates import CHICAGO, SETTINGS, HostFor, LocalLeague, ok, utc

PLAYERS = "/api/v1/players"
NNBSP = "\u202f"  # CLDR's narrow no-break space before AM and PM
ISO_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def naive(text: str) -> datetime:
    """An instant written in UTC, naive as the worker is handed it."""
    return utc(text).replace(tzinfo=None)


def test_r24_the_weekly_email_says_dates_in_the_leagues_format_and_on_its_clock(
    league: League, host_for: HostFor, worker: Any, smtp: Any
) -> None:
    """The league in Chicago, on the default format: the player asks at 21:00 on Sunday 29
    November there (03:00 UTC on the 30th). Monday's email says "Mon 30 Nov 2026", the venue's
    Tuesday night "Tue 1 Dec 2026, 19:30", and that they asked on "Sun 29 Nov 2026" (the league's
    day, not UTC's). With `d/M/y` in en_US, the next week's says 7/12/2026, 8/12/2026, 7:30 PM
    and 29/11/2026; no ISO date in either."""
    with time_machine.travel(utc("2026-11-30T03:00"), tick=False) as clock:
        town = LocalLeague(league, host_for, CHICAGO, "2026-11-01", "2026-12-31")
        venue = town.venue()
        name = ok(town.office.get(f"/api/v1/venues/{venue}"))["name"]
        night = {"weekday": 2, "starts_at": "19:30", "sessions": 1}
        ok(town.office.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": [night]}))
        ann, *others = town.players(3)
        assert town.report(venue, "2026-11-24", [ann, *others]).status_code == 201
        ok(town.office.put(f"{PLAYERS}/{ann}/email-consent"))

        clock.move_to(utc("2026-11-30T15:00"))  # Monday 09:00 in Chicago: the week's is due
        assert worker.queue(naive("2026-11-30T15:00")) == 1
        assert worker.send(smtp.url, naive("2026-11-30T15:00")) == 1
        (first,) = smtp.inbox.received
        assert first["Subject"] == "Your week in the league: Mon 30 Nov 2026"
        text = first.get_content().replace("\r\n", "\n")
        assert f"- Tue 1 Dec 2026, 19:30, {name}\n" in text, text
        assert "because you asked for it (Sun 29 Nov 2026)." in text, text

        ok(town.office.patch(SETTINGS, json={"date_format": "d/M/y", "locale": "en_US"}))
        clock.move_to(utc("2026-12-07T15:00"))
        assert worker.queue(naive("2026-12-07T15:00")) == 1
        assert worker.send(smtp.url, naive("2026-12-07T15:00")) == 1
        second = smtp.inbox.received[1]
        assert second["Subject"] == "Your week in the league: 7/12/2026"
        text = second.get_content().replace("\r\n", "\n")
        assert f"- 8/12/2026, 7:30{NNBSP}PM, {name}\n" in text, text
        assert "because you asked for it (29/11/2026)." in text, text
        for message in (first, second):
            assert not ISO_DAY.search(message["Subject"] + message.get_content()), message
