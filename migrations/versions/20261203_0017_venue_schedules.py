"""venue_nights and schedule_exceptions: a venue's regular nights and the exceptions to them

- venue_nights: one row per regular night of a venue's week (ISO weekday, local start "HH:MM",
  sessions), unique per (venue, weekday, start).
- schedule_exceptions: a night cancelled, moved or added (a make-up night) on a local date,
  unique per (venue, kind, date).

League data: both get the data-version triggers of migration 0008.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-03 09:00:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0017'
down_revision: str | None = '0016'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ('venue_nights', 'schedule_exceptions')
BUMP = "UPDATE data_version SET version = version + 1 WHERE id = 1"


def upgrade() -> None:
    op.create_table(
        'venue_nights',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('venue_id', sa.Integer(), nullable=False),
        sa.Column('weekday', sa.Integer(), nullable=False),
        sa.Column('starts_at', sa.String(length=5), nullable=False),
        sa.Column('sessions', sa.Integer(), nullable=False),
        sa.CheckConstraint('weekday >= 1 AND weekday <= 7', name=op.f('ck_venue_nights_weekday')),
        sa.CheckConstraint('sessions >= 1 AND sessions <= 20', name=op.f('ck_venue_nights_sessions')),
        sa.ForeignKeyConstraint(['venue_id'], ['venues.id'], name=op.f('fk_venue_nights_venue_id_venues')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_venue_nights')),
        sa.UniqueConstraint(
            'venue_id', 'weekday', 'starts_at', name=op.f('uq_venue_nights_venue_id_weekday_starts_at')
        ),
    )
    op.create_index(op.f('ix_venue_nights_venue_id'), 'venue_nights', ['venue_id'], unique=False)
    op.create_table(
        'schedule_exceptions',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('venue_id', sa.Integer(), nullable=False),
        sa.Column(
            'kind',
            sa.Enum('cancelled', 'moved', 'added', name='schedule_exception_kind', native_enum=False,
                    create_constraint=True),
            nullable=False,
        ),
        sa.Column('date', sa.Date(), nullable=False),
        sa.Column('to_date', sa.Date(), nullable=True),
        sa.Column('starts_at', sa.String(length=5), nullable=True),
        sa.Column('sessions', sa.Integer(), nullable=True),
        sa.Column('note', sa.Text(), nullable=True),
        sa.Column('created_by', sa.String(length=120), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ['venue_id'], ['venues.id'], name=op.f('fk_schedule_exceptions_venue_id_venues')
        ),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_schedule_exceptions')),
        sa.UniqueConstraint(
            'venue_id', 'kind', 'date', name=op.f('uq_schedule_exceptions_venue_id_kind_date')
        ),
    )
    op.create_index(op.f('ix_schedule_exceptions_venue_id'), 'schedule_exceptions', ['venue_id'], unique=False)
    # League data like any other table: its changes move the data version on (migration 0008).
    for table in TABLES:
        if op.get_bind().dialect.name == 'postgresql':
            op.execute(
                f"CREATE TRIGGER data_version_{table} BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE "
                f"ON {table} FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version()"
            )
        else:
            for event in ('INSERT', 'UPDATE', 'DELETE'):
                op.execute(
                    f"CREATE TRIGGER data_version_{table}_{event.lower()} AFTER {event} ON {table} "
                    f"BEGIN {BUMP}; END"
                )


def downgrade() -> None:
    for table in reversed(TABLES):
        if op.get_bind().dialect.name == 'postgresql':
            op.execute(f"DROP TRIGGER IF EXISTS data_version_{table} ON {table}")
        op.drop_index(op.f(f'ix_{table}_venue_id'), table_name=table)
        op.drop_table(table)
