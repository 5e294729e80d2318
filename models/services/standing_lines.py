"""Standing lines (R9-R11): each player's live regular results at a venue in a season, summed by the
database. Summed from the results for any day; stored (models/entities/standings.py) for the
whole season, kept up to date by every write that changes what they sum: a report, a
correction, a void, a merge and its undo, a rescore, a change of R9/R10 settings, the demo's
removal. `rebuild_lines` recomputes them all (after a bulk load or a restore)."""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from datetime import date
from itertools import groupby
from operator import itemgetter
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Select,
    String,
    and_,
    case,
    cast,
    delete,
    func,
    insert,
    literal,
    select,
    text,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, aliased

from models.entities.base import table_of
from models.entities.league import Season
from models.entities.players import Player
from models.entities.standings import StandingLine
from models.entities.tournaments import Result, Tournament, played_in
from models.rules.reports import TournamentKind
from models.rules.standings import Entry, Line, Tier, line_of, line_points

# The Line fields the database sums, in Line's order after (player_id, display_name).
SUMS = tuple(Line._fields[2:])
# The season settings a stored line depends on (beside the stored points of each result).
LINE_SETTINGS = ("count_best", "attendance_bonus")
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
        Tournament.season_id == season.id,
        Tournament.kind == TournamentKind.REGULAR,
        Tournament.live,
    ]
    if venue_ids is not None:
        where.append(Tournament.venue_id.in_(venue_ids))
    if as_of is not None:
        where.append(Tournament.date <= as_of)
    if players is not None:
        where.append(Result.player_id.in_(sorted(players)))
    return tuple(where)


def _sums(season: Season, where: Sequence[Any]) -> Select[Any]:
    """(venue_id, player_id, *SUMS) for each venue and player with results under `where`. R10's
    best tournaments are picked by a window over each player's totals."""
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
    sums = _sums(season, where).subquery()
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


def leading_lines(session: Session, season: Season, depth: int) -> Iterator[tuple[int, list[Line], bool]]:
    """(venue id, the top of its lines, whether that is all of them) for every venue of the
    season with results: the lines of each venue's best `depth` by points, and of everyone level
    on points with the last of them. Each venue's floor (the depth-th best points) and lowest
    points are found on the (season, venue, points) index, and only the lines at or above the
    floor are read. Without display names (empty): the caller reads the players anyway."""
    other = aliased(StandingLine)
    venues = select(StandingLine.venue_id).where(StandingLine.season_id == season.id).distinct().subquery()
    at_venue = (other.season_id == season.id, other.venue_id == venues.c.venue_id)
    floor = (
        select(other.points).where(*at_venue).order_by(other.points.desc()).offset(depth - 1).limit(1)
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
                StandingLine.season_id == season.id,
                StandingLine.venue_id == floors.c.venue_id,
                # A venue with fewer lines than `depth` has no floor: all of them.
                StandingLine.points >= floors.c.floor,
            ),
        )
        .order_by(StandingLine.venue_id, StandingLine.player_id)
    )
    make = Line._make
    for venue_id, rows in groupby(session.execute(statement), key=itemgetter(-1)):
        lines = [(make(row[:-2]), row[-2]) for row in rows]
        yield venue_id, [line for line, _ in lines], bool(lines[0][1])


def _bonus(played: ColumnElement[Any], tiers: Sequence[Tier]) -> ColumnElement[Any]:
    """R9 in SQL: the points of the highest tier reached (rules/standings.attendance_bonus)."""
    if not tiers:
        return literal(0)
    highest_first = sorted(tiers, key=lambda tier: -tier.events)
    return case(*((played >= tier.events, tier.points) for tier in highest_first), else_=0)


def refresh_lines(
    session: Session,
    season: Season,
    venue_ids: Collection[int] | None = None,
    players: Collection[int] | None = None,
) -> None:
    """Recompute the stored lines of a season at these venues (all when None), of these players
    (all when None), from the results as this transaction sees them, its own changes flushed.

    Exact under concurrent writers: SQLite lets one writer at a time; on PostgreSQL every writer
    takes the data version's row lock at its first change and keeps it to commit (migration
    0008), so this statement, after this transaction's first change, reads every other writer's
    results committed (read committed: each statement sees what is committed when it starts)."""
    session.flush()
    if (venue_ids is not None and not venue_ids) or (players is not None and not players):
        return
    mine: list[Any] = [StandingLine.season_id == season.id]
    if venue_ids is not None:
        mine.append(StandingLine.venue_id.in_(sorted(venue_ids)))
    if players is not None:
        mine.append(StandingLine.player_id.in_(sorted(players)))
    session.execute(delete(StandingLine).where(*mine), execution_options={"synchronize_session": False})
    sums = _sums(
        season, counted_results(season, None if venue_ids is None else sorted(venue_ids), players=players)
    ).subquery()
    columns = ["season_id", "venue_id", "player_id", *SUMS, "points"]
    rows = select(
        literal(season.id),
        sums.c.venue_id,
        sums.c.player_id,
        *(sums.c[name] for name in SUMS),
        sums.c.counted + _bonus(sums.c.played, season_tiers(season)),
    )
    session.execute(insert(StandingLine).from_select(columns, rows))


