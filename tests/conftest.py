"""Fixtures: every database test runs on SQLite and on PostgreSQL, each test in a transaction
that is rolled back (the app's session joins it through savepoints)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings
from sqlalchemy import Connection, Engine, create_engine, event, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from app import create_app
from models.actor import SYSTEM
from models.entities import Player, Season, StandingLine
from models.infra.db import make_engine
from models.infra.migrate import alembic_config, upgrade
from models.rules.standings import Line, line_points
from models.services.keys import create_key
from models.services.standing_lines import (
    counted_results,
    line_columns,
    season_tiers,
    stored_lines,
    summed_lines,
)

# Property tests: deterministic in CI (a red CI must be reproducible), exploring anew locally;
# no per-example deadline, since these machines are noisy.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# Every answer of the spec's operations in any test is one the spec lists.
pytest_plugins = ["tests.answers_documented"]

DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


def postgres_admin_url() -> str | None:
    """The PostgreSQL to test on, or None when there is none (then its tests are skipped,
    unless REQUIRE_POSTGRES=1, as in CI, which makes that a failure)."""
    url = os.environ.get("TEST_POSTGRES_URL", DEFAULT_POSTGRES)
    try:
        engine = create_engine(url, connect_args={"connect_timeout": 3})
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        engine.dispose()
        return url
    except Exception as exc:  # noqa: BLE001 - any failure means "no PostgreSQL here"
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            raise RuntimeError(f"REQUIRE_POSTGRES=1 but PostgreSQL at {url} fails: {exc}") from exc
        return None


_PG_ADMIN = postgres_admin_url()
BACKENDS = ["sqlite", "postgresql"]


class ScratchDatabases:
    """Creates empty databases of either kind and drops them afterwards."""

    def __init__(self, tmp_path_factory: pytest.TempPathFactory) -> None:
        self.tmp = tmp_path_factory
        self.created: list[str] = []

    def create(self, backend: str) -> str:
        if backend == "sqlite":
            path = self.tmp.mktemp("db") / "league.db"
            return f"sqlite:///{path}"
        if _PG_ADMIN is None:
            pytest.skip("PostgreSQL is not reachable (set TEST_POSTGRES_URL)")
        name = f"league_test_{uuid.uuid4().hex[:12]}"
        admin = create_engine(_PG_ADMIN, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
        self.created.append(name)
        return make_url(_PG_ADMIN).set(database=name).render_as_string(hide_password=False)

    def drop_all(self) -> None:
        if not self.created or _PG_ADMIN is None:
            return
        admin = create_engine(_PG_ADMIN, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            for name in self.created:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ScratchDatabases]:
    databases = ScratchDatabases(tmp_path_factory)
    yield databases
    databases.drop_all()


@pytest.fixture(scope="session", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="session")
def database_url(backend: str, scratch: ScratchDatabases) -> str:
    """A database of the backend, brought to head by the migrations (never create_all)."""
    url = scratch.create(backend)
    upgrade(alembic_config(url))
    return url


@pytest.fixture(scope="session")
def engine(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture(scope="session")
def base_app(database_url: str) -> Flask:
    return create_app({"DATABASE_URL": database_url, "TESTING": True, "RATELIMIT_ENABLED": False})


@pytest.fixture()
def connection(engine: Engine) -> Iterator[Connection]:
    with engine.connect() as conn:
        outer = conn.begin()
        yield conn
        outer.rollback()


def _rearm_data_version(_session: Any, _transaction: Any, connection: Connection) -> None:
    connection.execute(text("SELECT set_config('league.data_version_moved', '', true)"))


@pytest.fixture()
def app(base_app: Flask, connection: Connection) -> Iterator[Flask]:
    """The app, with every session joined to this test's transaction (commits are savepoints)."""
    db = base_app.extensions["league_db"]
    # Each test's data is rolled back, so its data versions repeat in the next test's.
    base_app.extensions["league_cache"].clear()
    base_app.extensions["league_memo"].clear()
    original = db.sessionmaker, db.read_sessionmaker
    db.sessionmaker = db.read_sessionmaker = sessionmaker(
        bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False
    )
    if connection.dialect.name == "postgresql":
        # PostgreSQL moves the data version once per transaction; here each request is a
        # savepoint of the test's one transaction, so each must be able to move it again.
        event.listen(db.sessionmaker, "after_begin", _rearm_data_version)
    yield base_app
    db.sessionmaker, db.read_sessionmaker = original
    assert_standing_lines_current(connection)


def _canonical(lines: Iterable[tuple[int, list[Line]]]) -> dict[int, list[Line]]:
    """Lines by venue, each line's places in order (the database aggregates them in any order)."""
    return {
        venue: [line._replace(places=",".join(sorted(line.places.split(",")))) for line in venue_lines]
        for venue, venue_lines in lines
    }


