"""A league whose dates are local (R2a), built through the HTTP API with explicit days, for the
tests that freeze the clock (tests/api/**/test_local_dates*.py): `utc` (an exact instant), the zones
they use, and `LocalLeague` (the league's zone, a region, venues in their own zones or the
league's, one season from and to given days, players, reports, door lists, standings)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from tests.support.league import Caller, League

CHICAGO = "America/Chicago"
LONDON = "Europe/London"
AUCKLAND = "Pacific/Auckland"
LOS_ANGELES = "America/Los_Angeles"

SETTINGS = "/api/v1/league-settings"
TOURNAMENTS = "/api/v1/tournaments"
SEASONS = "/api/v1/seasons"

# What the `host_for` fixture gives: host_for(venue_id, ..., name=...) -> a host's Caller.
HostFor = Callable[..., Caller]


def utc(text: str) -> datetime:
    """An exact instant written in UTC, "2026-12-02T05:59" (aware): the tests write every instant
    this way and every local date by hand, so the zone database is never its own witness."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def ok(response: Any, status: int = 200) -> dict[str, Any]:
    """The JSON body of an answer with this status."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    data: dict[str, Any] = response.get_json()
    return data


def set_league_zone(office: Caller, zone: str | None) -> dict[str, Any]:
    """The office sets the league's zone (None: back to LEAGUE_TIMEZONE, else UTC); the settings."""
    return ok(office.patch(SETTINGS, json={"timezone": zone}))


class LocalLeague:
    """The league in `zone` (None: as it is), a region, and a season covering it from `starts_on`
    to `ends_on` (with any other season settings). Venues are added with their own zone or none."""

    def __init__(
        self,
        league: League,
        host_for: HostFor,
        zone: str | None,
        starts_on: str,
        ends_on: str,
        **season: Any,
    ) -> None:
        self.league, self.office, self.host_for = league, league.office, host_for
        if zone is not None:
            assert set_league_zone(self.office, zone)["timezone"] == zone
        self.region_id = int(league.region()["id"])
        fields = {"region_ids": [self.region_id], "starts_on": starts_on, "ends_on": ends_on, **season}
        self.season_id = int(league.season(**fields)["id"])

    def venue(self, zone: str | None = None) -> int:
        """A new venue of the region, on its own wall clock (`zone`) or the league's (None)."""
        created = self.league.venue(self.region_id, timezone=zone)
        assert created["timezone"] == zone
        return int(created["id"])

    def host(self, venue_id: int) -> Caller:
        """A host key of the venue."""
        return self.host_for(venue_id, name=f"Host: venue {venue_id}")

    def players(self, n: int, **fields: Any) -> list[int]:
        """n new adults (born 1990) with unique names."""
        made = []
        for _ in range(n):
            name = f"Q{uuid.uuid4().hex[:9]} Z{uuid.uuid4().hex[:9]}"
            made.append(int(self.league.player(name, date_of_birth="1990-01-01", **fields)["id"]))
        return made

    @staticmethod
    def body(venue_id: int, day: str, player_ids: list[int], **extra: Any) -> dict[str, Any]:
        """A report at the venue on `day`, placing the players 1, 2, 3, ..."""
        results = [{"place": place, "player_id": pid} for place, pid in enumerate(player_ids, start=1)]
        return {"venue_id": venue_id, "date": day, "results": results, **extra}

    def report(self, venue_id: int, day: str, player_ids: list[int], caller: Caller | None = None) -> Any:
        """POST the report (the office unless told); the response."""
        return (caller or self.office).post(TOURNAMENTS, json=self.body(venue_id, day, player_ids))

    def door_list(self, venue_id: int, caller: Caller | None = None, **headers: str) -> Any:
        """GET the venue's door list with no `on` (the office unless told); the response."""
        return (caller or self.office).get(f"/api/v1/venues/{venue_id}/barred", headers=headers)

    def door(self, venue_id: int) -> tuple[str, list[int]]:
        """(the night it answers, the sorted ids of the players barred) of the venue's door list."""
        body = ok(self.door_list(venue_id))
        return body["on"], sorted(int(row["player"]["id"]) for row in body["barred"])

    def standings_path(self, venue_id: int) -> str:
        return f"{SEASONS}/{self.season_id}/venues/{venue_id}/standings"

    def as_of(self, venue_id: int) -> str:
        """The day the venue's standings answer without `as_of`."""
        return str(ok(self.office.get(self.standings_path(venue_id)))["as_of"])
