"""The stored skill ratings (R20: rating_points, the history; player_ratings, each player's state)
read and written for writes.py: a new report's one read and one write, the stored points a replay
compares with, the players' states before a point of the order, and what a replay stores."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping
from typing import Any

from sqlalchemy import (
    Date,
    Integer,
    Select,
    any_,
    bindparam,
    delete,
    func,
    insert,
    literal,
    select,
    text,
    true,
    tuple_,
)
from sqlalchemy.dialects import postgresql
from sqlalchemy.orm import Session

from models.entities.base import table_of
from models.entities.ratings import PlayerRating, RatingPoint
from models.rules.ratings import Skill
from models.services.ratings.queries import Point
from models.services.ratings.replay import Replayed, StoredReport

CHUNK = 2000  # ids per IN list (SQLite's limit on bound parameters is far above)


def chunks(ids: Collection[int]) -> Iterator[list[int]]:
    ordered = sorted(ids)
    for start in range(0, len(ordered), CHUNK):
        yield ordered[start : start + CHUNK]


def _newest_and_states_query(postgres: bool) -> Select[Any]:
    """One read for a new report: the newest rated point (on every row; the only row's, with
    nulls beside it, when none of the players is rated yet) and the stored states of the players
    (a list parameter: one text for every field size on PostgreSQL, so it is prepared once)."""
    points, ratings = table_of(RatingPoint), table_of(PlayerRating)
    newest = (
        select(
            points.c.date.label("newest_date"),
            points.c.session.label("newest_session"),
            points.c.tournament_id.label("newest_tournament_id"),
        )
        .order_by(points.c.date.desc(), points.c.session.desc(), points.c.tournament_id.desc())
        .limit(1)
        .subquery("newest")
    )
    anchor = select(literal(1).label("one")).subquery("anchor")
    if postgres:
        wanted = ratings.c.player_id == any_(bindparam("players", type_=postgresql.ARRAY(Integer)))
    else:
        wanted = ratings.c.player_id.in_(bindparam("players", expanding=True))
    return select(
        newest.c.newest_date,
        newest.c.newest_session,
        newest.c.newest_tournament_id,
        ratings.c.player_id,
        ratings.c.mu,
        ratings.c.sigma,
        ratings.c.tournaments,
    ).select_from(anchor.outerjoin(newest, true()).outerjoin(ratings, wanted))


NEWEST_AND_STATES = {False: _newest_and_states_query(False), True: _newest_and_states_query(True)}


RATE_REPORT_SQLITE = (
    "INSERT INTO rating_points (tournament_id, player_id, date, session, venue_id, place, entrants,"
    " mu, sigma, tournaments) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "INSERT INTO player_ratings (player_id, mu, sigma, tournaments, last_tournament_id, last_date,"
    " last_session) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player_id) DO UPDATE SET"
    " mu = excluded.mu, sigma = excluded.sigma, tournaments = excluded.tournaments,"
    " last_tournament_id = excluded.last_tournament_id, last_date = excluded.last_date,"
    " last_session = excluded.last_session",
)


# PostgreSQL: a report's history points and its players' new states in one statement (one round
# trip, one text for every field size): the points inserted from arrays, and the states upserted.
RATE_REPORT_POSTGRESQL = text(
    """
WITH added AS (
    INSERT INTO rating_points
        (tournament_id, player_id, date, session, venue_id, place, entrants, mu, sigma, tournaments)
    SELECT :tournament_id, u.player_id, :date, :session, :venue_id, u.place, :entrants,
           u.mu, u.sigma, u.tournaments
    FROM unnest(CAST(:players AS integer[]), CAST(:places AS integer[]),
                CAST(:mus AS double precision[]), CAST(:sigmas AS double precision[]),
                CAST(:counts AS integer[])) AS u(player_id, place, mu, sigma, tournaments)
)
INSERT INTO player_ratings
    (player_id, mu, sigma, tournaments, last_tournament_id, last_date, last_session)
SELECT u.player_id, u.mu, u.sigma, u.tournaments, :tournament_id, :date, :session
FROM unnest(CAST(:players AS integer[]), CAST(:mus AS double precision[]),
            CAST(:sigmas AS double precision[]), CAST(:counts AS integer[]))
     AS u(player_id, mu, sigma, tournaments)
ON CONFLICT (player_id) DO UPDATE SET
    mu = excluded.mu, sigma = excluded.sigma, tournaments = excluded.tournaments,
    last_tournament_id = excluded.last_tournament_id, last_date = excluded.last_date,
    last_session = excluded.last_session
