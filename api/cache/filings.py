"""What the refresher finds in the shared store: each cached answer filed under every scope its key
read (`hooks.store_answer` files it, as a `Reread`: the request that computes it again), for a
while (READ_LATELY), and the refresher's mark (models/freshness/bumps.Mark), which a restart
resumes from. Kept beside the answers (stores.py): in Redis, in the embedded store's directory
(a small SQLite file of its own), or in this process's memory. Clearing the answers clears them
too (then nothing is filed, and the refresher starts from the beginning)."""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Iterable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import redis
from cachetools import TTLCache

from models.infra import clock

log = logging.getLogger(__name__)

# Scopes a process's memory files answers under, at most.
SCOPES = 100_000


@dataclass(frozen=True, order=True)
class Reread:
    """A request that computes a cached answer again: its path with its query (as the key holds
    it) and the Accept it is asked with ("": JSON; a browser's for a page or HTML; text/csv)."""

    path: str
    accept: str = ""

    def dumps(self) -> str:
        return json.dumps([self.path, self.accept], separators=(",", ":"))

    @classmethod
    def loads(cls, entry: str) -> Reread:
        path, accept = json.loads(entry)
        return cls(str(path), str(accept))


class MemoryFilings:
    def __init__(self) -> None:
        self._filed: TTLCache[str, dict[str, float]] = TTLCache(maxsize=SCOPES, ttl=3600)
        self._mark: bytes | None = None
        self._lock = threading.Lock()

    def file(self, entries: Iterable[tuple[str, str]], seconds: int) -> None:
        until = time.monotonic() + seconds
        with self._lock:
            for scope, entry in entries:
                filed = self._filed.get(scope) or {}
                filed[entry] = until
                self._filed[scope] = filed

    def filed(self, scope: str) -> frozenset[str]:
        now = time.monotonic()
        with self._lock:
            filed = self._filed.get(scope) or {}
            for entry in [e for e, until in filed.items() if until <= now]:
                del filed[entry]
            return frozenset(filed)

    def mark(self) -> bytes | None:
        return self._mark

    def keep_mark(self, value: bytes) -> None:
        self._mark = value

    def clear(self) -> None:
        with self._lock:
            self._filed.clear()
            self._mark = None


class RedisFilings:
    """A sorted set per scope (each entry scored by when it lapses), and the mark."""

    FILED = "league:filed:"
    MARK = "league:refresher:mark"

    def __init__(self, client: redis.Redis) -> None:
        self._redis = client

    def file(self, entries: Iterable[tuple[str, str]], seconds: int) -> None:
        now = clock.now().timestamp()
        by_scope: dict[str, dict[str, float]] = {}
        for scope, entry in entries:
            by_scope.setdefault(scope, {})[entry] = now + seconds
        try:
            with self._redis.pipeline(transaction=False) as pipe:
                for scope, filed in by_scope.items():
                    pipe.zadd(self.FILED + scope, filed)
                    pipe.zremrangebyscore(self.FILED + scope, "-inf", now)
                    pipe.expire(self.FILED + scope, seconds)
                pipe.execute()
        except redis.RedisError as exc:
            log.warning("cache: Redis write failed (%s)", exc)

    def filed(self, scope: str) -> frozenset[str]:
        try:
            found = self._redis.zrangebyscore(self.FILED + scope, clock.now().timestamp(), "+inf")
        except redis.RedisError as exc:  # nothing found: the answers are computed when read
            log.warning("cache: Redis read failed (%s)", exc)
            return frozenset()
        return frozenset(entry.decode() if isinstance(entry, bytes) else str(entry) for entry in found)

    def mark(self) -> bytes | None:
        try:
            value = self._redis.get(self.MARK)
        except redis.RedisError as exc:  # none: from the start (nothing filed is found meanwhile)
            log.warning("cache: Redis read failed (%s)", exc)
            return None
        return value if isinstance(value, bytes) else None

    def keep_mark(self, value: bytes) -> None:
        try:
            self._redis.set(self.MARK, value)
        except redis.RedisError as exc:
            log.warning("cache: Redis write failed (%s)", exc)

    def clear(self) -> None:
        for key in self._redis.scan_iter(match=self.FILED + "*", count=1000):
            self._redis.delete(key)
        self._redis.delete(self.MARK)


class DiskFilings:
    """A small SQLite file in the embedded store's directory, which every process opens."""

    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / "filings.db"
        with self._open() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS filed (scope TEXT NOT NULL, entry TEXT NOT NULL,"
                " until REAL NOT NULL, PRIMARY KEY (scope, entry)) WITHOUT ROWID"
            )
            db.execute("CREATE INDEX IF NOT EXISTS filed_until ON filed (until)")
            db.execute("CREATE TABLE IF NOT EXISTS mark (id INTEGER PRIMARY KEY CHECK (id = 1), value BLOB)")

    def _open(self) -> closing[sqlite3.Connection]:
        return closing(sqlite3.connect(self.path, timeout=5, isolation_level=None))

    def file(self, entries: Iterable[tuple[str, str]], seconds: int) -> None:
        now = clock.now().timestamp()
        rows = [(scope, entry, now + seconds) for scope, entry in entries]
        try:
            with self._open() as db:
                db.execute("BEGIN IMMEDIATE")
                db.executemany("INSERT OR REPLACE INTO filed (scope, entry, until) VALUES (?, ?, ?)", rows)
                db.execute("DELETE FROM filed WHERE until <= ?", (now,))
                db.execute("COMMIT")
        except sqlite3.OperationalError as exc:  # busy past its timeout: filed at the next read
            log.warning("cache: filing answers failed (%s)", exc)

    def filed(self, scope: str) -> frozenset[str]:
        try:
            with self._open() as db:
                rows = db.execute(
                    "SELECT entry FROM filed WHERE scope = ? AND until > ?", (scope, clock.now().timestamp())
                )
                return frozenset(str(row[0]) for row in rows)
        except sqlite3.OperationalError as exc:
            log.warning("cache: reading what was filed failed (%s)", exc)
            return frozenset()

    def mark(self) -> bytes | None:
        with self._open() as db:
            row = db.execute("SELECT value FROM mark WHERE id = 1").fetchone()
        return None if row is None else bytes(row[0])

    def keep_mark(self, value: bytes) -> None:
        with self._open() as db:
            db.execute("INSERT OR REPLACE INTO mark (id, value) VALUES (1, ?)", (value,))

    def clear(self) -> None:
        with self._open() as db:
            db.execute("DELETE FROM filed")
            db.execute("DELETE FROM mark")
