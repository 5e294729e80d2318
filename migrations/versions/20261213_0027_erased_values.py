"""erased players' personal values as keyed digests (R21): free text written after an erasure
that names one of them stores "[erased]" in its place

- erased_values: one row per digest (HMAC-SHA256 under a key derived from AUDIT_KEY of a value's
  compact form), written by an erasure. League data: the data-version triggers of migration 0008;
  no scoped answer reads it (no scope triggers, migration 0022).

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-13 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = "erased_values"
BUMP = "UPDATE data_version SET version = version + 1 WHERE id = 1"


def upgrade() -> None:
    op.create_table(
        TABLE,
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("digest", name=op.f("pk_erased_values")),
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
