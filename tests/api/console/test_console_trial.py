"""What a league office's trial of the console found (issue 43), through its pages as a browser uses
them: a missed night's link opens the forms dated that night, not today (R17, R2a), and the door
list names an erased player once, cleanly (R21, R16); the recent reports are a line each that
opens on the report's rows, each row's status marked (R6). Their height on a phone is measured in
tests/browser/test_console_on_a_phone.py; a picture uploaded as a sheet is
tests/api/reports/test_pictures_refused.py."""

from __future__ import annotations

import html
import re
from typing import Any

import time_machine
from flask import Flask

from tests.builders import Entrant, Scene, ago, days_ago, said, sanctioned
from tests.support.console import date_field, signed_in, text_of
from tests.support.league import League
from tests.support.local_dates import CHICAGO, HostFor, LocalLeague, ok, utc


def link(response: Any, words: str) -> str:
    """Where the page's link with these words leads."""
    page = response.get_data(as_text=True)
    found = [
        html.unescape(href)
        for href, inside in re.findall(r'<a href="([^"]+)">(.*?)</a>', page, re.S)
        if words in " ".join(re.sub(r"<[^>]+>", " ", inside).split())
    ]
    assert len(found) == 1, (words, found)
    return found[0]


def test_a_missed_nights_link_opens_the_forms_dated_that_night_not_today_r17_r2a(
    app: Flask, league: League, host_for: HostFor
) -> None:
    """R17 (a night without its report), R2a: at noon on Wednesday 2 December in Chicago, the
    home page says Tuesday's report is missing; its link opens the upload form dated Tuesday 1
    December (the missed night, not today), headed with that night; the form's link to typed rows
    keeps the date, and so does the typed-rows form. Without a date, or with one that is no date,
    the forms are dated today. (The venue was added the week before: a night before that is
    never missing, R2, R17.)"""
    with time_machine.travel(utc("2026-11-25T18:00"), tick=False):
        town = LocalLeague(league, host_for, CHICAGO, "2026-11-01", "2026-12-31")
        venue = town.venue()
    with time_machine.travel(utc("2026-12-02T18:00"), tick=False):
        nights = [{"weekday": 2, "starts_at": "19:00"}]
        ok(town.office.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": nights}))
        browser = signed_in(app, town.host(venue).key)
        home = browser.get("/console/")
        words = text_of(home)
        assert "No report yet for" in words and "on Tue 1 Dec 2026 (19:00): post its results" in words
        upload = browser.get(link(home, "post its results"))
        assert date_field(upload) == "2026-12-01"
        assert "Results of Tue 1 Dec 2026 at" in text_of(upload) and "Tonight's" not in text_of(upload)
        typed = browser.get(link(upload, "Type the rows instead"))
        assert date_field(typed) == "2026-12-01"
        assert "Type the results of Tue 1 Dec 2026 at" in text_of(typed), text_of(typed)
        for form in ("report", "rows"):
            today = browser.get(f"/console/venues/{venue}/{form}")
            assert date_field(today) == "2026-12-02" and "onight's results" in text_of(today), form
            garbled = browser.get(f"/console/venues/{venue}/{form}?date=2026-13-45")
            assert date_field(garbled) == "2026-12-02", form


def test_an_erased_players_door_list_line_has_no_stray_separator_and_their_number_once_r21_r16(
    app: Flask, make_scene: Any
) -> None:
    """R21 (an erased player keeps no full name; their display name is "Former player N"), R16:
    the door list's line of a suspended player who was then erased starts with their display name,
    which says their number, so it is not said again, and no separator stands before the missing
    full name. One the office named otherwise on erasing shows that name with the number once."""
    scene: Scene = make_scene()
    kept, erased, renamed = scene.players("Kept Kate", "Gone Gary", "Gone Greta")
    for player in (kept, erased, renamed):
        sanctioned(scene.office, player, "suspension", "fighting", first_day=ago(3), last_day=ago(-20))
    reason = {"reason": "Asked by email."}
    ok(scene.office.post(f"/api/v1/players/{erased}/erase", json=reason))
    ok(
        scene.office.post(
            f"/api/v1/players/{renamed}/erase", json={**reason, "display_name": "Retired member"}
        )
    )
    door = signed_in(app, scene.host.key).get(f"/console/venues/{scene.venue_id}/door-list")
    who = sorted(line.split(" · suspension (fighting) · last day ")[0] for line in door_lines(door))
    kept_name = next(p["full_name"] for p in scene.roster if p["id"] == kept)
    assert who == sorted(
        [f"{kept_name} · Kept Kate #{kept}", f"Former player {erased}", f"Retired member #{renamed}"]
    )


def door_lines(response: Any) -> list[str]:
    """The door list's lines, each as its visible words."""
    assert response.status_code == 200, response.status_code
    found = re.findall(r"<li>(.*?)</li>", response.get_data(as_text=True), re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", line)).split()) for line in found]


def test_the_recent_reports_are_a_line_each_that_opens_on_rows_with_their_statuses_r6_r17(
    app: Flask, make_scene: Any
) -> None:
    """R6, R17: each recent report is a closed `<details>` whose summary says its night, session,
    entrants and winner; opened, its rows say their status (W/D, absent, no-show; played
    unmarked), and Correct and Void are inside it."""
    scene: Scene = make_scene()
    ann, bob, cy, dee = scene.players("Ann", "Bob", "Cy", "Dee")
    order: list[Entrant] = [ann, (bob, "declared_withdrawal"), (cy, "absent"), (dee, "no_show")]
    report = scene.report(order, days_ago(1))
    listed = signed_in(app, scene.host.key).get(f"/console/venues/{scene.venue_id}/reports")
    page = listed.get_data(as_text=True)
    (summary,) = re.findall(
        r'<details class="report" id="report-\d+">\s*<summary>(.*?)</summary>', page, re.S
    )
    assert (
        " ".join(html.unescape(re.sub(r"<[^>]+>", "", summary)).split())
        == f"{said(days_ago(1), year=False)} · session 1 · 4 entrants · won by Ann"
    )
    assert "<details open" not in page and '<details class="report" open' not in page
    rows = re.findall(r'<tr><td>(\d+)</td><th scope="row">([^<]*)</th><td class="mark">([^<]*)</td>', page)
    assert rows == [("1", "Ann", ""), ("2", "Bob", "W/D"), ("3", "Cy", "absent"), ("4", "Dee", "no-show")]
    inside = page[page.index("<details") : page.index("</details>")]
    assert f"Correct report {report['id']}" in inside and f"Void report {report['id']}" in inside
