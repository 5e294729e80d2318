"""tournaments.reported_by_role: who reported, as anyone may see it (the key's name is private)

Filled from the reporting key's role; reports with no key (the command line, imports) are the
office's.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-30 15:30:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0010'
down_revision: str | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain ADD COLUMN (SQLite can add one with a constant default): the table is not rebuilt,
    # so its triggers (the data version's, the guards') stay.
    op.add_column(
        'tournaments',
        sa.Column('reported_by_role', sa.String(length=16), server_default='office', nullable=False),
    )
    op.execute(
        "UPDATE tournaments SET reported_by_role = "
        "(SELECT role FROM api_keys WHERE api_keys.id = tournaments.reported_by_key_id) "
        "WHERE reported_by_key_id IN (SELECT id FROM api_keys)"
    )


def downgrade() -> None:
    # Plain SQL on both databases (SQLite 3.35+): batch mode would rebuild the table without its
    # triggers.
    op.execute("ALTER TABLE tournaments DROP COLUMN reported_by_role")
