"""Local dates (R2a): every date of the league is read on a wall clock where the venue is. A
venue's today (the future of a report, R2; a correction window, R17; the door list's night and a
venue ban's days, R15, R16; standings' default as_of, R11) is the date on its own zone's clock,
else the league's; league-wide matters (a suspension's `active`, provisional lists and
publishing, R12, R13) read the league's. Every test freezes the clock at instants written in UTC,
with the local dates written by hand: 23:59 and 00:01 local, on the DST change days of
America/Chicago and Europe/London, and in Pacific/Auckland, ahead of UTC. The league's zone
setting itself, bad zone names and LEAGUE_TIMEZONE are in test_local_dates_settings.py; the
console's pages in test_local_dates_console.py."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

import pytest
import time_machine

from tests.builders import SANCTIONS, audit_entries, sanctioned
from tests.support.league import Caller, League, assert_problem
from tests.support.local_dates import (
    AUCKLAND,
    CHICAGO,
    LONDON,
    LOS_ANGELES,
    SEASONS,
    TOURNAMENTS,
    HostFor,
    LocalLeague,
    ok,
    utc,
)


def shifted(day: str, days: int) -> str:
    """An ISO date `days` later (earlier when negative)."""
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def sanction(office: Caller, sanction_id: int) -> dict[str, Any]:
    """The sanction as the office reads it."""
    return ok(office.get(f"{SANCTIONS}/{sanction_id}"))


def discipline_active(office: Caller, player_id: int) -> list[int]:
    """The ids the player's discipline record lists as running today."""
    return sorted(ok(office.get(f"/api/v1/players/{player_id}/sanctions"))["active"])


# (zone, whether the venue sets it itself (else the league, America/Chicago, gives it), the instant
# in UTC, the local date there then.)
EDGES = [
    pytest.param(CHICAGO, False, "2026-03-08T05:59", "2026-03-07", id="chicago-spring-forward-eve-23:59"),
    pytest.param(CHICAGO, False, "2026-03-08T06:01", "2026-03-08", id="chicago-spring-forward-00:01"),
    pytest.param(CHICAGO, False, "2026-03-09T04:59", "2026-03-08", id="chicago-spring-forward-23:59"),
    pytest.param(CHICAGO, False, "2026-03-09T05:01", "2026-03-09", id="chicago-spring-forward-next-00:01"),
    pytest.param(CHICAGO, False, "2026-11-01T04:59", "2026-10-31", id="chicago-fall-back-eve-23:59"),
    pytest.param(CHICAGO, False, "2026-11-01T05:01", "2026-11-01", id="chicago-fall-back-00:01"),
    pytest.param(CHICAGO, False, "2026-11-02T05:59", "2026-11-01", id="chicago-fall-back-23:59"),
    pytest.param(CHICAGO, False, "2026-11-02T06:01", "2026-11-02", id="chicago-fall-back-next-00:01"),
    pytest.param(LONDON, True, "2026-03-28T23:59", "2026-03-28", id="london-spring-forward-eve-23:59"),
    pytest.param(LONDON, True, "2026-03-29T00:01", "2026-03-29", id="london-spring-forward-00:01"),
    pytest.param(LONDON, True, "2026-03-29T22:59", "2026-03-29", id="london-spring-forward-23:59"),
    pytest.param(LONDON, True, "2026-03-29T23:01", "2026-03-30", id="london-spring-forward-next-00:01"),
    pytest.param(LONDON, True, "2026-10-24T22:59", "2026-10-24", id="london-fall-back-eve-23:59"),
    pytest.param(LONDON, True, "2026-10-24T23:01", "2026-10-25", id="london-fall-back-00:01"),
    pytest.param(LONDON, True, "2026-10-25T23:59", "2026-10-25", id="london-fall-back-23:59"),
    pytest.param(LONDON, True, "2026-10-26T00:01", "2026-10-26", id="london-fall-back-next-00:01"),
    pytest.param(AUCKLAND, True, "2026-12-01T10:59", "2026-12-01", id="auckland-summer-23:59"),
    pytest.param(AUCKLAND, True, "2026-12-01T11:01", "2026-12-02", id="auckland-summer-00:01"),
]


