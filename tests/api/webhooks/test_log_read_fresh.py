"""R23: the office reads its webhooks' delivery log, and a player's consent, as they are (the
probe of issue 60), on a committed database of each backend (so PostgreSQL's triggers run at a
real commit), through HTTP and the delivery worker's command (`flask --app app deliver --once`).

The answers are read (and cached: the second read is a hit) before the worker's writes; then the
worker tries a receiver that fails until the subscription pauses itself, with no other write
meanwhile (the league's data version does not move); then the subscription and its log read
paused and failed, in the API and in the console. Likewise a consent read, then withdrawn by its
unsubscribe link, or deleted by a plain SQL script: the next read says so."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import time_machine
from flask import Flask
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from app import create_app
from models.infra.clock import utcnow
from models.rules.emails import unsubscribe_token
from tests.support.console import signed_in, text_of
from tests.support.databases import ScratchDatabases
from tests.support.league import Caller, new_key
from tests.support.receiver import receiver

HOOKS = "/api/v1/webhooks"


@pytest.fixture()
def league_db(backend: str, scratch: ScratchDatabases) -> Iterator[str]:
    url = scratch.migrated(backend)
    yield url
    scratch.discard(url)


@pytest.fixture()
def league_app(league_db: str, tmp_path: Path) -> Iterator[Flask]:
    """The app on its own committed database, its answers in a folder of its own; a subscription
    pauses after two failures in a row."""
    app = create_app(
        {
            "DATABASE_URL": league_db,
            "TESTING": True,
            "RATELIMIT_ENABLED": False,
            "CACHE_URL": "",
            "CACHE_DIR": str(tmp_path / "answers"),
            "WEBHOOKS_ALLOW_PRIVATE": True,
            "WEBHOOKS_PAUSE_AFTER": 2,
        }
    )
    yield app
    app.extensions["league_db"].engine.dispose()


def sql(url: str, statement: str, **values: Any) -> Any:
    """One statement on a connection of its own, committed (as a script would run it)."""
    engine = create_engine(make_url(url))
    try:
        with engine.begin() as conn:
            result = conn.execute(text(statement), values)
            return result.scalar() if result.returns_rows else None
    finally:
        engine.dispose()


def data_version(url: str) -> int:
    return int(sql(url, "SELECT version FROM data_version"))


def read(caller: Caller, path: str, cached: str | None = None) -> Any:
    """The answer (a 200); `cached`: what its X-Cache must say (a hit: served from the cache)."""
    answer = caller.get(path)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    if cached is not None:
        assert answer.headers.get("X-Cache") == cached, path
    return answer.get_json()


def deliver(app: Flask) -> str:
    result = app.test_cli_runner().invoke(args=["deliver", "--once"])
    assert result.exit_code == 0, result.output
    return str(result.output.splitlines()[-1])


def test_r23_a_subscription_the_worker_paused_and_its_failed_log_read_as_they_are(
    league_app: Flask, league_db: str
) -> None:
    office = Caller(league_app.test_client(), new_key(league_app, "office", name="Office: Probe"))
    with receiver(status=500) as down, time_machine.travel(utcnow(), tick=False) as clock:
        console = signed_in(league_app, office.key)
        made = office.post(HOOKS, json={"url": down.url, "events": ["webhook.ping"]})
        assert made.status_code == 201, made.get_json()
        hook = f"{HOOKS}/{made.get_json()['id']}"
        log, page = f"{hook}/deliveries", f"/console/webhooks/{made.get_json()['id']}"
        assert office.post(f"{hook}/ping").status_code == 202
        # Read (and cached) before the worker writes anything.
        for path in (HOOKS, hook, log):
            read(office, path)
            read(office, path, cached="hit")
        assert read(office, hook)["paused"] is False
        (entry,) = read(office, log)["items"]
        assert (entry["state"], entry["attempts"], entry["last_status"]) == ("pending", 0, None)
        assert "Paused" not in text_of(console.get(page))
        league = data_version(league_db)

        # The worker tries, and tries again when due, until the subscription pauses itself.
        for _ in range(5):
            deliver(league_app)
            if sql(league_db, f"SELECT paused FROM webhooks WHERE id = {made.get_json()['id']}"):
                break
            clock.shift(timedelta(minutes=2))
        assert len(down.got) == 2
        assert data_version(league_db) == league  # nothing else was written meanwhile

        subscription = read(office, hook, cached="miss")
        assert subscription["paused"] is True and subscription["failures_in_a_row"] == 2
        assert "2 failed deliveries in a row" in subscription["paused_reason"]
        assert [h["paused"] for h in read(office, HOOKS, cached="miss")["items"]] == [True]
        (entry,) = read(office, log, cached="miss")["items"]
        assert (entry["state"], entry["attempts"], entry["last_status"]) == ("pending", 2, 500)
        assert entry["last_error"].startswith("HTTP 500")
        shown = text_of(console.get(page))
        assert "Paused by the league after 2 failed deliveries" in shown and "HTTP 500" in shown


def test_r23_a_consent_withdrawn_by_its_link_or_by_any_write_reads_as_it_is(
    league_app: Flask, league_db: str
) -> None:
    office = Caller(league_app.test_client(), new_key(league_app, "office", name="Office: Probe"))
    made = office.post(
        "/api/v1/players",
        json={"full_name": "Ann Probe", "display_name": "Ann P.", "email": "ann@example.org"},
    )
    assert made.status_code == 201, made.get_json()
    player = made.get_json()["id"]
    consent = f"/api/v1/players/{player}/email-consent"
    assert office.put(consent).status_code == 200
    read(office, consent)
    assert read(office, consent, cached="hit")["consent"] is True

    given = sql(league_db, "SELECT given_at FROM email_consents WHERE player_id = :player", player=player)
    given = given if isinstance(given, datetime) else datetime.fromisoformat(str(given))
    token = unsubscribe_token(str(league_app.config["SECRET_KEY"]), player, utcnow(), given)
    clicked = league_app.test_client().post(f"/unsubscribe/{token}", data={"List-Unsubscribe": "One-Click"})
    assert clicked.status_code == 200
    assert read(office, consent, cached="miss")["consent"] is False

    # Given again and read; then deleted by a script, behind the service's back (no audit entry,
    # no data version moved): the next read says so too.
    assert office.put(consent).status_code == 200
    read(office, consent)
    assert read(office, consent, cached="hit")["consent"] is True
    league = data_version(league_db)
    sql(league_db, f"DELETE FROM email_consents WHERE player_id = {player}")
    assert data_version(league_db) == league
    assert read(office, consent, cached="miss")["consent"] is False
