"""The zones themselves (R2a): the league's (league setting `timezone`, else LEAGUE_TIMEZONE, else
UTC) and a venue's own. A name that is not an IANA zone (an offset, an unknown or miscased name) is
refused naming `timezone` with the IANA form suggested, and changes nothing; a venue's zone set
while it has reports is audited (R18) and moves no stored date; an invalid LEAGUE_TIMEZONE stops
the app at start. The clock is frozen in every test (instants in UTC, local dates by hand)."""

from __future__ import annotations

from pathlib import Path

import pytest
import time_machine

from app import create_app
from tests.builders import audit_entries
from tests.support.league import Caller, League, assert_problem
from tests.support.local_dates import (
    AUCKLAND,
    CHICAGO,
    LONDON,
    LOS_ANGELES,
    SETTINGS,
    TOURNAMENTS,
    HostFor,
    LocalLeague,
    ok,
    set_league_zone,
    utc,
)

# Tuesday 9:30 pm in Chicago (CST); Wednesday 3:30 am in UTC, 4:30 pm in Auckland.
TUESDAY_NIGHT = "2026-12-02T03:30"

NOT_ZONES = [
    pytest.param("+02:00", id="offset"),
    pytest.param("UTC-5", id="utc-offset"),
    pytest.param("Mars/Olympus", id="unknown-name"),
    pytest.param("america/chicago", id="miscased-name"),
    # Names the zone database holds that are no place: the server's own zone, tzdata's placeholder.
    pytest.param("localtime", id="the-servers-own"),
    pytest.param("Factory", id="placeholder"),
]


@pytest.mark.parametrize("name", NOT_ZONES)
def test_a_zone_that_is_not_an_iana_name_is_refused_and_changes_nothing_r2a_r18(
    office: Caller, league: League, name: str
) -> None:
    """R2a: PATCH league-settings or a venue, or POST a venue, with a timezone that is an offset
    or no IANA name: 422 naming `timezone`, the message giving the IANA form (America/Chicago);
    the zones in force stay as they were, no venue is made, and nothing is audited (R18)."""
    with time_machine.travel(utc(TUESDAY_NIGHT), tick=False):
        set_league_zone(office, LONDON)
        venue = league.venue(timezone=LOS_ANGELES)
        path = f"/api/v1/venues/{venue['id']}"
        before = audit_entries(office, "")
        new_venue = {"name": "Zoneless", "region_id": venue["region_id"], "timezone": name}
        for refused in (
            office.patch(SETTINGS, json={"timezone": name}),
            office.patch(path, json={"timezone": name}),
            office.post("/api/v1/venues", json=new_venue),
        ):
            problem = assert_problem(refused, 422, "timezone")
            assert "America/Chicago" in problem["errors"]["timezone"][0], problem
        assert ok(office.get(SETTINGS))["timezone"] == LONDON
        assert ok(office.get(path))["timezone"] == LOS_ANGELES
        assert audit_entries(office, "") == before


def test_a_miscased_zone_is_answered_with_the_name_it_means_r2a(office: Caller) -> None:
    """R2a: "america/chicago" is refused with "Did you mean America/Chicago?"."""
    with time_machine.travel(utc(TUESDAY_NIGHT), tick=False):
        problem = assert_problem(
            office.patch(SETTINGS, json={"timezone": "america/chicago"}), 422, "timezone"
        )
        assert "Did you mean America/Chicago?" in problem["errors"]["timezone"][0], problem


def test_a_venues_zone_set_while_it_has_reports_is_audited_and_moves_no_stored_date_r2a_r18(
    league: League, host_for: HostFor
) -> None:
    """R2a with R18: a venue on the league's clock (America/Chicago) has a report of Tuesday 1
    December; at 9:30 pm that Tuesday the office sets the venue's zone to Pacific/Auckland: the
    change is audited (before null, after the zone), the report keeps its date and still counts,
    and the venue's today is now Auckland's Wednesday (door list, as_of, a report of Wednesday
    taken). Set back to null, the venue is on the league's clock again, audited too."""
    with time_machine.travel(utc(TUESDAY_NIGHT), tick=False):
        town = LocalLeague(league, host_for, CHICAGO, "2026-11-01", "2026-12-31")
        venue, office = town.venue(), town.office
        players = town.players(3)
        report = ok(town.report(venue, "2026-12-01", players), 201)
        assert town.door(venue)[0] == "2026-12-01"
        assert (
            ok(office.patch(f"/api/v1/venues/{venue}", json={"timezone": AUCKLAND}))["timezone"] == AUCKLAND
        )
        (entry,) = audit_entries(office, f"entity=venue&entity_id={venue}&action=venue.update")
        assert (entry["before"]["timezone"], entry["after"]["timezone"]) == (None, AUCKLAND)
        assert ok(office.get(f"{TOURNAMENTS}/{report['id']}"))["date"] == "2026-12-01"
        standings = ok(office.get(town.standings_path(venue)))
        assert (standings["as_of"], standings["tournaments"]) == ("2026-12-02", 1)
        assert town.door(venue)[0] == "2026-12-02"
        assert ok(town.report(venue, "2026-12-02", players), 201)["date"] == "2026-12-02"
        assert ok(office.patch(f"/api/v1/venues/{venue}", json={"timezone": None}))["timezone"] is None
        entries = audit_entries(office, f"entity=venue&entity_id={venue}&action=venue.update")
        assert [(e["before"]["timezone"], e["after"]["timezone"]) for e in entries] == [
            (AUCKLAND, None),
            (None, AUCKLAND),
        ]
        assert ok(office.get(f"{TOURNAMENTS}/{report['id']}"))["date"] == "2026-12-01"
        assert (town.door(venue)[0], town.as_of(venue)) == ("2026-12-01", "2026-12-01")


