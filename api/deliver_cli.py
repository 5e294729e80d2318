"""`flask --app app deliver`: the delivery worker (R23), a process of its own (scripts/serve starts
one beside the web server). It sends the webhook deliveries that are due, and tells of sanctions
that ended and sends the weekly emails, every DELIVER_EVERY_SECONDS; on a thread of its own,
every REFRESH_EVERY_SECONDS, it computes again the cached answers that writes retired
(api/cache/refresher.py). Webhooks are sent on a bounded pool of threads, one delivery at a time
per subscription, each within WEBHOOK_DEADLINE_SECONDS (models/services/webhooks/delivery.py): a
slow receiver holds up neither the other receivers, nor the emails, nor the answers. It runs
until stopped (SIGTERM or SIGINT: what was sent is recorded, what was being sent is let go and
sent again), or once (`--once`). Several workers may run at once on PostgreSQL (they share the
work); on the embedded SQLite, run one."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from types import FrameType

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from sqlalchemy.orm import Session

from api import db
from api.cache import refresher
from api.emails.worker import confirm_requests, queue_due_digests, send_emails
from models.infra.collection import settle_serving_process
from models.infra.db import SQLITE_WRITE_INTENT
from models.services.webhooks.delivery import Deliveries, Settings, deliver_due
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
        deadline=float(config.get("WEBHOOK_DEADLINE_SECONDS", 10)),
        at_once=int(config.get("WEBHOOKS_AT_ONCE", 8)),
    )


def sweep() -> int:
    """Sanctions that ended told (their deliveries are then due): how many."""
    with _session() as session, session.begin():
        told = tell_ended_sanctions(session)
        forget_old_events(session)  # a month of events and their log is kept
    return told


def emails() -> int:
    """R23: the confirmations of those who asked for the weekly email, the week's digests
    queued, and the emails that are due sent: how many."""
    return confirm_requests(_session) + queue_due_digests(_session) + send_emails(_session)


def one_pass() -> int:
    """Everything due now, once: how many things were sent or told."""
    told = sweep()
    return told + deliver_due(_session, settings()) + emails()


def refresh_pass() -> int:
    """The answers read lately of the scopes bumped since the last pass, computed again: how many
    were computed."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    if not refresher.shared(app):
        # Each process keeps its own answers (an in-memory database): computing them here would
        # serve no one.
        return 0
    with db.reading() as session:
        scopes, mark = refresher.bumped(app, session.connection())
    computed = refresher.refresh(app, refresher.rereads(app, scopes)) if scopes else 0
    refresher.keep(app, mark)
    return computed


class Refresher(threading.Thread):
    """refresh_pass every REFRESH_EVERY_SECONDS (at once again after a pass that found work), on
    a thread of its own, so that no delivery delays it. A daemon: it keeps no stopping process
    alive (an interrupted refresh is done at the next start: its mark is kept after it). A
    failure stops the worker, as it would in one thread."""

    def __init__(self, app: Flask, every: float, failing: Callable[[], None]) -> None:
        super().__init__(name="answers refresher", daemon=True)
        self.app, self.every, self.failing = app, every, failing
        self.stopping = threading.Event()
        self.failure: BaseException | None = None

    def run(self) -> None:
        with self.app.app_context():
            while not self.stopping.is_set():
                try:
                    refreshed = refresh_pass()
                except BaseException as exc:  # noqa: BLE001 - handed to the main thread, which stops
                    self.failure = exc
                    self.failing()
                    return
                if not refreshed:
                    self.stopping.wait(self.every)


def run_until_stopped(every: float, refresh_every: float) -> None:
    """Deliveries, chores and the refresher until SIGTERM or SIGINT."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    stop: list[int] = []  # the signal that asked to stop
    with Deliveries(_session, settings()) as deliveries:

        def stopped(number: int, _frame: FrameType | None) -> None:
            stop.append(number)
            deliveries.senders.wake()  # safe in a signal handler

        previous = {sig: signal.signal(sig, stopped) for sig in (signal.SIGTERM, signal.SIGINT)}
        answers = Refresher(app, refresh_every, deliveries.senders.wake)
        answers.start()
        try:
            next_chores = next_claim = 0.0
            while not stop:
                if answers.failure is not None:
                    raise answers.failure
                if time.monotonic() >= next_chores:
                    told = sweep()
                    done = told + emails()
                    next_chores = time.monotonic() + (0 if done else every)
                    next_claim = 0 if told else next_claim  # a sanction told: its deliveries are due
                if deliveries.senders.room and time.monotonic() >= next_claim:
                    started = deliveries.start_due()
                    # Room left after starting some: other subscriptions may have some due.
                    next_claim = time.monotonic() + (0 if started and deliveries.senders.room else every)
                waits = [next_chores] + ([next_claim] if deliveries.senders.room else [])
                if deliveries.record_finished(wait=min(waits) - time.monotonic()):
                    next_claim = 0  # a subscription that finished one may have more due
            deliveries.let_go()
        finally:
            answers.stopping.set()
            for sig, handler in previous.items():
                signal.signal(sig, handler)


@click.command("deliver")
@click.option("--once", is_flag=True, help="One pass, then stop.")
@with_appcontext
def deliver(once: bool) -> None:
    """Send pending webhooks (R23), retried with backoff, and compute again the answers that
    writes retired, until stopped."""
    if once:
        refreshed = refresh_pass()
        done = one_pass()
        click.echo(f"{done} sent or told; {refreshed} answers refreshed.")
        return
    settle_serving_process()  # it computes and keeps the answers every worker reads
    every = float(current_app.config.get("DELIVER_EVERY_SECONDS", 2))
    refresh_every = float(current_app.config.get("REFRESH_EVERY_SECONDS", 0.2))
    run_until_stopped(every, refresh_every)
