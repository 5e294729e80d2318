"""Standings of a (venue, season) (R1, R9-R11), read from the stored, scored results."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from itertools import groupby
from operator import itemgetter
from typing import Any

from sqlalchemy import String, case, cast, func, select, text
from sqlalchemy.orm import Session

from models.entities.league import Season, Venue
from models.entities.players import Player
from models.entities.tournaments import Result, Tournament
from models.errors import NotFound
from models.infra.clock import today
from models.rules.standings import Line, Row, Tier, ranked_lines
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
    where = season_results(season, [venue.id for venue in venues], as_of)
    totals = venue_totals(session, where)
    lines = standing_lines(session, season, where)
    tiers = season_tiers(season)
    return {
        venue.id: VenueStandings(
            season,
            venue,
            as_of,
            *totals.get(venue.id, (0, 0)),
            ranked_lines(lines.get(venue.id, []), tiers),
        )
        for venue in venues
    }


def season_results(season: Season, venue_ids: Sequence[int], as_of: date) -> tuple[Any, ...]:
    """What counts in standings: the season's live regular tournaments at these venues to a day."""
    return (
        Tournament.season_id == season.id,
        Tournament.venue_id.in_(venue_ids),
        Tournament.kind == "regular",
        Tournament.voided_at.is_(None),
        Tournament.date <= as_of,
    )


def venue_totals(session: Session, where: Sequence[Any]) -> dict[int, tuple[int, int]]:
    """Each venue's (tournaments, entrants) counted in standings (R12's average attendance)."""
    return {
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


def season_tiers(season: Season) -> list[Tier]:
    return [Tier(int(t["events"]), int(t["points"])) for t in season.attendance_bonus or []]


def standing_lines(session: Session, season: Season, where: Sequence[Any]) -> dict[int, list[Line]]:
    """Each venue's lines (models/rules/standings.Line): every player's results there summed by
    the database, in one query whatever the number of venues."""
    return dict(lines_by_venue(session, season, where))


def lines_by_venue(
    session: Session, season: Season, where: Sequence[Any], stream: bool = False
) -> Iterator[tuple[int, list[Line]]]:
    """(venue id, its lines), venue after venue. With `stream`, rows come from the database in
    batches, so a national league's lines are never all in memory at once unless the caller
    keeps them. R10's best tournaments are picked by a window over each player's totals."""
    total = Result.placement_points + Result.participation_points
    columns: list[Any] = [
        Tournament.venue_id,
        Result.player_id,
        Result.place,
        Result.status,
        Result.placement_points,
        Result.participation_points,
        total.label("total"),
    ]
    if season.count_best is not None:
        best_first = func.row_number().over(
            partition_by=(Tournament.venue_id, Result.player_id), order_by=total.desc()
        )
        columns.append(best_first.label("best_first"))
    results = (
        select(*columns).join(Tournament, Tournament.id == Result.tournament_id).where(*where).subquery()
    )
    r = results.c
    counted = (
        func.sum(r.total)
        if season.count_best is None
        else func.sum(case((r.best_first <= season.count_best, r.total), else_=0))
    )
    statement = (
        select(
            r.player_id,
            Player.display_name,
            func.count(),
            func.sum(case((r.status != "no_show", 1), else_=0)),
            func.sum(r.placement_points),
            func.sum(r.participation_points),
            counted,
            func.sum(case((r.place == 1, 1), else_=0)),
            func.sum(case((r.placement_points > 0, 1), else_=0)),
            func.min(r.place),
            func.sum(r.place),
            func.max(r.total),
            func.aggregate_strings(cast(r.place, String), ","),
            r.venue_id,
        )
        .join(Player, Player.id == r.player_id)
        .group_by(r.venue_id, r.player_id, Player.display_name)
        .order_by(r.venue_id, r.player_id)
    )
    if stream:
        if session.get_bind().dialect.name == "postgresql":
            # Rows in batches means a server-side cursor there, for which the planner favours
            # plans that start fast (a national league's results walked in index order: seconds)
            # over the hash aggregate that finishes first: tell it all rows are wanted.
            session.execute(text("SET LOCAL cursor_tuple_fraction = 1.0"))
        statement = statement.execution_options(yield_per=2000)
    rows = session.execute(statement)
    make = Line._make
    for venue_id, venue_rows in groupby(rows, key=itemgetter(-1)):
        yield venue_id, [make(row[:-1]) for row in venue_rows]


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
