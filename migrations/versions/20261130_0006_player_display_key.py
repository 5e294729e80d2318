"""players.display_key: the display name normalised, for accent-insensitive search (R5)

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30 09:45:00
"""
import re
import unicodedata
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _key(name: str) -> str:
    """The normalisation of models/rules/players.normalise_name as it was at this revision."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    plain = re.sub(r"[^\w\s]", "", plain)
    return " ".join(plain.split())[:120].rstrip()


def upgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('display_key', sa.String(length=120), nullable=True))
    players = sa.table('players', sa.column('id', sa.Integer), sa.column('display_name', sa.String),
                       sa.column('display_key', sa.String))
    bind = op.get_bind()
    for player_id, name in bind.execute(sa.select(players.c.id, players.c.display_name)).all():
        bind.execute(players.update().where(players.c.id == player_id).values(display_key=_key(name)))
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.alter_column('display_key', existing_type=sa.String(length=120), nullable=False)
        batch_op.create_index(batch_op.f('ix_players_display_key'), ['display_key'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_players_display_key'))
        batch_op.drop_column('display_key')
