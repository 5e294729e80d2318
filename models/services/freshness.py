"""The league's data version (models/entities/freshness.py): read before a cached answer, renewed
after a restore."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Collection, MutableMapping, Sequence
from functools import cache
from typing import Any, NamedTuple, TypeVar

from sqlalchemy import bindparam, select, update
from sqlalchemy.orm import Session

from models.entities.freshness import DataVersion, ScopeVersion
from models.entities.league import Season

# A session that only reads (a GET's) may carry in its `info`, under MEMO, a mapping in which
# what it computes is kept under the data version it read: it holds no uncommitted change of its
# own, so nothing it keeps can be taken for another transaction's data. A writer never has one.
MEMO = "memo"


# What a reading session (one with a MEMO) has read of the versions: its snapshot does not move
# (SQLite's read transaction, PostgreSQL's REPEATABLE READ), so each is read once per request.
_HELD = "versions read"


class _Held(NamedTuple):
    data: tuple[str, int]
    scopes: dict[str, int]


def _held(session: Session) -> _Held | None:
    held: _Held | None = session.info.get(_HELD)
    return held


def data_version(session: Session) -> tuple[str, int]:
    """(epoch, version) as this transaction sees it. Read it first: whatever the answer then reads
    is at least as new, so an answer is never filed under a newer version than its data. A reading
    session reads the `league` scope's version with it (`league_version`)."""
    held = _held(session)
    if held is not None:
        return held.data
    row = session.connection().execute(_data_version_statement()).one()
    data = (row[0], row[1])
    if MEMO in session.info:
        session.info[_HELD] = _Held(data, {"league": row[2] or 0})
    return data


def league_version(session: Session) -> int:
    """The `league` scope's version (venues, settings, charts, …: migration 0022)."""
    return scope_versions(session, ["league"])[0]


T = TypeVar("T")


def kept_by_league(session: Session, name: str, compute: Callable[[], T]) -> T:
    """What `compute` reads, when it reads only tables that move the `league` scope (migration
    0022: venues, seasons, settings, publications, …), kept by a reading session's memo under the
    epoch and that scope's version: a report leaves it kept. One entry, the newest version's."""
    memo: MutableMapping[Any, Any] | None = session.info.get(MEMO)
    if memo is None:
        return compute()
    epoch, _version = data_version(session)
    number = league_version(session)
    key = (name, epoch)
    kept: tuple[int, T] | None = memo.get(key)
    if kept is not None and kept[0] == number:
        return kept[1]
    found = compute()
    if kept is None or number > kept[0]:
        memo[key] = (number, found)
    return found


def scope_versions(session: Session, scopes: Sequence[str]) -> tuple[int, ...]:
    """The versions of these scopes (migration 0022) as this transaction sees them, in the order
    given (0 for a scope never changed). Read first, like `data_version`."""
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


# Every read reads them first: built once (building cost about as much as running them), read as
# plain rows.
@cache
def _data_version_statement() -> Any:
    league = select(ScopeVersion.version).where(ScopeVersion.scope == "league").scalar_subquery()
    return select(DataVersion.epoch, DataVersion.version, league)


@cache
def _scope_versions_statement() -> Any:
    return select(ScopeVersion.scope, ScopeVersion.version).where(
        ScopeVersion.scope.in_(bindparam("scopes", expanding=True))
    )


def season_scopes(season_id: int) -> tuple[str, str]:
    """What a season's qualifier lists read: everything of the season, and the league's rest."""
    return ("league", f"season:{season_id}")


class SeasonVersions(NamedTuple):
    """What a season's kept lists are filed under: the data version (its epoch), and the versions
    of the `league` scope and of the season's."""

    data: tuple[str, int]
    league: int
    season: int


def season_versions(session: Session, season_ids: Collection[int]) -> dict[int, SeasonVersions]:
    """`SeasonVersions` of these seasons, read together (a profile reads the lists of every season
    a player played): two queries, not two a season. Read first, like `data_version`."""
    data = data_version(session)
    ordered = sorted(season_ids)
    league, *seasons = scope_versions(session, ["league", *(season_scopes(s)[1] for s in ordered)])
    return {season_id: SeasonVersions(data, league, v) for season_id, v in zip(ordered, seasons, strict=True)}


def venue_scopes(season_id: int, venue_id: int) -> tuple[str, str]:
    """What a venue's standings in a season read: that venue's reports of the season, and the
    league's rest."""
    return ("league", f"venue:{season_id}:{venue_id}")


def report_scope(report_id: int) -> str:
    """What one report's answer reads of its own (migration 0024): the report and its results."""
    return f"report:{report_id}"


def renew_epoch(session: Session) -> str:
    """After restoring a backup, versions repeat: a new epoch retires every cached answer."""
    epoch = secrets.token_hex(16)
    session.execute(update(DataVersion).values(epoch=epoch, version=DataVersion.version + 1))
    return epoch


def venue_versions(session: Session, season_id: int) -> dict[int, int]:
    """The version of every venue's scope in a season (`venue:S:V`), by venue id: those never
    changed have none (read them as 0). Read first, like `data_version`."""
    prefix = f"venue:{season_id}:"
    # Read as plain rows (no ORM loading: a national season has thousands of venues).
    rows = session.connection().execute(
        select(ScopeVersion.scope, ScopeVersion.version).where(
            # The scopes between "venue:S:" and "venue:S;" (';' follows ':'): those of season S.
            ScopeVersion.scope > prefix,
            ScopeVersion.scope < prefix[:-1] + ";",
        )
    )
    return {int(scope[len(prefix) :]): version for scope, version in rows}


def season_ids(session: Session) -> list[int]:
    """Every season's id (a new season moves the `league` scope on)."""
    return kept_by_league(
        session, "season ids", lambda: list(session.scalars(select(Season.id).order_by(Season.id)))
    )
