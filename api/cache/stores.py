"""Where answers are cached: this process's memory (a least-recently-used map bounded in bytes), or
Redis when `CACHE_URL` is set, shared by every worker. Redis failing is a miss, never a failed
read."""

from __future__ import annotations

import logging
import threading
from typing import Any, Protocol

import redis
from cachetools import LRUCache

log = logging.getLogger(__name__)


class Store(Protocol):
    def get(self, key: str) -> bytes | None: ...

    def set(self, key: str, value: bytes) -> None: ...

    def clear(self) -> None: ...


class MemoryStore:
    """This process's answers, the least recently used dropped first when over `max_bytes`."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._answers: LRUCache[str, bytes] = LRUCache(maxsize=max_bytes, getsizeof=len)
        self._lock = threading.Lock()

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


class RedisStore:
    """Answers shared by every worker. Redis failing is a miss, never a failed read."""

    PREFIX = "league:answer:"

    def __init__(self, url: str, ttl_seconds: int) -> None:
        self._redis = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        self._ttl = ttl_seconds

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
        for key in self._redis.scan_iter(match=self.PREFIX + "*", count=1000):
            self._redis.delete(key)


def make_store(config: dict[str, Any]) -> Store:
    if config.get("CACHE_URL"):
        return RedisStore(config["CACHE_URL"], int(config["CACHE_TTL_SECONDS"]))
    return MemoryStore(int(config["CACHE_MAX_BYTES"]))
