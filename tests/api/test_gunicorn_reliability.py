"""Real gunicorn (one worker) on a new database of each backend: a report is stored whole or not at
all, the players it registers included, even when the worker is killed (SIGKILL) while it
writes; and a chunked body over the size limit is a 413 problem, as a sized one is."""

from __future__ import annotations

import http.client
import json
import os
import signal
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from models.infra.migrate import alembic_config, upgrade
from tests.builders import TOURNAMENTS, days_ago, iso
from tests.support.databases import ScratchDatabases
from tests.support.servers import Server, gunicorn, workers_of

MAX_BODY = 2 * 1024 * 1024
NEW_PLAYERS = 4000  # a report this big spends a while writing: long enough to be killed midway


Booted = tuple[Server, subprocess.Popen[bytes], str]


@pytest.fixture()
def one_worker(backend: str, scratch: ScratchDatabases, tmp_path: Path) -> Iterator[Booted]:
    """gunicorn -w 1 on a new database of the backend: (the server, gunicorn's master, the URL)."""
    url = scratch.create(backend)
    upgrade(alembic_config(url))
    with gunicorn(url, 1, tmp_path, "-t", "120", REQUEST_LOG="0") as (server, process):
        yield server, process, url


def count(url: str, sql: str) -> int:
    engine = create_engine(make_url(url))
    try:
        with engine.connect() as conn:
            return int(conn.execute(text(sql)).scalar_one())
    finally:
        engine.dispose()


def distinct_name(i: int) -> str:
    """A name unlike the others' (different first letters and words), as a real field's are."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    first = letters[i % 26].upper() + "".join(letters[(i // 26**k + k) % 26] for k in range(1, 4))
    last = letters[(i * 7) % 26].upper() + "".join(letters[(i // 26**k + 3 * k) % 26] for k in range(1, 5))
    return f"{first} {last}"


TABLES = ("tournaments", "results", "players", "audit_log", "standing_lines")


def counts(url: str) -> list[int]:
    """How many rows each of TABLES holds."""
    return [count(url, f"SELECT count(*) FROM {table}") for table in TABLES]


@contextmanager
def write_watcher(url: str) -> Iterator[Callable[[], bool]]:
    """A probe: has another connection begun a write transaction on this database (and not yet
    ended it)? SQLite: a write lock cannot be taken at once. PostgreSQL: a session of the
    database holds a transaction id (one is given at the first write)."""
    if url.startswith("sqlite"):
        probe = sqlite3.connect(make_url(url).database or "", timeout=0, isolation_level=None)

        def sqlite_writing() -> bool:
            try:
                probe.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError:
                return True
            probe.execute("ROLLBACK")
            return False

        try:
            yield sqlite_writing
        finally:
            probe.close()
        return
    engine = create_engine(make_url(url), isolation_level="AUTOCOMMIT")
    conn = engine.connect()
    writers = text(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND pid <> pg_backend_pid() AND backend_xid IS NOT NULL"
    )
    try:
        yield lambda: bool(conn.execute(writers).scalar_one())
    finally:
        conn.close()
        engine.dispose()


def report_of_new_players(server: Server, prefix: str, day: int) -> dict[str, Any]:
    rows: list[dict[str, Any]] = [{"place": 1, "player_id": server.ann}]
    for i in range(NEW_PLAYERS):
        newcomer = {"full_name": distinct_name(i), "email": f"{prefix}{i}@example.org"}
        rows.append({"place": i + 2, "new_player": newcomer})
    return {"venue_id": server.venue_id, "date": iso(days_ago(day)), "results": rows}


def post_watched(
    server: Server, body: dict[str, Any], writing: Callable[[], bool], kill: tuple[int, float] | None = None
) -> tuple[dict[str, Any], float]:
    """Posts a report as the office, watching the database: (the answer or the connection's error,
    and the seconds from its first write seen to its answer). With kill=(worker, seconds), the
    worker is killed (SIGKILL) that long after its first write is seen."""
    outcome: dict[str, Any] = {}

    def post() -> None:
        try:
            outcome["answer"] = server.request(
                "POST", TOURNAMENTS, body, Authorization=f"Bearer {server.office}"
            )
        except (OSError, http.client.HTTPException) as exc:
            outcome["error"] = exc

    poster = threading.Thread(target=post)
    poster.start()
    deadline = time.monotonic() + 60
    while not writing():
        assert poster.is_alive() and time.monotonic() < deadline, outcome  # never seen writing
        time.sleep(0.001)
    began = time.monotonic()
    if kill is not None:
        time.sleep(kill[1])
        os.kill(kill[0], signal.SIGKILL)
    poster.join(60)
    return outcome, time.monotonic() - began


def test_a_worker_killed_mid_report_stores_nothing_of_it(one_worker: Booted) -> None:
    """Reports registering 4,000 new players each: the first is stored, and how long it spends
    writing is timed. Then the worker is killed (SIGKILL) early, midway and late in writing the
    next one (at a fifth, half and 70% of that time): each time the database holds no part of it,
    no tournament, result, player, audit entry or standing line. The next worker then stores the
    same report whole."""
    server, process, url = one_worker
    office = {"Authorization": f"Bearer {server.office}"}
    raised = server.request("PATCH", "/api/v1/league-settings", {"max_entrants": NEW_PLAYERS + 1}, **office)
    assert raised[0] == 200, raised
    with write_watcher(url) as writing:
        outcome, writes_for = post_watched(server, report_of_new_players(server, "first", 2), writing)
        assert outcome["answer"][0] == 201, outcome
        body = report_of_new_players(server, "killed", 1)
        before = counts(url)
        for share in (0.2, 0.5, 0.7):
            (worker,) = workers_of(process.pid)
            outcome, _seconds = post_watched(server, body, writing, kill=(worker, share * writes_for))
            assert "answer" not in outcome or outcome["answer"][0] >= 500, (share, writes_for, outcome)
            assert counts(url) == before, share
            assert count(url, "SELECT count(*) FROM players WHERE email LIKE 'killed%'") == 0
            # gunicorn starts a new worker.
            deadline = time.monotonic() + 20
            while workers_of(process.pid) in ([], [worker]):
                assert time.monotonic() < deadline
                time.sleep(0.1)
            assert server.request("GET", "/health")[0] == 200
    status, _headers, answer = server.request("POST", TOURNAMENTS, body, **office)
    assert status == 201, answer
    assert count(url, "SELECT count(*) FROM players WHERE email LIKE 'killed%'") == NEW_PLAYERS


def test_a_chunked_body_over_the_limit_is_a_413(one_worker: Any) -> None:
    """A body sent in chunks (no Content-Length) larger than the service takes is refused as a
    sized one is: 413, problem+json, nothing stored."""
    server, _process, url = one_worker
    before = count(url, "SELECT count(*) FROM regions")
    payload = json.dumps({"name": "N" * (MAX_BODY + 1000)}).encode()

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(payload), 64 * 1024):
            yield payload[start : start + 64 * 1024]

    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        conn.request(
            "POST",
            "/api/v1/regions",
            body=chunks(),
            headers={"Authorization": f"Bearer {server.office}", "Content-Type": "application/json"},
            encode_chunked=True,
        )
        response = conn.getresponse()
        status, content_type, answer = (
            response.status,
            response.getheader("Content-Type", ""),
            response.read(),
        )
    finally:
        conn.close()
    assert status == 413, (status, answer[:300])
    assert content_type.startswith("application/problem+json")
    assert count(url, "SELECT count(*) FROM regions") == before
