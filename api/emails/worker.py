"""The delivery worker's email jobs (R23), with the app's configuration: each pass of
`flask --app app deliver` queues the week's missing digests, then sends the messages that are due
(`SMTP_URL`, `MAIL_FROM`; links to `PUBLIC_URL`, signed with `SECRET_KEY`)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

from flask import current_app
from sqlalchemy.orm import Session

from models.infra.clock import utcnow
from models.services.emails.digests import queue_digests
from models.services.emails.sending import Links, send_due_emails

# Where the links of a message lead when PUBLIC_URL is not set (a league tried on one machine).
DEFAULT_PUBLIC_URL = "http://localhost:5000"

Sessions = Callable[[], AbstractContextManager[Session]]


def links() -> Links:
    """How a message links back: signed with the app's secret, to its public address."""
    config = current_app.config
    return Links(str(config["SECRET_KEY"]), str(config.get("PUBLIC_URL") or DEFAULT_PUBLIC_URL))


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
