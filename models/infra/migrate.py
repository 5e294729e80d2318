"""Run the Alembic migrations in migrations/ against a URL or a connection handed in."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection

from models.infra.db import REPO_ROOT, normalise_url


def alembic_config(url: str | None = None, connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(REPO_ROOT / "migrations"))
    config.set_main_option("file_template", "%%(year)d%%(month).2d%%(day).2d_%%(rev)s_%%(slug)s")
    if url is not None:
        # ConfigParser interpolation: a literal % in a password must be doubled.
        config.set_main_option("sqlalchemy.url", normalise_url(url).replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def upgrade(config: Config, revision: str = "head") -> None:
    command.upgrade(config, revision)


def downgrade(config: Config, revision: str) -> None:
    command.downgrade(config, revision)
