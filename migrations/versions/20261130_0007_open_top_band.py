"""points_chart_bands.max_entrants may be null: an open-ended top band (R7)

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-30 10:10:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('points_chart_bands', schema=None) as batch_op:
        batch_op.drop_constraint('entrant_range', type_='check')
        batch_op.alter_column('max_entrants', existing_type=sa.Integer(), nullable=True)
        batch_op.create_check_constraint(
            'entrant_range', 'min_entrants >= 1 AND (max_entrants IS NULL OR max_entrants >= min_entrants)'
        )


def downgrade() -> None:
    # An open band has no largest field: it is closed at the largest field a chart accepts.
    op.execute("UPDATE points_chart_bands SET max_entrants = 10000 WHERE max_entrants IS NULL")
    with op.batch_alter_table('points_chart_bands', schema=None) as batch_op:
        batch_op.drop_constraint('entrant_range', type_='check')
        batch_op.alter_column('max_entrants', existing_type=sa.Integer(), nullable=False)
        batch_op.create_check_constraint('entrant_range', 'min_entrants >= 1 AND max_entrants >= min_entrants')
