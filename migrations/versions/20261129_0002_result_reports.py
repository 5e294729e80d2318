"""result reports: tournaments, results, idempotent requests

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 17:56:44.664420
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('idempotent_requests',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('api_key_id', sa.Integer(), nullable=False),
    sa.Column('idempotency_key', sa.String(length=255), nullable=False),
    sa.Column('request_hash', sa.String(length=64), nullable=False),
    sa.Column('status_code', sa.Integer(), nullable=False),
    sa.Column('response_body', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_idempotent_requests')),
    sa.UniqueConstraint('api_key_id', 'idempotency_key', name=op.f('uq_idempotent_requests_api_key_id_idempotency_key'))
    )
    with op.batch_alter_table('idempotent_requests', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_idempotent_requests_created_at'), ['created_at'], unique=False)

    op.create_table('tournaments',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('venue_id', sa.Integer(), nullable=False),
    sa.Column('season_id', sa.Integer(), nullable=False),
    sa.Column('date', sa.Date(), nullable=False),
    sa.Column('session', sa.Integer(), nullable=False),
    sa.Column('kind', sa.Enum('regular', 'playoff', 'championship', name='tournament_kind', native_enum=False, create_constraint=True), nullable=False),
    sa.Column('entrants', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('reported_by', sa.String(length=120), nullable=False),
    sa.Column('reported_by_key_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.Column('voided_at', sa.DateTime(), nullable=True),
    sa.Column('voided_by', sa.String(length=120), nullable=True),
    sa.Column('void_reason', sa.Text(), nullable=True),
    sa.CheckConstraint('entrants >= 1', name=op.f('ck_tournaments_entrants_positive')),
    sa.CheckConstraint('session >= 1', name=op.f('ck_tournaments_session_positive')),
    sa.ForeignKeyConstraint(['season_id'], ['seasons.id'], name=op.f('fk_tournaments_season_id_seasons')),
    sa.ForeignKeyConstraint(['venue_id'], ['venues.id'], name=op.f('fk_tournaments_venue_id_venues')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournaments'))
    )
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.create_index('ix_tournaments_season_venue_date', ['season_id', 'venue_id', 'date'], unique=False)
        batch_op.create_index('uq_tournaments_venue_date_session', ['venue_id', 'date', 'session'], unique=True, sqlite_where=sa.text('voided_at IS NULL'), postgresql_where=sa.text('voided_at IS NULL'))

    op.create_table('results',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('place', sa.Integer(), nullable=False),
    sa.Column('status', sa.Enum('played', 'declared_withdrawal', 'absent', 'no_show', name='entrant_status', native_enum=False, create_constraint=True), nullable=False),
    sa.Column('placement_points', sa.Integer(), nullable=False),
    sa.Column('participation_points', sa.Integer(), nullable=False),
    sa.Column('points', sa.Integer(), nullable=False),
    sa.CheckConstraint('place >= 1', name=op.f('ck_results_place_positive')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_results_player_id_players')),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_results_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_results')),
    sa.UniqueConstraint('tournament_id', 'place', name=op.f('uq_results_tournament_id_place')),
    sa.UniqueConstraint('tournament_id', 'player_id', name=op.f('uq_results_tournament_id_player_id'))
    )
    with op.batch_alter_table('results', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_results_player_id'), ['player_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('results', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_results_player_id'))

    op.drop_table('results')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_index('uq_tournaments_venue_date_session', sqlite_where=sa.text('voided_at IS NULL'), postgresql_where=sa.text('voided_at IS NULL'))
        batch_op.drop_index('ix_tournaments_season_venue_date')

    op.drop_table('tournaments')
    with op.batch_alter_table('idempotent_requests', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_idempotent_requests_created_at'))

    op.drop_table('idempotent_requests')
