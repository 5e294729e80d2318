"""Reading standing lines (R9-R11): each player's live regular results at a venue in a season,
summed by the database from the results for any day (`summed_lines`), or as stored for the whole
season (`stored_lines`, `leading_lines`: models/entities/standings.py). The writes that keep the
stored lines up to date are in standing_lines.py."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from datetime import date
from functools import cache
from itertools import groupby
from operator import itemgetter
from typing import Any

from sqlalchemy import Integer, Select, String, and_, bindparam, case, cast, func, literal, select, text
from sqlalchemy.orm import Session, aliased

from models.entities.league import Season
from models.entities.players import Player
from models.entities.reports import Report, Result, played_in
from models.entities.standings import StandingLine
from models.rules.reports import ReportKind
from models.rules.standings import Line, Tier

# The Line fields the database sums, in Line's order after (player_id, display_name).
SUMS = tuple(Line._fields[2:])
# Below any line's points (points are never negative; a 32-bit integer on PostgreSQL).
NO_FLOOR = -(2**31)


def season_tiers(season: Season) -> list[Tier]:
    return [Tier(int(t["events"]), int(t["points"])) for t in season.attendance_bonus or []]


def counted_results(
    season: Season,
    venue_ids: Sequence[int] | None = None,
    as_of: date | None = None,
    players: Collection[int] | None = None,
) -> tuple[Any, ...]:
    """What counts in standings (R1): the season's live regular tournaments, at these venues (all
    when None), to a day (every day when None), of these players (all when None)."""
    where: list[Any] = [
        Report.season_id == season.id,
        Report.kind == ReportKind.REGULAR,
        Report.live,
    ]
    if venue_ids is not None:
        where.append(Report.venue_id.in_(venue_ids))
    if as_of is not None:
        where.append(Report.date <= as_of)
    if players is not None:
        where.append(Result.player_id.in_(sorted(players)))
    return tuple(where)


def line_sums(season: Season, where: Sequence[Any]) -> Select[Any]:
    """(venue_id, player_id, *SUMS) for each venue and player with results under `where`. R10's
    best tournaments are picked by a window over each player's totals."""
    total = Result.placement_points + Result.participation_points + Result.knockout_points
    columns: list[Any] = [
        Report.venue_id,
        Result.player_id,
        Result.place,
        Result.status,
        Result.placement_points,
        Result.participation_points,
        Result.knockout_points,
        Result.knockouts,
        total.label("total"),
    ]
    if season.count_best is not None:
        best_first = func.row_number().over(
            partition_by=(Report.venue_id, Result.player_id), order_by=total.desc()
        )
        columns.append(best_first.label("best_first"))
    results = select(*columns).join(Report, Report.id == Result.tournament_id).where(*where).subquery()
    r = results.c
    counted = (
        func.sum(r.total)
        if season.count_best is None
        else func.sum(case((r.best_first <= season.count_best, r.total), else_=0))
    )
    return select(
        r.venue_id,
        r.player_id,
        func.count().label("finishes"),
        func.sum(case((played_in(r), 1), else_=0)).label("played"),
        func.sum(r.placement_points).label("placement_points"),
        func.sum(r.participation_points).label("participation_points"),
        counted.label("counted"),
        func.sum(case((r.place == 1, 1), else_=0)).label("wins"),
        func.sum(case((r.placement_points > 0, 1), else_=0)).label("points_finishes"),
        func.min(r.place).label("best_finish"),
        func.sum(r.place).label("place_total"),
        func.max(r.total).label("best_single"),
        func.aggregate_strings(cast(r.place, String), ",").label("places"),
        func.sum(r.knockout_points).label("knockout_points"),
        func.sum(r.knockouts).label("knockouts"),
    ).group_by(r.venue_id, r.player_id)


def _by_venue(session: Session, statement: Select[Any], stream: bool) -> Iterator[tuple[int, list[Line]]]:
    """Rows of (player_id, display_name, *SUMS, venue_id), ordered by venue, as (venue, lines)."""
    if stream:
        statement = statement.execution_options(yield_per=2000)
    make = Line._make
    for venue_id, rows in groupby(session.execute(statement), key=itemgetter(-1)):
        yield venue_id, [make(row[:-1]) for row in rows]


def summed_lines(
    session: Session, season: Season, where: Sequence[Any], stream: bool = False
) -> Iterator[tuple[int, list[Line]]]:
    """(venue id, its lines) from the results under `where`, venue after venue. With `stream`,
    rows come in batches, so a national league's lines are never all in memory at once."""
    sums = line_sums(season, where).subquery()
    statement = (
        select(sums.c.player_id, Player.display_name, *(sums.c[name] for name in SUMS), sums.c.venue_id)
        .join(Player, Player.id == sums.c.player_id)
        .order_by(sums.c.venue_id, sums.c.player_id)
    )
    if stream and session.get_bind().dialect.name == "postgresql":
        # Rows in batches means a server-side cursor there, for which the planner favours plans
        # that start fast (a national league's results walked in index order: seconds) over the
        # hash aggregate that finishes first: tell it all rows are wanted.
        session.execute(text("SET LOCAL cursor_tuple_fraction = 1.0"))
    return _by_venue(session, statement, stream)


