"""points_charts: the `formula` kind (R7): its text as written and the preset it came from

- points_charts.formula (up to 500 characters) and points_charts.preset (null: the league's own).
- The kind's constraint takes `formula` too; a formula chart must have its formula and a fraction
  in (0, 1] (which gives k).

Existing charts are kept as they are. The downgrade refuses while a formula chart exists (the
older schema cannot hold it).

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
FORMULA_SETTINGS = "kind <> 'formula' OR (formula IS NOT NULL AND fraction > 0 AND fraction <= 1)"


def upgrade() -> None:
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
    with op.batch_alter_table('points_charts', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_points_charts_formula_settings'), type_='check')
        batch_op.drop_constraint(op.f('ck_points_charts_chart_kind'), type_='check')
        batch_op.create_check_constraint(op.f('ck_points_charts_chart_kind'), OLD_KINDS)
        batch_op.drop_column('preset')
        batch_op.drop_column('formula')
