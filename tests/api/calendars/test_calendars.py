"""Calendar feeds (RFC 5545) of a venue's and a region's scheduled nights (R2a), parsed back with
icalendar: a Tuesday 19:00 night in America/Chicago is 19:00 local on both sides of the November
(2026-11-01) and March (2027-03-14) DST changes, so 00:00Z then 01:00Z in the fall and 01:00Z then
00:00Z in the spring; each event's UID is stable; a cancelled night stays, as CANCELLED; a night
outside every season covering the venue is in no feed (R2)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import time_machine
from icalendar import Calendar

from tests.support.league import League, assert_problem
from tests.support.local_dates import CHICAGO, HostFor, LocalLeague, ok, utc

TUESDAY = {"weekday": 2, "starts_at": "19:00", "sessions": 1}


def feed(caller: Any, path: str) -> Calendar:
    response = caller.get(path)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "text/calendar"
    return Calendar.from_ical(response.get_data())


def events(calendar: Calendar) -> dict[date, Any]:
    return {event.decoded("dtstart").date(): event for event in calendar.walk("VEVENT")}


def venue_with_tuesdays(
    league: League, host_for: HostFor, starts_on: str, ends_on: str
) -> tuple[LocalLeague, int]:
    here = LocalLeague(league, host_for, CHICAGO, starts_on, ends_on)
    venue = int(league.venue(here.region_id, name="The Crown", city="Riverton", timezone=CHICAGO)["id"])
    ok(here.office.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": [TUESDAY]}))
    return here, venue


def assert_utc(event: Any, instant: datetime) -> None:
    start = event.decoded("dtstart")
    assert (start.hour, start.minute, str(start.tzinfo)) == (19, 0, CHICAGO)
    assert start.astimezone(UTC) == instant


@time_machine.travel(utc("2026-10-20T17:00"), tick=False)
def test_r2a_a_venues_feed_across_the_november_dst_change(league: League, host_for: HostFor) -> None:
    here, venue = venue_with_tuesdays(league, host_for, "2026-09-07", "2026-12-20")
    ok(
        here.office.post(
            f"/api/v1/venues/{venue}/schedule-exceptions",
            json={"kind": "cancelled", "date": "2026-11-10", "note": "Closed"},
        ),
        201,
    )
    path = f"/api/v1/venues/{venue}/calendar.ics"
    calendar = feed(here.office.client, path)
    found = events(calendar)
    # Two weeks back (6 October) to twelve ahead (12 January), on the venue's clock, but R2: no
    # night after the season's last day (Sunday 20 December), the last Tuesday the 15th.
    assert min(found) == date(2026, 10, 6) and max(found) == date(2026, 12, 15) and len(found) == 11
    assert_utc(found[date(2026, 10, 27)], datetime(2026, 10, 28, 0, 0, tzinfo=UTC))  # CDT
    assert_utc(found[date(2026, 11, 3)], datetime(2026, 11, 4, 1, 0, tzinfo=UTC))  # CST
    tuesday = found[date(2026, 11, 3)]
    assert str(tuesday["uid"]).startswith(f"venue-{venue}-2026-11-03-1900@")
    assert "The Crown" in str(tuesday["summary"]) and str(tuesday["location"]) == "The Crown, Riverton"
    assert tuesday.decoded("dtend").astimezone(UTC) == datetime(2026, 11, 4, 5, 0, tzinfo=UTC)
    assert str(found[date(2026, 11, 10)]["status"]) == "CANCELLED"
    moved = {"kind": "moved", "date": "2026-11-17", "to": "2026-11-18"}
    ok(here.office.post(f"/api/v1/venues/{venue}/schedule-exceptions", json=moved), 201)
    after = events(feed(here.office.client, path))
    assert date(2026, 11, 17) not in after  # moved: the same event (its UID), on its new date
    assert str(after[date(2026, 11, 18)]["uid"]) == str(found[date(2026, 11, 17)]["uid"])
    found = events(feed(here.office.client, path))
    assert str(tuesday["status"]) == "CONFIRMED"
    assert [str(tz["tzid"]) for tz in calendar.walk("VTIMEZONE")] == [CHICAGO]
    again = events(feed(here.office.client, path))
    assert [str(e["uid"]) for e in again.values()] == [str(e["uid"]) for e in found.values()]
    first = here.office.client.get(path)
    assert first.headers["ETag"]
    assert here.office.client.get(path, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304


@time_machine.travel(utc("2027-03-02T18:00"), tick=False)
def test_r2a_a_regions_feed_across_the_march_dst_change(league: League, host_for: HostFor) -> None:
    here, venue = venue_with_tuesdays(league, host_for, "2027-01-04", "2027-05-30")
    found = events(feed(here.office.client, f"/api/v1/regions/{here.region_id}/calendar.ics"))
    assert_utc(found[date(2027, 3, 9)], datetime(2027, 3, 10, 1, 0, tzinfo=UTC))  # CST
    assert_utc(found[date(2027, 3, 16)], datetime(2027, 3, 17, 0, 0, tzinfo=UTC))  # CDT
    assert str(found[date(2027, 3, 9)]["uid"]).startswith(f"venue-{venue}-2027-03-09-1900@")
    assert_problem(here.office.client.get("/api/v1/regions/999999/calendar.ics"), 404)
    assert_problem(here.office.client.get("/api/v1/venues/999999/calendar.ics"), 404)


def unchanged(
    later: dict[str, tuple[datetime, int]], earlier: dict[str, tuple[datetime, int]], night: str
) -> None:
    """Every event of both feeds but `night`'s is as it was (a later feed's window has moved on)."""
    common = (set(later) & set(earlier)) - {night}
    assert len(common) >= 13 and {uid: later[uid] for uid in common} == {uid: earlier[uid] for uid in common}


def revisions_by_uid(caller: Any, path: str) -> dict[str, tuple[datetime, int]]:
    """Each event's (DTSTAMP, SEQUENCE), by its UID."""
    return {
        str(event["uid"]): (event.decoded("dtstamp"), int(event.get("sequence", 0)))
        for event in feed(caller, path).walk("VEVENT")
    }


