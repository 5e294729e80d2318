"""Single flight: of the reads that miss one answer at once, one computes it and the others wait
for it, then serve what it stored, rather than each computing it again (after a write, fifty
phones and the website ask for the same standings within the same second).

In one process the waiters wait on an event. Across processes (Redis with `CACHE_URL`, or the
embedded store's directory) the workers share a claim with a lease (Redis's SET NX, diskcache's
add), and a worker that did not get it polls the shared store for the answer. Waiting is bounded
(WAIT): a leader that fails, answers an error or is killed costs its followers that long at most,
and they compute the answer themselves."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

import diskcache
import redis

log = logging.getLogger(__name__)

# How long a follower waits for the leader's answer before computing it itself.
WAIT = 10.0
POLL = 0.02
SHARED_ERRORS = (redis.RedisError, diskcache.Timeout, OSError)


class LocalFlights:
    """Single flight among the threads of this process."""

    def __init__(self, wait: float = WAIT) -> None:
        self._lock = threading.Lock()
        self._running: dict[str, threading.Event] = {}
        self.wait = wait

    def lead(self, key: str, stored: Callable[[], bool]) -> bool:
        """True: compute the answer (and `land` after); False: another computed it (or gave up)
        meanwhile, read the store again."""
        with self._lock:
            running = self._running.get(key)
            if running is None:
                self._running[key] = threading.Event()
                return True
        running.wait(self.wait)
        return False

    def land(self, key: str) -> None:
        """The leader is done (answer stored, or not): its followers go on."""
        with self._lock:
            running = self._running.pop(key, None)
        if running is not None:
            running.set()


class Claims(Protocol):
    """Claims shared by every process: one per answer, with a lease."""

    def claim(self, key: str, seconds: float) -> bool: ...

    def held(self, key: str) -> bool: ...

    def release(self, key: str) -> None: ...


class RedisClaims:
    PREFIX = "league:flight:"

    def __init__(self, url: str) -> None:
        self._redis = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)

    def claim(self, key: str, seconds: float) -> bool:
        return bool(self._redis.set(self.PREFIX + key, b"1", nx=True, px=int(seconds * 1000)))

    def held(self, key: str) -> bool:
        return bool(self._redis.exists(self.PREFIX + key))

    def release(self, key: str) -> None:
        self._redis.delete(self.PREFIX + key)


class DiskClaims:
    """Claims in the embedded answer store's directory (diskcache's atomic add, with expiry)."""

    PREFIX = "flight:"

    def __init__(self, cache: diskcache.Cache) -> None:
        self._cache = cache

    def claim(self, key: str, seconds: float) -> bool:
        return bool(self._cache.add(self.PREFIX + key, 1, expire=seconds, retry=True))

    def held(self, key: str) -> bool:
        return self._cache.get(self.PREFIX + key) is not None

    def release(self, key: str) -> None:
        self._cache.delete(self.PREFIX + key, retry=True)


class SharedFlights(LocalFlights):
    """Single flight across every worker sharing claims (Redis, or the embedded store's
    directory): one claim per answer, with a lease."""

    def __init__(self, claims: Claims, wait: float = WAIT) -> None:
        super().__init__(wait)
        self._shared = claims
        self._claims: set[str] = set()  # the claims this process holds

    def lead(self, key: str, stored: Callable[[], bool]) -> bool:
        if not super().lead(key, stored):
            return False  # another thread of this process computed it
        try:
            if self._shared.claim(key, self.wait):
                with self._lock:
                    self._claims.add(key)
                return True
            found = self._wait_for(key, stored)
        except SHARED_ERRORS as exc:
            log.warning("cache: a shared claim failed (%s); computing the answer here", exc)
            return True
        if found:
            super().land(key)  # this process's own followers read it too
            return False
        return True  # nothing stored in time (the other worker failed): computed here

    def _wait_for(self, key: str, stored: Callable[[], bool]) -> bool:
        """Whether the worker holding the claim stored the answer before WAIT ran out."""
        deadline = time.monotonic() + self.wait
        while time.monotonic() < deadline:
            if stored():
                return True
            if not self._shared.held(key):
                return stored()
            time.sleep(POLL)
        return False

    def land(self, key: str) -> None:
        with self._lock:
            held = key in self._claims
            self._claims.discard(key)
        if held:
            try:
                self._shared.release(key)
            except SHARED_ERRORS as exc:
                log.warning("cache: releasing a shared claim failed (%s)", exc)
        super().land(key)


def make_flights(cache_url: str, wait: float = WAIT, disk: diskcache.Cache | None = None) -> LocalFlights:
    """Across processes with Redis or the embedded store's directory; else among this process's threads."""
    if cache_url:
        return SharedFlights(RedisClaims(cache_url), wait)
    if disk is not None:
        return SharedFlights(DiskClaims(disk), wait)
    return LocalFlights(wait)
