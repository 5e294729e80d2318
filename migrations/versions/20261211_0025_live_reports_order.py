"""the live reports of a season in their order, indexed: a page of a season's reports (newest first)
and its count are read from the index alone, not from every report of the season sorted again
after each new one

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-11 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LIVE = sa.text("voided_at IS NULL")


def upgrade() -> None:
    op.create_index(
        "ix_tournaments_live_season_order",
        "tournaments",
        ["season_id", "date", "session", "id"],
        sqlite_where=LIVE,
        postgresql_where=LIVE,
    )


def downgrade() -> None:
    op.drop_index("ix_tournaments_live_season_order", table_name="tournaments")
