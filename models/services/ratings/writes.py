"""Keeping the stored skill ratings (R20; models/entities/ratings.py) equal to a computation from
scratch: every write that changes results calls these in its own transaction. A new report later
in the rating order than every rated one only rates its entrants (`rate_new_report`); anything
else (an earlier report, a correction, a void, a merge and its undo, the demo's load and removal)
replays from the earliest point it touches (`replay_from`): the reports from that point on that
the change reaches (those of the players it touched, and of the players whose ratings that moves
in turn) are rated again, in the same order, and every other report keeps its stored points,
which the same inputs would give again bit for bit (rating_replay.py). The demo's removal, which
deletes reports with their points, rates everything from its point again. `rebuild_ratings`
replays everything (after a bulk load or a restore). Reading them is rating_queries.py's.

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
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from models.entities.base import table_of
from models.entities.ratings import PlayerRating, RatingPoint
from models.entities.tournaments import Result, Tournament
from models.rules.ratings import NEW, Skill, rate, rated
from models.services.locks import hold_writes
from models.services.ratings.queries import Point, computed_ratings, order_of, point_of, rated_entrants
from models.services.ratings.replay import Replayed, StoredReport, replayed

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


def rate_new_report(session: Session, tournament: Tournament, results: Sequence[Mapping[str, Any]]) -> None:
    """R20: a new report (its results: player_id, place, status). Later in the order than every
    rated report: only its entrants are rated, from their states now, in one read and one write
    (two on SQLite, where a statement costs no round trip). Otherwise (an earlier date or
    session) the ratings are replayed from its point. Fewer than two rated entrants change no
    rating wherever the report falls, so they cost nothing."""
    point = point_of(tournament)
    if _defer(session, point):
        return
    entrants = sorted(
        ((int(r["player_id"]), int(r["place"])) for r in results if rated(str(r["status"]))),
        key=lambda entrant: entrant[1],
    )
    if len(entrants) < 2:
        return
    session.flush()
    # No `hold_writes` here: the report's own INSERT was this transaction's first change, which
    # took the writers' lock (migration 0008) before anything below reads.
    connection = session.connection()
    postgres = connection.dialect.name == "postgresql"
    players = [player for player, _ in entrants]
    newest: Point | None = None
    states: dict[int, Skill] = {}
    for row in connection.execute(NEWEST_AND_STATES[postgres], {"players": players}):
        if row.newest_date is not None:
            newest = Point(row.newest_date, row.newest_session, row.newest_tournament_id)
        if row.player_id is not None:
            states[row.player_id] = Skill(row.mu, row.sigma, row.tournaments)
    if newest is not None and point < newest:
        replay_from(session, point, players={int(r["player_id"]) for r in results})
        return
    after = rate([(states.get(player, NEW), place) for player, place in entrants])
    if postgres:
        connection.execute(
            RATE_REPORT_POSTGRESQL,
            {
                "tournament_id": point.tournament_id,
                "date": point.date,
                "session": point.session,
                "venue_id": tournament.venue_id,
                "entrants": len(entrants),
                "players": players,
                "places": [place for _, place in entrants],
                "mus": [skill.mu for skill in after],
                "sigmas": [skill.sigma for skill in after],
                "counts": [skill.tournaments for skill in after],
            },
        )
        return
    day = point.date.isoformat()
    connection.exec_driver_sql(
        RATE_REPORT_SQLITE[0],
        [
            (
                point.tournament_id,
                player,
                day,
                point.session,
                tournament.venue_id,
                place,
                len(entrants),
                skill.mu,
                skill.sigma,
                skill.tournaments,
            )
            for (player, place), skill in zip(entrants, after, strict=True)
        ],
    )
    connection.exec_driver_sql(
        RATE_REPORT_SQLITE[1],
        [
            (player, skill.mu, skill.sigma, skill.tournaments, point.tournament_id, day, point.session)
            for (player, _), skill in zip(entrants, after, strict=True)
        ],
    )


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


# A replay reading only the reports of the players it touched that finds it reaches others (their
# ratings moved, so their later reports must be rated again too) rates everything from its point
# again instead: as it spreads, walking again costs more than that (bench/national.py). So does
# one touching more players than this.
MOST_TRACKED = 500


def replay_from(
    session: Session, point: Point | None, *, players: Collection[int] | None = None, whole: bool = False
) -> None:
    """R20: the ratings from this point of the order on made what a rebuild gives, from the
    results as this transaction sees them (its own changes flushed). Only the reports the change
    reaches are rated again (rating_replay.py): the stored points of every other report still
    hold, bit for bit. `players`: every player whose results the change touched (before and
    after it), so that only the reports they are in are read; when the change reaches others,
    everything from the point on is rated again.
    `whole`: every report from the point on rated again, for a change that took stored points
    with it (the demo's removal deletes reports, and their points with them). None: nothing to
    replay."""
    if point is None or _defer(session, point):
        return
    session.flush()
    hold_writes(session)
    if whole:
        _replay_whole(session, point)
        return
    tracked = None if players is None or len(players) > MOST_TRACKED else set(players)
    stored = _stored_reports(session, point, tracked)
    current = rated_entrants(session, point, tracked)
    out = replayed(current, stored, lambda wanted, at: _before(session, wanted, at), point, tracked)
    if tracked is not None and not out.reached <= tracked:
        _replay_whole(session, point)
        return
    _store_replay(session, out)


def _store_replay(session: Session, out: Replayed) -> None:
    connection = session.connection()
    points, ratings = table_of(RatingPoint), table_of(PlayerRating)
    for chunk in _chunks(out.stale):
        connection.execute(delete(points).where(points.c.tournament_id.in_(chunk)))
    if out.points:
        connection.execute(ADD_POINTS, out.points)
    changed = sorted({*out.states, *out.restore})
    for chunk in _chunks(changed):
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
    for chunk in _chunks(out.restore):
        _restore(session, chunk)


def _stored_reports(
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


def _last_points(players: list[int], before: Point | None = None) -> Select[Any]:
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


def _before(session: Session, players: list[int], point: Point) -> dict[int, Skill]:
    """These players' states just before this point of the order (their last point before it;
    absent: not rated before it)."""
    found: dict[int, Skill] = {}
    for chunk in _chunks(players):
        rows = session.connection().execute(_last_points(chunk, point))
        found.update((player, Skill(mu, sigma, count)) for player, mu, sigma, count, *_ in rows)
    return found


def _replay_whole(session: Session, point: Point) -> None:
    """Every report from this point of the order on rated again: every player rated at or after
    it set back to their state just before it (from the history; unrated if none), the history
    from the point on deleted, and every live report from it on rated again in order."""
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
    columns = ["player_id", "mu", "sigma", "tournaments", "last_tournament_id", "last_date", "last_session"]
    session.connection().execute(insert(table_of(PlayerRating)).from_select(columns, _last_points(players)))


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
