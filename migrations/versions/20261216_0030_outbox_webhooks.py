"""telling others (R23): the transactional outbox, webhook subscriptions and their deliveries

- outbox_events: one row per change others may want to know of, written in the change's own
  transaction (a rolled-back change leaves none): its kind, the ids and versions it is about,
  its venue and region, whether it is for staff only (sanctions), and for an event noticed by
  whoever sees it first (a sanction ended) a key that makes it once.
- webhooks: the office's subscriptions (url, events, venue or region, format, staff, secret).
- webhook_deliveries: one per event and subscription, pending until delivered or given up,
  with attempts, the last status or error, the next try and a worker's lease while it sends.

No data-version triggers: the worker's updates must neither retire every answer nor wait on the
league's writers (models/freshness/tables.OUTBOX_TABLES). These tables are read by cached answers
(the office's subscriptions and their delivery log): migration 0033 makes them move a scope of
their own, `outbox`.

Revision ID: 0030
Revises: 0029
Create Date: 2026-12-16 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0030"
down_revision: str | None = "0029"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "outbox_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.String(length=40), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("venue_id", sa.Integer(), nullable=True),
        sa.Column("region_id", sa.Integer(), nullable=True),
        sa.Column("staff_only", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("once_key", sa.String(length=80), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox_events")),
        sa.UniqueConstraint("event_id", name=op.f("uq_outbox_events_event_id")),
        sa.UniqueConstraint("once_key", name=op.f("uq_outbox_events_once_key")),
    )
    op.create_table(
        "webhooks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("url", sa.String(length=2000), nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("venue_id", sa.Integer(), nullable=True),
        sa.Column("region_id", sa.Integer(), nullable=True),
        sa.Column("format", sa.String(length=20), server_default=sa.text("'json'"), nullable=False),
        sa.Column("staff", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("description", sa.String(length=200), server_default=sa.text("''"), nullable=False),
        sa.Column("secret", sa.String(length=100), nullable=False),
        sa.Column("paused", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("paused_reason", sa.Text(), nullable=True),
        sa.Column("failures_in_a_row", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("created_by", sa.String(length=120), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhooks")),
    )
    op.create_table(
        "webhook_deliveries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("webhook_id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=20), server_default=sa.text("'pending'"), nullable=False),
        sa.Column("attempts", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("last_status", sa.Integer(), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("next_attempt_at", sa.DateTime(), nullable=False),
        sa.Column("leased_until", sa.DateTime(), nullable=True),
        sa.Column("delivered_at", sa.DateTime(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["webhook_id"], ["webhooks.id"], name=op.f("fk_webhook_deliveries_webhook_id_webhooks"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["outbox_events.id"],
            name=op.f("fk_webhook_deliveries_event_id_outbox_events"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_deliveries")),
        sa.UniqueConstraint("webhook_id", "event_id", name=op.f("uq_webhook_deliveries_webhook_id_event_id")),
    )
    op.create_index("ix_webhook_deliveries_due", "webhook_deliveries", ["state", "next_attempt_at"])
    op.create_index(op.f("ix_webhook_deliveries_webhook_id"), "webhook_deliveries", ["webhook_id"])


def downgrade() -> None:
    op.drop_table("webhook_deliveries")
    op.drop_table("webhooks")
    op.drop_table("outbox_events")