def assert_standing_lines_current(connection: Connection) -> None:
    """After every test, whatever it wrote and however (R1, R9-R11): the stored standing lines
    of every season are the ones summed from the results now, their points included."""
    if not connection.in_transaction() or connection.invalidated:
        return
    with Session(bind=connection, join_transaction_mode="create_savepoint") as session:
        for season in session.scalars(select(Season)).all():
            stored = _canonical(stored_lines(session, season))
            summed = _canonical(summed_lines(session, season, counted_results(season)))
            assert stored == summed, f"season {season.id}: the stored standing lines are not the results'"
            tiers = season_tiers(season)
            for points, *line in session.execute(
                select(StandingLine.points, *(c for c in line_columns()))
                .join(Player, Player.id == StandingLine.player_id)
                .where(StandingLine.season_id == season.id)
            ):
                assert points == line_points(Line(*line), tiers), (season.id, line)


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


class Caller:
    """A test client that sends one API key (or none, for the public)."""

    def __init__(self, client: FlaskClient, key: str | None) -> None:
        self.client = client
        self.key = key

    def _headers(self, headers: dict[str, str] | None) -> dict[str, str]:
        merged = dict(headers or {})
        if self.key is not None:
            merged.setdefault("Authorization", f"Bearer {self.key}")
        return merged

    def request(self, method: str, path: str, **kwargs: Any) -> Any:
        kwargs["headers"] = self._headers(kwargs.get("headers"))
        return self.client.open(path, method=method, **kwargs)

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> Any:
        return self.request("POST", path, **kwargs)

    def put(self, path: str, **kwargs: Any) -> Any:
        return self.request("PUT", path, **kwargs)

    def patch(self, path: str, **kwargs: Any) -> Any:
        return self.request("PATCH", path, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> Any:
        return self.request("DELETE", path, **kwargs)


def new_key(app: Flask, role: str, venue_ids: list[int] | None = None, name: str | None = None) -> str:
    session = app.extensions["league_db"].sessionmaker()
    try:
        _key, secret = create_key(session, SYSTEM, name or f"test {role}", role, venue_ids or [])
        session.commit()
    finally:
        session.close()
    return secret


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


class League:
    """Builds league data through the HTTP API as the office would."""

    def __init__(self, office: Caller) -> None:
        self.office = office
        self._n = 0

    def _unique(self, stem: str) -> str:
        self._n += 1
        return f"{stem} {self._n}"

    def _created(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = self.office.post(path, json=body)
        assert response.status_code == 201, response.get_json()
        data: dict[str, Any] = response.get_json()
        return data

    def region(self, **fields: Any) -> dict[str, Any]:
        return self._created("/api/v1/regions", {"name": self._unique("Region"), **fields})

    def venue(self, region_id: int | None = None, **fields: Any) -> dict[str, Any]:
        if region_id is None:
            region_id = self.region()["id"]
        body = {"name": self._unique("Venue"), "region_id": region_id, "city": "Riverton", **fields}
        return self._created("/api/v1/venues", body)

    def season(self, **fields: Any) -> dict[str, Any]:
        body = {
            "name": self._unique("Season"),
            "starts_on": "2026-01-05",
            "ends_on": "2026-03-29",
            **fields,
        }
        return self._created("/api/v1/seasons", body)

    def chart(self, **fields: Any) -> dict[str, Any]:
        body = {"name": self._unique("Chart"), "kind": "top_fraction", **fields}
        return self._created("/api/v1/points-charts", body)

    def player(self, full_name: str | None = None, **fields: Any) -> dict[str, Any]:
        name = full_name or self._unique("Player Person")
        email = fields.pop("email", f"{uuid.uuid4().hex[:10]}@example.org")
        return self._created("/api/v1/players", {"full_name": name, "email": email, **fields})


@pytest.fixture()
def league(office: Caller) -> League:
    return League(office)


def assert_problem(response: Any, status: int, *fields: str, rule: str | None = None) -> dict[str, Any]:
    """The answer is problem+json with this status, naming each field given, and refused by
    exactly the rule given (its `rule`, type and detail all say so)."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == "application/problem+json", response.mimetype
    body: dict[str, Any] = response.get_json(force=True)
    for key in ("type", "title", "status", "detail"):
        assert key in body, body
    assert body["status"] == status
    for field in fields:
        assert field in body.get("errors", {}), (field, body)
    if rule is not None:
        assert body.get("rule") == rule, body
        assert body["type"] == f"urn:pokerleague:problem:{rule}", body
        assert body["detail"].startswith(rule), body
    return body
