"""the league's site: how dates read for people, and the site's settings (R24)

- league_settings.date_format: a CLDR date pattern or a named style ("EEE d MMM y": Tue 1 Dec
  2026), and league_settings.locale (en_GB): how every page, the console, the emails and the chat
  messages say dates; the API keeps ISO 8601.
- league_settings.site_enabled (on), site_title (the league's name when empty), site_welcome,
  site_accent (#rrggbb, readable on white): the league's own site at /.

Revision ID: 0034
Revises: 0033
Create Date: 2026-12-19 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0034"
down_revision: str | None = "0033"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


COLUMNS = (
    sa.Column("date_format", sa.String(64), nullable=False, server_default="EEE d MMM y"),
    sa.Column("locale", sa.String(32), nullable=False, server_default="en_GB"),
    sa.Column("site_enabled", sa.Boolean(), nullable=False, server_default=sa.true()),
    sa.Column("site_title", sa.String(120), nullable=True),
    sa.Column("site_welcome", sa.String(1000), nullable=True),
    sa.Column("site_accent", sa.String(7), nullable=False, server_default="#1d4ed8"),
)


def upgrade() -> None:
    # Added in place (never a batch's copy of the table: on SQLite that would drop the triggers
    # that move the league's scope when its settings change).
    for column in COLUMNS:
        op.add_column("league_settings", column)


def downgrade() -> None:
    for column in reversed(COLUMNS):
        op.drop_column("league_settings", column.name)
