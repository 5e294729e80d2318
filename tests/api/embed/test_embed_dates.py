"""R24: the embeddable pages say dates in the league's format, and a page cached before the office
changes the format is never served after it: the settings bump the `league` scope, which every
page's scopes include (a venue's standings: `venue_scopes`; a season's qualifiers:
`season_scopes`; the games of the week: the data version)."""

from __future__ import annotations

import html
import re
from typing import Any

import time_machine

from tests.support.league import League
from tests.support.local_dates import SETTINGS, HostFor, LocalLeague, ok, utc

HTML = {"Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"}  # as a browser asks
ISO_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def words(response: Any) -> str:
    """A page's visible words (its <style> left out), one space apart."""
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    page = re.sub(r"<style>.*?</style>", " ", response.get_data(as_text=True), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_r24_embeds_say_dates_in_the_leagues_format_and_a_new_format_retires_them(
    league: League, host_for: HostFor
) -> None:
    """Thursday 3 December: the standings say "as of Thu 3 Dec 2026", the qualifiers that the
    season runs to "Thu 31 Dec 2026", the games page its days ("Tue 1 Dec 2026"), each cached (a
    second read is a hit, 304 for its ETag). Once the office sets `d/M/y`, each is answered anew
    (200 for the old ETag) in the new format: 3/12/2026, 31/12/2026, 1/12/2026. No ISO date in
    any of them."""
    with time_machine.travel(utc("2026-12-03T12:00"), tick=False):
        town = LocalLeague(league, host_for, None, "2026-11-01", "2026-12-31")
        venue = town.venue()
        night = {"weekday": 2, "starts_at": "19:00", "sessions": 1}
        ok(town.office.put(f"/api/v1/venues/{venue}/schedule", json={"schedule": [night]}))
        assert town.report(venue, "2026-12-01", town.players(3)).status_code == 201
        client = town.office.client
        pages = {
            f"/embed/seasons/{town.season_id}/venues/{venue}/standings": (
                "as of Thu 3 Dec 2026",
                "as of 3/12/2026",
            ),
            f"/embed/seasons/{town.season_id}/regions/{town.region_id}/qualifiers": (
                "the season runs to Thu 31 Dec 2026",
                "the season runs to 31/12/2026",
            ),
            f"/embed/regions/{town.region_id}/games": ("Tue 1 Dec 2026", "1/12/2026"),
        }
        etags = {}
        for path, (before, _after) in pages.items():
            first = client.get(path, headers=HTML)
            assert before in words(first) and not ISO_DAY.search(words(first)), (path, words(first))
            again = client.get(path, headers=HTML)
            assert again.headers.get("X-Cache") == "hit", (path, again.headers)
            etags[path] = first.headers["ETag"]
            assert client.get(path, headers={"If-None-Match": etags[path], **HTML}).status_code == 304

        ok(town.office.patch(SETTINGS, json={"date_format": "d/M/y"}))
        for path, (before, after) in pages.items():
            fresh = client.get(path, headers={"If-None-Match": etags[path], **HTML})
            assert fresh.status_code == 200, path
            said = words(fresh)
            assert after in said and before not in said and not ISO_DAY.search(said), (path, said)
