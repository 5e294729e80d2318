"""Keeping the stored skill ratings (R20; models/entities/ratings.py) equal to a computation from
scratch: every write that changes results calls these in its own transaction. A new report later
in the rating order than every rated one only rates its entrants (`rate_new_report`); anything
else (an earlier report, a correction, a void, a merge and its undo, the demo's load and removal)
replays from the earliest point it touches (`replay_from`): the reports from that point on that
the change reaches (those of the players it touched, and of the players whose ratings that moves
in turn) are rated again, in the same order, and every other report keeps its stored points,
which the same inputs would give again bit for bit (rating_replay.py). The demo's removal, which
deletes reports with their points, rates everything from its point again. `rebuild_ratings`
replays everything (after a bulk load or a restore). Reading them is queries.py's; the statements
that read and write the stored history here are history.py's.

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

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import delete, func, insert, select, tuple_
from sqlalchemy.orm import Session

from models.entities.base import table_of
from models.entities.ratings import PlayerRating, RatingPoint
from models.entities.reports import Report, Result
from models.rules.ratings import NEW, Skill, rate, rated
from models.services.locks import hold_writes
from models.services.ratings.history import (
    ADD_POINTS,
    NEWEST_AND_STATES,
    RATE_REPORT_POSTGRESQL,
    RATE_REPORT_SQLITE,
    chunks,
    restore,
    states_before,
    store_replay,
    stored_reports,
    stored_states,
)
from models.services.ratings.queries import Point, computed_ratings, order_of, point_of, rated_entrants
from models.services.ratings.replay import replayed

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


def rate_new_report(session: Session, report: Report, results: Sequence[Mapping[str, Any]]) -> None:
    """R20: a new report (its results: player_id, place, status). Later in the order than every
    rated report: only its entrants are rated, from their states now, in one read and one write
    (two on SQLite, where a statement costs no round trip). Otherwise (an earlier date or
    session) the ratings are replayed from its point. Fewer than two rated entrants change no
    rating wherever the report falls, so they cost nothing."""
    point = point_of(report)
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
                "venue_id": report.venue_id,
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
                report.venue_id,
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


def earliest_of_results(session: Session, result_ids: Collection[int]) -> Point | None:
    """The earliest point in the rating order of the live reports holding these results (what
    a merge or its undo moves): where the ratings must be replayed from."""
    if not result_ids:
        return None
    earliest: Point | None = None
    for chunk in chunks(result_ids):
        row = session.execute(
            select(Report.date, Report.session, Report.id)
            .join(Result, Result.tournament_id == Report.id)
            .where(Result.id.in_(chunk), Report.live)
            .order_by(*order_of(Report))
            .limit(1)
        ).first()
        if row is not None and (earliest is None or Point(*row) < earliest):
            earliest = Point(*row)
    return earliest


def earliest_of_reports(session: Session, report_ids: Collection[int]) -> Point | None:
    """The earliest point in the rating order of these reports (live ones: only they are rated)."""
    earliest: Point | None = None
    for chunk in chunks(report_ids):
        row = session.execute(
            select(Report.date, Report.session, Report.id)
            .where(Report.id.in_(chunk), Report.live)
            .order_by(*order_of(Report))
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
    stored = stored_reports(session, point, tracked)
    current = rated_entrants(session, point, tracked)
    out = replayed(current, stored, lambda wanted, at: states_before(session, wanted, at), point, tracked)
    if tracked is not None and not out.reached <= tracked:
        _replay_whole(session, point)
        return
    store_replay(session, out)


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
    for chunk in chunks(touched):
        restore(session, chunk)
    _replay(session, rated_entrants(session, point))


def _replay(session: Session, reports: Iterable[tuple[Point, int, list[tuple[int, int]]]]) -> None:
    """Rate these reports (each: its point, venue, rated entrants by place) in order, from the
    stored states, and store the history and the final states."""
    reports = list(reports)
    if not reports:
        return
    players = {player for _, _, entrants in reports for player, _ in entrants}
    states = stored_states(session, players)
    last: dict[int, Point] = {}
    history = computed_ratings(reports, states, last)
    connection = session.connection()
    if history:
        connection.execute(ADD_POINTS, history)
    ratings = table_of(PlayerRating)
    changed = sorted(last)
    for chunk in chunks(changed):
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