@pytest.mark.parametrize(("zone", "own", "instant", "local"), EDGES)
def test_a_venues_today_is_its_wall_clocks_date_at_the_edges_r2a_r2_r11_r15_r16(
    league: League, host_for: HostFor, zone: str, own: bool, instant: str, local: str
) -> None:
    """R2a with R2, R11, R15, R16: at 23:59 and 00:01 local, on DST change days and ahead of UTC,
    the venue's today is the local date: the door list's night, standings' as_of, a venue ban's
    default first day and `active`; a report of that date is taken, one of the next day is the
    future (R2)."""
    with time_machine.travel(utc(instant), tick=False):
        town = LocalLeague(league, host_for, CHICAGO, shifted(local, -30), shifted(local, 30))
        venue = town.venue(zone if own else None)
        ann, bob, cy = town.players(3)
        office = town.office
        today = sanctioned(office, ann, "venue_ban", "fighting", venue_id=venue)
        ends_today = sanctioned(
            office, bob, "venue_ban", "fighting", venue_id=venue, first_day=shifted(local, -3), last_day=local
        )
        starts_tomorrow = sanctioned(
            office, cy, "venue_ban", "fighting", venue_id=venue, first_day=shifted(local, 1)
        )
        assert (today["first_day"], today["active"]) == (local, True)
        assert (ends_today["active"], starts_tomorrow["active"]) == (True, False)
        assert town.door(venue) == (local, sorted([ann, bob]))
        assert town.as_of(venue) == local
        players = town.players(3)
        tomorrow = town.report(venue, shifted(local, 1), players)
        problem = assert_problem(tomorrow, 422, "date", rule="R2")
        assert problem["errors"]["date"] == [
            f"{shifted(local, 1)} is in the future; report a tournament once it is played."
        ]
        assert ok(town.report(venue, local, players), 201)["date"] == local


def tuesday_night(town: LocalLeague, venue: int, sam: int, ended: int, coming: int, instant: str) -> None:
    """The night is still Tuesday 1 December at the venue: Sam on the door list, his suspension
    (through the 1st) active, Tia's (from the 2nd) not, standings as of the 1st."""
    office = town.office
    assert town.door(venue) == ("2026-12-01", [sam]), instant
    assert (sanction(office, ended)["active"], sanction(office, coming)["active"]) == (True, False), instant
    assert discipline_active(office, sam) == [ended], instant
    assert town.as_of(venue) == "2026-12-01", instant


def test_the_chicago_night_r2a_r2_r11_r15_r16(league: League, host_for: HostFor) -> None:
    """R2a with R2, R11, R15, R16: Tuesday 1 December 2026 in Chicago (CST, UTC-6). At 5:59 pm,
    6:01 pm (UTC's midnight has passed) and 11:59 pm the door list is Tuesday's: Sam, whose
    suspension ends on the 1st, is on it all night and the suspension is active; Tia's, starting
    on the 2nd, is neither. At 9:30 pm a report dated the 2nd is the future (R2), one dated the
    1st naming Sam is refused (R16), one without him is taken; standings are as of the 1st. At
    00:01 on Wednesday the door list, the sanctions and the standings move on to the 2nd."""
    with time_machine.travel(utc("2026-12-01T23:59"), tick=False) as clock:  # 5:59 pm CST
        town = LocalLeague(league, host_for, CHICAGO, "2026-11-01", "2026-12-31")
        venue = town.venue()
        host = town.host(venue)
        sam, tia, *others = town.players(5)
        ended = sanctioned(town.office, sam, first_day="2026-11-17", last_day="2026-12-01")["id"]
        coming = sanctioned(town.office, tia, first_day="2026-12-02", last_day="2026-12-16")["id"]
        tuesday_night(town, venue, sam, ended, coming, "5:59 pm")
        clock.move_to(utc("2026-12-02T00:01"))
        tuesday_night(town, venue, sam, ended, coming, "6:01 pm")
        clock.move_to(utc("2026-12-02T03:30"))  # 9:30 pm
        assert_problem(town.report(venue, "2026-12-02", others, host), 422, "date", rule="R2")
        refused = town.report(venue, "2026-12-01", [*others, sam], host)
        assert_problem(refused, 422, "results.3.player_id", rule="R16")
        assert ok(town.report(venue, "2026-12-01", others, host), 201)["date"] == "2026-12-01"
        clock.move_to(utc("2026-12-02T05:59"))
        tuesday_night(town, venue, sam, ended, coming, "11:59 pm")
        clock.move_to(utc("2026-12-02T06:01"))  # 00:01 on Wednesday
        assert town.door(venue) == ("2026-12-02", [tia])
        assert (sanction(town.office, ended)["active"], sanction(town.office, coming)["active"]) == (
            False,
            True,
        )
        assert (discipline_active(town.office, sam), discipline_active(town.office, tia)) == ([], [coming])
        standings = ok(town.office.get(town.standings_path(venue)))
        assert (standings["as_of"], standings["tournaments"]) == ("2026-12-02", 1)


