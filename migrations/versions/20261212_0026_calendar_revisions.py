"""when each scheduled night last changed, and how often, for the calendar feeds (R2a): an event's
DTSTAMP and SEQUENCE, so that a subscribed calendar notices a moved night

- venue_nights.changed_at: when the regular night was written or its sessions changed (rows
  before this migration, and rows written behind the service's back: 2026-01-01, the fixed
  DTSTAMP the feeds gave until now).
- night_stamps: per venue and scheduled date (the date in an event's UID), how many times an
  exception made on that date was added or removed (`sequence`) and when last (`changed_at`).
  Kept when the exception is removed: the night back on its regular date is a newer revision.
  Filled from the exceptions stored now (one revision each, at its creation). Deleted with its
  venue (ON DELETE CASCADE). League data: the data-version triggers of migration 0008; no scoped
  answer reads it (no scope triggers, migration 0022).
- venues.calendar_sequence: how many times the venue's name, city or zone changed (every one of
  its events reads differently): added to each event's SEQUENCE.

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-12 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = "night_stamps"
BUMP = "UPDATE data_version SET version = version + 1 WHERE id = 1"
BEFORE_0026 = "2026-01-01 00:00:00"


def upgrade() -> None:
    # Plain ADD COLUMNs: the tables keep their triggers.
    op.add_column(
        "venue_nights",
        sa.Column("changed_at", sa.DateTime(), server_default=sa.text(f"'{BEFORE_0026}'"), nullable=False),
    )
    op.add_column(
        "venues", sa.Column("calendar_sequence", sa.Integer(), server_default=sa.text("0"), nullable=False)
    )
    op.create_table(
        TABLE,
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("venue_id", sa.Integer(), nullable=False),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("sequence", sa.Integer(), nullable=False),
        sa.Column("changed_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint("sequence >= 0", name=op.f("ck_night_stamps_sequence")),
        sa.ForeignKeyConstraint(
            ["venue_id"], ["venues.id"], name=op.f("fk_night_stamps_venue_id_venues"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_night_stamps")),
        sa.UniqueConstraint("venue_id", "date", name=op.f("uq_night_stamps_venue_id_date")),
    )
    op.execute(
        f"INSERT INTO {TABLE} (venue_id, date, sequence, changed_at)"
        " SELECT venue_id, date, count(*), max(created_at) FROM schedule_exceptions GROUP BY venue_id, date"
    )
    # League data like any other table: its changes move the data version on (migration 0008).
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            f"CREATE TRIGGER data_version_{TABLE} BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE "
            f"ON {TABLE} FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version()"
        )
    else:
        for event in ("INSERT", "UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER data_version_{TABLE}_{event.lower()} AFTER {event} ON {TABLE} "
                f"BEGIN {BUMP}; END"
            )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"DROP TRIGGER IF EXISTS data_version_{TABLE} ON {TABLE}")
    op.drop_table(TABLE)
    op.execute("ALTER TABLE venues DROP COLUMN calendar_sequence")
    op.execute("ALTER TABLE venue_nights DROP COLUMN changed_at")
