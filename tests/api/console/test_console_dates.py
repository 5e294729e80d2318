"""R24: the console says dates in the league's format and times on the league's clock (R2a): the
office's delivery log as every other page does (not UTC); every page a host or the office reads
with no ISO date in its words (the values of date inputs keep ISO 8601, as browsers need them),
and in the new format once the office changes it."""

from __future__ import annotations

import re

import pytest
import time_machine
from flask import Flask

from tests.builders import sanctioned
from tests.support.console import date_field, signed_in, text_of
from tests.support.league import League
from tests.support.local_dates import CHICAGO, SETTINGS, HostFor, LocalLeague, ok, utc
from tests.support.receiver import receiver

ISO_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def test_r24_r2a_the_delivery_log_shows_times_on_the_leagues_clock(
    app: Flask, league: League, host_for: HostFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The league in Chicago: a test event sent at 01:30 UTC on Wednesday 2 December is logged at
    "Tue 1 Dec 2026, 19:30 CST", as the audit log would say it; not 01:30, not UTC, not ISO."""
    monkeypatch.setitem(app.config, "WEBHOOKS_ALLOW_PRIVATE", True)
    with time_machine.travel(utc("2026-12-02T01:30"), tick=False), receiver() as hook:
        town = LocalLeague(league, host_for, CHICAGO, "2026-11-01", "2026-12-31")
        made = ok(town.office.post("/api/v1/webhooks", json={"url": hook.url, "events": ["*"]}), 201)
        ok(town.office.post(f"/api/v1/webhooks/{made['id']}/ping"), 202)
        assert app.test_cli_runner().invoke(args=["deliver", "--once"]).exit_code == 0
        assert len(hook.got) == 1
        log = text_of(signed_in(app, town.office.key).get(f"/console/webhooks/{made['id']}"))
    assert "A test from the league Tue 1 Dec 2026, 19:30 CST delivered" in log, log
    assert "UTC" not in log and "01:30" not in log and not ISO_DAY.search(log), log


def test_r24_console_pages_say_dates_in_the_leagues_format_and_no_iso_date(
    app: Flask, league: League, host_for: HostFor
) -> None:
    """A league with a report of Tuesday 1 December, a suspension from that day, a night
    cancelled, a player who asked for the weekly email: every page the office and the venue's
    host read says 1/12/2026 once the office sets `d/M/y`, and none says an ISO date; the report
    form's date input keeps its ISO value."""
    with time_machine.travel(utc("2026-12-03T12:00"), tick=False):
        town = LocalLeague(league, host_for, None, "2026-11-01", "2026-12-31")
        venue = town.venue()
        host = town.host(venue)
        night = {"weekday": 2, "starts_at": "19:00", "sessions": 1}
        ok(town.office.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": [night]}))
        cancel = {"kind": "cancelled", "date": "2026-12-08", "note": "Closed"}
        ok(town.office.post(f"/api/v1/venues/{venue}/schedule-exceptions", json=cancel), 201)
        ann, bob, cy = town.players(3)
        assert town.report(venue, "2026-12-01", [ann, bob, cy]).status_code == 201
        sanctioned(town.office, cy, first_day="2026-12-01", last_day="2026-12-31")
        ok(town.office.put(f"/api/v1/players/{ann}/email-consent"))
        ok(town.office.patch(SETTINGS, json={"date_format": "d/M/y"}))

        office, host_browser = signed_in(app, town.office.key), signed_in(app, host.key)
        season = town.season_id
        pages = {
            office: [
                "/console/",
                "/console/sanctions",
                f"/console/players/{cy}/sanctions",
                f"/console/players/{ann}",
                f"/console/players/{ann}/weekly-email",
                "/console/seasons",
                "/console/seasons/all",
                f"/console/seasons/{season}",
                f"/console/seasons/{season}/settings",
                f"/console/seasons/{season}/missing-reports",
                f"/console/seasons/{season}/qualifiers",
                f"/console/seasons/{season}/disqualifications",
                f"/console/venues/{venue}/settings",
                "/console/audit",
                "/console/keys",
                "/console/duplicates",
                "/console/league-settings",
            ],
            host_browser: [
                "/console/",
                f"/console/venues/{venue}/reports",
                f"/console/venues/{venue}/standings",
                f"/console/venues/{venue}/door-list",
                f"/console/venues/{venue}/report",
                f"/console/venues/{venue}/rows",
            ],
        }
        said: dict[str, str] = {}
        for browser, paths in pages.items():
            for path in paths:
                response = browser.get(path)
                assert response.status_code == 200, (path, response.status_code)
                words = text_of(response)
                assert not ISO_DAY.search(words), (path, ISO_DAY.findall(words), words)
                said[path] = words
        reports = said[f"/console/venues/{venue}/reports"]
        # A report's line leaves the year out (a phone's width); opened, it says the whole date.
        assert "1/12 · session 1 · 3 entrants" in reports and "1/12/2026, session 1" in reports
        assert "as of 3/12/2026" in said[f"/console/venues/{venue}/standings"]
        assert "last day 31/12/2026" in said[f"/console/venues/{venue}/door-list"]
        assert "1/11/2026 to 31/12/2026" in said[f"/console/seasons/{season}"]
        assert "8/12/2026 Cancelled Closed" in said[f"/console/venues/{venue}/settings"]
        assert "1/12/2026 to 31/12/2026" in said["/console/sanctions"]
        assert "asked 3/12/2026, 12:00 UTC" in said[f"/console/players/{ann}/weekly-email"]
        # The form's date keeps the browser's ISO value.
        assert date_field(host_browser.get(f"/console/venues/{venue}/report")) == "2026-12-03"
