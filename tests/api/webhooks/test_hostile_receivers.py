"""R23: a receiver can neither swell nor hold the delivery worker (`flask --app app deliver`, a
process of its own, on a database of each backend). One answers 500 with 300 MB made as it is
sent: the worker reads a few KB of it, hangs up, records why, and its peak memory stays small.
One trickles its answer a byte every 3 s for minutes: while it trickles, another subscription's
event reaches a healthy receiver and the answers' refresh goes on; then the worker gives up on
it at its deadline and records why. SIGTERM stops the worker cleanly."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from api.cache.filings import DiskFilings
from api.cache.stores import answers_directory
from app import create_app
from models.freshness.bumps import Mark, bumped_since
from tests.support.league import Caller, new_key
from tests.support.receiver import hostile_receiver, huge_answer, receiver, trickle
from tests.support.servers import PATIENCE, delivery_worker, stop, until

pytestmark = pytest.mark.server

HOOKS = "/api/v1/webhooks"
MB = 1024 * 1024
# The worker's peak resident memory may not pass this (it is about 130 MB once started).
MOST_MEMORY = 200 * MB
# Each delivery's deadline in these tests: long enough that the healthy receiver's event, sent
# while the trickle holds its own delivery, is never late for it on a loaded machine.
DEADLINE = 30


def peak_memory(pid: int) -> int:
    """The process's peak resident memory so far (VmHWM), in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmHWM for process {pid}")


@contextmanager
def worker(url: str) -> Iterator[subprocess.Popen[bytes]]:
    """The worker, with every delivery's lease longer than its deadline; stopped by SIGTERM,
    which it must obey at once and cleanly (threads keep no process alive)."""
    process = delivery_worker(url, WEBHOOK_DEADLINE_SECONDS=str(DEADLINE), DELIVERY_LEASE_SECONDS="120")
    try:
        yield process
    finally:
        stop(process)  # SIGTERM


def stopped_cleanly(process: subprocess.Popen[bytes]) -> None:
    assert process.returncode == 0, f"the worker did not stop cleanly on SIGTERM: {process.returncode}"


@pytest.fixture()
def league_office(league_db: str) -> Iterator[Caller]:
    app: Flask = create_app(
        {
            "DATABASE_URL": league_db,
            "TESTING": True,
            "RATELIMIT_ENABLED": False,
            "WEBHOOKS_ALLOW_PRIVATE": True,
        }
    )
    yield Caller(app.test_client(), new_key(app, "office"))
    app.extensions["league_db"].engine.dispose()


def subscribe(office: Caller, url: str) -> int:
    made = office.post(HOOKS, json={"url": url, "events": ["webhook.ping"]})
    assert made.status_code == 201, made.get_json()
    return int(made.get_json()["id"])


def ping(office: Caller, webhook: int) -> None:
    assert office.post(f"{HOOKS}/{webhook}/ping").status_code == 202


def read(url: str, sql: str, **params: Any) -> list[Any]:
    """Rows read straight from the database: the API's answers are cached by the data version,
    which the worker's bookkeeping does not move."""
    engine = create_engine(make_url(url))
    try:
        with engine.connect() as conn:
            return list(conn.execute(text(sql), params))
    finally:
        engine.dispose()


def last_try(url: str, webhook: int) -> dict[str, Any]:
    """The subscription's one delivery, as its log holds it."""
    (row,) = read(
        url,
        "SELECT state, attempts, last_status, last_error FROM webhook_deliveries WHERE webhook_id = :id",
        id=webhook,
    )
    return dict(row._mapping)


def tried(url: str, webhook: int) -> bool:
    return int(last_try(url, webhook)["attempts"]) >= 1


def waiting_to_refresh(url: str) -> int:
    """Scopes bumped that the worker's refresher has not yet passed (its mark, kept in the
    answers' directory beside the database)."""
    directory = answers_directory({"DATABASE_URL": url})
    mark = Mark.loads(None if directory is None else DiskFilings(directory).mark())
    engine = create_engine(make_url(url))
    try:
        with engine.connect() as conn, conn.begin():
            return len(bumped_since(conn, mark)[0])
    finally:
        engine.dispose()


def test_r23_a_huge_answer_does_not_swell_the_worker(league_db: str, league_office: Caller) -> None:
    """R23: a 500 of 300 MB is read a few KB deep, the worker hangs up, the log says why, and the
    worker's peak memory stays under 200 MB."""
    with hostile_receiver(huge_answer(300 * MB)) as huge, worker(league_db) as process:
        hook = subscribe(league_office, huge.url)
        ping(league_office, hook)
        until(huge.answered.is_set, "the huge answer sent, or the worker hung up on it")
        until(lambda: tried(league_db, hook), "the huge answer's failure recorded")
        peak = peak_memory(process.pid)
        entry = last_try(league_db, hook)
    print(
        f"huge answer: the worker's peak memory {peak / MB:.0f} MB; "
        f"{huge.sent / MB:.1f} MB sent before it hung up"
    )
    assert (entry["state"], entry["last_status"]) == ("pending", 500)  # tried again later
    assert "answer too large: stopped after 4 KB" in entry["last_error"]
    assert peak < MOST_MEMORY, f"the worker's peak memory: {peak / MB:.0f} MB"
    assert huge.hung_up.is_set() and huge.sent < 300 * MB
    stopped_cleanly(process)


def test_r23_a_trickling_receiver_holds_no_one_else_and_only_until_its_deadline(
    league_db: str, league_office: Caller
) -> None:
    """R23: while one receiver trickles its answer (a byte every 3 s, for minutes), another
    subscription's event reaches a healthy receiver and the answers' refresh goes on; the
    trickle is cut at the delivery's deadline, and the log says so."""
    with (
        hostile_receiver(trickle(every=3, longest=PATIENCE)) as slow,
        receiver() as healthy,
        worker(league_db) as process,
    ):
        slow_hook, healthy_hook = subscribe(league_office, slow.url), subscribe(league_office, healthy.url)
        ping(league_office, slow_hook)
        until(slow.asked.is_set, "the trickling receiver was sent its event")
        pinged = time.monotonic()
        ping(league_office, healthy_hook)
        until(lambda: len(healthy.got) == 1, "the healthy receiver got its event")
        arrived = time.monotonic() - pinged
        still_trickling = not slow.hung_up.is_set()
        until(lambda: waiting_to_refresh(league_db) == 0, "the answers refreshed")
        refreshed_while_trickling = not slow.hung_up.is_set()
        until(lambda: tried(league_db, healthy_hook), "the healthy delivery recorded")
        until(slow.hung_up.is_set, "the worker hung up on the trickle")
        until(lambda: tried(league_db, slow_hook), "the trickle's failure recorded")
        entry = last_try(league_db, slow_hook)
        peak = peak_memory(process.pid)
    print(
        f"trickle: the healthy event arrived {arrived:.2f} s after its ping; "
        f"the trickle held {slow.held:.1f} s"
    )
    assert still_trickling, "the healthy event waited for the trickling receiver"
    assert refreshed_while_trickling, "the answers' refresh waited for the trickling receiver"
    assert last_try(league_db, healthy_hook)["state"] == "delivered"
    assert (entry["state"], entry["last_status"]) == ("pending", None)
    assert f"no full answer within {DEADLINE} s" in entry["last_error"]
    assert peak < MOST_MEMORY
    stopped_cleanly(process)
