"""league_settings.timezone and venues.timezone: the league's and a venue's IANA zone (R2a)

Both null at first: the league reads LEAGUE_TIMEZONE (else UTC), a venue the league's. Stored
dates are local dates already and stay as they are.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01 12:00:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0015'
down_revision: str | None = '0014'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMNs: the tables keep their triggers.
    op.add_column('league_settings', sa.Column('timezone', sa.String(length=64), nullable=True))
    op.add_column('venues', sa.Column('timezone', sa.String(length=64), nullable=True))


def downgrade() -> None:
    op.execute("ALTER TABLE venues DROP COLUMN timezone")
    op.execute("ALTER TABLE league_settings DROP COLUMN timezone")
