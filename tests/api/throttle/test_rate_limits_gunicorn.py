"""Rate limits under real gunicorn, kept in Redis (RATELIMIT_STORAGE_URI): two servers started on
their own (one worker each) on one database and one Redis count against the same limits, so a
key's writes and an address's wrong keys are limited exactly, whichever server takes each request.
Requests go to the two servers by turns, so each is known to take half of them (the kernel may hand
every connection of one gunicorn to the same worker, so two workers of one server would prove
nothing by chance). With limits in memory (memory://, per process) the same requests get through
twice as often: the counts below tell the two apart."""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest

from tests.support.databases import ScratchDatabases
from tests.support.servers import REDIS_URL, Server, build_league, gunicorn, redis_answers

# Starts real servers (gunicorn): seconds each; left out of the fast loop (scripts/test-fast).
pytestmark = pytest.mark.server

GUESSES, WRITES = 60, 12
WRITE_LIMIT, GUESS_LIMIT = 5, 20  # RATELIMIT_WRITES below; RATELIMIT_AUTH_FAILURES, 20 per 10 minutes
Servers = tuple[Server, Server]
# two_servers(storage): a block in which two servers run with their limits in that storage.
Start = Callable[[str], AbstractContextManager[Servers]]


def limits(storage: str) -> dict[str, str]:
    """The servers' limits, in that storage under a prefix of this test's own."""
    return {
        "RATELIMIT_ENABLED": "1",
        "RATELIMIT_STORAGE_URI": storage,
        "RATELIMIT_KEY_PREFIX": f"test-{uuid.uuid4().hex}",
        "RATELIMIT_WRITES": f"{WRITE_LIMIT} per minute",
        "REQUEST_LOG": "0",
    }


@pytest.fixture()
def two_servers(backend: str, scratch: ScratchDatabases, tmp_path: Path) -> Start:
    """two_servers(storage) -> a block with two gunicorns of one worker each on one new database of
    the backend, with their limits in `storage` (the same prefix for both)."""
    url = scratch.migrated(backend)
    league = build_league(url)

    @contextmanager
    def start(storage: str) -> Iterator[Servers]:
        env = limits(storage)
        with (
            gunicorn(url, 1, tmp_path, league=league, **env) as (first, _first),
            gunicorn(url, 1, tmp_path, league=league, **env) as (second, _second),
        ):
            yield first, second

    return start


def write_by_turns(servers: Servers) -> Counter[int]:
    """WRITES new regions with the office's key, sent at once (six at a time), by turns to each
    server: how many got each status."""
    office = f"Bearer {servers[0].office}"

    def write(i: int) -> int:
        body = {"name": f"Limited {i}"}
        return servers[i % 2].request("POST", "/api/v1/regions", body, Authorization=office)[0]

    with ThreadPoolExecutor(6) as pool:
        return Counter(pool.map(write, range(WRITES)))


def guess_by_turns(servers: Servers) -> list[tuple[int, str | None]]:
    """GUESSES wrong keys from one address, sent at once (six at a time), by turns to each server:
    each one's status and Retry-After."""

    def guess(i: int) -> tuple[int, str | None]:
        status, headers, _body = servers[i % 2].request(
            "GET", "/api/v1/venues", Authorization=f"Bearer plk_guess{i:04d}"
        )
        return status, headers.get("retry-after")

    with ThreadPoolExecutor(6) as pool:
        return list(pool.map(guess, range(GUESSES)))


def stored_regions(server: Server) -> int:
    office = f"Bearer {server.office}"
    status, _headers, regions = server.request("GET", "/api/v1/regions?per_page=100", Authorization=office)
    assert status == 200, regions
    return sum(r["name"].startswith("Limited ") for r in regions["items"])


def test_both_servers_count_against_the_same_limits_in_redis(two_servers: Start) -> None:
    """Limits in one Redis: of 12 writes sent at once with one key, six to each server
    (RATELIMIT_WRITES "5 per minute"), exactly 5 are stored and 7 get a 429; of 60 guessed keys sent
    at once from one address, 30 to each server (RATELIMIT_AUTH_FAILURES, 20 per 10 minutes),
    exactly 20 get a 401 and 40 a 429 with Retry-After; the right key from that address is still
    answered on either server, and one more wrong key is refused on either."""
    if not redis_answers():
        pytest.skip("Redis does not answer at 127.0.0.1:6379")
    with two_servers(REDIS_URL) as servers:
        writes = write_by_turns(servers)
        assert writes == {201: WRITE_LIMIT, 429: WRITES - WRITE_LIMIT}, writes
        assert stored_regions(servers[0]) == WRITE_LIMIT
        guesses = guess_by_turns(servers)
        statuses = Counter(status for status, _ in guesses)
        assert statuses == {401: GUESS_LIMIT, 429: GUESSES - GUESS_LIMIT}, guesses
        assert all(int(wait or 0) > 0 for status, wait in guesses if status == 429)
        for server in servers:
            assert server.request("GET", "/api/v1/regions", Authorization=f"Bearer {server.office}")[0] == 200
            assert server.request("GET", "/api/v1/regions", Authorization="Bearer plk_one_more")[0] == 429
            served = server.access_log.read_text().splitlines()
            assert sum(" /api/v1/venues " in line for line in served) == GUESSES // 2, served


def test_limits_in_memory_count_on_each_server_alone(two_servers: Start) -> None:
    """The same requests with the limits in memory (memory://, per process): each server counts its
    own half, so twice as many get through (10 writes stored, 40 wrong keys answered 401), which
    the test above would refuse; it proves that test tells shared counts from separate ones."""
    with two_servers("memory://") as servers:
        writes = write_by_turns(servers)
        assert writes == {201: 2 * WRITE_LIMIT, 429: WRITES - 2 * WRITE_LIMIT}, writes
        assert stored_regions(servers[0]) == 2 * WRITE_LIMIT
        guesses = guess_by_turns(servers)
        statuses = Counter(status for status, _ in guesses)
        assert statuses == {401: 2 * GUESS_LIMIT, 429: GUESSES - 2 * GUESS_LIMIT}, guesses
