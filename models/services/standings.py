"""Standings of a (venue, season) (R1, R9-R11), read from the stored, scored results."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import Session

from models.entities.league import Season, Venue
from models.entities.players import Player
from models.entities.tournaments import Result, Tournament
from models.errors import NotFound
from models.infra.clock import today
from models.rules.standings import Entry, Row, Tier, standings
from models.services.lookup import get_or_raise


@dataclass
class VenueStandings:
    season: Season
    venue: Venue
    as_of: date
    tournaments: int
    entrants: int
    rows: list[Row]

    @property
    def average_attendance(self) -> Decimal:
        """R12: entrants of the venue's regular tournaments ÷ the number of those tournaments."""
        if not self.tournaments:
            return Decimal(0)
        return Decimal(self.entrants) / Decimal(self.tournaments)

    @property
    def average_attendance_shown(self) -> Decimal:
        return self.average_attendance.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def counted_tournaments(season_id: int, venue_id: int, as_of: date) -> tuple[ColumnElement[bool], ...]:
    """R1, R3, R17: the live regular tournaments of one venue and season, up to a date."""
    return (
        Tournament.season_id == season_id,
        Tournament.venue_id == venue_id,
        Tournament.kind == "regular",
        Tournament.voided_at.is_(None),
        Tournament.date <= as_of,
    )


def standings_of(
    session: Session, season_id: int, venue_id: int, as_of: date | None = None
) -> VenueStandings:
    """A venue's standings in a season (R11); NotFound unless the season covers the venue."""
    season = get_or_raise(session, Season, season_id, "season")
    venue = get_or_raise(session, Venue, venue_id, "venue")
    if not season.covers_region(venue.region_id):
        raise NotFound(f"Season {season.id} does not cover venue {venue.id}.")
    return venue_standings(session, season, venue, as_of)


def venue_standings(
    session: Session, season: Season, venue: Venue, as_of: date | None = None
) -> VenueStandings:
    as_of = as_of or today()
    where = counted_tournaments(season.id, venue.id, as_of)
    count, entrants = session.execute(
        select(func.count(Tournament.id), func.coalesce(func.sum(Tournament.entrants), 0)).where(*where)
    ).one()
    rows = session.execute(
        select(
            Result.player_id,
            Player.display_name,
            Result.tournament_id,
            Result.place,
            Result.status,
            Result.placement_points,
            Result.participation_points,
        )
        .join(Tournament, Tournament.id == Result.tournament_id)
        .join(Player, Player.id == Result.player_id)
        .where(*where)
    ).all()
    by_player: dict[int, tuple[str, list[Entry]]] = {}
    for player_id, name, tournament_id, place, status, placement, participation in rows:
        by_player.setdefault(player_id, (name, []))[1].append(
            Entry(tournament_id, place, status, placement, participation)
        )
    tiers = [Tier(int(t["events"]), int(t["points"])) for t in season.attendance_bonus or []]
    ranked = standings(by_player, season.count_best, tiers)
    return VenueStandings(season, venue, as_of, int(count), int(entrants), ranked)


def player_seasons(session: Session, player: Player) -> list[dict[str, Any]]:
    """A player's record per (season, venue): their standing (R11) and every live result there."""
    results = session.execute(
        select(Tournament, Result)
        .join(Result, Result.tournament_id == Tournament.id)
        .where(Result.player_id == player.id, Tournament.voided_at.is_(None))
        .order_by(Tournament.season_id.desc(), Tournament.venue_id, Tournament.date, Tournament.session)
    ).all()
    groups: dict[tuple[int, int], list[tuple[Tournament, Result]]] = {}
    for tournament, result in results:
        groups.setdefault((tournament.season_id, tournament.venue_id), []).append((tournament, result))
    record = []
    for (season_id, venue_id), items in groups.items():
        season, venue = items[0][0].season, items[0][0].venue
        row = next(
            (r for r in venue_standings(session, season, venue).rows if r.player_id == player.id),
            None,
        )
        record.append(
            {
                "season_id": season_id,
                "season_name": season.name,
                "venue_id": venue_id,
                "venue_name": venue.name,
                "rank": row.rank if row else None,
                "tied": row.tied if row else False,
                "points": row.points if row else 0,
                "played": row.played if row else 0,
                "results": [
                    {
                        "tournament_id": t.id,
                        "date": t.date,
                        "session": t.session,
                        "kind": t.kind,
                        "entrants": t.entrants,
                        "place": r.place,
                        "status": r.status,
                        "placement_points": r.placement_points,
                        "participation_points": r.participation_points,
                        "points": r.points,
                    }
                    for t, r in items
                ],
            }
        )
    return record
