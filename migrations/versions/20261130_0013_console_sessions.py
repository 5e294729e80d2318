"""console_sessions: the web console's signed-in sessions (a token's hash for an API key)

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-30 18:00:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0013'
down_revision: str | None = '0012'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Not league data: no data-version triggers (models/entities/versioning.UNVERSIONED_TABLES).
    op.create_table(
        'console_sessions',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('api_key_id', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('expires_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['api_key_id'], ['api_keys.id'], name=op.f('fk_console_sessions_api_key_id_api_keys'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_console_sessions')),
        sa.UniqueConstraint('token_hash', name=op.f('uq_console_sessions_token_hash')),
    )
    op.create_index(op.f('ix_console_sessions_api_key_id'), 'console_sessions', ['api_key_id'], unique=False)
    op.create_index(op.f('ix_console_sessions_expires_at'), 'console_sessions', ['expires_at'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_console_sessions_expires_at'), table_name='console_sessions')
    op.drop_index(op.f('ix_console_sessions_api_key_id'), table_name='console_sessions')
    op.drop_table('console_sessions')
