"""re-entry as the venue's setting, and the clock the host moves (R22)

- venues: re_entry_allowed (true) and re_entry_until_break (null: at any break; N: at the
  structure's first N breaks, the Nth the last). Plain ADD COLUMNs: the table keeps its triggers.
- nights: the re-entry setting the night was opened with (kept as it was, as its structure and
  late registration are: a later edit never changes a night being played; the nights open
  before this revision keep what they played by, re-entry at any break), and
  clock_moved_seconds, the seconds of play the host's skips and steps back added or took away.

Revision ID: 0036
Revises: 0035
Create Date: 2026-12-20 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0036"
down_revision: str | None = "0035"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    for table in ("venues", "nights"):
        op.add_column(
            table, sa.Column("re_entry_allowed", sa.Boolean(), server_default=sa.true(), nullable=False)
        )
        op.add_column(table, sa.Column("re_entry_until_break", sa.Integer(), nullable=True))
    op.add_column(
        "nights", sa.Column("clock_moved_seconds", sa.Float(), server_default=sa.text("0"), nullable=False)
    )


def downgrade() -> None:
    op.drop_column("nights", "clock_moved_seconds")
    for table in ("nights", "venues"):
        op.drop_column(table, "re_entry_until_break")
        op.drop_column(table, "re_entry_allowed")
