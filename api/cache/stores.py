"""Where answers are cached, shared by every worker so that an answer computed once (by the
refresher after a write, or by the first read) serves them all:

- Redis when `CACHE_URL` is set (several machines behind a load balancer share it);
- otherwise the embedded default's own store, a directory on this machine (`CACHE_DIR`, or beside
  the SQLite file, or in instance/ for PostgreSQL), which every worker and the refresher open
  (diskcache: SQLite and files);
- or, for an in-memory database (one process), this process's memory alone.

Each worker also keeps the answers it read lately in its own memory (a least-recently-used map
bounded in bytes): an answer's key names the versions it was read at, so a copy is never stale.
A shared store failing is a miss, never a failed read. Beside the answers: what the refresher finds
there (filings.py)."""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlencode

import diskcache
import redis
from cachetools import LRUCache, TTLCache
from sqlalchemy.engine import make_url

from api.cache.filings import DiskFilings, MemoryFilings, RedisFilings
from models.infra.db import REPO_ROOT

log = logging.getLogger(__name__)

# How long a read counts as "read lately" (the refresher computes again only what was), and how
# many names a process remembers.
READ_LATELY = 600
READ_NAMES = 100_000
# How often a worker tells the shared store, in one write, what it was asked for (CACHE_NOTE_EVERY_SECONDS).
NOTE_EVERY = 2.0


class Store(Protocol):
    def get(self, key: str) -> bytes | None: ...

    def set(self, key: str, value: bytes) -> None: ...

    def clear(self) -> None: ...

    def note(self, names: Iterable[str], seconds: int) -> None:
        """That readers asked for these (each a path and its query), for `seconds`."""

    def noted(self, name: str) -> bool:
        """Whether a reader asked for `name` lately (the refresher computes only those)."""

    def file(self, entries: Iterable[tuple[str, str]], seconds: int) -> None:
        """File each (scope, request) for `seconds`: the request computes an answer keyed by the scope."""

    def filed(self, scope: str) -> frozenset[str]:
        """The requests filed under `scope` (and not lapsed)."""

    def mark(self) -> bytes | None:
        """The refresher's mark, as it kept it."""

    def keep_mark(self, value: bytes) -> None: ...


Filings = MemoryFilings | RedisFilings | DiskFilings


class Filed:
    """A store's filings (filings.py): what it cached, filed under each scope of its key, and the
    refresher's mark, kept where the store keeps its answers."""

    filings: Filings

    def file(self, entries: Iterable[tuple[str, str]], seconds: int) -> None:
        self.filings.file(entries, seconds)

    def filed(self, scope: str) -> frozenset[str]:
        return self.filings.filed(scope)

    def mark(self) -> bytes | None:
        return self.filings.mark()

    def keep_mark(self, value: bytes) -> None:
        self.filings.keep_mark(value)


