"""R23, email: a player's consent to the weekly email (who recorded it, when, and where they asked),
and each message composed for a player, pending until the delivery worker sends it (or gives it
up after a day of tries), the requests to subscribe an address (held until the worker's next pass)
and the one-time links that confirm them. The address is the player's own (`Player.email`), read
as a message is sent: only a request holds one, briefly. None of these tables moves the data
version (migrations 0031, 0035): the worker's bookkeeping must not retire every cached answer, nor
wait on the league's writers. A consent is read by a cached answer, so every change to it moves
the `outbox` scope (migration 0033); the messages, requests and links are read by none."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String, Text, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column

from models.entities.base import Base
from models.infra.clock import utcnow

EMAIL_STATES = ("pending", "sent", "gave_up")


class EmailConsent(Base):
    """A player asked for the weekly email: one row while they want it (withdrawing deletes it,
    and the audit log keeps both acts, R18). Erasure deletes it (R21)."""

    __tablename__ = "email_consents"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    source: Mapped[str] = mapped_column(String(20))  # a ConsentSource: door, office, online, other, self
    given_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    given_by: Mapped[str] = mapped_column(String(120))  # the key's name (a host, the office)
    given_by_key_id: Mapped[int | None] = mapped_column(Integer)


class EmailMessage(Base):
    """One message to one player: composed once per player and period (the unique key: a week's
    digest is queued once, whichever worker composes it), then pending until sent or given up,
    with its tries. `leased_until` is a worker's claim while it sends: a worker killed mid-send
    leaves it to lapse, and the message is sent again."""

    __tablename__ = "email_messages"
    __table_args__ = (
        UniqueConstraint("player_id", "kind", "period"),
        Index("ix_email_messages_due", "state", "next_attempt_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(20))  # models.rules.emails: DIGEST or CONFIRM
    # The ISO week of a digest ("2026-W51"); the league's day of a confirmation ("2026-12-19"):
    # a player is sent at most one confirmation a day, however many ask.
    period: Mapped[str] = mapped_column(String(20))
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    state: Mapped[str] = mapped_column(String(20), default="pending", server_default=text("'pending'"))
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    last_error: Mapped[str | None] = mapped_column(Text)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    leased_until: Mapped[datetime | None] = mapped_column(DateTime)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class EmailSubscriptionRequest(Base):
    """R19, R23: someone asked for the weekly email for this address (`POST
    /api/v1/email-subscriptions`, or the page /email/subscribe). Every request is stored alike,
    whether or not the address is a player's: nothing is looked up while it is answered. The
    delivery worker's next pass takes it away (`take_requests`) and, when the address is a
    player's, queues a confirmation: an address that names no one is kept no longer than that."""

    __tablename__ = "email_subscription_requests"

    id: Mapped[int] = mapped_column(primary_key=True)
    address: Mapped[str] = mapped_column(String(254))  # as normalised: trimmed, lower case
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class EmailConfirmation(Base):
    """R23: a one-time link sent to a player (in the message `message_id`) to confirm that they
    want the weekly email. The link is signed and names `code` (random, 128 bits); using it
    deletes the row (a second use finds nothing), as do the player's erasure (R21) and, after
    seven days, the worker."""

    __tablename__ = "email_confirmations"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("email_messages.id", ondelete="CASCADE"), unique=True)
    code: Mapped[str] = mapped_column(String(32), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
