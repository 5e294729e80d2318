"""Declarative base with a constraint naming convention (Alembic and SQLite batch mode need names)."""

from __future__ import annotations

from typing import cast

from sqlalchemy import MetaData, Table
from sqlalchemy.orm import DeclarativeBase

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def table_of(entity: type[Base]) -> Table:
    """An entity's table, for the few hot statements written on tables rather than entities
    (running a statement through the ORM costs more than the database takes to answer it)."""
    return cast(Table, entity.__table__)
