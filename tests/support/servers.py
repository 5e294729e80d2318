"""Real servers for the tests: gunicorn serving the app on a database (the gunicorn of the running
interpreter, each server started on its own on a port the kernel picks), and the Redis at
127.0.0.1:6379 (database 15, or one per pytest-xdist worker)."""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from app import create_app
from tests.builders import OFFICE_LATE, SEASONS, TOURNAMENTS, ago
from tests.support.league import Caller, League, new_key

REPO = Path(__file__).resolve().parents[2]
# Redis database 15; under pytest-xdist one of its own for each worker (15, 14, ...), so that one
# worker's `cache reset` or erasure purge never drops answers another worker's test is looking at.
REDIS_URL = f"redis://127.0.0.1:6379/{15 - int(os.environ.get('PYTEST_XDIST_WORKER', 'gw0')[2:]) % 16}"
BANDS = [{"min_entrants": 2, "max_entrants": None, "points": [30, 20, 10]}]
# gunicorn of the interpreter running the tests (whatever its virtual environment is called).
GUNICORN = [sys.executable, "-m", "gunicorn"]
# How long a test waits for anything a server does (to come up, to answer, to stop, a worker to be
# replaced), in seconds: minutes, since a suite on two loaded cores can take a server tens of
# seconds to boot. A wait ends as soon as its condition holds; this only bounds a server that never
# gets there.
PATIENCE = 300.0


def redis_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), 1) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@dataclass(frozen=True)
class ServedLeague:
    """What `build_league` made: the office's key, the season, the venue, Ann and Bob."""

    office: str
    season_id: int
    venue_id: int
    ann: int
    bob: int


