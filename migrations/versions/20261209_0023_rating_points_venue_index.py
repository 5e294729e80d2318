"""rating_points indexed by (venue, player): a region's rating table (R20) reads the players with
a point at one of the region's venues from the index alone, instead of walking every point of the
league (a national league's half a million) after each report.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-09 09:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_rating_points_venue_player", "rating_points", ["venue_id", "player_id"])


def downgrade() -> None:
    op.drop_index("ix_rating_points_venue_player", table_name="rating_points")
