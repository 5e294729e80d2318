"""The rows of the versions every cached value is keyed by (models/freshness/ says how): the data
version, bumped by database triggers with every change to league data in the change's own
transaction (migration 0008), and the scopes' versions (migrations 0022, 0024, 0033). Which
table bumps which scope: models/freshness/tables.py."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Index,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from models.entities.base import Base


class DataVersion(Base):
    __tablename__ = "data_version"
    __table_args__ = (CheckConstraint("id = 1", name="single_row"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # Moves on with every change: each changed row on SQLite, each changing statement on PostgreSQL.
    version: Mapped[int] = mapped_column(BigInteger)
    # A random token, renewed when the database is restored from a backup: versions then repeat,
    # so cached answers of the abandoned timeline must not be taken for the restored one's.
    epoch: Mapped[str] = mapped_column(String(32))


class ScopeVersion(Base):
    """The version of one scope of league data (migrations 0022 and 0024): `league`, `season:S`,
    `venue:S:V` or `report:T` (`Scope` names them), bumped by triggers with every change to the
    rows of that scope. A scope never changed has no row (version 0). Each bump is recorded
    (migration 0037, models/freshness/bumps.py): `seq`, the league-wide counter's number of its
    latest bump, and on PostgreSQL `xact`, the transaction that made it."""

    __tablename__ = "scope_versions"
    __table_args__ = (Index("ix_scope_versions_seq", "seq"), Index("ix_scope_versions_xact", "xact"))

    scope: Mapped[str] = mapped_column(String(80), primary_key=True)
    version: Mapped[int] = mapped_column(BigInteger)
    seq: Mapped[int | None] = mapped_column(BigInteger)
    xact: Mapped[int | None] = mapped_column(BigInteger)
