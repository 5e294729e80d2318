"""Standings of a (venue, season) (R1, R9-R11), read from the stored, scored results."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from sqlalchemy import func, select
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
    """R11: one venue's standings in a season, as of a day (today by default)."""
    as_of = as_of or today()
    return season_tables(session, season, [venue], as_of)[venue.id]


def season_tables(
    session: Session, season: Season, venues: Sequence[Venue], as_of: date
) -> dict[int, VenueStandings]:
    """R1, R11: the standings of several venues of a season, as of a day, in two queries whatever
    the number of venues (each venue is still its own league)."""
    venue_ids = [venue.id for venue in venues]
    where = (
        Tournament.season_id == season.id,
        Tournament.venue_id.in_(venue_ids),
        Tournament.kind == "regular",
        Tournament.voided_at.is_(None),
        Tournament.date <= as_of,
    )
    totals = {
        venue_id: (int(count), int(entrants))
        for venue_id, count, entrants in session.execute(
            select(
                Tournament.venue_id,
                func.count(Tournament.id),
                func.coalesce(func.sum(Tournament.entrants), 0),
            )
            .where(*where)
            .group_by(Tournament.venue_id)
        )
    }
    rows = session.execute(
        select(
            Tournament.venue_id,
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
    by_venue: dict[int, dict[int, tuple[str, list[Entry]]]] = {venue_id: {} for venue_id in venue_ids}
    for venue_id, player_id, name, tournament_id, place, status, placement, participation in rows:
        by_venue[venue_id].setdefault(player_id, (name, []))[1].append(
            Entry(tournament_id, place, status, placement, participation)
        )
    tiers = [Tier(int(t["events"]), int(t["points"])) for t in season.attendance_bonus or []]
    return {
        venue.id: VenueStandings(
            season,
            venue,
            as_of,
            *totals.get(venue.id, (0, 0)),
            standings(by_venue[venue.id], season.count_best, tiers),
        )
        for venue in venues
    }


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
                "bonus_points": row.bonus_points if row else 0,
                "played": row.played if row else 0,
                "wins": row.wins if row else 0,
                "best_finish": row.best_finish if row else None,
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
