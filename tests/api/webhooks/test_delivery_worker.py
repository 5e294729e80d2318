"""R23: the delivery worker as a process of its own (`flask --app app deliver`), on a database of
each backend. Reports are written through the API (one of them only a dry run, one refused):
each committed write leaves its events, the rolled-back ones none. The worker is killed (SIGKILL)
while the receiver holds its first delivery; a new worker, once the dead one's claim lapses,
delivers every event: each at least once, every one of them, and nothing else."""

from __future__ import annotations

import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from app import create_app
from tests.support.league import Caller, League, new_key
from tests.support.receiver import receiver
from tests.support.servers import PATIENCE, delivery_worker, stop, until

pytestmark = pytest.mark.server


def told_events(url: str) -> dict[str, str]:
    engine = create_engine(make_url(url))
    try:
        with engine.connect() as conn:
            return {row[0]: row[1] for row in conn.execute(text("SELECT event_id, kind FROM outbox_events"))}
    finally:
        engine.dispose()


def delivery_states(url: str) -> dict[str, int]:
    engine = create_engine(make_url(url))
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT state, COUNT(*) FROM webhook_deliveries GROUP BY state")).all()
    finally:
        engine.dispose()
    return {str(state): int(count) for state, count in rows}


def test_r23_a_worker_killed_mid_send_loses_nothing_and_a_rolled_back_write_tells_nothing(
    league_db: str,
) -> None:
    app = create_app(
        {
            "DATABASE_URL": league_db,
            "TESTING": True,
            "RATELIMIT_ENABLED": False,
            "WEBHOOKS_ALLOW_PRIVATE": True,
        }
    )
    office = Caller(app.test_client(), new_key(app, "office"))
    league = League(office)
    venue = league.venue()
    league.season(starts_on="2026-01-01", ends_on="2027-12-31")
    players = [league.player()["id"] for _ in range(4)]
    hold = threading.Event()
    with receiver(hold_first=hold) as hook:
        made = office.post(
            "/api/v1/webhooks", json={"url": hook.url, "events": ["report.posted", "standings.changed"]}
        )
        assert made.status_code == 201, made.get_json()
        bodies = [
            {
                "venue_id": venue["id"],
                "date": f"2026-11-{day:02d}",
                "results": [{"place": n, "player_id": p} for n, p in enumerate(players, start=1)],
                "reason": "Entered by the office.",
            }
            for day in (10, 11, 12)
        ]
        for body in bodies:
            assert office.post("/api/v1/tournaments", json=body).status_code == 201
        # Rolled back: a dry run (the whole write, in a savepoint undone), and a refused report.
        assert (
            office.post("/api/v1/tournaments?dry_run=1", json={**bodies[0], "date": "2026-11-13"}).status_code
            == 200
        )
        refused = {**bodies[0], "date": "2026-11-14", "results": [{"place": 1, "player_id": players[0]}] * 2}
        assert office.post("/api/v1/tournaments", json=refused).status_code == 422
        events = told_events(league_db)
        assert sorted(events.values()) == ["report.posted"] * 3 + ["standings.changed"] * 3

        first = delivery_worker(league_db)
        try:
            until(hook.first_arrived.is_set, "the first delivery reached the receiver")
            first.send_signal(signal.SIGKILL)  # mid-send: the receiver still holds it
            first.wait(PATIENCE)
        finally:
            if first.poll() is None:
                first.kill()
        hold.set()
        second = delivery_worker(league_db)
        try:
            until(lambda: hook.ids() >= set(events), "every event delivered after the restart")
            # The last one's outcome is recorded just after the receiver answered it.
            until(lambda: delivery_states(league_db) == {"delivered": len(events)}, "every delivery recorded")
        finally:
            stop(second)  # SIGTERM
    assert hook.ids() == set(events)  # every event, and no other (none of the rolled-back writes)
    assert len(hook.got) >= len(events)  # at least once: the held one came twice
    app.extensions["league_db"].engine.dispose()


def signal_mask(pid: int, field: str) -> int:
    """A process's signals as /proc/<pid>/status lists them (SigIgn: ignored, SigCgt: handled)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1], 16)
    raise AssertionError(f"no {field} for process {pid}")


def sets(mask: int, number: int) -> bool:
    return bool(mask >> (number - 1) & 1)


def started_ignoring_sigint(url: str) -> subprocess.Popen[bytes]:
    """The worker as the suite starts it, from a test run that ignores SIGINT, as a shell runs a
    background job (`./scripts/test &`): the worker inherits that until it sets its own handler."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return delivery_worker(url)
    finally:
        signal.signal(signal.SIGINT, previous)


def test_r23_the_suite_stops_a_worker_with_sigterm_at_once_where_sigint_is_ignored(league_db: str) -> None:
    """The tests stop what they start with SIGTERM (tests/support/servers.stop), never SIGINT,
    which a background shell has every child ignore: a worker still starting (no handler of its
    own yet) would never see a SIGINT and be waited for until PATIENCE. SIGTERM stops it at once,
    starting or running; running, it lets go what it was sending and ends cleanly."""
    quickly = 60.0  # seconds: well under PATIENCE, which a missed signal would wait out
    for running in (False, True):
        worker = started_ignoring_sigint(league_db)
        try:
            assert sets(signal_mask(worker.pid, "SigIgn"), signal.SIGINT)
            if running:
                until(
                    lambda: sets(signal_mask(worker.pid, "SigCgt"), signal.SIGTERM),  # noqa: B023
                    "the worker handles SIGTERM (its loop runs)",
                )
            began = time.monotonic()
            stop(worker)
            took = time.monotonic() - began
        finally:
            if worker.poll() is None:
                worker.kill()
                worker.wait(PATIENCE)
        assert took < quickly, f"stopping the {'running' if running else 'starting'} worker took {took:.0f} s"
        if running:
            assert worker.returncode == 0, worker.returncode