def test_r2a_a_moved_night_is_a_newer_revision_of_its_event_and_the_others_stay_as_they_were(
    league: League, host_for: HostFor
) -> None:
    """Each event's DTSTAMP is when its night last changed, never the time of the fetch, and its
    SEQUENCE grows with each change of it, so a subscribed calendar notices a moved night: moved
    (to another day and time), moved back, its venue renamed; a schedule sent again unchanged,
    or fetched later, changes no event."""
    written, moved_at, back_at, renamed_at = (
        utc("2026-10-20T17:00"),
        utc("2026-10-21T09:30"),
        utc("2026-10-22T12:00"),
        utc("2026-10-23T15:45"),
    )
    with time_machine.travel(written, tick=False):
        here, venue = venue_with_tuesdays(league, host_for, "2026-09-07", "2027-01-31")
        path = f"/api/v1/venues/{venue}/calendar.ics"
        first = revisions_by_uid(here.office.client, path)
    assert len(first) == 15 and set(first.values()) == {(written, 0)}
    night = next(uid for uid in first if uid.startswith(f"venue-{venue}-2026-11-17-1900@"))
    with time_machine.travel(moved_at, tick=False):
        moved = {"kind": "moved", "date": "2026-11-17", "to": "2026-11-18", "starts_at": "20:00"}
        exception = ok(here.office.post(f"/api/v1/venues/{venue}/schedule-exceptions", json=moved), 201)
        ok(here.office.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": [TUESDAY]}))  # the same
    with time_machine.travel(moved_at + (back_at - moved_at) / 2, tick=False):
        after = revisions_by_uid(here.office.client, path)
        event = events(feed(here.office.client, path))[date(2026, 11, 18)]
    assert str(event["uid"]) == night and event.decoded("dtstart").hour == 20  # the same event, moved
    assert after[night] == (moved_at, 1)
    unchanged(after, first, night)
    with time_machine.travel(back_at, tick=False):
        taken_back = here.office.delete(f"/api/v1/venues/{venue}/schedule-exceptions/{exception['id']}")
        assert taken_back.status_code == 204, taken_back.get_data(as_text=True)
        back = revisions_by_uid(here.office.client, path)
    assert back[night] == (back_at, 2)  # on its date again: a newer revision still
    unchanged(back, first, night)
    with time_machine.travel(renamed_at, tick=False):
        ok(here.office.patch(f"/api/v1/venues/{venue}", json={"name": "The Crown and Anchor"}))
        renamed = revisions_by_uid(here.office.client, path)
    assert renamed[night] == (renamed_at, 3)
    assert {seen for uid, seen in renamed.items() if uid != night} == {(renamed_at, 1)}


def uids_of(calendar: Calendar) -> list[str]:
    return [str(event["uid"]) for event in calendar.walk("VEVENT")]


@time_machine.travel(utc("2026-10-20T17:00"), tick=False)
def test_r2a_every_event_has_its_own_uid_when_nights_share_a_date_and_time(
    league: League, host_for: HostFor
) -> None:
    """R2a: a cancelled Tuesday with a make-up night at its time; a Wednesday holding its regular
    night, a Tuesday moved onto it and a make-up night, all at 19:00: each is its own event, with
    its own UID, in both feeds (a calendar would otherwise show one and drop the other, or
    cancel the make-up with the cancelled night)."""
    here, venue = venue_with_tuesdays(league, host_for, "2026-09-07", "2026-12-20")
    wednesday = {"weekday": 3, "starts_at": "19:00", "sessions": 1}
    ok(here.office.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": [TUESDAY, wednesday]}))
    path = f"/api/v1/venues/{venue}/schedule-exceptions"
    for change in (
        {"kind": "cancelled", "date": "2026-11-03"},
        {"kind": "added", "date": "2026-11-03", "starts_at": "19:00", "note": "Make-up"},
        {"kind": "moved", "date": "2026-11-10", "to": "2026-11-11"},
        {"kind": "added", "date": "2026-11-11", "starts_at": "19:00"},
    ):
        ok(here.office.post(path, json=change), 201)
    for feed_path in (
        f"/api/v1/venues/{venue}/calendar.ics",
        f"/api/v1/regions/{here.region_id}/calendar.ics",
    ):
        calendar = feed(here.office.client, feed_path)
        uids = uids_of(calendar)
        assert len(uids) == len(set(uids)), sorted(uids)
        by_day: dict[date, list[Any]] = {}
        for event in calendar.walk("VEVENT"):
            by_day.setdefault(event.decoded("dtstart").date(), []).append(event)
        assert sorted(str(e["status"]) for e in by_day[date(2026, 11, 3)]) == ["CANCELLED", "CONFIRMED"]
        assert len(by_day[date(2026, 11, 11)]) == 3
        assert {e.decoded("dtstart").astimezone(UTC) for e in by_day[date(2026, 11, 11)]} == {
            datetime(2026, 11, 12, 1, 0, tzinfo=UTC)
        }


@time_machine.travel(utc("2027-03-02T18:00"), tick=False)
def test_r2a_a_night_at_a_time_the_clocks_skip_starts_as_much_later_and_is_refused_as_a_change(
    league: League, host_for: HostFor
) -> None:
    """R2a: on 14 March 2027 Chicago's clocks go from 02:00 to 03:00. A regular Sunday 02:30 night
    starts at 03:30 that day (08:30 UTC, as a phone reads 02:30 CST), in the feed and in the
    games' answer, and at 02:30 on the Sundays around it; a make-up night, or a night moved,
    at 02:30 that day is refused (R2a) and nothing is stored."""
    here = LocalLeague(league, host_for, CHICAGO, "2027-01-04", "2027-05-30")
    venue = int(league.venue(here.region_id, timezone=CHICAGO)["id"])
    sunday = {"weekday": 7, "starts_at": "02:30", "sessions": 1}
    ok(here.office.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": [sunday]}))
    found = events(feed(here.office.client, f"/api/v1/venues/{venue}/calendar.ics"))
    for day, local, instant in (
        (date(2027, 3, 7), (2, 30), datetime(2027, 3, 7, 8, 30, tzinfo=UTC)),
        (date(2027, 3, 14), (3, 30), datetime(2027, 3, 14, 8, 30, tzinfo=UTC)),
        (date(2027, 3, 21), (2, 30), datetime(2027, 3, 21, 7, 30, tzinfo=UTC)),
    ):
        start = found[day].decoded("dtstart")
        assert ((start.hour, start.minute), start.astimezone(UTC)) == (local, instant)
    games = ok(here.office.get(f"/api/v1/games?venue_id={venue}&from=2027-03-14&to=2027-03-14"))["items"]
    assert [(g["starts_at"], g["starts"]) for g in games] == [("03:30", "2027-03-14T03:30:00-05:00")]
    path = f"/api/v1/venues/{venue}/schedule-exceptions"
    problem = assert_problem(
        here.office.post(path, json={"kind": "added", "date": "2027-03-14", "starts_at": "02:30"}),
        422,
        "starts_at",
        rule="R2a",
    )
    assert "02:30 does not exist on Sunday 14 March 2027" in problem["errors"]["starts_at"][0]
    moved = {"kind": "moved", "date": "2027-03-07", "to": "2027-03-14"}
    assert_problem(here.office.post(path, json=moved), 422, "to", rule="R2a")
    assert ok(here.office.get(path))["items"] == []
    ok(here.office.post(path, json={**moved, "starts_at": "04:00"}), 201)


@time_machine.travel(utc("2026-10-20T17:00"), tick=False)
def test_r2a_a_night_at_a_time_the_clocks_show_twice_starts_at_the_first(
    league: League, host_for: HostFor
) -> None:
    """R2a: on 1 November 2026 Chicago's clocks go back from 02:00 to 01:00, so 01:30 is shown
    twice: a Sunday 01:30 night starts at the first (CDT, 06:30 UTC), in the feed and in the
    games' answer, every time they are asked; a make-up night at 01:30 that day is accepted."""
    here = LocalLeague(league, host_for, CHICAGO, "2026-09-07", "2026-12-20")
    venue = int(league.venue(here.region_id, timezone=CHICAGO)["id"])
    ok(
        here.office.put(
            f"/api/v1/venues/{venue}/schedule", json={"schedule": [{"weekday": 7, "starts_at": "01:30"}]}
        )
    )
    for _ in range(2):
        start = events(feed(here.office.client, f"/api/v1/venues/{venue}/calendar.ics"))[
            date(2026, 11, 1)
        ].decoded("dtstart")
        assert ((start.hour, start.minute), start.astimezone(UTC)) == (
            (1, 30),
            datetime(2026, 11, 1, 6, 30, tzinfo=UTC),
        )
        games = ok(here.office.get(f"/api/v1/games?venue_id={venue}&from=2026-11-01&to=2026-11-01"))["items"]
        assert [g["starts"] for g in games] == ["2026-11-01T01:30:00-05:00"]
    path = f"/api/v1/venues/{venue}/schedule-exceptions"
    ok(here.office.post(path, json={"kind": "added", "date": "2026-11-01", "starts_at": "01:00"}), 201)
