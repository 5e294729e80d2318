"""Rate limits under real gunicorn with two workers, kept in Redis (RATELIMIT_STORAGE_URI): every
worker counts against the same limits, so a key's writes and an address's wrong keys are limited
exactly, whichever worker takes each request."""

from __future__ import annotations

import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from models.infra.migrate import alembic_config, upgrade
from tests.support.databases import ScratchDatabases
from tests.support.servers import REDIS_URL, gunicorn, redis_answers

GUESSES, WRITES = 60, 12


def test_every_worker_counts_against_the_same_limits_in_redis(
    backend: str, scratch: ScratchDatabases, tmp_path: Path
) -> None:
    """Two workers, limits in Redis (under a prefix of this test's own): of 12 writes sent at once
    with one key (RATELIMIT_WRITES "5 per minute"), exactly 5 are stored and 7 get a 429; of 60
    guessed keys sent at once from one address (RATELIMIT_AUTH_FAILURES, 20 per 10 minutes), exactly
    20 get a 401 and 40 a 429 with Retry-After, and then the right key from that address waits too.
    Both workers answered (with a count per worker, up to twice as many would have got through)."""
    if not redis_answers():
        pytest.skip("Redis does not answer at 127.0.0.1:6379")
    url = scratch.create(backend)
    upgrade(alembic_config(url))
    limits = {
        "RATELIMIT_ENABLED": "1",
        "RATELIMIT_STORAGE_URI": REDIS_URL,
        "RATELIMIT_KEY_PREFIX": f"test-{uuid.uuid4().hex}",
        "RATELIMIT_WRITES": "5 per minute",
        "REQUEST_LOG": "0",
    }
    with gunicorn(url, 2, tmp_path, **limits) as (server, _process), ThreadPoolExecutor(6) as pool:
        office = f"Bearer {server.office}"

        def write(i: int) -> int:
            return server.request("POST", "/api/v1/regions", {"name": f"Limited {i}"}, Authorization=office)[
                0
            ]

        writes = Counter(pool.map(write, range(WRITES)))
        assert writes == {201: 5, 429: WRITES - 5}, writes
        status, _headers, regions = server.request(
            "GET", "/api/v1/regions?per_page=100", Authorization=office
        )
        assert status == 200 and sum(r["name"].startswith("Limited ") for r in regions["items"]) == 5

        def guess(i: int) -> tuple[int, str | None]:
            status, headers, _body = server.request(
                "GET", "/api/v1/venues", Authorization=f"Bearer plk_guess{i:04d}"
            )
            return status, headers.get("retry-after")

        guesses = list(pool.map(guess, range(GUESSES)))
        assert Counter(status for status, _ in guesses) == {401: 20, 429: GUESSES - 20}, guesses
        assert all(int(wait or 0) > 0 for status, wait in guesses if status == 429)
        assert server.request("GET", "/api/v1/regions", Authorization=office)[0] == 429
        served = server.access_log.read_text().splitlines()
        workers = {line.split()[0] for line in served if " /api/v1/venues " in line}
        assert len(workers) == 2, served
