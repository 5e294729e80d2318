"""Keeping the stored skill ratings (R20; models/entities/ratings.py) equal to a computation from
scratch: every write that changes results calls these in its own transaction. A new report later
in the rating order than every rated one only rates its entrants (`rate_new_report`); anything
else (an earlier report, a correction, a void, a merge and its undo, the demo's load and removal)
replays from the earliest point it touches (`replay_from`): every player's state restored from the
history just before that point, the history from it on deleted, and the reports from it on rated
again, in the same order with the same inputs, so the floats come out bit for bit the same.
`rebuild_ratings` replays everything (after a bulk load or a restore). Reading them is
rating_queries.py's.

Exact under concurrent writers: SQLite lets one writer at a time; on PostgreSQL every writer takes
the data version's row lock at its first change and keeps it to commit (migration 0008): a new
report's first change is its own INSERT, and a replay or a rebuild takes the lock itself
(`hold_writes`) before it reads anything. So while one report is rated, no
other writer is between its first change and its commit, and every statement here (read committed:
each sees what is committed when it starts) reads every other writer's reports and ratings
committed: ten reports racing are rated one after another, each from the states the one before
left, exactly as a rebuild replays them when their order is the order they committed in, and
replayed from the earlier one's point when it is not."""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Select, bindparam, delete, func, insert, select, tuple_
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from models.entities.base import table_of
from models.entities.ratings import PlayerRating, RatingPoint
from models.entities.tournaments import Result, Tournament
from models.rules.ratings import NEW, Skill, rate, rated
from models.services.locks import hold_writes
from models.services.rating_queries import Point, computed_ratings, order_of, point_of, rated_entrants

__all__ = [
    "Point",
    "deferred",
    "earliest_of_reports",
    "earliest_of_results",
    "point_of",
    "rate_new_report",
    "rebuild_ratings",
    "replay_from",
]

# A session's `info` key: while set (the demo's load), replays wait for the end of the batch,
# and only the earliest point is replayed from.
DEFERRED = "ratings_deferred"
CHUNK = 2000  # ids per IN list (SQLite's limit on bound parameters is far above)


def _chunks(ids: Collection[int]) -> Iterator[list[int]]:
    ordered = sorted(ids)
    for start in range(0, len(ordered), CHUNK):
        yield ordered[start : start + CHUNK]


@contextmanager
def deferred(session: Session) -> Iterator[None]:
    """Many reports written in one transaction (the demo's load): each write only notes its
    point; at the end the ratings are replayed once, from the earliest."""
    marker: dict[str, Point | None] = {"from": None}
    session.info[DEFERRED] = marker
    try:
        yield
    finally:
        session.info.pop(DEFERRED, None)
    if marker["from"] is not None:
        replay_from(session, marker["from"])


def _defer(session: Session, point: Point) -> bool:
    marker = session.info.get(DEFERRED)
    if marker is None:
        return False
    if marker["from"] is None or point < marker["from"]:
        marker["from"] = point
    return True


def _newest_point(session: Session) -> Point | None:
    row = session.connection().execute(NEWEST).first()
    return None if row is None else Point(row[0], row[1], row[2])


def _newest_query() -> Select[Any]:
    points = table_of(RatingPoint)
    return (
        select(points.c.date, points.c.session, points.c.tournament_id)
        .order_by(points.c.date.desc(), points.c.session.desc(), points.c.tournament_id.desc())
        .limit(1)
    )


NEWEST = _newest_query()


def rate_new_report(session: Session, tournament: Tournament, results: Sequence[Mapping[str, Any]]) -> None:
    """R20: a new report (its results: player_id, place, status). Later in the order than every
    rated report: only its entrants are rated, from their states now. Otherwise (an earlier date
    or session) the ratings are replayed from its point."""
    point = point_of(tournament)
    if _defer(session, point):
        return
    session.flush()
    # No `hold_writes` here: the report's own INSERT was this transaction's first change, which
    # took the writers' lock (migration 0008) before anything below reads.
    newest = _newest_point(session)
    if newest is not None and point < newest:
        replay_from(session, point)
        return
    entrants = sorted(
        ((int(r["player_id"]), int(r["place"])) for r in results if rated(str(r["status"]))),
        key=lambda entrant: entrant[1],
    )
    if len(entrants) < 2:
        return
    states = _states(session, [player for player, _ in entrants])
    after = rate([(states.get(player, NEW), place) for player, place in entrants])
    points = [
        _point_row(point, tournament.venue_id, player, place, len(entrants), skill)
        for (player, place), skill in zip(entrants, after, strict=True)
    ]
    connection = session.connection()
    connection.execute(ADD_POINTS, points)
    connection.execute(_upsert(connection.dialect.name), [_rating_row(point, row) for row in points])


def _point_row(
    point: Point, venue_id: int, player: int, place: int, entrants: int, skill: Skill
) -> dict[str, Any]:
    return {
        "tournament_id": point.tournament_id,
        "player_id": player,
        "date": point.date,
        "session": point.session,
        "venue_id": venue_id,
        "place": place,
        "entrants": entrants,
        "mu": skill.mu,
        "sigma": skill.sigma,
        "tournaments": skill.tournaments,
    }


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


@functools.lru_cache(maxsize=4)
def _upsert(dialect: str) -> Any:
    """A player's rating row written whether or not there is one, built once per database."""
    ratings = table_of(PlayerRating)
    statement = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(ratings)
    new = statement.excluded
    return statement.on_conflict_do_update(
        index_elements=["player_id"],
        set_={
            name: new[name]
            for name in ("mu", "sigma", "tournaments", "last_tournament_id", "last_date", "last_session")
        },
    )


