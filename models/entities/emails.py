"""R23, email: a player's consent to the weekly email (who recorded it, when, and where they asked),
and each message composed for a player, pending until the delivery worker sends it (or gives it
up after a day of tries). The address is the player's own (`Player.email`), read as a message is
sent: neither table holds it. None of these tables moves the data version (migration 0031): the
worker's bookkeeping must not retire every cached answer, nor wait on the league's writers. A
consent is read by a cached answer, so every change to it moves the `outbox` scope (migration
0033); the messages are read by none."""

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
    source: Mapped[str] = mapped_column(String(20))  # a ConsentSource: door, office, online, other
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
    kind: Mapped[str] = mapped_column(String(20))  # models.rules.emails.DIGEST
    period: Mapped[str] = mapped_column(String(20))  # the ISO week of a digest: "2026-W51"
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    state: Mapped[str] = mapped_column(String(20), default="pending", server_default=text("'pending'"))
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    last_error: Mapped[str | None] = mapped_column(Text)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    leased_until: Mapped[datetime | None] = mapped_column(DateTime)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