def add_results(
    session: Session, season: Season, venue_id: int, results: Sequence[Mapping[str, Any]]
) -> None:
    """A new report's results (one per player, each with place, status and points) added to the
    stored lines of its venue in one statement: each line moves on by the one result (a line
    made for a first result), whatever the history. Under count_best (R10) a new result can
    push another out of the counted ones: those lines are recomputed."""
    players = {int(result["player_id"]) for result in results}
    if season.count_best is not None:
        refresh_lines(session, season, [venue_id], players)
        return
    session.flush()
    tiers = season_tiers(season)
    rows = []
    for result in results:
        entry = Entry(
            0, result["place"], result["status"], result["placement_points"], result["participation_points"]
        )
        line = line_of(int(result["player_id"]), "", [entry], None)
        sums = {name: getattr(line, name) for name in SUMS}
        rows.append(
            {
                "season_id": season.id,
                "venue_id": venue_id,
                "player_id": line.player_id,
                **sums,
                "points": line_points(line, tiers),
            }
        )
    statement = _adding(session.get_bind().dialect.name, tuple(tiers))
    session.connection().execute(statement, rows)


@functools.lru_cache(maxsize=64)
def _adding(dialect: str, tiers: tuple[Tier, ...]) -> Any:
    """add_results' upsert for a database and a season's bonus tiers, built once (building it
    costs more than running it)."""
    lines = table_of(StandingLine)
    statement = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(lines)
    new, old = statement.excluded, lines.c
    least, greatest = (func.least, func.greatest) if dialect == "postgresql" else (func.min, func.max)
    played = old.played + new.played
    return statement.on_conflict_do_update(
        index_elements=["season_id", "venue_id", "player_id"],
        set_={
            "finishes": old.finishes + new.finishes,
            "played": played,
            "placement_points": old.placement_points + new.placement_points,
            "participation_points": old.participation_points + new.participation_points,
            "counted": old.counted + new.counted,
            "wins": old.wins + new.wins,
            "points_finishes": old.points_finishes + new.points_finishes,
            "best_finish": least(old.best_finish, new.best_finish),
            "place_total": old.place_total + new.place_total,
            "best_single": greatest(old.best_single, new.best_single),
            "places": old.places + "," + new.places,
            "points": old.counted + new.counted + _bonus(played, tiers),
        },
    )


def refresh_places(
    session: Session, places: Iterable[tuple[int, int]], players: Collection[int] | None = None
) -> None:
    """refresh_lines for each (season id, venue id) pair, a statement pair per season."""
    by_season: dict[int, set[int]] = {}
    for season_id, venue_id in places:
        by_season.setdefault(season_id, set()).add(venue_id)
    for season_id, venue_ids in sorted(by_season.items()):
        season = session.get(Season, season_id)
        if season is not None:
            refresh_lines(session, season, venue_ids, players)


def places_of_results(session: Session, result_ids: Collection[int]) -> set[tuple[int, int]]:
    """The (season id, venue id) of these results' tournaments."""
    if not result_ids:
        return set()
    rows = session.execute(
        select(Tournament.season_id, Tournament.venue_id)
        .join(Result, Result.tournament_id == Tournament.id)
        .where(Result.id.in_(sorted(result_ids)))
        .distinct()
    )
    return {(season_id, venue_id) for season_id, venue_id in rows}


def rebuild_lines(session: Session, season_ids: Collection[int] | None = None) -> int:
    """Recompute every stored line (of these seasons; all when None) from the results; returns
    how many lines there are now."""
    query = select(Season).order_by(Season.id)
    if season_ids is not None:
        query = query.where(Season.id.in_(sorted(season_ids)))
    count = 0
    for season in session.scalars(query).all():
        refresh_lines(session, season)
        count += (
            session.scalar(
                select(func.count()).select_from(StandingLine).where(StandingLine.season_id == season.id)
            )
            or 0
        )
    return count
