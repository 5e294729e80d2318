"""knockouts and bounties (R8a)

- results: knocked_out_by_id (who knocked the player out: an entrant of the report who finished
  higher), knockouts (how many this player knocked out in it) and knockout_points (what they
  earned, part of `points`). knocked_out_by_id holds no foreign key (SQLite adds none to a table
  in place, and recreating results would drop its triggers): the report's checks name an
  entrant, and merges move it.
- standing_lines: knockout_points and knockouts, summed like the rest (R10, R11).
- seasons: knockout_points (per player knocked out), bounty (none, venue_leader, last_winner)
  and bounty_points; all off by default, so no result's points move.

Revision ID: 0029
Revises: 0028
Create Date: 2026-12-15 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0029"
down_revision: str | None = "0028"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ZERO = sa.text("0")


def upgrade() -> None:
    op.add_column("results", sa.Column("knocked_out_by_id", sa.Integer(), nullable=True))
    op.add_column("results", sa.Column("knockouts", sa.Integer(), server_default=ZERO, nullable=False))
    op.add_column("results", sa.Column("knockout_points", sa.Integer(), server_default=ZERO, nullable=False))
    op.create_index(op.f("ix_results_knocked_out_by_id"), "results", ["knocked_out_by_id"])
    for name in ("knockout_points", "knockouts"):
        op.add_column("standing_lines", sa.Column(name, sa.Integer(), server_default=ZERO, nullable=False))
    op.add_column("seasons", sa.Column("knockout_points", sa.Integer(), server_default=ZERO, nullable=False))
    op.add_column(
        "seasons", sa.Column("bounty", sa.String(length=20), server_default=sa.text("'none'"), nullable=False)
    )
    op.add_column("seasons", sa.Column("bounty_points", sa.Integer(), server_default=ZERO, nullable=False))


def downgrade() -> None:
    for name in ("bounty_points", "bounty", "knockout_points"):
        op.drop_column("seasons", name)
    for name in ("knockouts", "knockout_points"):
        op.drop_column("standing_lines", name)
    op.drop_index(op.f("ix_results_knocked_out_by_id"), table_name="results")
    for name in ("knockout_points", "knockouts", "knocked_out_by_id"):
        op.drop_column("results", name)