def test_league_timezone_is_the_leagues_zone_until_the_office_sets_one_r2a_r2(
    monkeypatch: pytest.MonkeyPatch, league: League, host_for: HostFor
) -> None:
    """R2a with R2: with LEAGUE_TIMEZONE=Pacific/Auckland and no setting, the league's zone is
    Auckland's: at 00:30 on Wednesday there (11:30 on Tuesday in UTC) a venue on the league's
    clock answers Wednesday and takes a report of Wednesday. The office sets America/Chicago:
    Tuesday, and Wednesday is the future (R2). Set to null: back to LEAGUE_TIMEZONE, audited."""
    monkeypatch.setenv("LEAGUE_TIMEZONE", AUCKLAND)
    with time_machine.travel(utc("2026-12-01T11:30"), tick=False):
        office = league.office
        assert ok(office.get(SETTINGS))["timezone"] == AUCKLAND
        town = LocalLeague(league, host_for, None, "2026-11-01", "2026-12-31")
        venue = town.venue()
        players = town.players(3)
        assert (town.door(venue)[0], town.as_of(venue)) == ("2026-12-02", "2026-12-02")
        assert ok(town.report(venue, "2026-12-02", players), 201)["date"] == "2026-12-02"
        assert set_league_zone(office, CHICAGO)["timezone"] == CHICAGO
        assert (town.door(venue)[0], town.as_of(venue)) == ("2026-12-01", "2026-12-01")
        assert_problem(town.report(venue, "2026-12-03", players), 422, "date", rule="R2")
        assert set_league_zone(office, None)["timezone"] == AUCKLAND
        assert ok(office.get(SETTINGS))["timezone"] == AUCKLAND
        assert (town.door(venue)[0], town.as_of(venue)) == ("2026-12-02", "2026-12-02")
        entries = audit_entries(office, "action=league_settings.update")
        assert [(e["before"]["timezone"], e["after"]["timezone"]) for e in entries] == [
            (CHICAGO, None),
            (None, CHICAGO),
        ]


def test_without_league_timezone_the_league_is_on_utc_r2a_r16(
    monkeypatch: pytest.MonkeyPatch, league: League, host_for: HostFor
) -> None:
    """R2a with R16: no LEAGUE_TIMEZONE and no setting: the league's zone is UTC, so at 9:30 pm
    on Tuesday in Chicago (3:30 am on Wednesday in UTC) a venue on the league's clock has
    Wednesday's door list, while one in America/Chicago of its own has Tuesday's."""
    monkeypatch.delenv("LEAGUE_TIMEZONE", raising=False)
    with time_machine.travel(utc(TUESDAY_NIGHT), tick=False):
        assert ok(league.office.get(SETTINGS))["timezone"] == "UTC"
        town = LocalLeague(league, host_for, None, "2026-11-01", "2026-12-31")
        on_utc, chicago = town.venue(), town.venue(CHICAGO)
        assert (town.door(on_utc)[0], town.door(chicago)[0]) == ("2026-12-02", "2026-12-01")


@pytest.mark.parametrize("name", ["Mars/Olympus", "+02:00", "UTC-5", "america/chicago"])
def test_create_app_refuses_a_league_timezone_that_is_no_zone_r2a(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str
) -> None:
    """R2a: an app started with LEAGUE_TIMEZONE naming no IANA zone stops at once with a
    RuntimeError naming LEAGUE_TIMEZONE and the IANA form to give."""
    monkeypatch.setenv("LEAGUE_TIMEZONE", name)
    frozen = time_machine.travel(utc(TUESDAY_NIGHT), tick=False)
    with frozen, pytest.raises(RuntimeError, match="LEAGUE_TIMEZONE") as raised:
        create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'league.db'}", "TESTING": True})
    assert "America/Chicago" in str(raised.value)


def test_create_app_starts_with_a_league_timezone_that_is_a_zone_r2a(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """R2a: LEAGUE_TIMEZONE=Pacific/Auckland is a zone: the app starts."""
    monkeypatch.setenv("LEAGUE_TIMEZONE", AUCKLAND)
    with time_machine.travel(utc(TUESDAY_NIGHT), tick=False):
        app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'league.db'}", "TESTING": True})
    app.extensions["league_db"].engine.dispose()
