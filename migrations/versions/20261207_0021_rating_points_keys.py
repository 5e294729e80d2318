"""rating_points without the foreign keys to players and venues (R20's per-report cost)

A rated report writes one history point per rated entrant, and on PostgreSQL each foreign key is
a check per row: with three keys they were three quarters of the write (0.85 of 1.13 ms for a
25-player report, EXPLAIN ANALYZE). The two dropped ones guarded nothing the service relies on:

- venue_id: a venue goes only with its reports (their points go with the report's key, which
  stays, ON DELETE CASCADE), and the venue is copied from the report the point is of;
- player_id: players are deleted only with their reports (the demo's removal), and a merge moves
  results and replays the ratings from the earliest moved one, which deletes every point of the
  merged-away player. After every test a guard compares the history with a rebuild from the
  results, so an orphaned point would fail the test that left it.

The index on player_id stays (a player's history is read by it). On SQLite the table is rebuilt
without the keys; nothing refers to it, so nothing cascades, and its data-version triggers (0008),
which go with the old table, are made again.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-07 09:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BUMP = "UPDATE data_version SET version = version + 1 WHERE id = 1"
KEYS = {
    "fk_rating_points_player_id_players": (["player_id"], "players"),
    "fk_rating_points_venue_id_venues": (["venue_id"], "venues"),
}


def _sqlite_triggers() -> None:
    for event in ("INSERT", "UPDATE", "DELETE"):
        op.execute(f"DROP TRIGGER IF EXISTS data_version_rating_points_{event.lower()}")
        op.execute(
            f"CREATE TRIGGER data_version_rating_points_{event.lower()} AFTER {event} ON rating_points "
            f"BEGIN {BUMP}; END"
        )


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for name in KEYS:
            op.drop_constraint(name, "rating_points", type_="foreignkey")
        return
    with op.batch_alter_table("rating_points", recreate="always") as batch:
        for name in KEYS:
            batch.drop_constraint(name, type_="foreignkey")
    _sqlite_triggers()


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for name, (columns, table) in KEYS.items():
            op.create_foreign_key(name, "rating_points", table, columns, ["id"], ondelete="CASCADE")
        return
    with op.batch_alter_table("rating_points", recreate="always") as batch:
        for name, (columns, table) in KEYS.items():
            batch.create_foreign_key(name, table, columns, ["id"], ondelete="CASCADE")
    _sqlite_triggers()