@dataclass(frozen=True)
class Server(ServedLeague):
    """A running gunicorn and the league it serves."""

    port: int
    access_log: Path  # one line per request: "<worker pid> <method> <path> <status>"

    def request(
        self, method: str, path: str, body: Any = None, *, timeout: float = PATIENCE, **headers: str
    ) -> tuple[int, dict[str, str], Any]:
        """One request on a fresh connection (so any worker may take it): status, headers, body."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            payload = None if body is None else json.dumps(body)
            if body is not None:
                headers["Content-Type"] = "application/json"
            conn.request(method, path, body=payload, headers={"Connection": "close", **headers})
            response = conn.getresponse()
            raw = response.read()
            parsed = (
                json.loads(raw) if raw and response.getheader("Content-Type", "").endswith("json") else raw
            )
            return response.status, {k.lower(): v for k, v in response.getheaders()}, parsed
        finally:
            conn.close()

    def write(self, method: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        status, _headers, answer = self.request(method, path, body, Authorization=f"Bearer {self.office}")
        assert status in (200, 201), (status, answer)
        data: dict[str, Any] = answer
        return data

    @property
    def standings(self) -> str:
        return f"{SEASONS}/{self.season_id}/venues/{self.venue_id}/standings"


def build_league(url: str) -> ServedLeague:
    """A region with one venue, a season running now with a 30/20/10 chart, Ann and Bob."""
    app = create_app({"DATABASE_URL": url, "TESTING": True, "RATELIMIT_ENABLED": False, "CACHE_URL": ""})
    office = new_key(app, "office", name="Office: Gunicorn")
    league = League(Caller(app.test_client(), office))
    region = league.region()
    chart = league.chart(kind="bands", bands=BANDS)
    season = league.season(
        region_ids=[region["id"]], starts_on=ago(60), ends_on=ago(-30), points_chart_id=chart["id"]
    )
    served = ServedLeague(
        office=office,
        season_id=season["id"],
        venue_id=league.venue(region["id"])["id"],
        ann=league.player("Ann Gunicorn", display_name="Ann")["id"],
        bob=league.player("Bob Gunicorn", display_name="Bob")["id"],
    )
    app.extensions["league_db"].engine.dispose()
    return served


LISTENING = re.compile(r"Listening at: http://127\.0\.0\.1:(\d+) ")


@contextmanager
def gunicorn(
    url: str, workers: int, tmp_path: Path, *options: str, league: ServedLeague | None = None, **env: str
) -> Iterator[tuple[Server, subprocess.Popen[bytes]]]:
    """gunicorn with `workers` workers serving `league` (by default one `build_league` makes) at
    `url`, until the block ends: (the server, gunicorn's master process). Its logs are in a folder of
    its own under tmp_path, so several may run at once."""
    served = league or build_league(url)
    logs = Path(tempfile.mkdtemp(prefix="gunicorn-", dir=tmp_path))
    access_log, error_log = logs / "access.log", logs / "error.log"
    environment = {**os.environ, "DATABASE_URL": url, "RATELIMIT_ENABLED": "0", "LOG_LEVEL": "WARNING", **env}
    # Port 0: the kernel gives a free one (gunicorn logs which), so no other process can take it first.
    command = [*GUNICORN, "-w", str(workers), "-b", "127.0.0.1:0"]
    command += ["--access-logfile", str(access_log), "--access-logformat", "%(p)s %(m)s %(U)s %(s)s"]
    # A worker busy (or frozen by a test) is not killed for it before PATIENCE: the test decides.
    command += ["--timeout", str(int(PATIENCE))]
    # Stopped at the end of its block, a worker does not wait the default 30 s for the keep-alive
    # connections a browser of the test still holds open: no test's request outlives its block.
    command += ["--graceful-timeout", "1"]
    command += ["--error-logfile", str(error_log), *options]
    # Not the one control socket every gunicorn of this user shares by default.
    command += ["--no-control-socket", "app:create_app()"]
    quiet = subprocess.DEVNULL
    process = subprocess.Popen(command, cwd=REPO, env=environment, stdout=quiet, stderr=quiet)
    try:
        yield until_up(process, served, workers, error_log, access_log), process
    finally:
        stop(process)  # its workers finish what they answer within --graceful-timeout


def stop(process: subprocess.Popen[bytes]) -> None:
    """How the tests stop a process they started (gunicorn, the delivery worker, scripts/serve):
    SIGTERM, waited for up to PATIENCE, then SIGKILL. Never SIGINT: a shell that runs the suite in
    the background starts it with SIGINT ignored, its children inherit that, and a process
    that has not yet set its own handler (one still starting) would ignore it and be waited for
    until PATIENCE. SIGTERM is never ignored so, and every process we start obeys it at once."""
    if process.poll() is None:
        process.terminate()
    try:
        process.wait(PATIENCE)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(PATIENCE)


def until_up(
    process: subprocess.Popen[bytes], served: ServedLeague, workers: int, error_log: Path, access_log: Path
) -> Server:
    """Waits for gunicorn to be up: listening, its workers booted, and /health answered (each probe
    as patient as any request). Polls the condition, up to PATIENCE; fails at once if gunicorn
    exits."""
    deadline = time.monotonic() + PATIENCE
    while True:
        assert process.poll() is None, error_log.read_text()
        log = error_log.read_text() if error_log.exists() else ""
        port = LISTENING.search(log)
        if port and log.count("Booting worker") >= workers:
            server = Server(**asdict(served), port=int(port.group(1)), access_log=access_log)
            try:
                if server.request("GET", "/health")[0] == 200:
                    return server
            except (OSError, http.client.HTTPException):
                pass
        assert time.monotonic() < deadline, f"gunicorn did not start in {PATIENCE:.0f} s: {log}"
        time.sleep(0.1)  # the poll's interval, not a wait for anything


def until(condition: Any, what: str) -> None:
    """Polls the condition until it holds, up to PATIENCE; fails saying what did not happen."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, f"not within {PATIENCE:.0f} s: {what}"
        time.sleep(0.1)  # the poll's interval, not a wait for anything


def delivery_worker(url: str, **env: str) -> subprocess.Popen[bytes]:
    """The delivery worker (`flask --app app deliver`, R23) on the database at `url`: private
    receivers allowed, claims that lapse after 3 s, a pass every 0.2 s (`env` overrides these).
    Stop it with `stop` (SIGTERM)."""
    environment = {
        **os.environ,
        "DATABASE_URL": url,
        "WEBHOOKS_ALLOW_PRIVATE": "1",
        "DELIVERY_LEASE_SECONDS": "3",
        "DELIVER_EVERY_SECONDS": "0.2",
        "LOG_LEVEL": "WARNING",
        **env,
    }
    command = [sys.executable, "-m", "flask", "--app", "app", "deliver"]
    quiet = subprocess.DEVNULL
    return subprocess.Popen(command, cwd=REPO, env=environment, stdout=quiet, stderr=quiet)


def workers_of(master: int) -> list[int]:
    """The processes gunicorn's master has started (its workers)."""
    children: list[int] = []
    for task in Path(f"/proc/{master}/task").iterdir():
        children += [int(pid) for pid in (task / "children").read_text().split()]
    return children


def post_a_report(server: Server, day: int) -> Any:
    """The office reports Ann 1st and Bob 2nd `day` days ago at the served venue; the stored report."""
    body = {
        "venue_id": server.venue_id,
        "date": ago(day),
        "results": [{"place": 1, "player_id": server.ann}, {"place": 2, "player_id": server.bob}],
        "reason": OFFICE_LATE,
    }
    status, _headers, answer = server.request(
        "POST", TOURNAMENTS, body, Authorization=f"Bearer {server.office}"
    )
    assert status == 201, answer
    return answer
