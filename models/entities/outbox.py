"""Telling other systems (R23): the transactional outbox, the office's webhook subscriptions and
each delivery of an event to a subscription. An event is written in the same transaction as the
change it tells of (a rolled-back change leaves none); its deliveries are made with it, one per
subscription that wants it, and a worker sends them after the commit, at least once, retried
with backoff. None of these tables moves the data version: the worker's bookkeeping must not
retire every cached answer, nor wait on the league's writers (migration 0030). The office's
answers read them, so every change to them moves the `outbox` scope instead, at the commit
(migration 0033)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from models.entities.base import Base
from models.infra.clock import utcnow

WEBHOOK_FORMATS = ("json", "discord", "slack")
DELIVERY_STATES = ("pending", "delivered", "gave_up")


class OutboxEvent(Base):
    """One change others may want to know of, as it was committed: its kind, what it is about
    (ids and versions, `data`), and where (a venue, its region) for subscriptions that filter."""

    __tablename__ = "outbox_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    # The id a receiver sees (`webhook-id`): the same on every retry of the event.
    event_id: Mapped[str] = mapped_column(String(40), unique=True)
    kind: Mapped[str] = mapped_column(String(40))
    venue_id: Mapped[int | None] = mapped_column(Integer)
    region_id: Mapped[int | None] = mapped_column(Integer)
    # Sanctions and other personal matters: only for subscriptions the office marked as staff.
    staff_only: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    # An event that must be told once whoever notices it (a sanction ended): its key.
    once_key: Mapped[str | None] = mapped_column(String(80), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Webhook(Base):
    """A subscription (office): where to send which events, for a venue or a region or the whole
    league, in which format, signed with its own secret (Standard Webhooks)."""

    __tablename__ = "webhooks"

    id: Mapped[int] = mapped_column(primary_key=True)
    url: Mapped[str] = mapped_column(String(2000))
    events: Mapped[list[str]] = mapped_column(JSON)
    venue_id: Mapped[int | None] = mapped_column(Integer)
    region_id: Mapped[int | None] = mapped_column(Integer)
    format: Mapped[str] = mapped_column(String(20), default="json", server_default=text("'json'"))
    staff: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    description: Mapped[str] = mapped_column(String(200), default="", server_default=text("''"))
    secret: Mapped[str] = mapped_column(String(100))
    paused: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    paused_reason: Mapped[str | None] = mapped_column(Text)
    # Deliveries failed in a row (a success resets it); at the league's limit the subscription pauses.
    failures_in_a_row: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    created_by: Mapped[str] = mapped_column(String(120))
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)


class WebhookDelivery(Base):
    """One event to one subscription: pending until delivered, or given up after a day of tries.
    `leased_until` is a worker's claim while it sends: a worker killed mid-send leaves it to
    lapse, and the delivery is sent again (at least once)."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        UniqueConstraint("webhook_id", "event_id"),
        Index("ix_webhook_deliveries_due", "state", "next_attempt_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    webhook_id: Mapped[int] = mapped_column(ForeignKey("webhooks.id", ondelete="CASCADE"), index=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("outbox_events.id", ondelete="CASCADE"))
    state: Mapped[str] = mapped_column(String(20), default="pending", server_default=text("'pending'"))
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    last_status: Mapped[int | None] = mapped_column(Integer)
    last_error: Mapped[str | None] = mapped_column(Text)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    leased_until: Mapped[datetime | None] = mapped_column(DateTime)
    delivered_at: Mapped[datetime | None] = mapped_column(DateTime)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
