"""The refresher under real gunicorn, on a database of each backend: four threaded workers sharing
the embedded store's directory or one Redis, and the delivery worker (`flask --app app deliver`)
as its own process beside them, as scripts/serve runs them. After a report, once the refresher's
mark has passed the scopes it bumped, the first read of each answer the report retired that the
website read lately, on any worker, is answered from the store (`X-Cache: hit`): computed once,
by the refresher, for every worker. Seen failing first: without the delivery worker, every one
of those reads was a miss."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from api.cache.filings import DiskFilings, RedisFilings
from models.freshness.bumps import Mark, bumped_since
from models.infra.db import make_engine
from tests.support.databases import ScratchDatabases
from tests.support.races import OPTIONS, WORKERS
from tests.support.servers import (
    PATIENCE,
    REDIS_URL,
    REPO,
    Server,
    gunicorn,
    post_a_report,
    redis_answers,
    stop,
)

pytestmark = pytest.mark.server


@pytest.fixture(params=["disk", "redis"])
def served(
    request: pytest.FixtureRequest, backend: str, scratch: ScratchDatabases, tmp_path: Path
) -> Iterator[tuple[Server, str]]:
    """gunicorn's four workers and the delivery worker, sharing one store: (the server, its URL)."""
    if request.param == "redis" and not redis_answers():
        pytest.skip("Redis does not answer at 127.0.0.1:6379")
    url = scratch.migrated(backend)
    filings(request.param, tmp_path).clear()  # another test's mark (its database's numbers)
    env = {
        "CACHE_URL": REDIS_URL if request.param == "redis" else "",
        "CACHE_DIR": str(tmp_path / "answers") if request.param == "disk" else "",
        "CACHE_FLIGHT_WAIT_SECONDS": str(PATIENCE),
        "CACHE_NOTE_EVERY_SECONDS": "0",  # what was read is told at once (not every 2 s)
        "REQUEST_LOG": "0",
    }
    with gunicorn(url, WORKERS, tmp_path, *OPTIONS, **env) as (server, _master):
        environment = {
            **os.environ,
            "DATABASE_URL": url,
            "RATELIMIT_ENABLED": "0",
            "LOG_LEVEL": "WARNING",
            **env,
        }
        worker = subprocess.Popen(
            [sys.executable, "-m", "flask", "--app", "app", "deliver"],
            cwd=REPO,
            env={**environment, "REFRESH_EVERY_SECONDS": "0.05"},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            yield server, url
        finally:
            stop(worker)
    scratch.discard(url)


def filings(store: str, tmp_path: Path) -> DiskFilings | RedisFilings:
    """Where the refresher keeps its mark: the store the workers share."""
    if store == "redis":
        return RedisFilings(redis.Redis.from_url(REDIS_URL))
    return DiskFilings(tmp_path / "answers")


def refreshed(url: str, kept: DiskFilings | RedisFilings) -> None:
    """Waits (polling, bounded by PATIENCE) until the refresher's mark has passed every bump."""
    engine = make_engine(url)
    deadline = time.monotonic() + PATIENCE
    try:
        while True:
            with engine.connect() as conn, conn.begin():
                left = bumped_since(conn, Mark.loads(kept.mark()))[0]
            if not left:
                return
            assert time.monotonic() < deadline, f"{left} still waiting after {PATIENCE:.0f} s"
            time.sleep(0.05)  # the poll's interval, not a wait for anything
    finally:
        engine.dispose()


def test_after_a_report_every_worker_reads_what_the_refresher_computed_once(
    served: tuple[Server, str], request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    server, url = served
    kept = filings(request.node.callspec.params["served"], tmp_path)
    paths = [
        server.standings,
        f"/api/v1/seasons/{server.season_id}/qualifiers",
        f"/api/v1/seasons/{server.season_id}/venues/{server.venue_id}/qualifiers",
        f"/api/v1/players/{server.ann}",
        f"/api/v1/players/{server.bob}",
        f"/api/v1/tournaments?season_id={server.season_id}",
    ]
    for path in paths:  # the website reads them (the refresher computes only what was read)
        assert server.request("GET", path)[0] == 200
    for day in (3, 2):  # each report retires the answers the other left
        post_a_report(server, day)
        refreshed(url, kept)
        # Each answer read several times, each on a fresh connection (any worker may take it).
        seen = {
            path: [server.request("GET", path)[1].get("x-cache") for _ in range(WORKERS)] for path in paths
        }
        assert seen == {path: ["hit"] * WORKERS for path in paths}
        standings = server.request("GET", server.standings)[2]
        assert standings["tournaments"] == 4 - day  # and fresh: the report is in it
