"""R2a: timestamps are exact instants. The API answers them in UTC; a date given to the audit
log's filters is a day on the league's wall clock; the console shows instants in the league's
zone with its abbreviation."""

from __future__ import annotations

from datetime import UTC, datetime

import time_machine
from flask import Flask

from tests.builders import audit_entries
from tests.support.console import signed_in, text_of
from tests.support.league import Caller

# 9:30 pm on Tuesday 1 December 2026 in Chicago (CST, UTC-6): 03:30 on Wednesday in UTC.
TUESDAY_NIGHT_IN_CHICAGO = datetime(2026, 12, 2, 3, 30, tzinfo=UTC)


def in_chicago(office: Caller) -> None:
    answer = office.patch("/api/v1/league-settings", json={"timezone": "America/Chicago"})
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["timezone"] == "America/Chicago"


def test_an_instant_is_answered_in_utc_and_a_days_filter_reads_the_leagues_wall_clock_r2a_r18(
    office: Caller,
) -> None:
    in_chicago(office)
    with time_machine.travel(TUESDAY_NIGHT_IN_CHICAGO, tick=False):
        made = office.post("/api/v1/regions", json={"name": "Tuesday Night Region"})
    assert made.status_code == 201
    region_id = made.get_json()["id"]
    query = f"entity=region&entity_id={region_id}"
    [entry] = audit_entries(office, query)
    assert entry["at"].startswith("2026-12-02T03:30:00") and entry["at"].endswith("Z"), entry["at"]
    # Tuesday in Chicago holds it; Wednesday there does not, whatever the UTC date says.
    assert len(audit_entries(office, f"{query}&since=2026-12-01&until=2026-12-01")) == 1
    assert audit_entries(office, f"{query}&since=2026-12-02") == []
    assert audit_entries(office, f"{query}&until=2026-11-30") == []
    # A timestamp is an instant: with no offset it is UTC.
    assert len(audit_entries(office, f"{query}&since=2026-12-02T03:29:00")) == 1
    assert audit_entries(office, f"{query}&since=2026-12-01T21:31:00-06:00") == []


def test_the_console_shows_an_instant_on_the_leagues_clock_with_its_abbreviation_r2a(
    app: Flask, office: Caller
) -> None:
    in_chicago(office)
    with time_machine.travel(TUESDAY_NIGHT_IN_CHICAGO, tick=False):
        office.post("/api/v1/regions", json={"name": "Console Night Region"})
        browser = signed_in(app, office.key)
        page = text_of(browser.get("/console/audit?entity=region"))
    assert "Tue 1 Dec 2026, 21:30 CST" in page, page
    assert "03:30" not in page