def test_auckland_runs_ahead_of_utc_and_chicago_r2a_r2_r11_r16(league: League, host_for: HostFor) -> None:
    """R2a with R2, R11, R16: at 00:30 on Wednesday 2 December in Auckland (NZDT, UTC+13) it is
    11:30 on Tuesday in UTC and 5:30 am on Tuesday in Chicago. In one league (America/Chicago) a
    venue in Auckland takes a report dated Wednesday, while a venue on UTC and one on the league's
    clock refuse it as the future (R2); each answers its own night and as_of."""
    with time_machine.travel(utc("2026-12-01T11:30"), tick=False):
        town = LocalLeague(league, host_for, CHICAGO, "2026-11-01", "2026-12-31")
        auckland, on_utc, chicago = town.venue(AUCKLAND), town.venue("UTC"), town.venue()
        players = town.players(3)
        assert ok(town.report(auckland, "2026-12-02", players), 201)["date"] == "2026-12-02"
        for venue in (on_utc, chicago):
            assert_problem(town.report(venue, "2026-12-02", players), 422, "date", rule="R2")
        assert [town.door(v)[0] for v in (auckland, on_utc, chicago)] == [
            "2026-12-02",
            "2026-12-01",
            "2026-12-01",
        ]
        assert [town.as_of(v) for v in (auckland, on_utc, chicago)] == [
            "2026-12-02",
            "2026-12-01",
            "2026-12-01",
        ]


def test_los_angeles_is_still_tuesday_when_the_league_is_on_wednesday_r2a_r2_r15_r16(
    league: League, host_for: HostFor
) -> None:
    """R2a with R2, R15, R16: at 11:30 pm on Tuesday in Los Angeles it is 1:30 am on Wednesday in
    the league (America/Chicago). A suspension through Tuesday is no longer active (the league's
    today), yet it bars the player at the Los Angeles door tonight (its night is Tuesday), and a
    report there dated Tuesday naming him is refused (R16); a Los Angeles ban through Tuesday is
    active. Wednesday is the future in Los Angeles (R2), not at the league's venue."""
    with time_machine.travel(utc("2026-12-02T07:30"), tick=False):
        town = LocalLeague(league, host_for, CHICAGO, "2026-11-01", "2026-12-31")
        los_angeles, chicago = town.venue(LOS_ANGELES), town.venue()
        sam, ray, *others = town.players(5)
        office = town.office
        suspension = sanctioned(office, sam, first_day="2026-11-17", last_day="2026-12-01")
        ban = sanctioned(
            office,
            ray,
            "venue_ban",
            "fighting",
            venue_id=los_angeles,
            first_day="2026-11-20",
            last_day="2026-12-01",
        )
        assert (suspension["active"], ban["active"]) == (False, True)
        assert discipline_active(office, sam) == [] and discipline_active(office, ray) == [ban["id"]]
        assert town.door(los_angeles) == ("2026-12-01", sorted([sam, ray]))
        assert town.door(chicago) == ("2026-12-02", [])
        refused = town.report(los_angeles, "2026-12-01", [*others, sam])
        assert_problem(refused, 422, "results.3.player_id", rule="R16")
        assert_problem(town.report(los_angeles, "2026-12-02", others), 422, "date", rule="R2")
        assert ok(town.report(chicago, "2026-12-02", [*others, sam]), 201)["date"] == "2026-12-02"


