"""qualification

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 08:50:33.202448
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('qualifier_publications',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('season_id', sa.Integer(), nullable=False),
    sa.Column('published_at', sa.DateTime(), nullable=False),
    sa.Column('published_by', sa.String(length=120), nullable=False),
    sa.Column('published_by_key_id', sa.Integer(), nullable=True),
    sa.Column('note', sa.Text(), nullable=True),
    sa.Column('settlements', sa.JSON(), nullable=False),
    sa.Column('lists', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['season_id'], ['seasons.id'], name=op.f('fk_qualifier_publications_season_id_seasons')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_qualifier_publications'))
    )
    with op.batch_alter_table('qualifier_publications', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_qualifier_publications_season_id'), ['season_id'], unique=False)

    op.create_table('disqualifications',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('season_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('created_by', sa.String(length=120), nullable=False),
    sa.Column('created_by_key_id', sa.Integer(), nullable=True),
    sa.Column('withdrawn_at', sa.DateTime(), nullable=True),
    sa.Column('withdrawn_by', sa.String(length=120), nullable=True),
    sa.Column('withdraw_reason', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_disqualifications_player_id_players')),
    sa.ForeignKeyConstraint(['season_id'], ['seasons.id'], name=op.f('fk_disqualifications_season_id_seasons')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_disqualifications'))
    )
    with op.batch_alter_table('disqualifications', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_disqualifications_player_id'), ['player_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_disqualifications_season_id'), ['season_id'], unique=False)
        batch_op.create_index('uq_disqualifications_season_player', ['season_id', 'player_id'], unique=True, sqlite_where=sa.text('withdrawn_at IS NULL'), postgresql_where=sa.text('withdrawn_at IS NULL'))



def downgrade() -> None:
    with op.batch_alter_table('disqualifications', schema=None) as batch_op:
        batch_op.drop_index('uq_disqualifications_season_player', sqlite_where=sa.text('withdrawn_at IS NULL'), postgresql_where=sa.text('withdrawn_at IS NULL'))
        batch_op.drop_index(batch_op.f('ix_disqualifications_season_id'))
        batch_op.drop_index(batch_op.f('ix_disqualifications_player_id'))

    op.drop_table('disqualifications')
    with op.batch_alter_table('qualifier_publications', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_qualifier_publications_season_id'))

    op.drop_table('qualifier_publications')
