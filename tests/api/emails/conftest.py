"""Fixtures of the weekly email's tests (R23): a real SMTP server in the test process (aiosmtpd,
on 127.0.0.1 and a free port), the delivery worker's jobs run on the test's database (confirming
requests to subscribe, queueing digests, sending), and the moment the week's digests are due."""

from __future__ import annotations

import email
import email.policy
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from flask import Flask
from sqlalchemy.orm import Session

from api.emails.worker import confirm_requests
from models.services.emails.digests import queue_digests
from models.services.emails.sending import Links, send_due_emails

PUBLIC_URL = "https://league.example"
MAIL_FROM = "League <weekly@league.example>"


@dataclass
class Inbox:
    """What the server received, each message parsed; `refuse` makes it refuse recipients."""

    received: list[EmailMessage] = field(default_factory=list)
    envelopes: list[tuple[str, list[str]]] = field(default_factory=list)
    refuse: str | None = None

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:  # noqa: N802
        if self.refuse:
            return self.refuse
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        self.received.append(message)
        self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        return "250 Message accepted"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Smtp:
    url: str
    inbox: Inbox


@pytest.fixture()
def smtp() -> Iterator[Smtp]:
    """A real SMTP server, stopped after the test."""
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield Smtp(f"smtp://127.0.0.1:{port}", inbox)
    finally:
        controller.stop()


@pytest.fixture()
def monday() -> datetime:
    """A moment this week's digests are due (naive UTC, the league's zone in the tests): now,
    unless now is a Monday before 08:00, then 08:05 that Monday."""
    now = datetime.now(UTC).replace(tzinfo=None)
    due = datetime.combine(now.date() - timedelta(days=now.weekday()), time(8, 5))
    return max(now, due)


@dataclass
class Worker:
    """The delivery worker's email jobs on the test's database, at a moment the test chooses."""

    app: Flask

    @contextmanager
    def sessions(self) -> Iterator[Session]:
        with self.app.extensions["league_db"].sessionmaker() as session:
            yield session

    def confirm(self, at: datetime) -> int:
        """The worker's first job: the requests to subscribe taken, their confirmations queued."""
        return confirm_requests(self.sessions, lambda: at)

    def queue(self, at: datetime) -> int:
        with self.sessions() as session, session.begin():
            return queue_digests(session, at)

    def send(self, smtp_url: str, at: datetime, mail_from: str = MAIL_FROM) -> int:
        links = Links(str(self.app.config["SECRET_KEY"]), PUBLIC_URL)
        when: Callable[[], datetime] = lambda: at  # noqa: E731
        return send_due_emails(self.sessions, smtp_url, mail_from, when, links=links)


@pytest.fixture()
def worker(app: Flask) -> Worker:
    return Worker(app)
