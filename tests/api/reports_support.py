"""Shared set-up for the result report tests (test_reports*.py): a venue with a season around
today, a host of it, and players; helpers to build report bodies and count what is stored."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from tests.conftest import Caller, League

TOURNAMENTS = "/api/v1/tournaments"


def utc_today() -> date:
    """The service's today (UTC, models/clock.py)."""
    return datetime.now(UTC).date()


def days_ago(n: int) -> date:
    return utc_today() - timedelta(days=n)


def iso(day: date) -> str:
    return day.isoformat()


def unique_name() -> str:
    """A name no other player's name is close to (R5 duplicate warnings stay out of the way)."""
    return f"Q{uuid.uuid4().hex[:9]} Z{uuid.uuid4().hex[:9]}"


def unique_email() -> str:
    return f"{uuid.uuid4().hex[:12]}@example.org"


@dataclass
class Scene:
    """One venue in its own region, a season from 60 days ago to 30 days ahead, a host key."""

    league: League
    office: Caller
    public: Caller
    host: Caller
    venue: dict[str, Any]
    season: dict[str, Any]
    host_for: Any
    players: list[dict[str, Any]] = field(default_factory=list)

    @property
    def venue_id(self) -> int:
        return int(self.venue["id"])

    def add_players(self, n: int, **fields: Any) -> list[int]:
        ids = []
        for _ in range(n):
            player = self.league.player(unique_name(), **fields)
            self.players.append(player)
            ids.append(int(player["id"]))
        return ids

    def body(self, player_ids: list[int], day: date | None = None, **extra: Any) -> dict[str, Any]:
        """A report placing the players in the order given (1, 2, 3, ...)."""
        return {
            "venue_id": self.venue_id,
            "date": iso(day or days_ago(2)),
            "results": [{"place": i, "player_id": pid} for i, pid in enumerate(player_ids, start=1)],
            **extra,
        }

    def report(self, caller: Caller | None, body: dict[str, Any], **kwargs: Any) -> Any:
        return (caller or self.host).post(TOURNAMENTS, json=body, **kwargs)

    def reported(self, body: dict[str, Any], caller: Caller | None = None) -> dict[str, Any]:
        response = self.report(caller, body)
        assert response.status_code == 201, response.get_json()
        data: dict[str, Any] = response.get_json()
        return data

    def stored_reports(self) -> int:
        """Every stored report, voided ones included (the office sees them)."""
        response = self.office.get(f"{TOURNAMENTS}?include_voided=true")
        assert response.status_code == 200
        return int(response.get_json()["total"])

    def listed_reports(self) -> int:
        """Reports the public sees."""
        return int(self.public.get(TOURNAMENTS).get_json()["total"])

    def player_count(self) -> int:
        return int(self.office.get("/api/v1/players").get_json()["total"])

    def counts(self) -> tuple[int, int]:
        return self.stored_reports(), self.player_count()


def make_scene(league: League, office: Caller, public: Caller, host_for: Any, **season_fields: Any) -> Scene:
    region = league.region()
    venue = league.venue(region["id"])
    season = league.season(
        region_ids=[region["id"]],
        starts_on=iso(days_ago(60)),
        ends_on=iso(days_ago(-30)),
        **season_fields,
    )
    host = host_for(venue["id"], name="Host: Crown")
    return Scene(league, office, public, host, venue, season, host_for)


def by_place(report: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {row["place"]: row for row in report["results"]}


def points_by_place(report: dict[str, Any]) -> list[tuple[int, int, int, int]]:
    """(place, placement, participation, points) of each result, in place order."""
    return [
        (r["place"], r["placement_points"], r["participation_points"], r["points"])
        for r in sorted(report["results"], key=lambda r: r["place"])
    ]
