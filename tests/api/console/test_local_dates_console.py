"""Local dates in the web console (R2a): the door list page shows the venue's tonight, the report
forms are dated the venue's today, and stored instants (audit entries, a publication) are shown
on the league's wall clock with its zone's abbreviation (CST in winter, CDT in summer). The clock
is frozen in every test (instants written in UTC, local dates and times by hand)."""

from __future__ import annotations

import time_machine
from flask import Flask

from tests.builders import sanctioned
from tests.support.console import date_field, signed_in, text_of
from tests.support.league import League
from tests.support.local_dates import AUCKLAND, CHICAGO, SEASONS, HostFor, LocalLeague, ok, utc


def test_the_console_door_list_shows_the_venues_tonight_r2a_r16(
    app: Flask, league: League, host_for: HostFor
) -> None:
    """R2a with R16: at 11:59 pm on Tuesday 1 December in Chicago (the league; 05:59 on Wednesday
    in UTC) the league's venue's door list page is Tuesday's, with the player suspended through
    Tuesday on it; the Auckland venue's is already Wednesday's (4:59 pm there), without him. At
    00:01 on Wednesday in Chicago the league's venue's page is Wednesday's, and he is off it."""
    with time_machine.travel(utc("2026-12-02T05:59"), tick=False) as clock:
        town = LocalLeague(league, host_for, CHICAGO, "2026-11-01", "2026-12-31")
        chicago, auckland = town.venue(), town.venue(AUCKLAND)
        (sam,) = town.players(1, display_name="Sam Barred")
        sanctioned(town.office, sam, first_day="2026-11-17", last_day="2026-12-01")
        browser = signed_in(app, town.office.key)
        tonight = text_of(browser.get(f"/console/venues/{chicago}/door-list"))
        assert ", Tue 1 Dec 2026 These players may not play here tonight" in tonight, tonight
        assert f"Sam Barred #{sam} · suspension (fighting) · last day Tue 1 Dec 2026" in tonight, tonight
        there = text_of(browser.get(f"/console/venues/{auckland}/door-list"))
        assert ", Wed 2 Dec 2026 These players" in there and "Nobody is barred tonight." in there, there
        clock.move_to(utc("2026-12-02T06:01"))
        wednesday = text_of(browser.get(f"/console/venues/{chicago}/door-list"))
        assert ", Wed 2 Dec 2026 These players" in wednesday and "Sam Barred" not in wednesday, wednesday


def test_the_console_report_forms_are_dated_the_venues_today_r2a_r2(
    app: Flask, league: League, host_for: HostFor
) -> None:
    """R2a with R2: at 9:30 pm on Tuesday 1 December in Chicago (the league; Wednesday in UTC and
    in Auckland) the spreadsheet form and the typed-rows form of the league's venue are dated
    Tuesday (a Wednesday would be the future there), the Auckland venue's Wednesday."""
    with time_machine.travel(utc("2026-12-02T03:30"), tick=False):
        town = LocalLeague(league, host_for, CHICAGO, "2026-11-01", "2026-12-31")
        chicago, auckland = town.venue(), town.venue(AUCKLAND)
        browser = signed_in(app, town.host_for(chicago, auckland, name="Host: both").key)
        for venue, day in ((chicago, "2026-12-01"), (auckland, "2026-12-02")):
            for form in ("report", "rows"):
                assert date_field(browser.get(f"/console/venues/{venue}/{form}")) == day, (venue, form)


def test_the_console_shows_audit_times_on_the_leagues_clock_r2a_r18(
    app: Flask, league: League, host_for: HostFor
) -> None:
    """R2a with R18: changes made at 02:30 UTC on 1 July and on 2 December are shown on the audit
    page as the league's wall clock showed them, with its weekday and abbreviation: Tue 30 June
    21:30 CDT, Tue 1 December 21:30 CST (never as UTC)."""
    with time_machine.travel(utc("2026-07-01T02:30"), tick=False) as clock:
        town = LocalLeague(league, host_for, CHICAGO, "2026-06-01", "2026-12-31")
        venue = town.venue()
        ok(town.office.patch(f"/api/v1/venues/{venue}", json={"name": "Summer Name"}))
        clock.move_to(utc("2026-12-02T03:30"))
        ok(town.office.patch(f"/api/v1/venues/{venue}", json={"name": "Winter Name"}))
        page = text_of(signed_in(app, town.office.key).get("/console/audit?action=venue.update"))
        assert "Tue 1 Dec 2026, 21:30 CST" in page and "Tue 30 Jun 2026, 21:30 CDT" in page, page
        assert "UTC" not in page and "2026-12-02 03:30" not in page, page