"""
).bindparams(bindparam("date", type_=Date))


def _rating_row(point: Point, row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "player_id": row["player_id"],
        "mu": row["mu"],
        "sigma": row["sigma"],
        "tournaments": row["tournaments"],
        "last_tournament_id": point.tournament_id,
        "last_date": point.date,
        "last_session": point.session,
    }


def _states_query() -> Select[Any]:
    ratings = table_of(PlayerRating)
    return select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma, ratings.c.tournaments).where(
        ratings.c.player_id.in_(bindparam("players", expanding=True))
    )


# Built once, on the tables (building a statement costs more than running it, at a report's size).
STATES = _states_query()


ADD_POINTS = insert(table_of(RatingPoint))


def stored_states(session: Session, players: Iterable[int]) -> dict[int, Skill]:
    """The stored states of these players (those never rated are absent)."""
    states: dict[int, Skill] = {}
    connection = session.connection()
    for chunk in chunks(set(players)):
        found = connection.execute(STATES, {"players": chunk})
        states.update((player, Skill(mu, sigma, count)) for player, mu, sigma, count in found)
    return states


def stored_reports(
    session: Session, point: Point, players: Collection[int] | None
) -> dict[int, StoredReport]:
    """The stored points from this point of the order on, by report (`players`: only of the
    reports one of them is in)."""
    points = table_of(RatingPoint)
    from_point = tuple_(points.c.date, points.c.session, points.c.tournament_id) >= tuple(point)
    query = (
        select(
            points.c.tournament_id,
            points.c.date,
            points.c.session,
            points.c.venue_id,
            points.c.player_id,
            points.c.place,
            points.c.mu,
            points.c.sigma,
            points.c.tournaments,
        )
        .where(from_point)
        .order_by(points.c.tournament_id, points.c.place)
    )
    if players is not None:
        theirs = select(points.c.tournament_id).where(from_point, points.c.player_id.in_(sorted(players)))
        query = query.where(points.c.tournament_id.in_(theirs))
    found: dict[int, tuple[Point, int, list[tuple[int, int]], dict[int, Skill]]] = {}
    for tournament_id, day, number, venue_id, player, place, mu, sigma, count in session.connection().execute(
        query
    ):
        report = found.get(tournament_id)
        if report is None:
            report = found[tournament_id] = (Point(day, number, tournament_id), venue_id, [], {})
        report[2].append((player, place))
        report[3][player] = Skill(mu, sigma, count)
    return {
        tournament_id: StoredReport(at, venue_id, tuple(entrants), after)
        for tournament_id, (at, venue_id, entrants, after) in found.items()
    }


def last_points(players: list[int], before: Point | None = None) -> Select[Any]:
    """Each of these players' last point of history (before a point of the order, if given):
    player, mu, sigma, tournaments, and the point's report, date and session."""
    points = table_of(RatingPoint)
    ranked = select(
        points.c.player_id,
        points.c.mu,
        points.c.sigma,
        points.c.tournaments,
        points.c.tournament_id,
        points.c.date,
        points.c.session,
        func.row_number()
        .over(
            partition_by=points.c.player_id,
            order_by=(points.c.date.desc(), points.c.session.desc(), points.c.tournament_id.desc()),
        )
        .label("latest"),
    ).where(points.c.player_id.in_(players))
    if before is not None:
        ranked = ranked.where(tuple_(points.c.date, points.c.session, points.c.tournament_id) < tuple(before))
    last = ranked.subquery()
    return select(
        last.c.player_id,
        last.c.mu,
        last.c.sigma,
        last.c.tournaments,
        last.c.tournament_id,
        last.c.date,
        last.c.session,
    ).where(last.c.latest == 1)


def states_before(session: Session, players: list[int], point: Point) -> dict[int, Skill]:
    """These players' states just before this point of the order (their last point before it;
    absent: not rated before it)."""
    found: dict[int, Skill] = {}
    for chunk in chunks(players):
        rows = session.connection().execute(last_points(chunk, point))
        found.update((player, Skill(mu, sigma, count)) for player, mu, sigma, count, *_ in rows)
    return found


def restore(session: Session, players: list[int]) -> None:
    """These players' rating rows from their last point of history (all of it is now before the
    replay's point)."""
    columns = ["player_id", "mu", "sigma", "tournaments", "last_tournament_id", "last_date", "last_session"]
    session.connection().execute(insert(table_of(PlayerRating)).from_select(columns, last_points(players)))


def store_replay(session: Session, out: Replayed) -> None:
    connection = session.connection()
    points, ratings = table_of(RatingPoint), table_of(PlayerRating)
    for chunk in chunks(out.stale):
        connection.execute(delete(points).where(points.c.tournament_id.in_(chunk)))
    if out.points:
        connection.execute(ADD_POINTS, out.points)
    changed = sorted({*out.states, *out.restore})
    for chunk in chunks(changed):
        connection.execute(delete(ratings).where(ratings.c.player_id.in_(chunk)))
    rows = [
        _rating_row(
            last,
            {"player_id": player, "mu": skill.mu, "sigma": skill.sigma, "tournaments": skill.tournaments},
        )
        for player, (skill, last) in sorted(out.states.items())
    ]
    if rows:
        connection.execute(insert(ratings), rows)
    for chunk in chunks(out.restore):
        restore(session, chunk)
