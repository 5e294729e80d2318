"""email (R23): players' consent to the weekly email, and the messages composed for them

- email_consents: one row per player who asked for the weekly email, while they want it: where
  they asked (source), when, and who recorded it (the key's name and id). No address: the
  player's own record holds it.
- email_messages: one per player, kind and period (a week's digest is queued once), pending
  until sent or given up, with attempts, the last error, the next try and a worker's lease.

No data-version triggers: the worker's updates must neither retire every answer nor wait on the
league's writers (models/freshness/tables.OUTBOX_TABLES). A consent is read by a cached answer,
which its audit entry kept fresh only when the service wrote it: migration 0033 makes
email_consents move the `outbox` scope, whoever writes it.

Revision ID: 0031
Revises: 0030
Create Date: 2026-12-17 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0031"
down_revision: str | None = "0030"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "email_consents",
        sa.Column("player_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("source", sa.String(length=20), nullable=False),
        sa.Column("given_at", sa.DateTime(), nullable=False),
        sa.Column("given_by", sa.String(length=120), nullable=False),
        sa.Column("given_by_key_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_email_consents_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_email_consents")),
    )
    op.create_table(
        "email_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("period", sa.String(length=20), nullable=False),
        sa.Column("subject", sa.String(length=200), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("state", sa.String(length=20), server_default=sa.text("'pending'"), nullable=False),
        sa.Column("attempts", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("next_attempt_at", sa.DateTime(), nullable=False),
        sa.Column("leased_until", sa.DateTime(), nullable=True),
        sa.Column("sent_at", sa.DateTime(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_email_messages_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_email_messages")),
        sa.UniqueConstraint(
            "player_id", "kind", "period", name=op.f("uq_email_messages_player_id_kind_period")
        ),
    )
    op.create_index("ix_email_messages_due", "email_messages", ["state", "next_attempt_at"])


def downgrade() -> None:
    op.drop_table("email_messages")
    op.drop_table("email_consents")
