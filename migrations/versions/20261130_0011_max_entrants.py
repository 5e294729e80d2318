"""league_settings.max_entrants: the most entrants a report may have (the office sets 50-10,000)

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-30 16:00:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0011'
down_revision: str | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain ADD COLUMN: the table keeps its triggers.
    op.add_column(
        'league_settings', sa.Column('max_entrants', sa.Integer(), server_default='500', nullable=False)
    )


def downgrade() -> None:
    op.execute("ALTER TABLE league_settings DROP COLUMN max_entrants")
