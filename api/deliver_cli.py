"""`flask --app app deliver`: the delivery worker (R23), a process of its own (scripts/serve starts
one beside the web server). Each pass sends the webhook deliveries that are due and tells of
sanctions that ended; between passes, every REFRESH_EVERY_SECONDS, it computes again the cached
answers that writes retired (api/cache/refresher.py). It runs until stopped (or once, `--once`).
Several workers may run at once on PostgreSQL (they share the work); on the embedded SQLite, run
one."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import click
from flask import current_app
from flask.cli import with_appcontext
from sqlalchemy.orm import Session

from api import db
from api.cache import refresher
from api.emails.worker import confirm_requests, queue_due_digests, send_emails
from models.infra.collection import settle_serving_process
from models.infra.db import SQLITE_WRITE_INTENT
from models.services.webhooks.delivery import Settings, deliver_due
from models.services.webhooks.sweeps import forget_old_events, tell_ended_sanctions


@contextmanager
def _session() -> Iterator[Session]:
    SQLITE_WRITE_INTENT.set(True)
    with db.database().sessionmaker() as session:
        yield session


def settings() -> Settings:
    config = current_app.config
    return Settings(
        allow_private=bool(config.get("WEBHOOKS_ALLOW_PRIVATE")),
        lease=timedelta(seconds=float(config.get("DELIVERY_LEASE_SECONDS", 120))),
        pause_after=int(config.get("WEBHOOKS_PAUSE_AFTER", 15)),
    )


def one_pass() -> int:
    """Everything due now, once: how many things were sent or told."""
    with _session() as session, session.begin():
        told = tell_ended_sanctions(session)
        forget_old_events(session)  # a month of events and their log is kept
    done = told + deliver_due(_session, settings())
    # R23: the weekly email (confirmations of those who asked for it, then the week's digests)
    return done + confirm_requests(_session) + queue_due_digests(_session) + send_emails(_session)


def refresh_pass() -> int:
    """The answers retired by the writes told since the last pass, computed again: how many
    events that was."""
    with db.reading() as session:
        events = refresher.waiting(session)
        if not events:
            return 0
        reads = refresher.reads_of(session, events)
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    if refresher.shared(app):
        refresher.refresh(app, refresher.read_lately(app, reads))
    # else each process keeps its own answers (an in-memory database): computing them here would
    # serve no one.
    with _session() as session, session.begin():
        refresher.mark(session, events)
    return len(events)


@click.command("deliver")
@click.option("--once", is_flag=True, help="One pass, then stop.")
@with_appcontext
def deliver(once: bool) -> None:
    """Send pending webhooks (R23), retried with backoff, and compute again the answers that
    writes retired, until stopped."""
    if not once:
        settle_serving_process()  # it computes and keeps the answers every worker reads
    every = float(current_app.config.get("DELIVER_EVERY_SECONDS", 2))
    refresh_every = float(current_app.config.get("REFRESH_EVERY_SECONDS", 0.2))
    next_delivery = 0.0
    while True:
        refreshed = refresh_pass()
        done = 0
        if once or time.monotonic() >= next_delivery:
            done = one_pass()
            next_delivery = time.monotonic() + (0 if done else every)
        if once:
            click.echo(f"{done} sent or told; {refreshed} changes' answers refreshed.")
            return
        if not refreshed and not done:
            time.sleep(refresh_every)
