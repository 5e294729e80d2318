"""Every public answer built from a venue's schedule stays bounded (R2), even for a schedule
stored before schedules were bounded: the Mill's 24 nights on each weekday (one every hour),
written straight into the database as such old data would be. The venue's answer, the list of
venues, the week's games, both calendar feeds and the embedded games page read it as its first 3
nights of each weekday (by start), and setting it again keeps only what is sent."""

from __future__ import annotations

from typing import Any

import time_machine
from icalendar import Calendar
from sqlalchemy import Connection, func, insert, select

from models.entities import VenueGame
from tests.support.league import Caller, League
from tests.support.local_dates import CHICAGO, HostFor, LocalLeague, ok, utc

WEDNESDAY_NOON = utc("2026-12-02T18:00")  # Wednesday 2 December, 12:00 in Chicago
HOURS = [f"{hour:02d}:00" for hour in range(24)]
FIRST_THREE = [
    {"weekday": day, "starts_at": start, "sessions": 1} for day in range(1, 8) for start in HOURS[:3]
]


def calendar_events(caller: Caller, path: str) -> list[Any]:
    response = caller.get(path)
    assert response.status_code == 200, response.get_data(as_text=True)
    return list(Calendar.from_ical(response.get_data()).walk("VEVENT"))


@time_machine.travel(WEDNESDAY_NOON, tick=False)
def test_r2_a_schedule_stored_past_the_bound_is_read_as_its_first_three_nights_of_each_weekday(
    league: League, host_for: HostFor, public: Caller, connection: Connection
) -> None:
    here = LocalLeague(league, host_for, CHICAGO, "2026-11-02", "2027-03-31")  # past the feeds' window
    mill = here.venue()
    stored = [
        {"venue_id": mill, "weekday": day, "starts_at": start, "sessions": 1}
        for day in range(1, 8)
        for start in HOURS
    ]
    connection.execute(insert(VenueGame), stored)
    assert ok(public.get(f"/api/v1/venues/{mill}"))["schedule"] == FIRST_THREE
    listed = ok(public.get(f"/api/v1/venues?region_id={here.region_id}"))["items"]
    assert [venue["schedule"] for venue in listed if venue["id"] == mill] == [FIRST_THREE]
    week = ok(public.get(f"/api/v1/games?venue_id={mill}&per_page=500"))
    assert week["total"] == 21 and {game["starts_at"] for game in week["items"]} == set(HOURS[:3])
    # Two weeks back (18 November) to twelve ahead (24 February): 99 days, 3 nights each.
    for path in (f"/api/v1/venues/{mill}/calendar.ics", f"/api/v1/regions/{here.region_id}/calendar.ics"):
        events = calendar_events(public, path)
        assert len(events) == 99 * 3
        assert len({str(event["uid"]) for event in events}) == len(events)
    page = public.get(f"/embed/regions/{here.region_id}/games", headers={"Accept": "text/html"})
    assert page.status_code == 200 and page.get_data(as_text=True).count('<li class="game') == 21
    # Set again (by its host): what is sent is kept, nights stored past the bound among them, and
    # the rest is gone.
    sent = [
        {"weekday": 2, "starts_at": "05:00", "sessions": 1},
        {"weekday": 2, "starts_at": "19:00", "sessions": 2},
    ]
    ok(here.host(mill).put(f"/api/v1/venues/{mill}/schedule", json={"schedule": sent}))
    assert ok(public.get(f"/api/v1/venues/{mill}"))["schedule"] == sent
    count = select(func.count()).select_from(VenueGame).where(VenueGame.venue_id == mill)
    assert connection.scalar(count) == 2


@time_machine.travel(WEDNESDAY_NOON, tick=False)
def test_r2_a_regions_feed_of_many_full_venues_ends_early_at_a_whole_day(
    league: League, host_for: HostFor, public: Caller
) -> None:
    """R2: a feed lists at most 1,000 nights. Four venues of 21 nights a week (3 on every weekday,
    the most a schedule holds) give 1,188 in the region's 99 days: its feed starts two weeks back
    as ever and ends at the last day whose nights all fit; each venue's own feed is whole."""
    here = LocalLeague(league, host_for, CHICAGO, "2026-11-02", "2027-03-31")  # past the feeds' window
    full = [
        {"weekday": day, "starts_at": start} for day in range(1, 8) for start in ("15:00", "19:00", "21:30")
    ]
    venues = [here.venue() for _ in range(4)]
    for venue in venues:
        ok(here.office.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": full}))
    events = calendar_events(public, f"/api/v1/regions/{here.region_id}/calendar.ics")
    days = sorted({event.decoded("dtstart").date() for event in events})
    assert len(events) == 12 * len(days) <= 1000 and len(events) > 1000 - 12
    assert days[0].isoformat() == "2026-11-18" and days[-1].isoformat() < "2027-02-24"
    assert len({str(event["uid"]) for event in events}) == len(events)
    assert len(calendar_events(public, f"/api/v1/venues/{venues[0]}/calendar.ics")) == 99 * 3
