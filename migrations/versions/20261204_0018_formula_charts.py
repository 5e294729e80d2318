"""points_charts: the `formula` kind (R7): its text as written and the preset it came from

- points_charts.formula (up to 500 characters) and points_charts.preset (null: the league's own).
- The kind's constraint takes `formula` too; a formula chart must have its formula and a fraction
  in (0, 1] (which gives k).

Existing charts are kept as they are. On SQLite the table is not copied and moved (batch mode):
dropping the old copy would delete every chart's bands (ON DELETE CASCADE) and fail on every
season naming a chart, since SQLite keeps foreign keys on inside a migration's transaction.
Instead the columns are added in place and the CHECK constraints rewritten in the stored CREATE
TABLE text (SQLite's documented way to change constraints that leave the stored rows as they
are: writable_schema, then a new schema_version). The downgrade refuses while a formula chart
exists (the older schema cannot hold it).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-04 09:00:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0018'
down_revision: str | None = '0017'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_KINDS = "kind IN ('top_fraction', 'bands')"
NEW_KINDS = "kind IN ('top_fraction', 'bands', 'formula')"
FORMULA_SETTINGS = (
    "kind <> 'formula' OR (formula IS NOT NULL AND fraction IS NOT NULL AND fraction > 0 AND fraction <= 1)"
)
KIND_CHECK = "CONSTRAINT ck_points_charts_chart_kind CHECK ({kinds})"
SETTINGS_CHECK = f", \n\tCONSTRAINT ck_points_charts_formula_settings CHECK ({FORMULA_SETTINGS})"


def _sqlite_checks(old: str, new: str) -> None:
    """Replace `old` by `new` in points_charts' stored CREATE TABLE text (SQLite)."""
    bind = op.get_bind()
    sql = bind.execute(sa.text("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'points_charts'")).scalar_one()
    if old not in sql:
        raise RuntimeError(f"points_charts has no {old!r}: not the schema this migration expects")
    version = bind.execute(sa.text("PRAGMA schema_version")).scalar_one()
    bind.exec_driver_sql("PRAGMA writable_schema = ON")
    bind.execute(
        sa.text("UPDATE sqlite_master SET sql = :sql WHERE type = 'table' AND name = 'points_charts'"),
        {"sql": sql.replace(old, new)},
    )
    bind.exec_driver_sql(f"PRAGMA schema_version = {int(version) + 1}")
    bind.exec_driver_sql("PRAGMA writable_schema = OFF")
    problems = bind.exec_driver_sql("PRAGMA integrity_check").scalars().all()
    if problems != ["ok"]:
        raise RuntimeError(f"points_charts after its new constraints: {problems}")


def upgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        op.execute("ALTER TABLE points_charts ADD COLUMN formula VARCHAR(500)")
        op.execute("ALTER TABLE points_charts ADD COLUMN preset VARCHAR(20)")
        old = KIND_CHECK.format(kinds=OLD_KINDS)
        _sqlite_checks(old, KIND_CHECK.format(kinds=NEW_KINDS) + SETTINGS_CHECK)
        return
    with op.batch_alter_table('points_charts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('formula', sa.String(length=500), nullable=True))
        batch_op.add_column(sa.Column('preset', sa.String(length=20), nullable=True))
        batch_op.drop_constraint(op.f('ck_points_charts_chart_kind'), type_='check')
        batch_op.create_check_constraint(op.f('ck_points_charts_chart_kind'), NEW_KINDS)
        batch_op.create_check_constraint(op.f('ck_points_charts_formula_settings'), FORMULA_SETTINGS)


def downgrade() -> None:
    kept = op.get_bind().execute(sa.text("SELECT count(*) FROM points_charts WHERE kind = 'formula'")).scalar()
    if kept:
        raise RuntimeError(f"{kept} formula chart(s) exist: the schema before 0018 cannot hold them")
    if op.get_bind().dialect.name == 'sqlite':
        new = KIND_CHECK.format(kinds=NEW_KINDS) + SETTINGS_CHECK
        _sqlite_checks(new, KIND_CHECK.format(kinds=OLD_KINDS))
        op.execute("ALTER TABLE points_charts DROP COLUMN preset")
        op.execute("ALTER TABLE points_charts DROP COLUMN formula")
        return
    with op.batch_alter_table('points_charts', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_points_charts_formula_settings'), type_='check')
        batch_op.drop_constraint(op.f('ck_points_charts_chart_kind'), type_='check')
        batch_op.create_check_constraint(op.f('ck_points_charts_chart_kind'), OLD_KINDS)
        batch_op.drop_column('preset')
        batch_op.drop_column('formula')