def test_default_first_days_and_lifted_on_follow_the_sanctions_clock_r2a_r15(
    league: League, host_for: HostFor
) -> None:
    """R2a with R15: at 9:30 pm on Tuesday 1 December in Chicago (the league) it is 4:30 pm on
    Wednesday in Auckland. A suspension given no first day starts on the league's Tuesday; a ban
    at the league's venue on Tuesday, a ban at the Auckland venue on Wednesday. Lifted now, each
    is lifted on the same day of its own clock, and none is active any more. A ban in Auckland
    through Tuesday is over there; one in Chicago through Tuesday still runs."""
    with time_machine.travel(utc("2026-12-02T03:30"), tick=False):
        town = LocalLeague(league, host_for, CHICAGO, "2026-11-01", "2026-12-31")
        auckland, chicago = town.venue(AUCKLAND), town.venue()
        player, other = town.players(2)
        office = town.office
        made = {
            "suspension": sanctioned(office, player),
            "chicago ban": sanctioned(office, player, "venue_ban", "fighting", venue_id=chicago),
            "auckland ban": sanctioned(office, player, "venue_ban", "fighting", venue_id=auckland),
        }
        expected = {"suspension": "2026-12-01", "chicago ban": "2026-12-01", "auckland ban": "2026-12-02"}
        assert {name: (s["first_day"], s["active"]) for name, s in made.items()} == {
            name: (day, True) for name, day in expected.items()
        }
        for name, made_one in made.items():
            lifted = ok(office.post(f"{SANCTIONS}/{made_one['id']}/lift", json={"reason": "Cleared."}))
            assert (lifted["lifted_on"], lifted["active"]) == (expected[name], False), name
        assert discipline_active(office, player) == []
        through_tuesday = {"first_day": "2026-11-20", "last_day": "2026-12-01"}
        over = sanctioned(office, other, "venue_ban", "fighting", venue_id=auckland, **through_tuesday)
        running = sanctioned(office, other, "venue_ban", "fighting", venue_id=chicago, **through_tuesday)
        assert (over["active"], running["active"]) == (False, True)
        assert discipline_active(office, other) == [running["id"]]


CORRECTION_EDGES = [
    pytest.param(None, "2026-12-02T05:59", 200, id="chicago-last-day-23:59"),
    pytest.param(None, "2026-12-02T06:01", 403, id="chicago-next-day-00:01"),
    pytest.param(AUCKLAND, "2026-12-01T10:59", 200, id="auckland-last-day-23:59"),
    pytest.param(AUCKLAND, "2026-12-01T11:01", 403, id="auckland-next-day-00:01"),
]


@pytest.mark.parametrize(("zone", "instant", "status"), CORRECTION_EDGES)
def test_a_hosts_correction_window_ends_at_the_venues_midnight_r2a_r17(
    league: League, host_for: HostFor, zone: str | None, instant: str, status: int
) -> None:
    """R2a with R17: a report of 24 November, correction_days 7: its host may report, correct and
    void it through 1 December on the venue's wall clock (the league's, America/Chicago, or the
    venue's own, Pacific/Auckland), and not from 00:01 on the 2nd there (403, R17; the office
    then reports it, with a reason, and the host still may not correct or void it)."""
    with time_machine.travel(utc(instant), tick=False):
        town = LocalLeague(league, host_for, CHICAGO, "2026-11-01", "2026-12-31", correction_days=7)
        venue = town.venue(zone)
        host = town.host(venue)
        players = town.players(3)
        if status == 200:
            report = ok(town.report(venue, "2026-11-24", players, host), 201)
        else:
            problem = assert_problem(town.report(venue, "2026-11-24", players, host), 403, rule="R17")
            assert "2026-12-01" in problem["detail"], problem  # the window's last day
            late = town.body(venue, "2026-11-24", players, reason="From the host's paper sheet.")
            report = ok(town.office.post(TOURNAMENTS, json=late), 201)
        url = f"{TOURNAMENTS}/{report['id']}"
        body = {"results": town.body(venue, "2026-11-24", players[::-1])["results"], "reason": "Reversed."}
        answers = [host.put(url, json=body), host.post(f"{url}/void", json={"reason": "Wrong night."})]
        if status == 200:
            assert [a.status_code for a in answers] == [200, 200]
            assert ok(town.office.get(url))["voided"] is True
        else:
            for answer in answers:
                problem = assert_problem(answer, 403, rule="R17")
                assert "until 2026-12-01" in problem["detail"], problem
            stored = ok(town.office.get(url))
            assert (stored["voided"], stored["version"]) == (False, report["version"])


def new_player_row(place: int, email: str, **born: str) -> dict[str, Any]:
    """A report row registering a new player (born as given: date_of_birth or membership_number)."""
    return {"place": place, "new_player": {"full_name": "Newborn Person", "email": email, **born}}


