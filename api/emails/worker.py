"""The delivery worker's email jobs (R23), with the app's configuration: each pass of
`flask --app app deliver` takes the requests to subscribe and queues their confirmations (R19:
the known/unknown decision is made here, never while a request is answered), queues the week's
missing digests, then sends the messages that are due (`SMTP_URL`, `MAIL_FROM`; links to
`PUBLIC_URL`, signed with `SECRET_KEY`)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime

from flask import current_app
from sqlalchemy.orm import Session

from models.infra.clock import utcnow
from models.services.emails.digests import queue_digests
from models.services.emails.sending import Links, send_due_emails
from models.services.emails.subscriptions import forget_old_confirmations, queue_confirmations, take_requests

# Where the links of a message lead when PUBLIC_URL is not set (a league tried on one machine).
DEFAULT_PUBLIC_URL = "http://localhost:5000"

Sessions = Callable[[], AbstractContextManager[Session]]


def links() -> Links:
    """How a message links back: signed with the app's secret, to its public address."""
    config = current_app.config
    return Links(str(config["SECRET_KEY"]), str(config.get("PUBLIC_URL") or DEFAULT_PUBLIC_URL))


def confirm_requests(sessions: Sessions, now: Callable[[], datetime] = utcnow) -> int:
    """R19, R23: the requests to subscribe, taken away in one short transaction (an address that
    names no one is kept no longer), then a confirmation queued for each that is a player's, in
    another; links past their days forgotten. How many confirmations were queued."""
    with sessions() as session, session.begin():
        forget_old_confirmations(session, now())
        addresses = take_requests(session)
    if not addresses:
        return 0
    with sessions() as session, session.begin():
        return queue_confirmations(session, addresses, now())


def queue_due_digests(sessions: Sessions) -> int:
    """This week's digests that are due and missing, composed in one short transaction."""
    with sessions() as session, session.begin():
        return queue_digests(session, utcnow())


def send_emails(sessions: Sessions) -> int:
    """The messages that are due, sent; none without SMTP_URL (they wait)."""
    config = current_app.config
    return send_due_emails(
        sessions, str(config.get("SMTP_URL") or ""), str(config.get("MAIL_FROM") or ""), links=links()
    )
