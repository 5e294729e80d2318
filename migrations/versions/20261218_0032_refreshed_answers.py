"""refreshed answers: which events of the outbox the refresher has acted on

- outbox_events.refreshed_at: when the refresher computed again the cached answers the event's
  change retired (standings, qualifier lists, profiles, …), once for every worker; NULL while it
  has not. Events already told are marked refreshed (their answers were computed when read).
  A partial index holds the ones waiting, so finding them costs nothing however long the outbox.

Revision ID: 0032
Revises: 0031
Create Date: 2026-12-18 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0032"
down_revision: str | None = "0031"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WAITING = sa.text("refreshed_at IS NULL")


def upgrade() -> None:
    with op.batch_alter_table("outbox_events") as batch:
        batch.add_column(sa.Column("refreshed_at", sa.DateTime(), nullable=True))
    op.execute("UPDATE outbox_events SET refreshed_at = created_at")
    op.create_index(
        "ix_outbox_events_waiting",
        "outbox_events",
        ["id"],
        postgresql_where=WAITING,
        sqlite_where=WAITING,
    )


def downgrade() -> None:
    op.drop_index("ix_outbox_events_waiting", table_name="outbox_events")
    with op.batch_alter_table("outbox_events") as batch:
        batch.drop_column("refreshed_at")
