"""discipline: sanctions and league settings

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 08:37:23.350530
"""
from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op


revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    league_settings = op.create_table('league_settings',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('min_suspension_days', sa.Integer(), nullable=False),
    sa.Column('min_outside_alcohol_months', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.CheckConstraint('id = 1', name=op.f('ck_league_settings_single_row')),
    sa.CheckConstraint('min_outside_alcohol_months >= 0', name=op.f('ck_league_settings_min_outside_alcohol_months')),
    sa.CheckConstraint('min_suspension_days >= 0', name=op.f('ck_league_settings_min_suspension_days')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_league_settings'))
    )
    op.create_table('sanctions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.Enum('reminder', 'warning', 'suspension', 'venue_ban', name='sanction_kind', native_enum=False, create_constraint=True), nullable=False),
    sa.Column('category', sa.Enum('cheating', 'collusion', 'berating', 'fighting', 'outside_alcohol', 'gambling', 'bad_etiquette', 'late_arrival', 'other', name='sanction_category', native_enum=False, create_constraint=True), nullable=False),
    sa.Column('venue_id', sa.Integer(), nullable=True),
    sa.Column('first_day', sa.Date(), nullable=False),
    sa.Column('last_day', sa.Date(), nullable=True),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('issued_by', sa.String(length=120), nullable=False),
    sa.Column('issued_by_role', sa.String(length=16), nullable=False),
    sa.Column('issued_by_key_id', sa.Integer(), nullable=True),
    sa.Column('issued_at', sa.DateTime(), nullable=False),
    sa.Column('lifted_at', sa.DateTime(), nullable=True),
    sa.Column('lifted_on', sa.Date(), nullable=True),
    sa.Column('lifted_by', sa.String(length=120), nullable=True),
    sa.Column('lifted_by_key_id', sa.Integer(), nullable=True),
    sa.Column('lift_reason', sa.Text(), nullable=True),
    sa.CheckConstraint("(kind = 'venue_ban') = (venue_id IS NOT NULL)", name=op.f('ck_sanctions_venue_only_for_bans')),
    sa.CheckConstraint('last_day IS NULL OR last_day >= first_day', name=op.f('ck_sanctions_days_ordered')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_sanctions_player_id_players')),
    sa.ForeignKeyConstraint(['venue_id'], ['venues.id'], name=op.f('fk_sanctions_venue_id_venues')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sanctions'))
    )
    with op.batch_alter_table('sanctions', schema=None) as batch_op:
        batch_op.create_index('ix_sanctions_player_id_kind', ['player_id', 'kind'], unique=False)
        batch_op.create_index(batch_op.f('ix_sanctions_venue_id'), ['venue_id'], unique=False)

    # R15: the league starts with the rulebook's minimums (14 days; 6 months for outside alcohol).
    op.bulk_insert(
        league_settings,
        [{"id": 1, "min_suspension_days": 14, "min_outside_alcohol_months": 6, "updated_at": datetime.now(UTC).replace(tzinfo=None)}],
    )


def downgrade() -> None:
    with op.batch_alter_table('sanctions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_sanctions_venue_id'))
        batch_op.drop_index('ix_sanctions_player_id_kind')

    op.drop_table('sanctions')
    op.drop_table('league_settings')
