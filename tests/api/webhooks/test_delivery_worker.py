"""R23: the delivery worker as a process of its own (`flask --app app deliver`), on a database of
each backend. Reports are written through the API (one of them only a dry run, one refused):
each committed write leaves its events, the rolled-back ones none. The worker is killed (SIGKILL)
while the receiver holds its first delivery; a new worker, once the dead one's claim lapses,
delivers every event: each at least once, every one of them, and nothing else."""

from __future__ import annotations

import signal
import subprocess
import threading

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from app import create_app
from tests.support.league import Caller, League, new_key
from tests.support.receiver import receiver
from tests.support.servers import PATIENCE, delivery_worker, until

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
            second.send_signal(signal.SIGTERM)
            try:
                second.wait(PATIENCE)
            except subprocess.TimeoutExpired:
                second.kill()
    assert hook.ids() == set(events)  # every event, and no other (none of the rolled-back writes)
    assert len(hook.got) >= len(events)  # at least once: the held one came twice
    app.extensions["league_db"].engine.dispose()
