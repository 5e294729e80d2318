"""Fixtures of the migration tests: each test gets its own empty database of each backend."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Connection, Engine

from models.infra.db import make_engine
from models.infra.migrate import alembic_config, upgrade
from tests.support.databases import ScratchDatabases


@pytest.fixture()
def empty_url(backend: str, scratch: ScratchDatabases) -> Iterator[str]:
    """A new, empty database of the backend, for this test only."""
    url = scratch.create(backend)
    yield url
    scratch.discard(url)


@pytest.fixture()
def empty_engine(empty_url: str) -> Iterator[Engine]:
    engine = make_engine(empty_url)
    yield engine
    engine.dispose()


@pytest.fixture()
def migrated(empty_url: str, empty_engine: Engine) -> Iterator[Connection]:
    """A connection to a database the migrations brought to head."""
    upgrade(alembic_config(empty_url))
    with empty_engine.connect() as conn:
        yield conn
