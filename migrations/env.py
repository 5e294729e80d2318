"""Alembic environment: migrates the connection a caller hands in, or DATABASE_URL."""

from __future__ import annotations

import os

from alembic import context

from models.entities import Base
from models.infra.db import default_database_url, make_engine, normalise_url

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    return normalise_url(
        config.get_main_option("sqlalchemy.url") or os.environ.get("DATABASE_URL") or default_database_url()
    )


def _configure(**kwargs: object) -> None:
    context.configure(
        target_metadata=target_metadata,
        render_as_batch=True,  # SQLite cannot ALTER most things: copy-and-move instead
        compare_type=True,
        # Our SQLite connections run real transactions (models/infra/db.py), so a failed migration
        # rolls back whole on SQLite as on PostgreSQL.
        transactional_ddl=True,
        **kwargs,
    )


def run_migrations_offline() -> None:
    _configure(url=_url(), literal_binds=True, dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection=connection)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = make_engine(_url())
    try:
        with engine.connect() as connection:
            _configure(connection=connection)
            with context.begin_transaction():
                context.run_migrations()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