def line_columns() -> list[Any]:
    """A stored line's columns as a Line (joined with players for the name)."""
    return [
        StandingLine.player_id,
        Player.display_name,
        *(getattr(StandingLine, name) for name in SUMS),
    ]


def _stored_columns() -> list[Any]:
    return [*line_columns(), StandingLine.venue_id]


def stored_lines(
    session: Session, season: Season, venue_ids: Sequence[int] | None = None, stream: bool = False
) -> Iterator[tuple[int, list[Line]]]:
    """(venue id, its lines) as stored: the whole season's, at these venues (all when None)."""
    statement = (
        select(*_stored_columns())
        .join(Player, Player.id == StandingLine.player_id)
        .where(StandingLine.season_id == season.id)
        .order_by(StandingLine.venue_id, StandingLine.player_id)
    )
    if venue_ids is not None:
        statement = statement.where(StandingLine.venue_id.in_(venue_ids))
    return _by_venue(session, statement, stream)


def leading_lines(
    session: Session, season: Season, depth: int, venue_ids: Collection[int] | None = None
) -> Iterator[tuple[int, list[Line], bool]]:
    """(venue id, the top of its lines, whether that is all of them) for every venue of the
    season with results (these ones only, if given): the lines of each venue's best `depth` by
    points, and of everyone level on points with the last of them. Each venue's floor (the
    depth-th best points) and lowest points are found on the (season, venue, points) index, and
    only the lines at or above the floor are read. Without display names (empty): the caller
    reads the players anyway."""
    parameters: dict[str, Any] = {"season_id": season.id, "offset": depth - 1}
    if venue_ids is not None:
        parameters["venue_ids"] = sorted(venue_ids)
    make = Line._make
    # On the connection: plain rows, without the ORM's result handling (a national season's tops
    # are tens of thousands of rows).
    found = session.connection().execute(_leading_statement(venue_ids is not None), parameters)
    for venue_id, rows in groupby(found, key=itemgetter(-1)):
        lines = [(make(row[:-2]), row[-2]) for row in rows]
        yield venue_id, [line for line, _ in lines], bool(lines[0][1])


@cache
def _leading_statement(some_venues: bool) -> Select[Any]:
    """`leading_lines`' statement, built once (a season's lists after a report read one venue's:
    building the statement cost twice running it), its values bound at each run."""
    season_id: Any = bindparam("season_id")
    other = aliased(StandingLine)
    venues_with_lines = select(StandingLine.venue_id).where(StandingLine.season_id == season_id)
    if some_venues:
        venues_with_lines = venues_with_lines.where(
            StandingLine.venue_id.in_(bindparam("venue_ids", expanding=True))
        )
    venues = venues_with_lines.distinct().subquery()
    at_venue = (other.season_id == season_id, other.venue_id == venues.c.venue_id)
    floor = (
        select(other.points)
        .where(*at_venue)
        .order_by(other.points.desc())
        .offset(bindparam("offset", type_=Integer))
        .limit(1)
    ).scalar_subquery()
    lowest = select(other.points).where(*at_venue).order_by(other.points).limit(1).scalar_subquery()
    # Computed once per venue, first (not folded into the join, once per line).
    floors = (
        select(venues.c.venue_id, func.coalesce(floor, NO_FLOOR).label("floor"), lowest.label("lowest"))
        .cte("floors")
        .prefix_with("MATERIALIZED")
    )
    statement = (
        select(
            StandingLine.player_id,
            literal(""),
            *(getattr(StandingLine, name) for name in SUMS),
            floors.c.floor <= floors.c.lowest,
            StandingLine.venue_id,
        )
        .join(
            floors,
            and_(
                StandingLine.season_id == season_id,
                StandingLine.venue_id == floors.c.venue_id,
                # A venue with fewer lines than `depth` has no floor: all of them.
                StandingLine.points >= floors.c.floor,
            ),
        )
        .order_by(StandingLine.venue_id, StandingLine.player_id)
    )
    if some_venues:
        # Said again of the lines themselves: PostgreSQL cannot tell how few venues the floors
        # hold, and would join them with every line of the season (a venue's after a report:
        # 13 ms instead of well under one).
        statement = statement.where(StandingLine.venue_id.in_(bindparam("venue_ids", expanding=True)))
    return statement


def places_of_results(session: Session, result_ids: Collection[int]) -> set[tuple[int, int]]:
    """The (season id, venue id) of these results' tournaments."""
    if not result_ids:
        return set()
    rows = session.execute(
        select(Report.season_id, Report.venue_id)
        .join(Result, Result.tournament_id == Report.id)
        .where(Result.id.in_(sorted(result_ids)))
        .distinct()
    )
    return {(season_id, venue_id) for season_id, venue_id in rows}
