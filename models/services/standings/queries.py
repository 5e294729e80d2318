"""Standings of a (venue, season) (R1, R9-R11), read from the stored, scored results."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from functools import cache, cached_property
from types import SimpleNamespace
from typing import Any, NamedTuple

from sqlalchemy import Date, and_, bindparam, case, func, literal, or_, select
from sqlalchemy.orm import Session, aliased, joinedload

from models.entities.league import Season, Venue
from models.entities.players import Player
from models.entities.reports import Report, Result
from models.entities.standings import StandingLine
from models.errors import NotFound
from models.rules.players import player_labels
from models.rules.race import Race
from models.rules.race import points_race as race_of
from models.rules.reports import ReportKind
from models.rules.standings import Line, Row, line_key, ranked_lines, row_of, tie_break_key
from models.services import wall_clock
from models.services.lookup import get_or_raise
from models.services.standings.line_queries import (
    SUMS,
    counted_results,
    season_tiers,
    stored_lines,
    summed_lines,
)


def average_attendance(entrants: int, tournaments: int) -> Decimal:
    """R12: entrants of the venue's regular tournaments ÷ the number of those tournaments."""
    if not tournaments:
        return Decimal(0)
    return Decimal(entrants) / Decimal(tournaments)


@dataclass
class VenueStandings:
    season: Season
    venue: Venue
    as_of: date
    tournaments: int
    entrants: int
    rows: list[Row]

    @cached_property
    def labels(self) -> dict[int, str]:
        """R19: each row's player as lists show them: the display name, with the player number
        where two rows of the table share a display name ("Crystal K. #48")."""
        return player_labels((row.player_id, row.display_name) for row in self.rows)

    @property
    def average_attendance(self) -> Decimal:
        return average_attendance(self.entrants, self.tournaments)

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
    """R11: one venue's standings in a season, as of a day (by default today, at the venue: R2a)."""
    as_of = as_of or wall_clock.at_venue(session, venue)
    return season_tables(session, season, [venue], as_of)[venue.id]


def season_tables(
    session: Session, season: Season, venues: Sequence[Venue], as_of: date
) -> dict[int, VenueStandings]:
    """R1, R11: the standings of several venues of a season, as of a day, in two queries whatever
    the number of venues (each venue is still its own league). The stored lines serve unless a
    venue has results after the day; then they are summed from the results to that day."""
    venue_ids = [venue.id for venue in venues]
    totals = venue_totals(session, season, venue_ids, as_of)
    if any(total.later for total in totals.values()):
        lines = dict(summed_lines(session, season, counted_results(season, venue_ids, as_of)))
    else:
        lines = dict(stored_lines(session, season, venue_ids))
    tiers = season_tiers(season)
    return {
        venue.id: VenueStandings(
            season,
            venue,
            as_of,
            *totals.get(venue.id, NO_TOURNAMENTS)[:2],
            ranked_lines(lines.get(venue.id, []), tiers),
        )
        for venue in venues
    }


def season_standings(session: Session, season: Season, as_of: date) -> dict[int, VenueStandings]:
    """R1, R11: the standings of every venue with a regular tournament in the season, as of a
    day, by venue id, the venues in the order of their names."""
    venue_ids = sorted(venue_totals(session, season, None, as_of))
    venues = session.scalars(select(Venue).where(Venue.id.in_(venue_ids)).order_by(Venue.name, Venue.id))
    return season_tables(session, season, list(venues), as_of)


class Totals(NamedTuple):
    """A venue's regular tournaments counted in standings to a day, their entrants (R12's average
    attendance), and how many more it has after that day."""

    tournaments: int
    entrants: int
    later: int


NO_TOURNAMENTS = Totals(0, 0, 0)


def venue_totals(
    session: Session, season: Season, venue_ids: Sequence[int] | None, as_of: date
) -> dict[int, Totals]:
    """Each venue's Totals (of the season's venues with tournaments, these ones only if given)."""
    parameters: dict[str, Any] = {"season_id": season.id, "as_of": as_of}
    if venue_ids is not None:
        parameters["venue_ids"] = list(venue_ids)
    return {
        venue_id: Totals(int(count), int(entrants), int(later))
        for venue_id, count, entrants, later in session.connection().execute(
            _totals_statement(venue_ids is not None), parameters
        )
    }


