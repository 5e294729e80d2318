"""Row locks that a write takes before its checks, so that what it checked still holds when it
commits (R17a: a change made once however many requests race for it; a report scored with the
settings in force when it is stored). Every writer takes them in one order, so that no two ever
wait on each other crosswise (a deadlock):

    season → points chart → new players' emails and numbers → players (lower id first)
    → the data version row → (at the commit) the `outbox` scope's row

- A report (new or corrected) takes its season and the season's chart FOR SHARE before it reads
  a setting: reports go on side by side, but not while a rescore holds either.
- A season PATCH, a chart PATCH and a publication take their season or chart FOR NO KEY UPDATE
  before their checks and first write: they wait for the reports that read it to commit, and the
  reports after them read what they wrote. (NO KEY: others may still insert rows that refer to
  the locked one, as a report's tournament refers to its season.)
- A report or a sign-in that may register new players holds the emails and membership numbers
  its rows give to a new player (`hold_new_identifiers`: PostgreSQL's transaction-level advisory
  locks, in order) before it looks anyone up by them: twenty reports registering one new email
  at once then find, all but the first, the player the first registered, as they would one at a
  time (R5), instead of each seeing no one and losing on the unique index.
- A merge and its undo take both players FOR NO KEY UPDATE, the lower id first, then the data
  version row (`hold_writes`) before reading what moves; a change of a player record takes its
  row first too.
- Every write statement takes the data version row's lock first (migration 0008's statement
  triggers), and a transaction keeps it until it commits. So the rows above are always locked
  before it, never after it, by every writer; and a row that some writer locks before writing is
  locked before writing by every writer that changes it.
- The outbox's tables (R23) move no data version: the `outbox` scope's row is locked by triggers
  deferred to the commit (migration 0033), after everything else, so the delivery worker, which
  takes no other, and a league writer wait on each other for a commit at most, never crosswise.
- A once-only change of one row (a lift, a void, a revocation, a withdrawal, a correction's new
  version) needs no lock taken before: it is one conditional UPDATE (`WHERE lifted_at IS NULL`),
  whose statement takes the data version row first like any write; the loser finds no row.

SQLite compiles FOR SHARE and FOR UPDATE to nothing: a write request takes the database's one
write lock at its first statement (BEGIN IMMEDIATE, models/infra/db.SQLITE_WRITE_INTENT), so its
writers already run one at a time. Every lock here also reloads the row, so what the caller reads
next is what was committed before it got the lock."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from sqlalchemy import select, text
from sqlalchemy.orm import Session, selectinload
from sqlalchemy.sql.base import ExecutableOption

from models.entities.base import Base
from models.entities.freshness import DataVersion
from models.entities.league import PointsChart, Season
from models.entities.players import Player

E = TypeVar("E", bound=Base)


def _locked(
    session: Session,
    entity: type[E],
    entity_id: int,
    *,
    share: bool,
    options: Sequence[ExecutableOption] = (),
) -> E | None:
    """The row of `entity_id`, reloaded under a lock: FOR SHARE, or FOR NO KEY UPDATE."""
    query = (
        select(entity)
        .where(entity.id == entity_id)  # type: ignore[attr-defined]
        .options(*options)
        .with_for_update(read=share, key_share=not share)
        .execution_options(populate_existing=True)
    )
    return session.scalars(query).one_or_none()


def share_scoring(session: Session, season: Season) -> Season:
    """A report's locks (R7, R8, R17a): its season, then the season's chart, FOR SHARE, both
    reloaded, so the report is scored with what is in force when it commits."""
    locked = _locked(session, Season, season.id, share=True)
    assert locked is not None  # seasons are never deleted by a request
    if locked.points_chart_id is not None:
        bands = (selectinload(PointsChart.bands),)
        _locked(session, PointsChart, locked.points_chart_id, share=True, options=bands)
    return locked


def hold_new_identifiers(session: Session, keys: Iterable[str]) -> None:
    """R5, R17a: the emails and membership numbers rows would register a new player by (given as
    "email:…" and "number:…"), held until the transaction ends, in one order so two holders never
    wait crosswise. What is looked up by them afterwards includes a player another request
    registered by them meanwhile. SQLite's writers already run one at a time: nothing to hold."""
    wanted = sorted(set(keys))
    if not wanted or session.get_bind().dialect.name != "postgresql":
        return
    session.execute(
        text(
            "SELECT count(pg_advisory_xact_lock(hashtextextended('player.' || k, 0))) "
            "FROM (SELECT unnest(CAST(:keys AS text[])) AS k ORDER BY 1) AS held"
        ),
        {"keys": wanted},
    )


def take_season(session: Session, season: Season) -> Season:
    """A season PATCH's or a publication's lock: the season FOR NO KEY UPDATE, reloaded."""
    locked = _locked(session, Season, season.id, share=False)
    assert locked is not None
    return locked


def take_chart(session: Session, chart: PointsChart) -> PointsChart:
    """A chart PATCH's lock: the chart FOR NO KEY UPDATE, reloaded with its bands."""
    locked = _locked(session, PointsChart, chart.id, share=False, options=(selectinload(PointsChart.bands),))
    assert locked is not None
    return locked


def take_players(session: Session, player_ids: Iterable[int]) -> dict[int, Player]:
    """Players FOR NO KEY UPDATE, one at a time, the lower id first, each reloaded: those that
    exist, by id."""
    found = {}
    for player_id in sorted(set(player_ids)):
        player = _locked(session, Player, player_id, share=False)
        if player is not None:
            found[player_id] = player
    return found


def hold_writes(session: Session) -> None:
    """Take now the lock every write takes at its first statement, the data version row's: until
    this transaction ends no other writer changes anything, and what it reads from here on is
    every other writer's committed work (PostgreSQL; SQLite's writers hold its write lock from
    their first statement)."""
    session.execute(select(DataVersion.id).where(DataVersion.id == 1).with_for_update())
