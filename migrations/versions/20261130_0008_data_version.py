"""data_version: one row that every change to league data moves on, in the same transaction

Cached answers (api/cache.py) are keyed by it. Triggers move it on, so a change made anywhere
(the service, a command, a script, a migration) is seen: row triggers on SQLite, statement
triggers on PostgreSQL (moving it once per transaction there). A table added later gets the same
triggers in its own migration (tests/migrations/test_data_version.py fails otherwise).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-30 12:00:00
"""
import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Every table of league data at this revision.
TABLES = (
    'api_key_venues', 'api_keys', 'audit_log', 'disqualifications', 'league_settings',
    'player_merges', 'players', 'points_chart_bands', 'points_charts', 'qualifier_publications',
    'regions', 'results', 'sanctions', 'season_regions', 'seasons', 'tournaments', 'venues',
)

BUMP = "UPDATE data_version SET version = version + 1 WHERE id = 1"
# PostgreSQL: set (transaction-local) once this transaction has moved the version on.
MOVED = "league.data_version_moved"


def upgrade() -> None:
    op.create_table(
        'data_version',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('version', sa.BigInteger(), nullable=False),
        sa.Column('epoch', sa.String(length=32), nullable=False),
        sa.CheckConstraint('id = 1', name=op.f('ck_data_version_single_row')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_data_version')),
    )
    op.execute(
        sa.text("INSERT INTO data_version (id, version, epoch) VALUES (1, 1, :epoch)").bindparams(
            epoch=secrets.token_hex(16)
        )
    )
    if op.get_bind().dialect.name == 'postgresql':
        # Once per transaction: updating one row many times in a transaction slows PostgreSQL
        # down with every update (each leaves a row version the next must step over), so a
        # transaction-local setting remembers the move. A rolled-back savepoint takes both back.
        op.execute(
            "CREATE FUNCTION bump_data_version() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"IF current_setting('{MOVED}', true) IS DISTINCT FROM 'yes' THEN {BUMP}; "
            f"PERFORM set_config('{MOVED}', 'yes', true); END IF; RETURN NULL; END $$"
        )
        for table in TABLES:
            # BEFORE the statement: a writer takes the version row's lock before any row of its own,
            # so two writers never wait on each other in opposite orders.
            op.execute(
                f"CREATE TRIGGER data_version_{table} BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE "
                f"ON {table} FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version()"
            )
        return
    for table in TABLES:
        for event in ('INSERT', 'UPDATE', 'DELETE'):
            op.execute(
                f"CREATE TRIGGER data_version_{table}_{event.lower()} AFTER {event} ON {table} "
                f"BEGIN {BUMP}; END"
            )


def downgrade() -> None:
    if op.get_bind().dialect.name == 'postgresql':
        for table in TABLES:
            op.execute(f"DROP TRIGGER IF EXISTS data_version_{table} ON {table}")
        op.execute("DROP FUNCTION IF EXISTS bump_data_version()")
    else:
        for table in TABLES:
            for event in ('insert', 'update', 'delete'):
                op.execute(f"DROP TRIGGER IF EXISTS data_version_{table}_{event}")
    op.drop_table('data_version')