@cache
def _totals_statement(some_venues: bool) -> Any:
    """`venue_totals`' statement, built once (after a report the season's lists read one venue's
    totals: building the statement cost more than running it), its values bound at each run."""
    on_time = Report.date <= bindparam("as_of", type_=Date)
    # What counts (R1) said once, in counted_results, of a season and venues to be bound.
    season: Any = SimpleNamespace(id=bindparam("season_id"))
    venues: Any = bindparam("venue_ids", expanding=True) if some_venues else None
    where = counted_results(season, venues)
    return (
        select(
            Report.venue_id,
            func.sum(case((on_time, 1), else_=0)),
            func.sum(case((on_time, Report.entrants), else_=0)),
            func.sum(case((on_time, 0), else_=1)),
        )
        .where(*where)
        .group_by(Report.venue_id)
    )


def points_race(session: Session, table: VenueStandings, player_ids: Sequence[int]) -> Race:
    """These players' standings points after each tournament day of the table's venue and season,
    to its day (a points-race chart): the last day's points are the table's."""
    season, venue = table.season, table.venue
    days = session.scalars(
        select(Report.date).where(*counted_results(season, [venue.id], table.as_of)).distinct()
    )
    totals: dict[int, list[tuple[date, int, bool]]] = {player_id: [] for player_id in player_ids}
    if player_ids:
        results = session.execute(
            select(
                Result.player_id,
                Report.date,
                # R8a: a tournament's total holds its knockout and bounty points, as the table's.
                Result.points,
                Result.played,
            )
            .join(Report, Report.id == Result.tournament_id)
            .where(*counted_results(season, [venue.id], table.as_of, player_ids))
        )
        for player_id, day, total, played in results:
            totals[player_id].append((day, int(total), bool(played)))
    return race_of(list(days), totals, season.count_best, season_tiers(season))


def player_rows(
    session: Session, player_id: int, tables: Mapping[tuple[int, int], tuple[Season, Venue]]
) -> dict[tuple[int, int], Row | None]:
    """R11: the player's row in each of these (season, venue) tables, as of today at the venue
    (R2a), ranked as in the whole table (None: not in it), without ranking the table. A line with
    more points, or as many and more wins, is ahead whatever the later tie-breaks (points, then
    wins, are R11's first steps), so only the lines level with the player's on both are read and
    compared, and the others counted, on the (season, venue, points) index: three queries for
    all the tables, not a whole table each. A
    table with a counted report after its day is ranked whole from its results instead
    (`venue_standings`), as its standings are."""
    if not tables:
        return {}
    as_of = {key: wall_clock.at_venue(session, venue) for key, (_season, venue) in tables.items()}
    seasons, venues = {s for s, _v in tables}, {v for _s, v in tables}
    newest_of, ahead_of, level_of = _player_row_statements()
    newest = {
        (season_id, venue_id): day
        for season_id, venue_id, day in session.execute(
            newest_of, {"season_ids": sorted(seasons), "venue_ids": sorted(venues)}
        )
    }
    ahead = {
        (season_id, venue_id): count
        for season_id, venue_id, count in session.execute(ahead_of, {"player_id": player_id})
    }
    level: dict[tuple[int, int], list[Line]] = {}
    # Read as plain rows (no ORM loading: a table's lines level with the player's may be many).
    for found_line in session.connection().execute(level_of, {"player_id": player_id}):
        level.setdefault((found_line[-2], found_line[-1]), []).append(Line._make(found_line[:-2]))
    found: dict[tuple[int, int], Row | None] = {}
    for key, (season, venue) in tables.items():
        if newest.get(key) is not None and newest[key] > as_of[key]:
            rows = venue_standings(session, season, venue, as_of[key]).rows
            found[key] = next((r for r in rows if r.player_id == player_id), None)
            continue
        tiers = season_tiers(season)
        lines = level.get(key, [])
        own = next((line for line in lines if line.player_id == player_id), None)
        if own is None:
            found[key] = None
            continue
        row = row_of(own, tiers)
        own_key = tie_break_key(row)
        # The others' keys only: their rows are not shown.
        keyed = [(line_key(line, tiers), line.player_id) for line in lines]
        row.rank = 1 + ahead.get(key, 0) + sum(1 for k, _p in keyed if k < own_key)
        row.key = own_key
        row.tied = any(k == own_key and other != player_id for k, other in keyed)
        found[key] = row
    return found


