"""Reading the versions: the data version (`data_version`) and the scopes' (`scope_versions`), as
the session's transaction sees them. A reading session (one that carries a memo, `READING`) reads
each once per request: its snapshot does not move (SQLite's read transaction, PostgreSQL's
REPEATABLE READ). Read them first: whatever is read after is at least as new, so nothing is ever
filed under a newer version than its data."""

from __future__ import annotations

import secrets
from collections.abc import Collection, Sequence
from functools import cache
from typing import Any, NamedTuple

from sqlalchemy import bindparam, select, update
from sqlalchemy.orm import Session

from models.entities.freshness import DataVersion, ScopeVersion
from models.freshness.scopes import Scope

# A session that only reads (a GET's) carries in its `info` its process's memos, under these
# names (models/freshness/memos.py): it holds no uncommitted change of its own, so nothing it
# caches can be taken for another transaction's data. A writer never has one.
MEMO = "memo"  # the few large values (a season's lists)
# The many small values (a venue's, a night's): kept apart, so that they never push the few
# large ones out.
SMALL_MEMO = "memo of small values"
# The JSON parts answers are written from (api/cache/fragments.py).
FRAGMENTS = "memo of JSON fragments"
READING = MEMO

# What a reading session has read of the versions.
_HELD = "versions read"


class _Held(NamedTuple):
    data: tuple[str, int]
    scopes: dict[str, int]


def _held(session: Session) -> _Held | None:
    held: _Held | None = session.info.get(_HELD)
    return held


def data_version(session: Session) -> tuple[str, int]:
    """(epoch, version) as this transaction sees it. A reading session reads the `league` scope's
    version with it."""
    held = _held(session)
    if held is not None:
        return held.data
    row = session.connection().execute(_data_version_statement()).one()
    data = (row[0], row[1])
    if READING in session.info:
        session.info[_HELD] = _Held(data, {Scope.LEAGUE: row[2] or 0})
    return data


def scope_versions(session: Session, scopes: Sequence[str]) -> tuple[int, ...]:
    """The versions of these scopes (migration 0022) as this transaction sees them, in the order
    given (0 for a scope never changed)."""
    held = _held(session)
    known = held.scopes if held is not None else {}
    unread = [scope for scope in scopes if scope not in known]
    found: dict[str, int] = {}
    if unread:
        rows = session.connection().execute(_scope_versions_statement(), {"scopes": unread})
        found = {scope: version for scope, version in rows}
        found = {scope: found.get(scope, 0) for scope in unread}
        if held is not None:
            known.update(found)
    return tuple(known[scope] if scope in known else found[scope] for scope in scopes)


def league_version(session: Session) -> int:
    """The `league` scope's version (venues, settings, charts, …: migration 0022)."""
    return scope_versions(session, [Scope.LEAGUE])[0]


class SeasonVersions(NamedTuple):
    """A season's versions, as its qualifier lists read them: the data version (its epoch), and
    the versions of the `league` scope and of the season's."""

    data: tuple[str, int]
    league: int
    season: int


def season_versions(session: Session, season_ids: Collection[int]) -> dict[int, SeasonVersions]:
    """`SeasonVersions` of these seasons, read together (a profile reads the lists of every season
    a player played): two queries, not two a season."""
    data = data_version(session)
    ordered = sorted(season_ids)
    league, *seasons = scope_versions(session, [Scope.LEAGUE, *(Scope.season(s) for s in ordered)])
    return {season_id: SeasonVersions(data, league, v) for season_id, v in zip(ordered, seasons, strict=True)}


def venue_versions(session: Session, season_id: int) -> dict[int, int]:
    """The version of every venue's scope in a season (`venue:S:V`), by venue id: those never
    changed have none (read them as 0)."""
    low, high = Scope.venues_of(season_id)
    # Read as plain rows (no ORM loading: a national season has thousands of venues).
    rows = session.connection().execute(
        select(ScopeVersion.scope, ScopeVersion.version).where(
            ScopeVersion.scope > low, ScopeVersion.scope < high
        )
    )
    return {Scope.venue_id(scope, season_id): version for scope, version in rows}


def renew_epoch(session: Session) -> str:
    """After restoring a backup, versions repeat: a new epoch retires everything cached."""
    epoch = secrets.token_hex(16)
    session.execute(update(DataVersion).values(epoch=epoch, version=DataVersion.version + 1))
    return epoch


# Every read reads them first: built once (building cost about as much as running them), read as
# plain rows.
@cache
def _data_version_statement() -> Any:
    league = select(ScopeVersion.version).where(ScopeVersion.scope == Scope.LEAGUE).scalar_subquery()
    return select(DataVersion.epoch, DataVersion.version, league)


@cache
def _scope_versions_statement() -> Any:
    return select(ScopeVersion.scope, ScopeVersion.version).where(
        ScopeVersion.scope.in_(bindparam("scopes", expanding=True))
    )
