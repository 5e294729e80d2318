"""Freshness: no answer is ever stale. Every value a read computes for reuse is cached under the
versions of the data it read, and a write retires it by bumping one of those versions.

- The data version (models/entities/freshness.py) is bumped by database triggers with every
  change to league data, in the change's own transaction, whoever makes it.
- Scopes narrow it: a write bumps only the scopes whose tables it changes (models/entities/
  freshness.py holds the one map of which table bumps which scope; the migrations' triggers are
  held to it by tests/migrations/test_data_version.py). `Scope` names every scope. The tables no
  data version covers (the outbox's, R23) that answers read move a scope of their own, `outbox`.
- `Memo.cached(key, version, compute)` is the one way a value is cached: by the season's lists,
  the publications, the league's small lookups (`cached_by_league`), and the api layer's JSON
  fragments (api/cache/fragments.py). A reading session carries its process's memo in its
  `info` under MEMO; a writer never has one, so nothing uncommitted is ever cached.
- Answers to GETs are cached by api/cache/, keyed by these versions: the views declare which
  scopes they read (`@cached_by`) or that they are never cached (`@never_cached`);
  tests/api/cache/test_reads_covered.py holds every view's reads (and every `cached_by_scopes`
  computation's) to what it declares.

Words: "cached" (stored for reuse, under versions), "bump" (a write moves a version on), "retire"
(what a bump does to what was cached under the old version)."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Collection, Sequence
from functools import cache
from typing import Any, NamedTuple, TypeVar

from cachetools import LRUCache
from sqlalchemy import bindparam, select, update
from sqlalchemy.orm import Session

from models.entities.freshness import DataVersion, ScopeVersion
from models.entities.league import Season

T = TypeVar("T")

# A session that only reads (a GET's) carries in its `info`, under MEMO, its process's `Memo`:
# it holds no uncommitted change of its own, so nothing it caches can be taken for another
# transaction's data. A writer never has one.
MEMO = "memo"
# The same, for many small values (a venue's, a night's): kept apart, so that they never push
# the few large ones (a season's lists) out.
SMALL_MEMO = "memo of small values"


class Scope:
    """The name of every scope (migrations 0022, 0024 and 0033 write the same names in their
    triggers; tests/migrations/test_data_version.py holds them to these)."""

    LEAGUE = "league"  # venues, seasons, charts, settings, sanctions, publications, merges, …
    # R23: the office's webhook subscriptions, their deliveries and the events they send, and
    # players' consents to the weekly email; moved by the delivery worker's writes too (0033).
    OUTBOX = "outbox"

    @staticmethod
    def season(season_id: int) -> str:
        """Everything of a season's reports and results."""
        return f"season:{season_id}"

    @staticmethod
    def venue(season_id: int, venue_id: int) -> str:
        """A venue's reports and results in a season (each venue is its own league: R1)."""
        return f"venue:{season_id}:{venue_id}"

    @staticmethod
    def report(report_id: int) -> str:
        """One report and its results."""
        return f"report:{report_id}"

    @staticmethod
    def venues_of(season_id: int) -> tuple[str, str]:
        """Bounds strictly between which lie the names of a season's venue scopes (';' follows ':')."""
        prefix = Scope.venue(season_id, 0)[:-1]
        return prefix, prefix[:-1] + ";"

    @staticmethod
    def venue_id(name: str, season_id: int) -> int:
        """The venue of one of `venues_of(season_id)`'s scope names."""
        return int(name[len(Scope.venues_of(season_id)[0]) :])


class Memo:
    """Values cached under the versions they were read at (an int, or a tuple of ints), least
    recently used dropped first. A value is served only to a reader of the same version; a reader
    of a newer version computes it again (from the older value, if it can use it) and replaces it;
    one of an older version computes it and leaves the newer in place."""

    def __init__(self, size: int) -> None:
        self._items: LRUCache[Any, tuple[Any, Any]] = LRUCache(maxsize=size)
        self._lock = threading.Lock()

    def cached(self, key: Any, version: Any, compute: Callable[[Any], T]) -> T:
        """The value cached under `key` at `version`, or `compute(the older value or None)`."""
        with self._lock:
            found = self._items.get(key)
        if found is not None and found[0] == version:
            value: T = found[1]
            return value
        return self.put(key, version, compute(None if found is None else found[1]))

    def get(self, key: Any, version: Any) -> Any | None:
        """The value cached under `key` at `version`, or None."""
        with self._lock:
            found = self._items.get(key)
        return found[1] if found is not None and found[0] == version else None

    def put(self, key: Any, version: Any, value: T) -> T:
        """Cache `value` under `key` at `version`, unless a newer version's is cached already."""
        with self._lock:
            found = self._items.get(key)
            if found is None or version > found[0]:
                self._items[key] = (version, value)
        return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