@cache
def _player_row_statements() -> tuple[Any, Any, Any]:
    """`player_rows`' three statements, built once (building them cost about as much as running
    them), their values bound at each run: the newest counted day of each table, how many lines
    of each of the player's tables are ahead of the player's on points and wins, and the lines
    level with the player's on both."""
    newest = (
        select(Report.season_id, Report.venue_id, func.max(Report.date))
        .where(
            Report.season_id.in_(bindparam("season_ids", expanding=True)),
            Report.venue_id.in_(bindparam("venue_ids", expanding=True)),
            Report.kind == ReportKind.REGULAR,
            Report.live,
        )
        .group_by(Report.season_id, Report.venue_id)
    )
    mine = (
        select(StandingLine.season_id, StandingLine.venue_id, StandingLine.points, StandingLine.wins)
        # The player's lines only, on the player index (every season's: few; a season filter
        # here tempts SQLite into walking the seasons' lines for them).
        .where(StandingLine.player_id == bindparam("player_id"))
        .subquery()
    )
    other = aliased(StandingLine)
    same_table = and_(other.season_id == mine.c.season_id, other.venue_id == mine.c.venue_id)
    # R11's first two steps are points, then wins: a line with more points, or as many and more
    # wins, is ahead whatever the later steps say (read on the points index, wins filtered).
    ahead = (
        select(mine.c.season_id, mine.c.venue_id, func.count())
        .join(
            other,
            and_(
                same_table,
                other.points >= mine.c.points,
                or_(other.points > mine.c.points, other.wins > mine.c.wins),
            ),
        )
        .group_by(mine.c.season_id, mine.c.venue_id)
    )
    level = select(
        other.player_id,
        literal(""),  # names order only players level after every step: not needed for a rank
        *(getattr(other, name) for name in SUMS),
        other.season_id,
        other.venue_id,
    ).join(mine, and_(same_table, other.points == mine.c.points, other.wins == mine.c.wins))
    return newest, ahead, level


class Played(NamedTuple):
    """A player's seasons, newest first, each with the venues (by id) where they played a live
    regular report: what their qualification reads (R12-R14)."""

    seasons: dict[int, tuple[Season, list[int]]]


def player_seasons(session: Session, player: Player) -> tuple[list[dict[str, Any]], Played]:
    """A player's record per (season, venue): their standing (R11), the knockouts they made and
    suffered in its regular reports (R8a) and every live result there;
    and where they played regular reports (`Played`), read from the same results."""
    results = session.execute(
        select(Report, Result)
        .join(Result, Result.tournament_id == Report.id)
        # Each group's season and venue in the same query, not one more query each.
        .options(joinedload(Report.season), joinedload(Report.venue))
        .where(Result.player_id == player.id, Report.live)
        .order_by(Report.season_id.desc(), Report.venue_id, Report.date, Report.session)
    ).all()
    groups: dict[tuple[int, int], list[tuple[Report, Result]]] = {}
    for report, result in results:
        groups.setdefault((report.season_id, report.venue_id), []).append((report, result))
    standing = player_rows(
        session, player.id, {key: (items[0][0].season, items[0][0].venue) for key, items in groups.items()}
    )
    record = []
    played: dict[int, tuple[Season, list[int]]] = {}
    for (season_id, venue_id), items in groups.items():
        season, venue = items[0][0].season, items[0][0].venue
        if any(t.kind == ReportKind.REGULAR for t, _r in items):
            played.setdefault(season_id, (season, []))[1].append(venue_id)
        row = standing[(season_id, venue_id)]
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
                # R8a: knockouts made and suffered in the live regular reports here.
                "knockouts": sum(r.knockouts for t, r in items if t.kind == ReportKind.REGULAR),
                "knocked_out": sum(
                    r.knocked_out_by_id is not None for t, r in items if t.kind == ReportKind.REGULAR
                ),
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
                        "knockout_points": r.knockout_points,
                        "knockouts": r.knockouts,
                        "knocked_out_by": r.knocked_out_by_id,
                        "points": r.points,
                    }
                    for t, r in items
                ],
            }
        )
    return record, Played(played)
