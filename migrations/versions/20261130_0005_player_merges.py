"""player merges

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30 09:24:51.705547
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('player_merges',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('survivor_id', sa.Integer(), nullable=False),
    sa.Column('duplicate_id', sa.Integer(), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('merged_at', sa.DateTime(), nullable=False),
    sa.Column('merged_by', sa.String(length=120), nullable=False),
    sa.Column('merged_by_key_id', sa.Integer(), nullable=True),
    sa.Column('moved', sa.JSON(), nullable=False),
    sa.Column('undone_at', sa.DateTime(), nullable=True),
    sa.Column('undone_by', sa.String(length=120), nullable=True),
    sa.Column('undo_reason', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['duplicate_id'], ['players.id'], name=op.f('fk_player_merges_duplicate_id_players')),
    sa.ForeignKeyConstraint(['survivor_id'], ['players.id'], name=op.f('fk_player_merges_survivor_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_player_merges'))
    )
    with op.batch_alter_table('player_merges', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_merges_duplicate_id'), ['duplicate_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_player_merges_survivor_id'), ['survivor_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('player_merges', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_merges_survivor_id'))
        batch_op.drop_index(batch_op.f('ix_player_merges_duplicate_id'))

    op.drop_table('player_merges')