def cached(
    session: Session, key: Any, version: Any, compute: Callable[[Any], T], *, small: bool = False
) -> T:
    """`Memo.cached` with a reading session's memo (`small`: its memo of small values); a writer
    computes afresh."""
    memo: Memo | None = session.info.get(SMALL_MEMO if small else MEMO)
    if memo is None:
        return compute(None)
    return memo.cached(key, version, compute)


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
        session.info[_HELD] = _Held(data, {Scope.LEAGUE: row[2] or 0})
    return data


def league_version(session: Session) -> int:
    """The `league` scope's version (venues, settings, charts, …: migration 0022)."""
    return scope_versions(session, [Scope.LEAGUE])[0]


def cached_by_league(session: Session, name: str, compute: Callable[[], T]) -> T:
    """What `compute` reads, when it reads only tables that bump the `league` scope (venues,
    seasons, settings, publications, …): a report leaves it cached."""
    return cached_by_scopes(session, name, [Scope.LEAGUE], compute)


def cached_by_scopes(
    session: Session, key: Any, scopes: Sequence[str], compute: Callable[[], T], *, small: bool = False
) -> T:
    """What `compute` reads, when it reads only tables that bump these scopes, cached under the
    epoch and their versions (`small`: in the memo of small values). A writer (no memo) computes
    it without reading versions it could not cache by."""
    if (SMALL_MEMO if small else MEMO) not in session.info:
        return compute()
    epoch, _version = data_version(session)
    return cached(
        session, (key, epoch), scope_versions(session, scopes), lambda _older: compute(), small=small
    )


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
    league = select(ScopeVersion.version).where(ScopeVersion.scope == Scope.LEAGUE).scalar_subquery()
    return select(DataVersion.epoch, DataVersion.version, league)


@cache
def _scope_versions_statement() -> Any:
    return select(ScopeVersion.scope, ScopeVersion.version).where(
        ScopeVersion.scope.in_(bindparam("scopes", expanding=True))
    )


def season_scopes(season_id: int) -> tuple[str, str]:
    """What a season's qualifier lists read: everything of the season, and the league's rest."""
    return (Scope.LEAGUE, Scope.season(season_id))


class SeasonVersions(NamedTuple):
    """What a season's cached lists are filed under: the data version (its epoch), and the versions
    of the `league` scope and of the season's."""

    data: tuple[str, int]
    league: int
    season: int


def season_versions(session: Session, season_ids: Collection[int]) -> dict[int, SeasonVersions]:
    """`SeasonVersions` of these seasons, read together (a profile reads the lists of every season
    a player played): two queries, not two a season. Read first, like `data_version`."""
    data = data_version(session)
    ordered = sorted(season_ids)
    league, *seasons = scope_versions(session, [Scope.LEAGUE, *(Scope.season(s) for s in ordered)])
    return {season_id: SeasonVersions(data, league, v) for season_id, v in zip(ordered, seasons, strict=True)}


def venue_scopes(season_id: int, venue_id: int) -> tuple[str, str]:
    """What a venue's standings in a season read: that venue's reports of the season, and the
    league's rest."""
    return (Scope.LEAGUE, Scope.venue(season_id, venue_id))


def renew_epoch(session: Session) -> str:
    """After restoring a backup, versions repeat: a new epoch retires everything cached."""
    epoch = secrets.token_hex(16)
    session.execute(update(DataVersion).values(epoch=epoch, version=DataVersion.version + 1))
    return epoch


def venue_versions(session: Session, season_id: int) -> dict[int, int]:
    """The version of every venue's scope in a season (`venue:S:V`), by venue id: those never
    changed have none (read them as 0). Read first, like `data_version`."""
    low, high = Scope.venues_of(season_id)
    # Read as plain rows (no ORM loading: a national season has thousands of venues).
    rows = session.connection().execute(
        select(ScopeVersion.scope, ScopeVersion.version).where(
            ScopeVersion.scope > low, ScopeVersion.scope < high
        )
    )
    return {Scope.venue_id(scope, season_id): version for scope, version in rows}


def season_ids(session: Session) -> list[int]:
    """Every season's id (a new season bumps the `league` scope)."""
    return cached_by_league(
        session, "season ids", lambda: list(session.scalars(select(Season.id).order_by(Season.id)))
    )