def test_a_date_of_birth_after_the_venues_today_is_refused_r2a_r5(league: League, host_for: HostFor) -> None:
    """R2a with R5: at 9:30 pm on Tuesday 1 December in Chicago (the league) it is Wednesday in
    Auckland. A player born on Wednesday is refused with the Chicago venue as home (and with no
    home venue: the league's clock), and so is a new player born then in a Chicago report; a
    player whose home is the Auckland venue may be born on its Wednesday."""
    with time_machine.travel(utc("2026-12-02T03:30"), tick=False):
        town = LocalLeague(league, host_for, CHICAGO, "2026-11-01", "2026-12-31")
        auckland, chicago = town.venue(AUCKLAND), town.venue()
        office = town.office
        wednesday = {
            "full_name": "Wednesday Child",
            "email": "wed@example.org",
            "date_of_birth": "2026-12-02",
        }
        for home in (chicago, None):
            refused = office.post("/api/v1/players", json={**wednesday, "home_venue_id": home})
            assert_problem(refused, 422, "date_of_birth")
        created = ok(office.post("/api/v1/players", json={**wednesday, "home_venue_id": auckland}), 201)
        assert created["date_of_birth"] == "2026-12-02"
        body = town.body(chicago, "2026-12-01", town.players(2))
        body["results"].append(new_player_row(3, "newborn@example.org", date_of_birth="2026-12-02"))
        assert_problem(office.post(TOURNAMENTS, json=body), 422, "results.2.new_player.date_of_birth")


@pytest.mark.parametrize(
    "born",
    [
        pytest.param({"date_of_birth": "2026-12-02"}, id="date_of_birth"),
        pytest.param({"membership_number": "202612021234"}, id="membership_number"),
    ],
)
def test_a_new_player_born_on_the_venues_today_is_registered_by_its_report_r2a_r5(
    league: League, host_for: HostFor, born: dict[str, str]
) -> None:
    """R2a with R5: at 4:30 pm on Wednesday 2 December in Auckland (Tuesday 9:30 pm in the league,
    America/Chicago), a report of the Auckland venue dated that Wednesday registers a new player
    born that Wednesday (by date of birth, or by the date in the membership number): not after the
    venue's today."""
    with time_machine.travel(utc("2026-12-02T03:30"), tick=False):
        town = LocalLeague(league, host_for, CHICAGO, "2026-11-01", "2026-12-31")
        auckland = town.venue(AUCKLAND)
        body = town.body(auckland, "2026-12-02", town.players(2))
        body["results"].append(new_player_row(3, "newborn@example.org", **born))
        stored = ok(town.office.post(TOURNAMENTS, json=body), 201)
        newborn = ok(town.office.get(f"/api/v1/players/{stored['results'][2]['player']['id']}"))
        assert (stored["date"], newborn["date_of_birth"]) == ("2026-12-02", "2026-12-02")


# What the `qualifying` fixture gives: qualifying(**season) -> (the league, venues, players by venue).
Qualifying = Callable[..., tuple[LocalLeague, dict[str, int], dict[str, list[int]]]]


@pytest.fixture()
def qualifying(league: League, host_for: HostFor) -> Qualifying:
    """qualifying(**season) -> a LocalLeague in America/Chicago, a venue on it and one in
    Auckland, and a report at each on 20 October placing five adults (quota 1: the first
    qualifies). Built at 2026-10-21 noon UTC: call it inside the test's travel."""

    def make(**season: Any) -> tuple[LocalLeague, dict[str, int], dict[str, list[int]]]:
        town = LocalLeague(league, host_for, CHICAGO, **season)
        venues = {"chicago": town.venue(), "auckland": town.venue(AUCKLAND)}
        fields = {name: town.players(5) for name in venues}
        for name, venue in venues.items():
            assert town.report(venue, "2026-10-20", fields[name]).status_code == 201
        return town, venues, fields

    return make


def test_lists_are_provisional_through_the_leagues_last_day_r2a_r12(qualifying: Qualifying) -> None:
    """R2a with R12: a season ending on 1 November (Chicago falls back that night) is provisional
    through 11:59 pm CST on the 1st on the league's clock (05:59 UTC on the 2nd, when Auckland is
    well into the 2nd): its lists say so and publishing is refused (R12). At 00:01 on the 2nd in
    Chicago they are final, the lists are published, and the audit entry's published_on is the
    league's date."""
    with time_machine.travel(utc("2026-10-21T12:00"), tick=False) as clock:
        town, venues, fields = qualifying(starts_on="2026-10-01", ends_on="2026-11-01")
        season = f"{SEASONS}/{town.season_id}"
        clock.move_to(utc("2026-11-02T05:59"))
        assert ok(town.office.get(f"{season}/qualifiers"))["provisional"] is True
        assert ok(town.office.get(f"{season}/venues/{venues['auckland']}/qualifiers"))["provisional"] is True
        early = town.office.post(f"{season}/qualifiers/publish", json={"settlements": []})
        assert_problem(early, 422, "ends_on", rule="R12")
        clock.move_to(utc("2026-11-02T06:01"))
        assert ok(town.office.get(f"{season}/qualifiers"))["provisional"] is False
        published = ok(town.office.post(f"{season}/qualifiers/publish", json={"settlements": []}), 201)
        assert published["provisional"] is False and published["published_at"].startswith("2026-11-02T06:01")
        (entry,) = audit_entries(
            town.office, f"action=qualifiers.publish&entity=season&entity_id={town.season_id}"
        )
        assert entry["after"]["published_on"] == "2026-11-02"
        qualified = {
            int(v["venue_id"]): [q["player"]["id"] for q in v["qualifiers"]] for v in published["venues"]
        }
        assert qualified == {
            venues["chicago"]: fields["chicago"][:1],
            venues["auckland"]: fields["auckland"][:1],
        }


