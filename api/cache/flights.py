"""Single flight: of the reads that miss one answer at once, one computes it and the others wait
for it, then serve what it stored, rather than each computing it again (after a write, fifty
phones and the website ask for the same standings within the same second).

In one process the waiters wait on an event. With Redis (`CACHE_URL`) the workers of every
process share a claim (SET NX with a lease), and a worker that did not get it polls the shared
store for the answer. Waiting is bounded (WAIT): a leader that fails, answers an error or is
killed costs its followers that long at most, and they compute the answer themselves."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import redis

log = logging.getLogger(__name__)

# How long a follower waits for the leader's answer before computing it itself.
WAIT = 10.0
POLL = 0.02


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


class RedisFlights(LocalFlights):
    """Single flight across every worker sharing one Redis: one claim per answer, with a lease."""

    PREFIX = "league:flight:"

    def __init__(self, url: str, wait: float = WAIT) -> None:
        super().__init__(wait)
        self._redis = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        self._claims: set[str] = set()  # the claims this process holds

    def lead(self, key: str, stored: Callable[[], bool]) -> bool:
        if not super().lead(key, stored):
            return False  # another thread of this process computed it
        try:
            claimed = self._redis.set(self.PREFIX + key, b"1", nx=True, px=int(self.wait * 1000))
            if claimed:
                with self._lock:
                    self._claims.add(key)
                return True
            found = self._wait_for(key, stored)
        except redis.RedisError as exc:
            log.warning("cache: Redis claim failed (%s); computing the answer here", exc)
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
            if not self._redis.exists(self.PREFIX + key):
                return stored()
            time.sleep(POLL)
        return False

    def land(self, key: str) -> None:
        with self._lock:
            held = key in self._claims
            self._claims.discard(key)
        if held:
            try:
                self._redis.delete(self.PREFIX + key)
            except redis.RedisError as exc:
                log.warning("cache: Redis release failed (%s)", exc)
        super().land(key)


def make_flights(cache_url: str, wait: float = WAIT) -> LocalFlights:
    return RedisFlights(cache_url, wait) if cache_url else LocalFlights(wait)
