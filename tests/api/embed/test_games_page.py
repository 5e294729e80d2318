"""The games page that other sites frame (GET /embed/regions/{id}/games, R2a): its "add to
calendar" link subscribes to the region's feed (webcal://, on the host the page was asked of),
and every link opens outside the frame (target _top, or _blank with rel noopener)."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import time_machine
from icalendar import Calendar

from tests.support.league import League
from tests.support.local_dates import CHICAGO, LocalLeague, ok, utc

HTML = {"Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"}  # as a browser asks


class Links(HTMLParser):
    """Every <a> of a page, its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[dict[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.found.append({name: value or "" for name, value in attrs})


def links_of(response: Any) -> list[dict[str, str]]:
    assert response.status_code == 200, response.get_data(as_text=True)
    reader = Links()
    reader.feed(response.get_data(as_text=True))
    return reader.found


def opens_outside_the_frame(link: dict[str, str]) -> bool:
    target = link.get("target")
    return target == "_top" or (target == "_blank" and "noopener" in link.get("rel", "").split())


@time_machine.travel(utc("2026-12-02T18:00"), tick=False)  # Wednesday 2 December, noon in Chicago
def test_r2a_the_games_pages_calendar_link_subscribes_and_its_links_leave_the_frame(
    league: League, host_for: Any
) -> None:
    here = LocalLeague(league, host_for, CHICAGO, "2026-11-02", "2027-01-31")
    crown = int(league.venue(here.region_id, name="The Crown", city="Riverton")["id"])
    tuesday = {"weekday": 2, "starts_at": "19:00", "sessions": 1}
    ok(here.office.put(f"/api/v1/venues/{crown}/schedule", json={"schedule": [tuesday]}))
    path = f"/embed/regions/{here.region_id}/games"
    client = here.office.client
    links = links_of(client.get(path, headers=HTML))
    feed = f"/api/v1/regions/{here.region_id}/calendar.ics"
    (calendar,) = [link for link in links if "calendar" in link.get("class", "").split()]
    assert calendar["href"] == f"webcal://localhost{feed}"
    standings = f"/embed/seasons/{here.season_id}/venues/{crown}/standings"
    assert standings in [link["href"] for link in links]
    assert [link for link in links if not opens_outside_the_frame(link)] == []
    # The link's feed is the region's calendar (the same path over HTTP).
    answer = client.get(feed)
    assert answer.status_code == 200 and answer.mimetype == "text/calendar"
    assert Calendar.from_ical(answer.get_data()).walk("VEVENT")
    # Asked of another host name, the page names that host: never a page cached for another one.
    elsewhere = links_of(client.get(path, headers=HTML, base_url="https://league.example.org"))
    assert f"webcal://league.example.org{feed}" in [link["href"] for link in elsewhere]
    again = links_of(client.get(path, headers=HTML))
    assert f"webcal://localhost{feed}" in [link["href"] for link in again]
