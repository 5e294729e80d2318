"""Fixtures: every database test runs on SQLite and on PostgreSQL, each test in a transaction
that is rolled back (the app's session joins it through savepoints). Only fixtures live here: what
tests import (callers, builders, scratch databases, servers) is in tests/support."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings
from sqlalchemy import Connection, Engine, event
from sqlalchemy.orm import sessionmaker

from api import cache
from app import create_app
from models.infra.db import make_engine
from tests.support.databases import (
    BACKENDS,
    ScratchDatabases,
    assert_ratings_current,
    assert_standing_lines_current,
    give_audit_key,
    rearm_data_version,
    run_deferred_triggers_at_once,
    watch_writes,
    wrote,
)
from tests.support.league import Caller, League, new_key
from tests.support.scheduling import ByModuleAndBackend, longest_first

# Property tests: deterministic in CI (a red CI must be reproducible), exploring anew locally;
# no per-example deadline, since these machines are noisy.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

give_audit_key()

# Every answer of the spec's operations in any test is one the spec lists.
pytest_plugins = ["tests.support.answers_documented"]


TESTS = Path(__file__).resolve().parent
# Folders whose every test carries these markers (docs/testing.md).
FOLDER_MARKS = {"browser": ("browser", "server"), "client": ("node",)}


def pytest_itemcollected(item: pytest.Item) -> None:
    """Marked as each test is collected: before `-m` selects by the markers."""
    folder = item.path.relative_to(TESTS).parts[0] if item.path.is_relative_to(TESTS) else ""
    for name in FOLDER_MARKS.get(folder, ()):
        item.add_marker(name)


@pytest.hookimpl(trylast=True)  # after pytest has grouped the tests by backend
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    longest_first(items)


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> ByModuleAndBackend:
    return ByModuleAndBackend(config, log)


@pytest.fixture(scope="session")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ScratchDatabases]:
    databases = ScratchDatabases(tmp_path_factory)
    yield databases
    databases.drop_all()


@pytest.fixture(scope="session", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="session")
def kept(scratch: ScratchDatabases) -> Iterator[dict[str, Any]]:
    """What the session fixtures below made for each backend, kept for the whole run. pytest makes a
    session fixture of a parameter again whenever the next test has the other parameter, and under
    pytest-xdist (--dist loadscope) a worker goes from one module's SQLite tests to its PostgreSQL
    ones and back to the next module's SQLite tests: each backend's database and app are made once."""
    made: dict[str, Any] = {}
    yield made
    for value in made.values():
        if isinstance(value, Engine):
            value.dispose()


@pytest.fixture(scope="session")
def database_url(backend: str, scratch: ScratchDatabases, kept: dict[str, Any]) -> str:
    """A database of the backend, brought to head by the migrations (never create_all)."""
    key = f"database_url {backend}"
    if key not in kept:
        kept[key] = scratch.migrated(backend)
    return str(kept[key])


@pytest.fixture(scope="session")
def engine(backend: str, database_url: str, kept: dict[str, Any]) -> Engine:
    key = f"engine {backend}"
    if key not in kept:
        kept[key] = make_engine(database_url)
    engine: Engine = kept[key]
    return engine


@pytest.fixture(scope="session")
def base_app(
    backend: str, database_url: str, kept: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> Flask:
    key = f"base_app {backend}"
    if key not in kept:
        # Answers in a store of the embedded kind on either backend (the refresher's is shared).
        answers = str(tmp_path_factory.mktemp(f"answers-{backend}"))
        kept[key] = create_app(
            {"DATABASE_URL": database_url, "TESTING": True, "RATELIMIT_ENABLED": False, "CACHE_DIR": answers}
        )
    app: Flask = kept[key]
    return app


@pytest.fixture()
def connection(engine: Engine) -> Iterator[Connection]:
    with engine.connect() as conn:
        outer = conn.begin()
        watch_writes(conn)
        yield conn
        outer.rollback()


@pytest.fixture()
def app(base_app: Flask, connection: Connection) -> Iterator[Flask]:
    """The app, with every session joined to this test's transaction (commits are savepoints)."""
    db = base_app.extensions["league_db"]
    # Each test's data is rolled back, so its data versions repeat in the next test's.
    with base_app.app_context():
        cache.clear()
    original = db.sessionmaker, db.read_sessionmaker
    db.sessionmaker = db.read_sessionmaker = sessionmaker(
        bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False
    )
    if connection.dialect.name == "postgresql":
        # PostgreSQL moves the data version once per transaction; here each request is a
        # savepoint of the test's one transaction, so each must be able to move it again.
        event.listen(db.sessionmaker, "after_begin", rearm_data_version)
        run_deferred_triggers_at_once(connection)
    yield base_app
    db.sessionmaker, db.read_sessionmaker = original
    # The standings and ratings can only have gone wrong in a test that changed rows: every such
    # test is checked (however it wrote: the app, the CLI, a service, plain SQL on the connection).
    if wrote(connection):
        assert_standing_lines_current(connection)
        assert_ratings_current(connection)


@pytest.fixture()
def db_session(app: Flask) -> Iterator[Any]:
    session = app.extensions["league_db"].sessionmaker()
    yield session
    session.close()


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture()
def runner(app: Flask) -> Any:
    return app.test_cli_runner()


@pytest.fixture()
def public(client: FlaskClient) -> Caller:
    return Caller(client, None)


@pytest.fixture()
def office(app: Flask, client: FlaskClient) -> Caller:
    return Caller(client, new_key(app, "office", name="Office: Test"))


@pytest.fixture()
def host_for(app: Flask, client: FlaskClient) -> Any:
    """host_for(venue_id, ...) -> a Caller with a host key bound to those venues."""

    def make(*venue_ids: int, name: str | None = None) -> Caller:
        return Caller(client, new_key(app, "host", list(venue_ids), name or "Host: Test"))

    return make


@pytest.fixture()
def league(office: Caller) -> League:
    return League(office)