class MemoryStore(Filed):
    """This process's answers, the least recently used dropped first when over `max_bytes`."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._answers: LRUCache[str, bytes] = LRUCache(maxsize=max_bytes, getsizeof=len)
        self._lock = threading.Lock()
        self._read: TTLCache[str, bool] = TTLCache(maxsize=READ_NAMES, ttl=READ_LATELY)
        self.filings = MemoryFilings()

    def get(self, key: str) -> bytes | None:
        with self._lock:
            return self._answers.get(key)

    def set(self, key: str, value: bytes) -> None:
        if len(value) > self.max_bytes // 4:
            return  # one answer may not push out most of the others
        with self._lock:
            self._answers[key] = value

    def clear(self) -> None:
        with self._lock:
            self._answers.clear()
            self._read.clear()
        self.filings.clear()

    def note(self, names: Iterable[str], seconds: int) -> None:
        with self._lock:
            for name in names:
                self._read[name] = True

    def noted(self, name: str) -> bool:
        with self._lock:
            return name in self._read


class RedisStore(Filed):
    """Answers shared by every worker of every machine. Redis failing is a miss."""

    PREFIX = "league:answer:"
    READ = "league:read:"

    def __init__(self, url: str, ttl_seconds: int) -> None:
        self._redis = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        self._ttl = ttl_seconds
        self.filings = RedisFilings(self._redis)

    def get(self, key: str) -> bytes | None:
        try:
            value = self._redis.get(self.PREFIX + key)
        except redis.RedisError as exc:
            log.warning("cache: Redis read failed (%s); answering from the database", exc)
            return None
        return value if isinstance(value, bytes) else None

    def set(self, key: str, value: bytes) -> None:
        try:
            self._redis.set(self.PREFIX + key, value, ex=self._ttl)
        except redis.RedisError as exc:
            log.warning("cache: Redis write failed (%s)", exc)

    def clear(self) -> None:
        for pattern in (self.PREFIX + "*", self.READ + "*"):
            for key in self._redis.scan_iter(match=pattern, count=1000):
                self._redis.delete(key)
        self.filings.clear()

    def note(self, names: Iterable[str], seconds: int) -> None:
        try:
            with self._redis.pipeline(transaction=False) as pipe:
                for name in names:
                    pipe.set(self.READ + name, b"1", ex=seconds)
                pipe.execute()
        except redis.RedisError as exc:
            log.warning("cache: Redis write failed (%s)", exc)

    def noted(self, name: str) -> bool:
        try:
            return bool(self._redis.exists(self.READ + name))
        except redis.RedisError:
            return True  # unknown: computed, as a reader would


class DiskStore(Filed):
    """Answers shared by every process on this machine: a directory that each opens (diskcache,
    process- and thread-safe), bounded in bytes, the oldest stored dropped first. Failing is a miss."""

    def __init__(self, directory: Path, max_bytes: int, ttl_seconds: int) -> None:
        # Large answers live in the store's own SQLite file too (no file per answer to clean up),
        # and what is deleted is overwritten (R21: a cleared answer leaves no copy on the disk).
        self.cache = diskcache.Cache(
            str(directory),
            size_limit=max_bytes,
            disk_min_file_size=1 << 22,
            timeout=5,
            sqlite_secure_delete=1,
        )
        self._ttl = ttl_seconds
        self.max_bytes = max_bytes
        self.filings = DiskFilings(directory)

    def get(self, key: str) -> bytes | None:
        try:
            value = self.cache.get(key)
        except diskcache.Timeout as exc:  # the store busy past its timeout: answer from the database
            log.warning("cache: the answer store was busy (%s)", exc)
            return None
        return value if isinstance(value, bytes) else None

    def set(self, key: str, value: bytes) -> None:
        if len(value) > self.max_bytes // 4:
            return
        try:
            self.cache.set(key, value, expire=self._ttl)
        except diskcache.Timeout as exc:
            log.warning("cache: the answer store was busy (%s)", exc)

    def clear(self) -> None:
        self.cache.clear(retry=True)
        # The write-ahead log still holds the pages as they were: copied back and emptied.
        with closing(sqlite3.connect(Path(self.cache.directory) / "cache.db", timeout=5)) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.filings.clear()

    def note(self, names: Iterable[str], seconds: int) -> None:
        try:
            with self.cache.transact(retry=True):  # one write for them all
                for name in names:
                    self.cache.set("read:" + name, 1, expire=seconds)
        except diskcache.Timeout as exc:
            log.warning("cache: the answer store was busy (%s)", exc)

    def noted(self, name: str) -> bool:
        try:
            return self.cache.get("read:" + name) is not None
        except diskcache.Timeout:
            return True


class LayeredStore:
    """A shared store, and this process's memory of what it read there lately."""

    def __init__(self, local: MemoryStore, shared: Store, note_every: float = NOTE_EVERY) -> None:
        self.local = local
        self.shared = shared
        # What this worker told the shared store was read, lately: told again only after a while;
        # and what it has yet to tell, told together every `note_every` seconds (one write).
        self._told: TTLCache[str, bool] = TTLCache(maxsize=READ_NAMES, ttl=READ_LATELY / 5)
        self._pending: set[str] = set()
        self._filed_told: TTLCache[tuple[str, str], bool] = TTLCache(maxsize=READ_NAMES, ttl=READ_LATELY / 5)
        self._pending_filed: set[tuple[str, str]] = set()
        self._note_every = note_every
        self._teller: tuple[int, threading.Thread] | None = None
        self._lock = threading.Lock()
        # A clear and a flush one at a time: a flush that read what was pending before a clear
        # would otherwise tell the shared store, after it was cleared, what was read before it.
        self._flushing = threading.Lock()

    def get(self, key: str) -> bytes | None:
        value = self.local.get(key)
        if value is None:
            value = self.shared.get(key)
            if value is not None:
                self.local.set(key, value)
        return value

    def set(self, key: str, value: bytes) -> None:
        self.shared.set(key, value)
        self.local.set(key, value)

    def clear(self) -> None:
        with self._flushing:
            self.shared.clear()
            self.local.clear()
            with self._lock:
                self._told.clear()
                self._pending.clear()
                self._filed_told.clear()
                self._pending_filed.clear()

    def note(self, names: Iterable[str], seconds: int) -> None:
        with self._lock:
            new = [name for name in names if name not in self._told]
            for name in new:
                self._told[name] = True
            if not new:
                return
            if self._note_every > 0:
                self._pending.update(new)
                self._start_teller(seconds)
                return
        self.shared.note(new, seconds)

    def file(self, entries: Iterable[tuple[str, str]], seconds: int) -> None:
        """Told the shared store as notes are (together, every `note_every` seconds), each again
        only after a while."""
        with self._lock:
            new = [entry for entry in entries if entry not in self._filed_told]
            for entry in new:
                self._filed_told[entry] = True
            if not new:
                return
            if self._note_every > 0:
                self._pending_filed.update(new)
                self._start_teller(seconds)
                return
        self.shared.file(new, seconds)

    def filed(self, scope: str) -> frozenset[str]:
        with self._lock:
            pending = {entry for filed_under, entry in self._pending_filed if filed_under == scope}
        return frozenset(pending) | self.shared.filed(scope)

    def mark(self) -> bytes | None:
        return self.shared.mark()

    def keep_mark(self, value: bytes) -> None:
        self.shared.keep_mark(value)

    def flush(self, seconds: int = READ_LATELY) -> None:
        """Tell the shared store now what was read and filed since it was last told."""
        with self._flushing:
            with self._lock:
                names, filed = set(self._pending), set(self._pending_filed)
            # Told first, forgotten after: a reader of `noted` or `filed` meanwhile finds them here.
            if names:
                self.shared.note(names, seconds)
            if filed:
                self.shared.file(filed, seconds)
            with self._lock:
                self._pending -= names
                self._pending_filed -= filed

    def _start_teller(self, seconds: int) -> None:
        """A thread of this process (started again in a forked worker) that tells the shared store
        what was read, every `note_every` seconds. Called with the lock held."""
        pid = os.getpid()
        if self._teller is not None and self._teller[0] == pid and self._teller[1].is_alive():
            return

        def tell() -> None:
            while True:
                time.sleep(self._note_every)
                try:
                    self.flush(seconds)
                except Exception:  # never the end of the thread: told next time
                    log.exception("cache: noting what was read failed")

        thread = threading.Thread(target=tell, name="league-reads", daemon=True)
        thread.start()
        self._teller = (pid, thread)

    def noted(self, name: str) -> bool:
        with self._lock:
            if name in self._pending:
                return True
        return self.shared.noted(name)


