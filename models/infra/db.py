"""Engines and sessions, with SQLite set up to behave like the PostgreSQL we run in production."""

from __future__ import annotations

from contextvars import ContextVar
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

# Set by the caller (a write request, a command) before its first query on SQLite.
SQLITE_WRITE_INTENT: ContextVar[bool] = ContextVar("sqlite_write_intent", default=False)


def normalise_url(url: str) -> str:
    """Pin the psycopg 3 driver: the default PostgreSQL driver differs between SQLAlchemy versions."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine of the URL. Its errors never show a statement's parameters (`hide_parameters`):
    they hold personal values (R19), and an error's text may reach the service log."""
    kwargs.setdefault("hide_parameters", True)
    url = normalise_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, **kwargs)
        _setup_sqlite(engine)
        return engine
    return create_engine(url, pool_pre_ping=True, **kwargs)


def _setup_sqlite(engine: Engine) -> None:
    # pysqlite's own transaction handling breaks SAVEPOINT and transactional DDL: take it over
    # (SQLAlchemy's "Serializable isolation / Savepoints / Transactional DDL" recipe), and turn on
    # foreign keys, which SQLite leaves off per connection.
    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA journal_mode=WAL")
        # In WAL mode, NORMAL syncs at checkpoints, not at every commit: a killed process loses
        # nothing and the file never corrupts; only a power cut may lose the last commits.
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        # A deferred transaction that reads and then writes cannot wait for another writer
        # (SQLite answers "database is locked" at once): writes take the lock up front.
        conn.exec_driver_sql("BEGIN IMMEDIATE" if SQLITE_WRITE_INTENT.get() else "BEGIN")


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(bind=engine, expire_on_commit=False)


REPO_ROOT = Path(__file__).resolve().parents[2]


def default_database_url() -> str:
    """The embedded default: an SQLite file under instance/, created on first run."""
    return f"sqlite:///{REPO_ROOT / 'instance' / 'league.db'}"
