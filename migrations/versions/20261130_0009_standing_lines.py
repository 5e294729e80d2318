"""standing_lines: each player's results at a venue in a season, summed and kept

Derived from the results (models/services/standing_lines.py keeps them up to date with every
write); filled here from the results already stored, by this migration's own copy of the sum (a
migration must not depend on models that later revisions change). `flask --app app standings
rebuild` recomputes them with the service's at any time.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-30 14:30:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = 'standing_lines'
BUMP = "UPDATE data_version SET version = version + 1 WHERE id = 1"
COLUMNS = (
    'season_id', 'venue_id', 'player_id', 'finishes', 'played', 'placement_points',
    'participation_points', 'counted', 'wins', 'points_finishes', 'best_finish', 'place_total',
    'best_single', 'places', 'points',
)


def upgrade() -> None:
    op.create_table(
        TABLE,
        sa.Column('season_id', sa.Integer(), nullable=False),
        sa.Column('venue_id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('finishes', sa.Integer(), nullable=False),
        sa.Column('played', sa.Integer(), nullable=False),
        sa.Column('placement_points', sa.Integer(), nullable=False),
        sa.Column('participation_points', sa.Integer(), nullable=False),
        sa.Column('counted', sa.Integer(), nullable=False),
        sa.Column('wins', sa.Integer(), nullable=False),
        sa.Column('points_finishes', sa.Integer(), nullable=False),
        sa.Column('best_finish', sa.Integer(), nullable=False),
        sa.Column('place_total', sa.Integer(), nullable=False),
        sa.Column('best_single', sa.Integer(), nullable=False),
        sa.Column('places', sa.Text(), nullable=False),
        sa.Column('points', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ['player_id'], ['players.id'], name=op.f('fk_standing_lines_player_id_players'), ondelete='CASCADE'
        ),
        sa.ForeignKeyConstraint(
            ['season_id'], ['seasons.id'], name=op.f('fk_standing_lines_season_id_seasons'), ondelete='CASCADE'
        ),
        sa.ForeignKeyConstraint(
            ['venue_id'], ['venues.id'], name=op.f('fk_standing_lines_venue_id_venues'), ondelete='CASCADE'
        ),
        sa.PrimaryKeyConstraint('season_id', 'venue_id', 'player_id', name=op.f('pk_standing_lines')),
    )
    op.create_index(op.f('ix_standing_lines_player_id'), TABLE, ['player_id'], unique=False)
    op.create_index(
        'ix_standing_lines_season_venue_points', TABLE, ['season_id', 'venue_id', 'points'], unique=False
    )
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
    _backfill()


def _backfill() -> None:
    """The lines of the results stored so far, season by season (R1, R9-R11 as of revision 0009)."""
    bind = op.get_bind()
    seasons = sa.table(
        'seasons', sa.column('id'), sa.column('count_best'), sa.column('attendance_bonus', sa.JSON)
    )
    tournaments = sa.table(
        'tournaments', sa.column('id'), sa.column('season_id'), sa.column('venue_id'),
        sa.column('kind'), sa.column('voided_at'),
    )
    results = sa.table(
        'results', sa.column('tournament_id'), sa.column('player_id'), sa.column('place'),
        sa.column('status'), sa.column('placement_points'), sa.column('participation_points'),
    )
    lines = sa.table(TABLE, *(sa.column(name) for name in COLUMNS))
    settings = sa.select(seasons.c.id, seasons.c.count_best, seasons.c.attendance_bonus)
    for season_id, count_best, tiers in bind.execute(settings).all():
        t, r = tournaments.c, results.c
        total = r.placement_points + r.participation_points
        best_first = sa.func.row_number().over(partition_by=(t.venue_id, r.player_id), order_by=total.desc())
        rows = (
            sa.select(
                t.venue_id, r.player_id, r.place, r.status, r.placement_points, r.participation_points,
                total.label('total'), best_first.label('best_first'),
            )
            .select_from(results.join(tournaments, t.id == r.tournament_id))
            .where(t.season_id == season_id, t.kind == 'regular', t.voided_at.is_(None))
            .subquery()
        )
        c = rows.c
        counted = sa.func.sum(
            c.total if count_best is None else sa.case((c.best_first <= count_best, c.total), else_=0)
        )
        played = sa.func.sum(sa.case((c.status != 'no_show', 1), else_=0))
        highest_first = sorted(tiers or [], key=lambda tier: -int(tier['events']))
        bonus = (
            sa.case(*((played >= int(tier['events']), int(tier['points'])) for tier in highest_first), else_=0)
            if highest_first else sa.literal(0)
        )
        summed = sa.select(
            sa.literal(season_id), c.venue_id, c.player_id, sa.func.count(), played,
            sa.func.sum(c.placement_points), sa.func.sum(c.participation_points), counted,
            sa.func.sum(sa.case((c.place == 1, 1), else_=0)),
            sa.func.sum(sa.case((c.placement_points > 0, 1), else_=0)),
            sa.func.min(c.place), sa.func.sum(c.place), sa.func.max(c.total),
            sa.func.aggregate_strings(sa.cast(c.place, sa.String), ','), counted + bonus,
        ).group_by(c.venue_id, c.player_id)
        bind.execute(lines.insert().from_select(list(COLUMNS), summed))


def downgrade() -> None:
    if op.get_bind().dialect.name == 'postgresql':
        op.execute(f"DROP TRIGGER IF EXISTS data_version_{TABLE} ON {TABLE}")
    op.drop_index('ix_standing_lines_season_venue_points', table_name=TABLE)
    op.drop_index(op.f('ix_standing_lines_player_id'), table_name=TABLE)
    op.drop_table(TABLE)
