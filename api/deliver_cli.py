"""`flask --app app deliver`: the delivery worker (R23), a process of its own. Each pass sends the
webhook deliveries that are due and tells of sanctions that ended; it runs until stopped (or
once, `--once`). Several workers may run at once on PostgreSQL (they share the work); on the
embedded SQLite, run one."""

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
from api.emails.worker import queue_due_digests, send_emails
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
    return done + queue_due_digests(_session) + send_emails(_session)  # R23: the weekly email


@click.command("deliver")
@click.option("--once", is_flag=True, help="One pass, then stop.")
@with_appcontext
def deliver(once: bool) -> None:
    """Send pending webhooks (R23), retried with backoff, until stopped."""
    every = float(current_app.config.get("DELIVER_EVERY_SECONDS", 2))
    while True:
        done = one_pass()
        if once:
            click.echo(f"{done} sent or told.")
            return
        if not done:
            time.sleep(every)
