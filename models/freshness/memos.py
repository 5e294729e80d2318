"""Memos: values computed for reads, cached under the versions of the scopes they read, and the
one API that caches them (`cached_by_scopes`, `recomputed_by_scopes`, `many_by_scopes`,
`cached_at`, `added_to`, `cached_by_league`). Never keyed by an object's id or by hand: a key names what was
asked, the versions name the data it was read at. A reading session carries its process's memos
in its `info` (models/freshness/versions.py: MEMO, SMALL_MEMO, FRAGMENTS); a writer has none and
computes afresh, so nothing uncommitted is ever cached. Every computation goes through
`_computed`, where tests/api/cache/test_reads_covered.py holds what it reads to its scopes."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, TypeVar

from cachetools import LRUCache
from sqlalchemy import select
from sqlalchemy.orm import Session

from models.entities.league import Season
from models.freshness.scopes import Scope
from models.freshness.versions import FRAGMENTS, MEMO, SMALL_MEMO, data_version, scope_versions

T = TypeVar("T")
K = TypeVar("K")

__all__ = ["FRAGMENTS", "MEMO", "SMALL_MEMO", "Memo"]


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


def _computed(key: Hashable, scopes: Sequence[str], compute: Callable[[], T]) -> T:
    """The one place a memo's value (`key`'s) is computed, reading only tables whose changes move
    `scopes` (tests/api/cache/test_reads_covered.py watches it)."""
    return compute()


def _memo(session: Session, memo: str) -> Memo | None:
    found: Memo | None = session.info.get(memo)
    return found


def cached_by_scopes(
    session: Session, key: Hashable, scopes: Sequence[str], compute: Callable[[], T], *, memo: str = MEMO
) -> T:
    """What `compute` reads, when it reads only tables that bump these scopes, cached under the
    epoch and their versions (`memo`: which of the session's memos)."""
    found = _memo(session, memo)
    if found is None:
        return compute()
    epoch, _version = data_version(session)
    return found.cached(
        (key, epoch), scope_versions(session, scopes), lambda _older: _computed(key, scopes, compute)
    )


def recomputed_by_scopes(
    session: Session,
    key: Hashable,
    scopes: Sequence[str],
    compute: Callable[[T | None], T],
    *,
    moving: str,
    memo: str = MEMO,
) -> T:
    """`cached_by_scopes` for a value computed again from the one cached at an older version of
    the scope `moving` (one of `scopes`), when the other scopes stand where they stood: `compute`
    is handed it (or None)."""
    found = _memo(session, memo)
    if found is None:
        return compute(None)
    epoch, _version = data_version(session)
    versions = dict(zip(scopes, scope_versions(session, scopes), strict=True))
    standing = tuple(sorted((scope, v) for scope, v in versions.items() if scope != moving))
    return found.cached(
        (key, epoch, standing), versions[moving], lambda older: _computed(key, scopes, lambda: compute(older))
    )


def many_by_scopes(
    session: Session,
    wanted: Mapping[K, tuple[Hashable, Sequence[str]]],
    compute: Callable[[list[K]], Mapping[K, T]],
    *,
    memo: str = MEMO,
) -> dict[K, T]:
    """Many values at once, each `wanted[k]` = (its key, the scopes it reads): those not cached
    at their scopes' versions computed together (`compute(missing)`, one query for all)."""
    found = _memo(session, memo)
    if found is None:
        return dict(compute(list(wanted)))
    epoch, _version = data_version(session)
    named = sorted({scope for _key, scopes in wanted.values() for scope in scopes})
    versions = dict(zip(named, scope_versions(session, named), strict=True))
    keys = {
        k: ((key, epoch), tuple(versions[scope] for scope in scopes)) for k, (key, scopes) in wanted.items()
    }
    values: dict[K, Any] = {k: found.get(*keys[k]) for k in wanted}
    missing = [k for k, value in values.items() if value is None]
    if missing:
        scopes = sorted({scope for k in missing for scope in wanted[k][1]})
        for k, value in _computed(
            tuple(wanted[k][0] for k in missing), scopes, lambda: compute(missing)
        ).items():
            values[k] = found.put(*keys[k], value)
    return values


def cached_at(
    session: Session, key: Hashable, at: Mapping[str, int], compute: Callable[[], T], *, memo: str = MEMO
) -> T:
    """A value made from another one that was read at the versions `at` (scope: version), such
    as a list drawn at them, cached under those versions (and the epoch)."""
    found = _memo(session, memo)
    if found is None:
        return compute()
    epoch, _version = data_version(session)
    versions = tuple(sorted(at.items()))
    return found.cached((key, epoch), versions, lambda _older: _computed(key, list(at), compute))


def added_to(key: Hashable, scopes: Sequence[str], compute: Callable[[], T]) -> T:
    """What is added, as it is asked for, to a value already cached under these scopes (a night's
    players' earlier results, as they sign in): read, like the value, only from tables these
    scopes cover, and computed where every memo's value is."""
    return _computed(key, scopes, compute)


def cached_by_league(session: Session, name: Hashable, compute: Callable[[], T]) -> T:
    """What `compute` reads, when it reads only tables that bump the `league` scope (venues,
    seasons, settings, publications, …): a report leaves it cached."""
    return cached_by_scopes(session, name, [Scope.LEAGUE], compute)


def season_ids(session: Session) -> list[int]:
    """Every season's id (a new season bumps the `league` scope)."""
    return cached_by_league(
        session, "season ids", lambda: list(session.scalars(select(Season.id).order_by(Season.id)))
    )
