"""Real gunicorn (one worker) on a new database of each backend: a report is stored whole or not at
all, the players it registers included, even when the worker is killed (SIGKILL) while it
writes; and a chunked body over the size limit is a 413 problem, as a sized one is (and a request
line too long to read, the server's own 414: GET /health's one client error in the spec).

The kills depend on no timing: the worker runs with tests/support/stop_points.py, which makes it
stop itself (SIGSTOP) at a chosen point of the report's transaction (after its first player, after
its first result, just before its COMMIT, just after it); the test then checks from another
connection that the transaction is open (or, after the commit, that it is not) and kills the
stopped worker. So each kill lands at a known point on any machine, however loaded."""

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tests.builders import TOURNAMENTS, days_ago, iso
from tests.support.databases import ScratchDatabases
from tests.support.servers import PATIENCE, Server, gunicorn, workers_of

# Starts real servers (gunicorn): seconds each; left out of the fast loop (scripts/test-fast).
pytestmark = pytest.mark.server

STOP_POINTS = Path(__file__).resolve().parents[1] / "support" / "stop_points.py"
MAX_BODY = 2 * 1024 * 1024
NEW_PLAYERS = 4000  # a report this big writes thousands of rows in its one transaction


@dataclass
class Booted:
    server: Server
    master: subprocess.Popen[bytes]  # gunicorn's master process
    url: str  # the database's
    stop_at: Path  # the file naming where the worker stops (tests/support/stop_points.py)


@pytest.fixture()
def one_worker(backend: str, scratch: ScratchDatabases, tmp_path: Path) -> Iterator[Booted]:
    """gunicorn -w 1 on a new database of the backend, its worker ready to stop where told."""
    url = scratch.migrated(backend)
    stop_at = tmp_path / "stop-point"
    options = ("-t", "120", "-c", str(STOP_POINTS))
    env = {"REQUEST_LOG": "0", "STOP_POINT_FILE": str(stop_at)}
    with gunicorn(url, 1, tmp_path, *options, **env) as (server, master):
        yield Booted(server, master, url, stop_at)
    scratch.discard(url)


def stopped(pid: int) -> bool:
    """Whether the process is stopped (SIGSTOP): its state in /proc/<pid>/stat is T."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0] == "T"


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


def post_and_kill(
    booted: Booted, body: dict[str, Any], writing: Callable[[], bool]
) -> tuple[dict[str, Any], bool]:
    """Posts a report as the office; once the worker has stopped itself at the point armed, kills
    it (SIGKILL): (the answer or the connection's error, and whether another connection saw the
    report's transaction open while the worker stood stopped)."""
    server = booted.server
    (worker,) = workers_of(booted.master.pid)
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
    deadline = time.monotonic() + PATIENCE
    while not stopped(worker):
        assert poster.is_alive() and time.monotonic() < deadline, outcome  # it never got there
        time.sleep(0.005)
    open_then = writing()
    os.kill(worker, signal.SIGKILL)
    poster.join(PATIENCE)
    # gunicorn starts a new worker.
    deadline = time.monotonic() + PATIENCE
    while workers_of(booted.master.pid) in ([], [worker]):
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert server.request("GET", "/health")[0] == 200
    return outcome, open_then


def test_a_worker_killed_mid_report_stores_nothing_of_it(one_worker: Booted) -> None:
    """A report registering 4,000 new players: its worker is killed (SIGKILL) after the first of
    them is written, after the first result is, and just before the commit, each time with the
    report's transaction seen open from another connection; each time no answer comes and the
    database holds no part of it, no tournament, result, player, audit entry or standing line.
    The next worker stores the same report whole. Killed just after its commit, another report
    is stored whole, though its answer never came."""
    server, url = one_worker.server, one_worker.url
    office = {"Authorization": f"Bearer {server.office}"}
    raised = server.request("PATCH", "/api/v1/league-settings", {"max_entrants": 2 * NEW_PLAYERS}, **office)
    assert raised[0] == 200, raised
    body = report_of_new_players(server, "killed", 2)
    with write_watcher(url) as writing:
        before = counts(url)
        for point in ("players", "results", "commit"):
            one_worker.stop_at.write_text(point)
            outcome, open_then = post_and_kill(one_worker, body, writing)
            assert open_then, f"{point}: the report's transaction was not open when its worker was killed"
            assert "answer" not in outcome, (point, outcome)
            assert counts(url) == before, point
            assert count(url, "SELECT count(*) FROM players WHERE email LIKE 'killed%'") == 0
        one_worker.stop_at.write_text("")
        status, _headers, answer = server.request("POST", TOURNAMENTS, body, timeout=PATIENCE, **office)
        assert status == 201, answer
        assert count(url, "SELECT count(*) FROM players WHERE email LIKE 'killed%'") == NEW_PLAYERS
        stored = counts(url)
        one_worker.stop_at.write_text("committed")
        outcome, open_then = post_and_kill(one_worker, report_of_new_players(server, "late", 1), writing)
    assert not open_then and "answer" not in outcome, outcome
    assert count(url, "SELECT count(*) FROM players WHERE email LIKE 'late%'") == NEW_PLAYERS
    grown = {table: now - then for table, now, then in zip(TABLES, counts(url), stored, strict=True)}
    assert grown["tournaments"] == 1 and grown["results"] == NEW_PLAYERS + 1, grown


def test_a_chunked_body_over_the_limit_is_a_413(one_worker: Booted) -> None:
    """A body sent in chunks (no Content-Length) larger than the service takes is refused as a
    sized one is: 413, problem+json, nothing stored."""
    server, url = one_worker.server, one_worker.url
    before = count(url, "SELECT count(*) FROM regions")
    payload = json.dumps({"name": "N" * (MAX_BODY + 1000)}).encode()

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(payload), 64 * 1024):
            yield payload[start : start + 64 * 1024]

    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=PATIENCE)
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
    # What the server will not read at all is its own 414, before the service sees it: the one
    # client error the spec lists for GET /health (api/health/routes.py), which reads no query.
    assert server.request("GET", "/health?probe=1")[0] == 200
    assert server.request("GET", "/health?probe=" + "1" * 4100)[0] == 414
