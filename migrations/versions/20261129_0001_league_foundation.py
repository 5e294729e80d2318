"""league foundation: regions, venues, charts, seasons, players, keys, audit log

Revision ID: 0001
Revises: 
Create Date: 2026-11-29 17:52:21.227070
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# R2 and R18 are also enforced by triggers, so a write that slips past the service (a race, a
# script) still cannot store overlapping seasons or change the audit log.

revision: str = '0001'
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# R2: two seasons whose dates meet may not cover a common region (a season naming no region
# covers every region). Checked when a season is inserted or its dates or coverage change, and
# when a region is added to a season.
_SQLITE_TRIGGERS = [
    """
    CREATE TRIGGER seasons_no_overlap_insert BEFORE INSERT ON seasons
    WHEN NEW.all_regions AND EXISTS (
        SELECT 1 FROM seasons o WHERE o.starts_on <= NEW.ends_on AND NEW.starts_on <= o.ends_on)
    BEGIN SELECT RAISE(ABORT, 'R2: seasons that cover a common venue may not overlap'); END
    """,
    """
    CREATE TRIGGER seasons_no_overlap_update
    BEFORE UPDATE OF starts_on, ends_on, all_regions ON seasons
    WHEN EXISTS (
        SELECT 1 FROM seasons o
        WHERE o.id <> NEW.id AND o.starts_on <= NEW.ends_on AND NEW.starts_on <= o.ends_on
          AND (NEW.all_regions OR o.all_regions OR EXISTS (
                SELECT 1 FROM season_regions a JOIN season_regions b ON a.region_id = b.region_id
                WHERE a.season_id = NEW.id AND b.season_id = o.id)))
    BEGIN SELECT RAISE(ABORT, 'R2: seasons that cover a common venue may not overlap'); END
    """,
    """
    CREATE TRIGGER season_regions_no_overlap BEFORE INSERT ON season_regions
    WHEN EXISTS (
        SELECT 1 FROM seasons s JOIN seasons o
          ON o.id <> s.id AND o.starts_on <= s.ends_on AND s.starts_on <= o.ends_on
        WHERE s.id = NEW.season_id
          AND (o.all_regions OR EXISTS (
                SELECT 1 FROM season_regions b
                WHERE b.season_id = o.id AND b.region_id = NEW.region_id)))
    BEGIN SELECT RAISE(ABORT, 'R2: seasons that cover a common venue may not overlap'); END
    """,
    """
    CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
    BEGIN SELECT RAISE(ABORT, 'R18: the audit log is append-only'); END
    """,
    """
    CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
    BEGIN SELECT RAISE(ABORT, 'R18: the audit log is append-only'); END
    """,
]

_POSTGRESQL_TRIGGERS = [
    """
    CREATE FUNCTION seasons_no_overlap() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        sid integer;
    BEGIN
        -- One season write at a time, so two concurrent writers cannot both pass the check.
        PERFORM pg_advisory_xact_lock(hashtext('league.seasons'));
        IF TG_TABLE_NAME = 'seasons' THEN sid := NEW.id; ELSE sid := NEW.season_id; END IF;
        IF EXISTS (
            SELECT 1 FROM seasons s JOIN seasons o
              ON o.id <> s.id AND o.starts_on <= s.ends_on AND s.starts_on <= o.ends_on
            WHERE s.id = sid
              AND (s.all_regions OR o.all_regions OR EXISTS (
                    SELECT 1 FROM season_regions a JOIN season_regions b
                      ON a.region_id = b.region_id
                    WHERE a.season_id = s.id AND b.season_id = o.id))
        ) THEN
            RAISE EXCEPTION 'R2: seasons that cover a common venue may not overlap'
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
    END $$
    """,
    """
    CREATE CONSTRAINT TRIGGER seasons_no_overlap AFTER INSERT OR UPDATE ON seasons
    FOR EACH ROW EXECUTE FUNCTION seasons_no_overlap()
    """,
    """
    CREATE CONSTRAINT TRIGGER season_regions_no_overlap AFTER INSERT OR UPDATE ON season_regions
    FOR EACH ROW EXECUTE FUNCTION seasons_no_overlap()
    """,
    """
    CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'R18: the audit log is append-only' USING ERRCODE = 'insufficient_privilege';
    END $$
    """,
    """
    CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()
    """,
]

_DROP = {
    "sqlite": [
        "DROP TRIGGER IF EXISTS seasons_no_overlap_insert",
        "DROP TRIGGER IF EXISTS seasons_no_overlap_update",
        "DROP TRIGGER IF EXISTS season_regions_no_overlap",
        "DROP TRIGGER IF EXISTS audit_log_no_update",
        "DROP TRIGGER IF EXISTS audit_log_no_delete",
    ],
    "postgresql": [
        "DROP TRIGGER IF EXISTS audit_log_append_only ON audit_log",
        "DROP FUNCTION IF EXISTS audit_log_append_only()",
        "DROP TRIGGER IF EXISTS season_regions_no_overlap ON season_regions",
        "DROP TRIGGER IF EXISTS seasons_no_overlap ON seasons",
        "DROP FUNCTION IF EXISTS seasons_no_overlap()",
    ],
}


def _create_triggers() -> None:
    dialect = op.get_bind().dialect.name
    statements = {"sqlite": _SQLITE_TRIGGERS, "postgresql": _POSTGRESQL_TRIGGERS}.get(dialect, [])
    for statement in statements:
        op.execute(statement)


def _drop_triggers() -> None:
    for statement in _DROP.get(op.get_bind().dialect.name, []):
        op.execute(statement)


def upgrade() -> None:
    op.create_table('api_keys',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('role', sa.Enum('office', 'host', name='key_role', native_enum=False, create_constraint=True), nullable=False),
    sa.Column('key_hash', sa.String(length=64), nullable=False),
    sa.Column('key_prefix', sa.String(length=16), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('revoked_at', sa.DateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_api_keys')),
    sa.UniqueConstraint('key_hash', name=op.f('uq_api_keys_key_hash'))
    )
    op.create_table('audit_log',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.Column('actor_key_id', sa.Integer(), nullable=True),
    sa.Column('actor', sa.String(length=120), nullable=False),
    sa.Column('actor_role', sa.String(length=16), nullable=False),
    sa.Column('request_id', sa.String(length=64), nullable=True),
    sa.Column('action', sa.String(length=64), nullable=False),
    sa.Column('entity', sa.String(length=64), nullable=False),
    sa.Column('entity_id', sa.Integer(), nullable=True),
    sa.Column('before', sa.JSON(), nullable=True),
    sa.Column('after', sa.JSON(), nullable=True),
    sa.Column('reason', sa.Text(), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_audit_log'))
    )
    with op.batch_alter_table('audit_log', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_audit_log_action'), ['action'], unique=False)
        batch_op.create_index(batch_op.f('ix_audit_log_actor'), ['actor'], unique=False)
        batch_op.create_index(batch_op.f('ix_audit_log_at'), ['at'], unique=False)
        batch_op.create_index('ix_audit_log_entity_entity_id', ['entity', 'entity_id'], unique=False)

    op.create_table('points_charts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('kind', sa.Enum('top_fraction', 'bands', name='chart_kind', native_enum=False, create_constraint=True), nullable=False),
    sa.Column('fraction', sa.Numeric(precision=5, scale=4), nullable=True),
    sa.Column('step', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.CheckConstraint("kind <> 'top_fraction' OR (fraction > 0 AND fraction <= 1 AND step >= 1)", name=op.f('ck_points_charts_top_fraction_settings')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_points_charts')),
    sa.UniqueConstraint('name', name=op.f('uq_points_charts_name'))
    )
    op.create_table('regions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_regions')),
    sa.UniqueConstraint('name', name=op.f('uq_regions_name'))
    )
    op.create_table('points_chart_bands',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('chart_id', sa.Integer(), nullable=False),
    sa.Column('min_entrants', sa.Integer(), nullable=False),
    sa.Column('max_entrants', sa.Integer(), nullable=False),
    sa.Column('points', sa.JSON(), nullable=False),
    sa.CheckConstraint('min_entrants >= 1 AND max_entrants >= min_entrants', name=op.f('ck_points_chart_bands_entrant_range')),
    sa.ForeignKeyConstraint(['chart_id'], ['points_charts.id'], name=op.f('fk_points_chart_bands_chart_id_points_charts'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_points_chart_bands')),
    sa.UniqueConstraint('chart_id', 'min_entrants', name=op.f('uq_points_chart_bands_chart_id_min_entrants'))
    )
    op.create_table('seasons',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('starts_on', sa.Date(), nullable=False),
    sa.Column('ends_on', sa.Date(), nullable=False),
    sa.Column('championship_date', sa.Date(), nullable=True),
    sa.Column('all_regions', sa.Boolean(), nullable=False),
    sa.Column('points_chart_id', sa.Integer(), nullable=True),
    sa.Column('participation_points', sa.Integer(), nullable=False),
    sa.Column('attendance_bonus', sa.JSON(), nullable=False),
    sa.Column('count_best', sa.Integer(), nullable=True),
    sa.Column('absent_keeps_place_points', sa.Boolean(), nullable=False),
    sa.Column('cut_fraction', sa.Numeric(precision=5, scale=4), nullable=False),
    sa.Column('min_events_to_qualify', sa.Integer(), nullable=False),
    sa.Column('min_age', sa.Integer(), nullable=False),
    sa.Column('double_qualifier_policy', sa.Enum('best_rank', 'most_played', 'home_venue', name='double_qualifier_policy', native_enum=False, create_constraint=True), nullable=False),
    sa.Column('correction_days', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.CheckConstraint('championship_date IS NULL OR championship_date > ends_on', name=op.f('ck_seasons_championship_after')),
    sa.CheckConstraint('correction_days >= 0', name=op.f('ck_seasons_correction_days')),
    sa.CheckConstraint('count_best IS NULL OR count_best >= 1', name=op.f('ck_seasons_count_best')),
    sa.CheckConstraint('cut_fraction > 0 AND cut_fraction <= 1', name=op.f('ck_seasons_cut_fraction')),
    sa.CheckConstraint('ends_on >= starts_on', name=op.f('ck_seasons_dates_ordered')),
    sa.CheckConstraint('min_age >= 0', name=op.f('ck_seasons_min_age')),
    sa.CheckConstraint('min_events_to_qualify >= 1', name=op.f('ck_seasons_min_events_to_qualify')),
    sa.CheckConstraint('participation_points >= 0', name=op.f('ck_seasons_participation_points')),
    sa.ForeignKeyConstraint(['points_chart_id'], ['points_charts.id'], name=op.f('fk_seasons_points_chart_id_points_charts')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seasons'))
    )
    op.create_table('venues',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('region_id', sa.Integer(), nullable=False),
    sa.Column('city', sa.String(length=120), nullable=True),
    sa.Column('active', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['region_id'], ['regions.id'], name=op.f('fk_venues_region_id_regions')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_venues')),
    sa.UniqueConstraint('region_id', 'name', name=op.f('uq_venues_region_id_name'))
    )
    with op.batch_alter_table('venues', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_venues_region_id'), ['region_id'], unique=False)

    op.create_table('api_key_venues',
    sa.Column('api_key_id', sa.Integer(), nullable=False),
    sa.Column('venue_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['api_key_id'], ['api_keys.id'], name=op.f('fk_api_key_venues_api_key_id_api_keys'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['venue_id'], ['venues.id'], name=op.f('fk_api_key_venues_venue_id_venues')),
    sa.PrimaryKeyConstraint('api_key_id', 'venue_id', name=op.f('pk_api_key_venues'))
    )
    with op.batch_alter_table('api_key_venues', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_api_key_venues_venue_id'), ['venue_id'], unique=False)

    op.create_table('players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('full_name', sa.String(length=200), nullable=False),
    sa.Column('display_name', sa.String(length=120), nullable=False),
    sa.Column('name_key', sa.String(length=200), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=True),
    sa.Column('date_of_birth', sa.Date(), nullable=True),
    sa.Column('membership_number', sa.String(length=12), nullable=True),
    sa.Column('home_venue_id', sa.Integer(), nullable=True),
    sa.Column('merged_into_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['home_venue_id'], ['venues.id'], name=op.f('fk_players_home_venue_id_venues')),
    sa.ForeignKeyConstraint(['merged_into_id'], ['players.id'], name=op.f('fk_players_merged_into_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_players')),
    sa.UniqueConstraint('email', name=op.f('uq_players_email')),
    sa.UniqueConstraint('membership_number', name=op.f('uq_players_membership_number'))
    )
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_players_home_venue_id'), ['home_venue_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_players_merged_into_id'), ['merged_into_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_players_name_key'), ['name_key'], unique=False)

    op.create_table('season_regions',
    sa.Column('season_id', sa.Integer(), nullable=False),
    sa.Column('region_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['region_id'], ['regions.id'], name=op.f('fk_season_regions_region_id_regions')),
    sa.ForeignKeyConstraint(['season_id'], ['seasons.id'], name=op.f('fk_season_regions_season_id_seasons'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('season_id', 'region_id', name=op.f('pk_season_regions'))
    )
    with op.batch_alter_table('season_regions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_season_regions_region_id'), ['region_id'], unique=False)

    _create_triggers()


def downgrade() -> None:
    _drop_triggers()
    with op.batch_alter_table('season_regions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_season_regions_region_id'))

    op.drop_table('season_regions')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_players_name_key'))
        batch_op.drop_index(batch_op.f('ix_players_merged_into_id'))
        batch_op.drop_index(batch_op.f('ix_players_home_venue_id'))

    op.drop_table('players')
    with op.batch_alter_table('api_key_venues', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_api_key_venues_venue_id'))

    op.drop_table('api_key_venues')
    with op.batch_alter_table('venues', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_venues_region_id'))

    op.drop_table('venues')
    op.drop_table('seasons')
    op.drop_table('points_chart_bands')
    op.drop_table('regions')
    op.drop_table('points_charts')
    with op.batch_alter_table('audit_log', schema=None) as batch_op:
        batch_op.drop_index('ix_audit_log_entity_entity_id')
        batch_op.drop_index(batch_op.f('ix_audit_log_at'))
        batch_op.drop_index(batch_op.f('ix_audit_log_actor'))
        batch_op.drop_index(batch_op.f('ix_audit_log_action'))

    op.drop_table('audit_log')
    op.drop_table('api_keys')