def read_name(path: str, query: Sequence[tuple[str, str]]) -> str:
    """What a read is noted by (`Store.note`): its path and its query as the key holds it."""
    return path + "?" + urlencode(list(query))


def answers_directory(config: dict[str, Any]) -> Path | None:
    """The embedded store's directory: `CACHE_DIR`; else beside the SQLite file
    (`league.db.answers`), or for another database in instance/ (`answers-<its name's hash>`);
    None for an in-memory database (one process: its answers stay in its memory)."""
    if config.get("CACHE_DIR"):
        return Path(config["CACHE_DIR"])
    url = make_url(config["DATABASE_URL"])
    if url.get_backend_name() != "sqlite":
        named = url.render_as_string(hide_password=True)
        return REPO_ROOT / "instance" / f"answers-{hashlib.sha256(named.encode()).hexdigest()[:12]}"
    if url.database in (None, "", ":memory:") or url.database.startswith("file::memory:"):
        return None
    if url.query.get("mode") == "memory":
        return None
    return Path(url.database).resolve().parent / (Path(url.database).name + ".answers")


def make_store(config: dict[str, Any]) -> Store:
    local = MemoryStore(int(config["CACHE_MAX_BYTES"]))
    every = float(config.get("CACHE_NOTE_EVERY_SECONDS", NOTE_EVERY))
    if config.get("CACHE_URL"):
        redis_store = RedisStore(config["CACHE_URL"], int(config["CACHE_TTL_SECONDS"]))
        return LayeredStore(local, redis_store, every)
    directory = answers_directory(config)
    if directory is None:
        return local
    shared = DiskStore(directory, int(config["CACHE_DISK_BYTES"]), int(config["CACHE_TTL_SECONDS"]))
    return LayeredStore(local, shared, every)
