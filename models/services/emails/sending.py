"""R23: the delivery worker sends the messages that are due, as it sends webhooks: it claims them (a
lease, in its own short transaction: PostgreSQL's SKIP LOCKED lets several workers share the
work), hands each to the mail server outside any transaction, and records what happened: sent;
or failed, tried again with exponential backoff until a day has passed, then given up (at once
when the server refuses for good). Only messages of players who still want them and still have
an address are claimed: a digest, while they consent; a confirmation, while its link is unused.
Without `SMTP_URL` nothing is sent: the messages wait.

Every digest carries `List-Unsubscribe` (a signed link, `models/rules/emails.unsubscribe_token`,
naming the consent the message is sent under, R23: it withdraws that one only) and
`List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058): the mail program refuses all
further messages in one click, with no key. A confirmation carries its one-time link instead
(`models/rules/emails.confirm_token`): nothing is sent to the player again unless they use it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage as Mime
from email.utils import format_datetime, make_msgid, parseaddr

from sqlalchemy import and_, or_, select, update
from sqlalchemy.orm import Session

from models.entities import EmailConfirmation, EmailConsent, EmailMessage, Player
from models.infra import clock
from models.infra.clock import utcnow
from models.rules.emails import (
    CONFIRM,
    DIGEST,
    confirm_token,
    next_try,
    unsubscribe_token,
    with_confirm_link,
    with_footer,
)
from models.rules.people_dates import DateWords
from models.services import wall_clock
from models.services.emails.smtp import BadSmtpUrl, Handed, SmtpServer, hand_over, smtp_server

LEASE = timedelta(minutes=2)
BATCH = 20
log = logging.getLogger("league.emails")


@dataclass(frozen=True)
class Links:
    """How a message links back to the league: the app's secret (signing the unsubscribe
    tokens) and the public address of the service (`PUBLIC_URL`)."""

    secret: str
    public_url: str

    def unsubscribe_url(self, player_id: int, issued: datetime, consented: datetime) -> str:
        """R23: the link withdraws the consent the message is sent under (given at `consented`)."""
        token = unsubscribe_token(self.secret, player_id, issued, consented)
        return f"{self.public_url.rstrip('/')}/unsubscribe/{token}"

    def confirm_url(self, code: str, issued: datetime) -> str:
        return f"{self.public_url.rstrip('/')}/email/confirm/{confirm_token(self.secret, code, issued)}"


@dataclass(frozen=True)
class Claimed:
    message_id: int
    player_id: int
    to: str
    subject: str
    body: str
    given_at: datetime | None  # a digest's: when the player consented
    created: datetime
    words: DateWords  # R24: how the league says dates (the footer's), read when claimed
    kind: str = DIGEST
    # A confirmation's: the code of its one-time link, and when the link was made.
    code: str | None = None
    issued: datetime | None = None


def claim(session: Session, now: datetime, batch: int = BATCH) -> list[Claimed]:
    """Due messages of players who still want them (a digest: consent; a confirmation: its link
    unused), leased to this worker; committed by the caller."""
    wanted = or_(
        and_(EmailMessage.kind == DIGEST, EmailConsent.player_id.is_not(None)),
        and_(EmailMessage.kind == CONFIRM, EmailConfirmation.id.is_not(None)),
    )
    due = (
        select(EmailMessage.id)
        .join(Player, Player.id == EmailMessage.player_id)
        .outerjoin(EmailConsent, EmailConsent.player_id == EmailMessage.player_id)
        .outerjoin(EmailConfirmation, EmailConfirmation.message_id == EmailMessage.id)
        .where(
            EmailMessage.state == "pending",
            EmailMessage.next_attempt_at <= now,
            or_(EmailMessage.leased_until.is_(None), EmailMessage.leased_until < now),
            Player.email.is_not(None),
            wanted,
        )
        .order_by(EmailMessage.next_attempt_at, EmailMessage.id)
        .limit(batch)
    )
    if session.get_bind().dialect.name == "postgresql":
        due = due.with_for_update(of=EmailMessage, skip_locked=True)
    ids = list(session.scalars(due))
    if not ids:
        return []
    lease = now + LEASE
    session.execute(update(EmailMessage).where(EmailMessage.id.in_(ids)).values(leased_until=lease))
    words = wall_clock.people_dates(session)
    rows = session.execute(
        select(
            EmailMessage,
            Player.email,
            EmailConsent.given_at,
            EmailConfirmation.code,
            EmailConfirmation.created_at,
        )
        .join(Player, Player.id == EmailMessage.player_id)
        .outerjoin(EmailConsent, EmailConsent.player_id == EmailMessage.player_id)
        .outerjoin(EmailConfirmation, EmailConfirmation.message_id == EmailMessage.id)
        .where(EmailMessage.id.in_(ids))
        .order_by(EmailMessage.id)
    )
    return [
        Claimed(
            m.id, m.player_id, str(to), m.subject, m.body, given_at, m.created_at, words, m.kind, code, issued
        )
        for m, to, given_at, code, issued in rows
    ]


def mime_of(claimed: Claimed, mail_from: str, links: Links, now: datetime) -> Mime:
    """The message as it goes out: plain text; a digest with the one-click unsubscribe headers, a
    confirmation with its one-time link."""
    message = Mime()
    message["From"] = mail_from
    message["To"] = claimed.to
    message["Subject"] = claimed.subject
    message["Date"] = format_datetime(clock.now())
    domain = parseaddr(mail_from)[1].rpartition("@")[2] or "localhost"
    message["Message-ID"] = make_msgid(f"{claimed.kind}.{claimed.message_id}", domain=domain)
    message["Auto-Submitted"] = "auto-generated"
    if claimed.kind == CONFIRM and claimed.code is not None and claimed.issued is not None:
        message.set_content(with_confirm_link(claimed.body, links.confirm_url(claimed.code, claimed.issued)))
        return message
    url = links.unsubscribe_url(claimed.player_id, now, claimed.given_at or now)
    message["List-Unsubscribe"] = f"<{url}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    asked_on = claimed.words.local(claimed.given_at or now).date()  # on the league's clock (R2a)
    message.set_content(with_footer(claimed.body, url, asked_on, claimed.words))
    return message


def record_outcome(session: Session, claimed: Claimed, handed: Handed, now: datetime) -> None:
    """What a try did: sent; or given up (a permanent refusal, or a day of tries); or tried again
    later. A message deleted meanwhile (consent withdrawn, the player erased) is left alone."""
    message = session.get(EmailMessage, claimed.message_id)
    if message is None or message.state != "pending":
        return
    message.attempts += 1
    message.leased_until = None
    if handed.sent:
        message.state, message.sent_at, message.last_error = "sent", now, None
        return
    retry = None if handed.permanent else next_try(claimed.created, message.attempts, now)
    if retry is None:
        message.state = "gave_up"
        why = "refused for good" if handed.permanent else "tried for a day"
        message.last_error = f"{handed.error} (given up: {why})"
    else:
        message.last_error, message.next_attempt_at = handed.error, retry


def send_due_emails(
    sessions: Callable[[], AbstractContextManager[Session]],
    smtp_url: str,
    mail_from: str,
    now: Callable[[], datetime] = utcnow,
    *,
    links: Links,
) -> int:
    """One pass: claim, send, record; how many messages were tried. Without `smtp_url` (or with
    one this service cannot read, or no `mail_from`), nothing is sent: the messages wait."""
    if not smtp_url:
        return 0
    try:
        server: SmtpServer = smtp_server(smtp_url)
    except BadSmtpUrl as exc:
        log.error("No email sent: %s", exc)
        return 0
    if not parseaddr(mail_from)[1]:
        log.error("No email sent: set MAIL_FROM to the address the league's emails come from.")
        return 0
    with sessions() as session, session.begin():
        claimed = claim(session, now())
    for item in claimed:
        handed = hand_over(server, mime_of(item, mail_from, links, now()))
        with sessions() as session, session.begin():
            record_outcome(session, item, handed, now())
    return len(claimed)