def test_a_provisional_lists_suspension_check_is_the_leagues_today_r2a_r13(qualifying: Qualifying) -> None:
    """R2a with R13: while the season runs, a list skips players suspended today, the league's
    today: at 11:30 pm on Tuesday 1 December in Chicago (Wednesday in UTC and in Auckland), the
    leader of the Auckland venue, suspended through the 1st, is still skipped and the next player
    qualifies; at 00:01 on Wednesday in Chicago he qualifies again."""
    with time_machine.travel(utc("2026-10-21T12:00"), tick=False) as clock:
        town, venues, fields = qualifying(starts_on="2026-10-01", ends_on="2026-12-31")
        leader, second = fields["auckland"][:2]
        sanctioned(town.office, leader, first_day="2026-11-17", last_day="2026-12-01")
        path = f"{SEASONS}/{town.season_id}/venues/{venues['auckland']}/qualifiers"
        clock.move_to(utc("2026-12-02T05:30"))
        listing = ok(town.office.get(path))
        assert listing["provisional"] is True
        assert [(s["player"]["id"], s["reason"]) for s in listing["skipped"]] == [(leader, "suspended")]
        assert [q["player"]["id"] for q in listing["qualifiers"]] == [second]
        clock.move_to(utc("2026-12-02T06:01"))
        listing = ok(town.office.get(path))
        assert (listing["skipped"], [q["player"]["id"] for q in listing["qualifiers"]]) == ([], [leader])


MIDNIGHTS = [
    pytest.param(None, "2026-12-02T05:59", "2026-12-02T06:01", "2026-12-01", id="chicago-league-midnight"),
    pytest.param(
        AUCKLAND, "2026-12-01T10:59", "2026-12-01T11:01", "2026-12-01", id="auckland-venue-midnight"
    ),
]


@pytest.mark.parametrize(("zone", "before", "after", "day"), MIDNIGHTS)
def test_a_cached_answer_never_outlives_the_venues_midnight_r2a_r11_r16(
    league: League, host_for: HostFor, zone: str | None, before: str, after: str, day: str
) -> None:
    """R2a with R11, R16: the door list and the standings read at 23:59 local are cached (the
    same answer again is a 304 a few seconds later); at 00:01 local on the next day a GET answers
    the new night and as_of under a new ETag, and the old ETag gets that answer, not a 304:
    whether the midnight is the league's (Chicago) or only a venue's own (Auckland, in a Chicago
    league: neither UTC's nor the league's date changes then)."""
    with time_machine.travel(utc(before), tick=False) as clock:
        town = LocalLeague(league, host_for, CHICAGO, "2026-11-01", "2026-12-31")
        venue = town.venue(zone)
        views = {"on": f"/api/v1/venues/{venue}/barred", "as_of": town.standings_path(venue)}
        first = {key: town.office.get(path) for key, path in views.items()}
        assert {key: answer.get_json()[key] for key, answer in first.items()} == {"on": day, "as_of": day}
        clock.move_to(utc(before) + timedelta(seconds=30))
        for key, path in views.items():
            again = town.office.get(path, headers={"If-None-Match": first[key].headers["ETag"]})
            assert again.status_code == 304, key
        clock.move_to(utc(after))
        for key, path in views.items():
            fresh = town.office.get(path)
            assert (fresh.get_json()[key], fresh.headers["ETag"] != first[key].headers["ETag"]) == (
                shifted(day, 1),
                True,
            ), key
            revalidated = town.office.get(path, headers={"If-None-Match": first[key].headers["ETag"]})
            assert (revalidated.status_code, revalidated.get_json()[key]) == (200, shifted(day, 1)), key
