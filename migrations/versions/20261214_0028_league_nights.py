"""the league night as it happens (R22): blind structures, nights, who signed in, their actions

- structures: blind structures the office keeps (starting chips, levels, breaks as JSON). League
  data: the data-version triggers of migration 0008; no scoped answer reads it.
- venues: table_size (10), structure_id (none: the league's), late_after_level and late_minutes
  (neither: late registration closes at the structure's first break).
- league_settings.structure_id: the league's structure (none: 001's, built in).
- nights, night_entries, night_actions: a night's live state, versioned by its own `sequence`
  (every answer of a night is keyed by it), so they move no data version or scope: a bust-out
  at one venue retires no other answer. The report a night becomes is a tournament like any
  other, and moves what a report moves.

structure_id columns hold no foreign key (SQLite adds none to a table in place, and recreating
venues would drop its triggers): the services check them.

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-14 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0028"
down_revision: str | None = "0027"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BUMP = "UPDATE data_version SET version = version + 1 WHERE id = 1"
PLAYING = sa.text("status = 'playing' AND table_no IS NOT NULL")


def upgrade() -> None:
    op.create_table(
        "structures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("starting_chips", sa.Integer(), nullable=False),
        sa.Column("levels", sa.JSON(), nullable=False),
        sa.Column("breaks", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_structures")),
        sa.UniqueConstraint("name", name=op.f("uq_structures_name")),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE TRIGGER data_version_structures BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE "
            "ON structures FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version()"
        )
    else:
        for event in ("INSERT", "UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER data_version_structures_{event.lower()} AFTER {event} ON structures "
                f"BEGIN {BUMP}; END"
            )
    # Plain ADD COLUMNs: the tables keep their triggers.
    op.add_column("venues", sa.Column("table_size", sa.Integer(), server_default=sa.text("10"), nullable=False))
    op.add_column("venues", sa.Column("structure_id", sa.Integer(), nullable=True))
    op.add_column("venues", sa.Column("late_after_level", sa.Integer(), nullable=True))
    op.add_column("venues", sa.Column("late_minutes", sa.Integer(), nullable=True))
    op.add_column("league_settings", sa.Column("structure_id", sa.Integer(), nullable=True))

    op.create_table(
        "nights",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("venue_id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("session", sa.Integer(), nullable=False),
        sa.Column("scheduled", sa.Boolean(), nullable=False),
        sa.Column("structure_id", sa.Integer(), nullable=True),
        sa.Column("structure", sa.JSON(), nullable=False),
        sa.Column("table_size", sa.Integer(), nullable=False),
        sa.Column("late_after_level", sa.Integer(), nullable=True),
        sa.Column("late_minutes", sa.Integer(), nullable=True),
        sa.Column("state", sa.String(length=12), nullable=False),
        sa.Column("sequence", sa.Integer(), nullable=False),
        sa.Column("drawn", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("clock_started_at", sa.DateTime(), nullable=True),
        sa.Column("clock_paused_at", sa.DateTime(), nullable=True),
        sa.Column("paused_seconds", sa.Float(), server_default=sa.text("0"), nullable=False),
        sa.Column("opened_at", sa.DateTime(), nullable=False),
        sa.Column("opened_by", sa.String(length=120), nullable=False),
        sa.Column("opened_by_key_id", sa.Integer(), nullable=True),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("places", sa.JSON(), nullable=True),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("report_problems", sa.JSON(), nullable=True),
        sa.CheckConstraint("state IN ('open', 'finished', 'reported')", name=op.f("ck_nights_state")),
        sa.ForeignKeyConstraint(["venue_id"], ["venues.id"], name=op.f("fk_nights_venue_id_venues")),
        sa.ForeignKeyConstraint(["season_id"], ["seasons.id"], name=op.f("fk_nights_season_id_seasons")),
        sa.ForeignKeyConstraint(
            ["structure_id"], ["structures.id"], name=op.f("fk_nights_structure_id_structures")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name=op.f("fk_nights_tournament_id_tournaments")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_nights")),
        sa.UniqueConstraint("venue_id", "date", "session", name=op.f("uq_nights_venue_id_date_session")),
    )
    op.create_index(op.f("ix_nights_venue_id"), "nights", ["venue_id"])
    op.create_index(op.f("ix_nights_season_id"), "nights", ["season_id"])

    op.create_table(
        "night_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("night_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=True),
        sa.Column("seat_no", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=24), nullable=False),
        sa.Column("out_hand", sa.Integer(), nullable=True),
        sa.Column("out_rank", sa.Integer(), nullable=True),
        sa.Column("chips_before", sa.Integer(), nullable=True),
        sa.Column("knocked_out_by_id", sa.Integer(), nullable=True),
        sa.Column("late", sa.Boolean(), nullable=False),
        sa.Column("re_entered", sa.Boolean(), nullable=False),
        sa.Column("override_reason", sa.Text(), nullable=True),
        sa.Column("signed_in_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint(
            "status IN ('playing', 'out', 'declared_withdrawal', 'absent', 'no_show')",
            name=op.f("ck_night_entries_status"),
        ),
        sa.ForeignKeyConstraint(["night_id"], ["nights.id"], name=op.f("fk_night_entries_night_id_nights")),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_night_entries_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["knocked_out_by_id"], ["players.id"], name=op.f("fk_night_entries_knocked_out_by_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_night_entries")),
        sa.UniqueConstraint("night_id", "player_id", name=op.f("uq_night_entries_night_id_player_id")),
    )
    op.create_index(op.f("ix_night_entries_night_id"), "night_entries", ["night_id"])
    op.create_index(op.f("ix_night_entries_player_id"), "night_entries", ["player_id"])
    op.create_index(
        "ux_night_entries_seat",
        "night_entries",
        ["night_id", "table_no", "seat_no"],
        unique=True,
        sqlite_where=PLAYING,
        postgresql_where=PLAYING,
    )

    op.create_table(
        "night_actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("night_id", sa.Integer(), nullable=False),
        sa.Column("action_id", sa.String(length=64), nullable=False),
        sa.Column("sequence", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("effect", sa.JSON(), nullable=False),
        sa.Column("undone_at", sa.Integer(), nullable=True),
        sa.Column("actor", sa.String(length=120), nullable=False),
        sa.Column("actor_key_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["night_id"], ["nights.id"], name=op.f("fk_night_actions_night_id_nights")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_night_actions")),
        sa.UniqueConstraint("night_id", "action_id", name=op.f("uq_night_actions_night_id_action_id")),
        sa.UniqueConstraint("night_id", "sequence", name=op.f("uq_night_actions_night_id_sequence")),
    )
    op.create_index(op.f("ix_night_actions_night_id"), "night_actions", ["night_id"])


def downgrade() -> None:
    op.drop_table("night_actions")
    op.drop_index("ux_night_entries_seat", table_name="night_entries")
    op.drop_table("night_entries")
    op.drop_table("nights")
    op.drop_column("league_settings", "structure_id")
    for column in ("late_minutes", "late_after_level", "structure_id", "table_size"):
        op.drop_column("venues", column)
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS data_version_structures ON structures")
    op.drop_table("structures")
