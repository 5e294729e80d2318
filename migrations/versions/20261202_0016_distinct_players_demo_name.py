"""distinct_players, the demo flags and the league's name

- distinct_players: the office said two look-alike players are two people (R5), one row per
  pair, the lower id first, unique (the last guard of "once", R17a). League data: it gets the
  data-version triggers of migration 0008 like every other table.
- regions.demo and players.demo: the demo league's region and the players its loader
  registered (models/services/demo.py), so that queries can keep them out of every other
  region's door lists, searches and missing reports. Filled here from the marks the demo had
  until now: the region named "Demo" and the emails of the demo's own domain.
- league_settings.name: the league's name, as the front door (GET /) says it.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-02 09:00:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0016'
down_revision: str | None = '0015'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = 'distinct_players'
BUMP = "UPDATE data_version SET version = version + 1 WHERE id = 1"
# The demo's marks before this revision (models/services/demo.py at revision 0015).
DEMO_REGION = 'Demo'
DEMO_EMAIL_DOMAIN = 'demo.example.org'
DEFAULT_LEAGUE_NAME = 'Poker League'


def upgrade() -> None:
    op.create_table(
        TABLE,
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('low_id', sa.Integer(), nullable=False),
        sa.Column('high_id', sa.Integer(), nullable=False),
        sa.Column('reason', sa.Text(), nullable=False),
        sa.Column('recorded_at', sa.DateTime(), nullable=False),
        sa.Column('recorded_by', sa.String(length=120), nullable=False),
        sa.Column('recorded_by_key_id', sa.Integer(), nullable=True),
        sa.CheckConstraint('low_id < high_id', name=op.f('ck_distinct_players_lower_id_first')),
        sa.ForeignKeyConstraint(['high_id'], ['players.id'], name=op.f('fk_distinct_players_high_id_players')),
        sa.ForeignKeyConstraint(['low_id'], ['players.id'], name=op.f('fk_distinct_players_low_id_players')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_distinct_players')),
        sa.UniqueConstraint('low_id', 'high_id', name=op.f('uq_distinct_players_low_id_high_id')),
    )
    op.create_index(op.f('ix_distinct_players_high_id'), TABLE, ['high_id'], unique=False)
    # League data like any other table: its changes move the data version on (migration 0008).
    if op.get_bind().dialect.name == 'postgresql':
        op.execute(
            f"CREATE TRIGGER data_version_{TABLE} BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE "
            f"ON {TABLE} FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version()"
        )
    else:
        for event in ('INSERT', 'UPDATE', 'DELETE'):
            op.execute(
                f"CREATE TRIGGER data_version_{TABLE}_{event.lower()} AFTER {event} ON {TABLE} "
                f"BEGIN {BUMP}; END"
            )
    # Plain ADD COLUMNs: the tables keep their triggers.
    op.add_column('regions', sa.Column('demo', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column('players', sa.Column('demo', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column(
        'league_settings',
        sa.Column('name', sa.String(length=120), server_default=DEFAULT_LEAGUE_NAME, nullable=False),
    )
    regions = sa.table('regions', sa.column('name'), sa.column('demo', sa.Boolean))
    players = sa.table('players', sa.column('email'), sa.column('demo', sa.Boolean))
    op.execute(regions.update().where(regions.c.name == DEMO_REGION).values(demo=True))
    op.execute(players.update().where(players.c.email.like(f'%@{DEMO_EMAIL_DOMAIN}')).values(demo=True))


def downgrade() -> None:
    op.execute("ALTER TABLE league_settings DROP COLUMN name")
    op.execute("ALTER TABLE players DROP COLUMN demo")
    op.execute("ALTER TABLE regions DROP COLUMN demo")
    if op.get_bind().dialect.name == 'postgresql':
        op.execute(f"DROP TRIGGER IF EXISTS data_version_{TABLE} ON {TABLE}")
    op.drop_index(op.f('ix_distinct_players_high_id'), table_name=TABLE)
    op.drop_table(TABLE)