def test_the_console_shows_a_publication_on_the_leagues_clock_r2a_r12(
    app: Flask, league: League, host_for: HostFor
) -> None:
    """R2a with R12: a season ending on Sunday 1 November (Chicago falls back that night): its
    qualifiers page says it is provisional at 11:59 pm CST that day; published at 00:01 CST on the
    2nd, the page says when in the league's zone, with CST (not CDT, not UTC)."""
    with time_machine.travel(utc("2026-10-21T12:00"), tick=False) as clock:
        town = LocalLeague(league, host_for, CHICAGO, "2026-10-01", "2026-11-01")
        venue = town.venue()
        assert town.report(venue, "2026-10-20", town.players(5)).status_code == 201
        page = f"/console/seasons/{town.season_id}/qualifiers"
        clock.move_to(utc("2026-11-02T05:59"))
        provisional = text_of(signed_in(app, town.office.key).get(page))
        assert "Provisional: the season runs to Sun 1 Nov 2026." in provisional, provisional
        clock.move_to(utc("2026-11-02T06:01"))
        publish = f"{SEASONS}/{town.season_id}/qualifiers/publish"
        ok(town.office.post(publish, json={"settlements": []}), 201)
        published = text_of(signed_in(app, town.office.key).get(page))
        assert "Published on Mon 2 Nov 2026, 00:01 CST." in published, published


def test_the_console_standings_follow_the_season_running_at_the_venue_r2a_r2_r11(
    app: Flask, league: League, host_for: HostFor
) -> None:
    """R2a with R2, R11: a season ending on Sunday 1 November. At 11:59 pm CST that day (05:59 on
    the 2nd in UTC) it still runs at the league's venue, whose standings page shows it as of 1
    November; at the Auckland venue (already the 2nd there) no season runs. At 00:01 CST on the 2nd
    none runs at the league's venue either: its page says so and shows the season just ended."""
    with time_machine.travel(utc("2026-10-21T12:00"), tick=False) as clock:
        town = LocalLeague(league, host_for, CHICAGO, "2026-10-01", "2026-11-01")
        chicago, auckland = town.venue(), town.venue(AUCKLAND)
        assert town.report(chicago, "2026-10-20", town.players(3)).status_code == 201
        clock.move_to(utc("2026-11-02T05:59"))
        browser = signed_in(app, town.office.key)
        running = text_of(browser.get(f"/console/venues/{chicago}/standings"))
        assert "· 1 tournament · as of Sun 1 Nov 2026" in running, running
        over = text_of(browser.get(f"/console/venues/{auckland}/standings"))
        assert "No season covers" in over and "today." in over, over
        clock.move_to(utc("2026-11-02T06:01"))
        ended = text_of(browser.get(f"/console/venues/{chicago}/standings"))
        # Between seasons the page says so and shows the last season that ran at the venue.
        assert "No season covers" in ended and "ended on Sun 1 Nov 2026:" in ended, ended
        assert "· 1 tournament · as of Mon 2 Nov 2026" in ended, ended


def test_the_console_home_leads_with_last_nights_missing_report_and_tonights_game_r2a(
    app: Flask, league: League, host_for: HostFor
) -> None:
    """R2a: at noon on Wednesday 2 December in Chicago, a host of a venue playing Tuesday and
    Wednesday is told first that Tuesday's report is missing, then tonight's 19:30 game. Once
    Tuesday's report is in, only tonight's game is shown. (The venue was added the week before:
    a night before that is never missing, R2, R17.)"""
    with time_machine.travel(utc("2026-11-25T18:00"), tick=False):
        town = LocalLeague(league, host_for, CHICAGO, "2026-11-01", "2026-12-31")
        venue = town.venue()
    with time_machine.travel(utc("2026-12-02T18:00"), tick=False):
        nights = [{"weekday": 2, "starts_at": "19:00"}, {"weekday": 3, "starts_at": "19:30", "sessions": 2}]
        ok(town.office.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": nights}))
        host = town.host(venue)
        browser = signed_in(app, host.key)
        home = text_of(browser.get("/console/"))
        missing = home.index("No report yet for")
        assert "on Tue 1 Dec 2026 (19:00): post its results" in home, home
        assert missing < home.index("Tonight") < home.index("19:30, 2 sessions"), home
        ok(town.report(venue, "2026-12-01", town.players(3)), 201)
        home = text_of(browser.get("/console/"))
        assert "No report yet" not in home and "19:30, 2 sessions" in home, home
        office_home = text_of(signed_in(app, town.office.key).get("/console/"))
        assert "Tonight" not in office_home


def test_the_console_home_never_nags_for_a_night_before_the_venue_existed_r2_r17_r2a(
    app: Flask, league: League, host_for: HostFor
) -> None:
    """R2, R17, R2a: a venue added at noon on Wednesday 2 December in Chicago, playing Tuesdays,
    had no Tuesday 1 December: its host's home asks for no report of it (nor do the games say it
    is missing). A week later, Tuesday 8 December passed without its report, and the home asks
    for that one."""
    with time_machine.travel(utc("2026-12-02T18:00"), tick=False) as clock:
        town = LocalLeague(league, host_for, CHICAGO, "2026-11-01", "2026-12-31")
        venue = town.venue()
        nights = [{"weekday": 2, "starts_at": "19:00"}]
        ok(town.office.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": nights}))
        browser = signed_in(app, town.host(venue).key)
        home = text_of(browser.get("/console/"))
        assert "No report yet" not in home, home
        (tuesday,) = ok(town.office.get(f"/api/v1/games?venue_id={venue}"))["items"]
        assert (tuesday["date"], tuesday["missing"]) == ("2026-12-01", False)
        clock.move_to(utc("2026-12-09T18:00"))
        home = text_of(signed_in(app, town.host(venue).key).get("/console/"))
        assert "No report yet for" in home and "on Tue 8 Dec 2026 (19:00)" in home, home
        assert "Tue 1 Dec 2026" not in home, home
