"""The league's games (R2, R2a): every venue's scheduled nights in a range of local dates, each
on its venue's clock with its zone and instant, its season, its report and whether it is missing;
cancelled, moved and make-up nights; and the office's missing reports that know the schedule:
on a Wednesday, a Tuesday venue that has not reported is missing, a Friday one not yet."""

from __future__ import annotations

import re
from typing import Any

import time_machine

from tests.support.league import League, assert_problem
from tests.support.local_dates import AUCKLAND, CHICAGO, HostFor, LocalLeague, ok, utc

TUESDAY = {"weekday": 2, "starts_at": "19:00", "sessions": 1}
FRIDAY = {"weekday": 5, "starts_at": "20:30", "sessions": 2}
WEDNESDAY_NOON = utc("2026-12-02T18:00")  # Wednesday 2 December, 12:00 in Chicago


def local(league: League, host_for: HostFor) -> LocalLeague:
    return LocalLeague(league, host_for, CHICAGO, "2026-11-02", "2027-01-31")


# R2, R17: a venue is never missing a night from before it was added; the venues these tests
# chase were added on Wednesday 25 November, before the nights they ask about.
ADDED = utc("2026-11-25T18:00")


def scheduled(here: LocalLeague, nights: list[dict[str, Any]], zone: str | None = None) -> int:
    with time_machine.travel(ADDED, tick=False):
        venue = here.venue(zone)
    ok(here.office.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": nights}))
    return venue


def games(caller: Any, query: str = "") -> dict[str, Any]:
    return ok(caller.get(f"/api/v1/games{query}"))


@time_machine.travel(WEDNESDAY_NOON, tick=False)
def test_r2a_this_weeks_games_by_default_with_zone_instant_season_and_reports(
    league: League, host_for: HostFor
) -> None:
    here = local(league, host_for)
    venue = scheduled(here, [TUESDAY, FRIDAY])
    answer = games(here.office.client, f"?region_id={here.region_id}")  # the public
    assert (answer["starts_on"], answer["ends_on"], answer["total"]) == ("2026-11-30", "2026-12-06", 2)
    tuesday, friday = answer["items"]
    assert tuesday["venue"]["id"] == venue and tuesday["venue"]["region"]["id"] == here.region_id
    assert (tuesday["date"], tuesday["weekday"], tuesday["starts_at"]) == ("2026-12-01", 2, "19:00")
    assert (tuesday["timezone"], tuesday["starts"]) == (CHICAGO, "2026-12-01T19:00:00-06:00")
    assert tuesday["season"]["id"] == here.season_id
    assert (tuesday["reported"], tuesday["missing"], tuesday["cancelled"]) == (False, True, False)
    assert (friday["date"], friday["sessions"], friday["missing"]) == ("2026-12-04", 2, False)
    ok(here.report(venue, "2026-12-01", here.players(3)), 201)
    tuesday = games(here.office, f"?venue_id={venue}")["items"][0]
    assert (tuesday["reported"], tuesday["missing"]) == (True, False)


@time_machine.travel(WEDNESDAY_NOON, tick=False)
def test_r2a_cancelled_moved_and_make_up_nights_are_listed(league: League, host_for: HostFor) -> None:
    here = local(league, host_for)
    venue = scheduled(here, [TUESDAY, FRIDAY])
    path = f"/api/v1/venues/{venue}/schedule-exceptions"
    ok(here.office.post(path, json={"kind": "cancelled", "date": "2026-12-08", "note": "Closed"}), 201)
    moved = {"kind": "moved", "date": "2026-12-11", "to": "2026-12-12", "starts_at": "18:00", "note": "Darts"}
    ok(here.office.post(path, json=moved), 201)
    ok(here.office.post(path, json={"kind": "added", "date": "2026-12-13", "starts_at": "15:00"}), 201)
    items = games(here.office, f"?venue_id={venue}&from=2026-12-07&to=2026-12-13")["items"]
    assert [(g["date"], g["starts_at"]) for g in items] == [
        ("2026-12-08", "19:00"),
        ("2026-12-12", "18:00"),
        ("2026-12-13", "15:00"),
    ]
    assert (items[0]["cancelled"], items[0]["note"], items[0]["missing"]) == (True, "Closed", False)
    assert (items[1]["moved_from"], items[1]["note"]) == ("2026-12-11", "Darts")
    assert (items[2]["make_up"], items[2]["sessions"]) == (True, 1)


@time_machine.travel(WEDNESDAY_NOON, tick=False)
def test_r2_a_night_outside_every_season_is_no_game_and_the_range_is_bounded(
    league: League, host_for: HostFor
) -> None:
    here = local(league, host_for)
    venue = scheduled(here, [TUESDAY])
    later = games(here.office, f"?venue_id={venue}&from=2027-02-01&to=2027-02-07")
    assert later["items"] == [] and later["total"] == 0
    assert_problem(here.office.get("/api/v1/games?from=2026-12-01&to=2027-03-03"), 422, "to")
    assert_problem(here.office.get("/api/v1/games?from=2026-12-07&to=2026-12-01"), 422, "to")
    assert games(here.office, "?from=2026-12-01&to=2027-03-02")["ends_on"] == "2027-03-02"
    paged = games(here.office, f"?venue_id={venue}&from=2026-11-02&to=2026-11-30&per_page=2&page=2")
    assert (paged["total"], paged["pages"], len(paged["items"])) == (4, 2, 2)
    assert_problem(here.office.get("/api/v1/games?venue_id=999999"), 404)


@time_machine.travel(utc("2026-12-01T12:00"), tick=False)
def test_r2a_a_night_is_missing_on_its_own_venues_clock(league: League, host_for: HostFor) -> None:
    """Tuesday 12:00 UTC is Wednesday 01:00 in Auckland: its Tuesday night has passed there, not
    yet in Chicago (06:00 Tuesday)."""
    here = local(league, host_for)
    chicago, auckland = scheduled(here, [TUESDAY]), scheduled(here, [TUESDAY], AUCKLAND)
    items = {g["venue"]["id"]: g for g in games(here.office, f"?region_id={here.region_id}")["items"]}
    assert (items[chicago]["missing"], items[auckland]["missing"]) == (False, True)
    assert items[auckland]["starts"] == "2026-12-01T19:00:00+13:00"


@time_machine.travel(WEDNESDAY_NOON, tick=False)
def test_r2a_missing_reports_on_a_wednesday_know_the_schedule(league: League, host_for: HostFor) -> None:
    """Venues playing Tuesday and Friday: on Wednesday, Tuesday's unreported night is missing and
    Friday's is not yet; a Friday-only venue is not chased; a venue without a schedule falls back
    to the weekly rule (no report that week), marked `scheduled: false`."""
    here = local(league, host_for)
    both = scheduled(here, [TUESDAY, FRIDAY])
    friday_only = scheduled(here, [FRIDAY])
    reported_tuesday = scheduled(here, [TUESDAY, FRIDAY])
    cancelled = scheduled(here, [TUESDAY])
    unscheduled = here.venue()
    ok(here.report(reported_tuesday, "2026-12-01", here.players(3)), 201)
    ok(
        here.office.post(
            f"/api/v1/venues/{cancelled}/schedule-exceptions",
            json={"kind": "cancelled", "date": "2026-12-01"},
        ),
        201,
    )
    answer = ok(here.office.get(f"/api/v1/seasons/{here.season_id}/missing-reports?week=2026-W49"))
    listed = {v["id"]: v for v in answer["venues"]}
    assert set(listed) == {both, unscheduled} and answer["total"] == 2
    assert (listed[both]["scheduled"], listed[both]["nights"]) == (True, ["2026-12-01"])
    assert (listed[unscheduled]["scheduled"], listed[unscheduled]["nights"]) == (False, [])
    assert friday_only not in listed


HTML = {"Accept": "text/html"}


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@time_machine.travel(WEDNESDAY_NOON, tick=False)
def test_r2_a_night_played_but_not_scheduled_is_a_game_of_the_answer_the_embed_and_the_front_page(
    league: League, host_for: HostFor
) -> None:
    """R2: a report is stored for a night no schedule or exception gave (a make-up played before
    anyone recorded it; a venue with no schedule at all). The games answer lists that night as
    played, marked `unscheduled` (no start: none was scheduled), with its season and as many
    sessions as were reported; the region's embedded week and the site's front page, which read
    the same games, say "Played, not scheduled" on that day instead of "No games"."""
    here = local(league, host_for)
    crown = scheduled(here, [TUESDAY])
    lion = here.venue()  # no schedule at all
    ok(here.report(crown, "2026-11-30", here.players(3)), 201)  # a Monday: not one of its nights
    ok(here.report(lion, "2026-12-01", here.players(2)), 201)
    second = here.body(lion, "2026-12-01", here.players(2), session=2)
    ok(here.office.post("/api/v1/tournaments", json=second), 201)
    items = games(here.office.client, f"?region_id={here.region_id}")["items"]  # the public
    said = [(g["venue"]["id"], g["date"], g["starts_at"], g["unscheduled"]) for g in items]
    assert said == [
        (crown, "2026-11-30", None, True),
        (crown, "2026-12-01", "19:00", False),
        (lion, "2026-12-01", None, True),  # after the day's scheduled nights
    ], said
    monday, _tuesday, lion_tuesday = items
    assert (monday["reported"], monday["missing"], monday["starts"], monday["sessions"]) == (
        True,
        False,
        None,
        1,
    )
    assert (monday["season"]["id"], monday["make_up"], monday["cancelled"]) == (here.season_id, False, False)
    assert (lion_tuesday["sessions"], lion_tuesday["timezone"]) == (2, CHICAGO)

    week = text_of(
        here.office.client.get(f"/embed/regions/{here.region_id}/games", headers=HTML).get_data(as_text=True)
    )
    monday_section = week[week.index("Mon 30 Nov 2026") : week.index("Tue 1 Dec 2026")]
    assert "No games" not in monday_section and "Played, not scheduled" in monday_section, monday_section
    front = text_of(here.office.client.get("/", headers=HTML).get_data(as_text=True))
    assert front.count("Played, not scheduled") == 2, front