def _states_query() -> Select[Any]:
    ratings = table_of(PlayerRating)
    return select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma, ratings.c.tournaments).where(
        ratings.c.player_id.in_(bindparam("players", expanding=True))
    )


# Built once, on the tables (building a statement costs more than running it, at a report's size).
STATES = _states_query()
ADD_POINTS = insert(table_of(RatingPoint))


def _states(session: Session, players: Iterable[int]) -> dict[int, Skill]:
    """The stored states of these players (those never rated are absent)."""
    states: dict[int, Skill] = {}
    connection = session.connection()
    for chunk in _chunks(set(players)):
        found = connection.execute(STATES, {"players": chunk})
        states.update((player, Skill(mu, sigma, count)) for player, mu, sigma, count in found)
    return states


def earliest_of_results(session: Session, result_ids: Collection[int]) -> Point | None:
    """The earliest point in the rating order of the live reports holding these results (what
    a merge or its undo moves): where the ratings must be replayed from."""
    if not result_ids:
        return None
    earliest: Point | None = None
    for chunk in _chunks(result_ids):
        row = session.execute(
            select(Tournament.date, Tournament.session, Tournament.id)
            .join(Result, Result.tournament_id == Tournament.id)
            .where(Result.id.in_(chunk), Tournament.live)
            .order_by(*order_of(Tournament))
            .limit(1)
        ).first()
        if row is not None and (earliest is None or Point(*row) < earliest):
            earliest = Point(*row)
    return earliest


def earliest_of_reports(session: Session, report_ids: Collection[int]) -> Point | None:
    """The earliest point in the rating order of these reports (live ones: only they are rated)."""
    earliest: Point | None = None
    for chunk in _chunks(report_ids):
        row = session.execute(
            select(Tournament.date, Tournament.session, Tournament.id)
            .where(Tournament.id.in_(chunk), Tournament.live)
            .order_by(*order_of(Tournament))
            .limit(1)
        ).first()
        if row is not None and (earliest is None or Point(*row) < earliest):
            earliest = Point(*row)
    return earliest


def replay_from(session: Session, point: Point | None) -> None:
    """R20: the ratings from this point of the order on recomputed, from the results as this
    transaction sees them (its own changes flushed): every player rated at or after the point is
    set back to their state just before it (from the history; unrated if none), the history from
    the point on deleted, and every live report from the point on rated again in order. None:
    nothing to replay."""
    if point is None or _defer(session, point):
        return
    session.flush()
    hold_writes(session)
    connection = session.connection()
    points, ratings = table_of(RatingPoint), table_of(PlayerRating)
    cut = tuple_(points.c.date, points.c.session, points.c.tournament_id) >= tuple(point)
    later = tuple_(ratings.c.last_date, ratings.c.last_session, ratings.c.last_tournament_id) >= tuple(point)
    touched = list(connection.execute(select(ratings.c.player_id).where(later)).scalars())
    connection.execute(delete(points).where(cut))
    connection.execute(delete(ratings).where(later))
    for chunk in _chunks(touched):
        _restore(session, chunk)
    _replay(session, rated_entrants(session, point))


def _restore(session: Session, players: list[int]) -> None:
    """These players' rating rows from their last point of history (all of it is now before the
    replay's point)."""
    points = table_of(RatingPoint)
    ranked = (
        select(
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
        )
        .where(points.c.player_id.in_(players))
        .subquery()
    )
    columns = ["player_id", "mu", "sigma", "tournaments", "last_tournament_id", "last_date", "last_session"]
    latest = select(
        ranked.c.player_id,
        ranked.c.mu,
        ranked.c.sigma,
        ranked.c.tournaments,
        ranked.c.tournament_id,
        ranked.c.date,
        ranked.c.session,
    ).where(ranked.c.latest == 1)
    session.connection().execute(insert(table_of(PlayerRating)).from_select(columns, latest))


def _replay(session: Session, reports: Iterable[tuple[Point, int, list[tuple[int, int]]]]) -> None:
    """Rate these reports (each: its point, venue, rated entrants by place) in order, from the
    stored states, and store the history and the final states."""
    reports = list(reports)
    if not reports:
        return
    players = {player for _, _, entrants in reports for player, _ in entrants}
    states = _states(session, players)
    last: dict[int, Point] = {}
    history = computed_ratings(reports, states, last)
    connection = session.connection()
    if history:
        connection.execute(ADD_POINTS, history)
    ratings = table_of(PlayerRating)
    changed = sorted(last)
    for chunk in _chunks(changed):
        connection.execute(delete(ratings).where(ratings.c.player_id.in_(chunk)))
    rows = [
        {
            "player_id": player,
            "mu": states[player].mu,
            "sigma": states[player].sigma,
            "tournaments": states[player].tournaments,
            "last_tournament_id": last[player].tournament_id,
            "last_date": last[player].date,
            "last_session": last[player].session,
        }
        for player in changed
    ]
    if rows:
        connection.execute(insert(ratings), rows)


def rebuild_ratings(session: Session) -> tuple[int, int]:
    """Every rating recomputed from the results: returns (players rated, history points). In the
    caller's transaction: a failure partway leaves the stored ratings as they were."""
    session.flush()
    hold_writes(session)
    connection = session.connection()
    connection.execute(delete(table_of(RatingPoint)))
    connection.execute(delete(table_of(PlayerRating)))
    _replay(session, rated_entrants(session, None))
    players = session.scalar(select(func.count()).select_from(PlayerRating)) or 0
    points = session.scalar(select(func.count()).select_from(RatingPoint)) or 0
    return players, points
