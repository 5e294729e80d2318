"""league_settings.embed_frame_ancestors: which sites may frame the embeddable pages (default any)

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-30 17:30:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0012'
down_revision: str | None = '0011'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain ADD COLUMN: the table keeps its triggers.
    op.add_column(
        'league_settings',
        sa.Column('embed_frame_ancestors', sa.String(length=2000), server_default='*', nullable=False),
    )


def downgrade() -> None:
    op.execute("ALTER TABLE league_settings DROP COLUMN embed_frame_ancestors")
