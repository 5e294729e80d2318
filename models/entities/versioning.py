"""The league's data version: one row that every change to league data moves on, in the change's
own transaction (database triggers, migration 0008), so cached answers keyed by it are never stale."""

from __future__ import annotations

from sqlalchemy import BigInteger, CheckConstraint, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from models.entities.base import Base

# Tables whose changes are not league data: the version itself, Alembic's bookkeeping, the
# stored answers of idempotent requests (they replay an answer, they are never read as data), and
# the web console's signed-in sessions.
UNVERSIONED_TABLES = frozenset({"data_version", "alembic_version", "idempotent_requests", "console_sessions"})


class DataVersion(Base):
    __tablename__ = "data_version"
    __table_args__ = (CheckConstraint("id = 1", name="single_row"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # Moves on with every change: each changed row on SQLite, each changing statement on PostgreSQL.
    version: Mapped[int] = mapped_column(BigInteger)
    # A random token, renewed when the database is restored from a backup: versions then repeat,
    # so cached answers of the abandoned timeline must not be taken for the restored one's.
    epoch: Mapped[str] = mapped_column(String(32))
