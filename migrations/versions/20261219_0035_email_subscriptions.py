"""email subscriptions (R19, R23): a player asks for the weekly email themself, by a confirmed link

- email_subscription_requests: an address someone asked the weekly email for (public, no key),
  stored alike whether or not it is a player's, and taken away by the delivery worker's next pass
  (which queues a confirmation when it is a player's).
- email_confirmations: a one-time link sent to a player to confirm it (its random code, the
  message that carried it); used, it is deleted; the worker deletes it after seven days, and an
  erasure at once (R21).

No data-version triggers, as for the other email tables (migration 0031): no cached answer
reads them (models/freshness/tables.OUTBOX_TABLES).

Revision ID: 0035
Revises: 0034
Create Date: 2026-12-19 12:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0035"
down_revision: str | None = "0034"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "email_subscription_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=254), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_email_subscription_requests")),
    )
    op.create_table(
        "email_confirmations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_email_confirmations_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["message_id"],
            ["email_messages.id"],
            name=op.f("fk_email_confirmations_message_id_email_messages"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_email_confirmations")),
        sa.UniqueConstraint("message_id", name=op.f("uq_email_confirmations_message_id")),
        sa.UniqueConstraint("code", name=op.f("uq_email_confirmations_code")),
    )
    op.create_index(
        op.f("ix_email_confirmations_player_id"), "email_confirmations", ["player_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_email_confirmations_player_id"), table_name="email_confirmations")
    op.drop_table("email_confirmations")
    op.drop_table("email_subscription_requests")
